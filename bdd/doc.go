// Package bdd is cbreach's only door to BDDs: a thin, typed layer over
// github.com/dalzilio/rudd. Nothing else in the module imports rudd.
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
// # Values and relations
//
// A [Node] is a BDD; a [Vec] is a vector of Nodes, one per bit, least
// significant first, the bit-level circuit of an unsigned integer
// expression. Arithmetic on Vecs (Add, Sub, Mul) is modular in the width of
// the wider operand (the narrower is widened with zeros); [Manager.Assign]
// truncates or widens its right-hand side to the target's width, as the
// input language does. Comparisons are unsigned.
//
// # Errors
//
// rudd reports failures (an exhausted node table, say) by returning nil and
// recording an error on its manager. This package never hands such a nil to
// a caller: the [Manager] records the first error, returns False from then
// on, and callers check [Manager.Err] at their operation boundaries (after a
// saturation step, a split). A node limit reached is reported as an error
// wrapping [ErrNodeLimit].
//
// A Manager is not safe for concurrent use; use one per goroutine.
//
// # Node references
//
// rudd's own reference counting is broken (its counts saturate, and its
// finalizers race with its operations), so this package keeps references
// itself: each node it hands out has one canonical handle, and rudd sees
// the node as referenced until that handle is garbage. refs.go has the
// details; the tests check its invariants on the whole node table.
//
// # rudd's bugs worked around here
//
// Each has a test that catches it without the workaround (the two races
// under the race detector).
//
//   - OPdiff returns the right operand when the left one is false: Diff is
//     And with Not.
//   - Exist with an empty variable set fails and leaves rudd's error set:
//     Exists returns its operand (so does AndExists, via And).
//   - Reference counts saturate at 1023 and the finalizers still decrement,
//     so a node returned that often is freed under live handles; the
//     finalizers run concurrently with unlocked increments: see refs.go.
//   - Replacers are numbered by a global unsynchronized counter: Renaming
//     takes a lock around it.
//   - Label returns the top variable of any node: SetOf checks its bits.
//   - Low and High return counted handles: Support and Size read the node
//     table instead.
package bdd
