// Package bdd is cbreach's only door to BDDs: a thin, typed layer over
// its BDD kernel, a fork of github.com/dalzilio/rudd kept in
// internal/third_party/rudd. Nothing else in the module imports the kernel.
//
// # Layout
//
// rudd cannot add variables once a manager exists, so every finite-domain
// variable is declared first, in a [Layout], together with the number of
// copies the algorithms need (current, after a rule, at frame entry, ...).
// [New] then creates the manager with its final variable count.
//
// Bits are interleaved least significant first, and all copies of one bit
// sit next to each other: bit b of copy c of a variable v with C copies is
// BDD variable base(v) + b*C + c. Equalities and renamings between copies
// of a block therefore stay linear in the number of bits (docs/design.md, "BDD
// variable layout").
//
// A layout's user may split the variables into order groups
// ([Layout.Group]): the groups come one after the other, each interleaved
// by significance within. Variables related bit by bit (x == y, x' = y + 1)
// belong to one group, where the interleaving keeps their relations linear;
// variables of different groups are only ever related as wholes, and k
// variables in k groups, each incremented in one relation, cost the sum of
// k increments, not the 2^k nodes a bit boundary that k carries open at
// once cost in one group. The front end derives the groups from the
// program's expressions (frontend/doc.go, "The BDD order"); without groups
// (every Go-built network, the other readers) every variable is in group
// 0, the order by significance across all variables.
//
// # Values and relations
//
// A [Node] is a BDD; a [Vec] is a vector of Nodes, one per bit, least
// significant first, the bit-level circuit of an unsigned integer
// expression. Arithmetic on Vecs (Add, Sub, Mul) is modular in the width of
// the wider operand (the narrower is widened with zeros); [Manager.Assign]
// truncates or widens its right-hand side to the target's width, as the
// input language does. Comparisons are unsigned. For the C reader's
// operators vec.go adds bitwise operations (AndVec, OrVec, XorVec,
// NotVec), shifts by a constant (ShlConst, ShrConst: wiring only) and by a
// variable amount (Shl, Shr: a barrel shifter), unsigned and signed
// division (DivMod, SDivMod: restoring division), sign extension
// (SignExtend, wiring only) and signed comparisons (SLt, SLe, SGt, SGe),
// which read their operands as two's complement numbers.
//
// # Errors and limits
//
// The kernel (internal/third_party/rudd, a fork of rudd; its README says why) reports
// failures by returning nil, recording an error, or aborting an operation
// with a panic that this package recovers. This package never hands a nil
// to a caller: the [Manager] records the first error, returns False from
// then on, and callers check [Manager.Err] at their operation boundaries
// (after a saturation step, a split).
//
// [Manager.Run] scopes a computation: its [Limits] (live nodes, memory)
// and its context are in force while it runs, and afterwards the manager
// serves again (an aborted operation leaves the table consistent). When
// the context is done, the operation under way stops at its next node, so
// a deadline holds inside one large operation (a 32-bit multiplication).
// The node limit is decided on an exact count of the live nodes
// ([Manager.Live]: Go's collector runs, dead handles are released, the
// table is collected) at points that depend only on the number of
// operations, so the same computation stops at the same point in every
// run; inside one operation the table may not grow more than NodeMargin
// nodes past the limit. Errors wrap [ErrNodeLimit], [ErrMemoryLimit] or
// the context's error ([IsLimit]).
//
// A Manager is not safe for concurrent use; use one per goroutine.
//
// # Node references
//
// The kernel keeps no count of the references it hands out; this package
// does: each node it hands out has one canonical handle, and the kernel
// sees the node as referenced until that handle is garbage. Before each
// collection of the kernel's table, this package gives back the nodes
// whose handles Go's collector found dead (weak pointers, no cleanups);
// before the kernel grows its table, it runs Go's collector first, so
// that the table grows on live nodes only. refs.go has the details; the tests check its invariants on the
// whole node table.
//
// # Files
//
// Policy apart from algebra: manager.go holds the [Manager], its [Config]
// and the one door to the kernel that every operation passes; limits.go
// the [Limits], [Manager.Run] and the points where the limits are
// decided; memory.go the memory measurements; refs.go the node
// references. The algebra: ops.go (Boolean operations, quantification,
// renaming), relations.go (bits, values, copies, order), vec.go
// (arithmetic), read.go (counts, enumeration, support, Pick, Meets),
// points.go (evaluation at concrete points), translate.go (between
// managers); layout.go declares the variables.
//
// # rudd's bugs, fixed in the fork or worked around here
//
// Each has a test that catches it.
//
//   - OPdiff returned the right operand when the left one is false: fixed
//     in the fork, and Diff is one OPdiff (no Not, which copies its
//     operand: the kernel has no complement edges).
//   - Exist with an empty variable set fails and leaves rudd's error set:
//     Exists returns its operand (so does AndExists, via And).
//   - Reference counts saturated at 1023 and the finalizers still
//     decremented, concurrently with unlocked increments: the fork counts
//     nothing and this package keeps the counts (refs.go).
//   - A table that cannot grow handed -1 to the recursion under way,
//     corrupting the table: the fork aborts the operation instead.
//   - Replacers are numbered by a global unsynchronized counter: Renaming
//     takes a lock around it.
//   - Label returns the top variable of any node: SetOf checks its bits.
package bdd
