// Package pds is cbreach's program representation: a pushdown network of
// threads that share global variables, each with its own call stack, and
// symbolic rules whose relations are BDDs (docs/design.md, "The model"; the
// jMoped paper, Sections 2.1 and 4.1).
//
// # The model
//
// A stack symbol is a [Label] (a control point of a [Proc]) paired with a
// valuation of that procedure's locals. Locals of every procedure share one
// local block of BDD variables (as in Moped), laid out as a grid: row b
// holds bit b of locals, and each procedure fills every row from slot 0.
// Bits a procedure does not use are zero in every relation. Globals are
// one BDD variable each. The BDD order puts bits of equal significance
// together (bdd.Layout), so bit b of a local sits next to bit b of the
// globals and relations between them stay linear in the width; a global
// marked Packed has its bits side by side instead (the copies of small
// values in package cbr/seq's eager form). A reader that knows which
// globals are related bit by bit may put them into order groups
// (Global.Group, Builder.LocalGroup for the local block, the return
// register and the thread slots), which come one after the other in the
// BDD order; by default every variable is in group 0, the order above.
//
// Each variable has GlobalCopies or LocalCopies copies. Rules use only
// the first ones (GCur, GNext; LCur, LNext, LSaved); the others belong to
// the analysis, which names them (package symauto), except that a
// builder may compose relations through the scratch copies (GScratch,
// LScratch) and quantify them away. Rules use the copies as follows:
//
//	kind  shape          relation                          copies
//	step  γ -> γ'        R(G, L, G', L')                   G GNext L LNext
//	push  γ -> γe γr     R(G, L, G', Le, Lr)               G GNext L LNext(callee) LSaved(caller)
//	pop   γ -> ε         R(G, L, G', R)                    G GNext L ret
//	fork  γ -> γ' ▷ f    R(G, L, G', L', Lc)               G GNext L LNext LSaved(child)
//	recv  (on label γr)  Recv(G, R, L, G', L')             G GNext L LNext ret
//
// The receive relation of a return point stores the returned value into
// the caller's variable as part of the return step (docs/design.md, "Return
// values"); the register R is never a global.
//
// # Building
//
// A [Builder] works in two phases: declarations (globals, procedures,
// locals, labels, threads, spawnable procedures), then [Builder.Manager]
// fixes the BDD layout and rules are added with relations built in that
// manager (helpers: [Network.GlobalVec], [Network.LocalVec],
// [Network.Unchanged], [Network.LocalsUnchanged], ...). [Builder.Build]
// runs [Network.Validate], which every test keeps on: a sanity checker with
// one method per concern (sanity.go, after go/ssa), returning an
// [ErrorList] with the positions of the offending rules and labels.
//
// # Initial configurations
//
// The initial configurations are every valuation of the globals that
// their Init values allow (a constant, or any value), with each thread's
// stack ([Thread].Stack, its frames' locals Init values too). A set of
// global valuations that is no product of per-global values, such as the
// final states of an initialisation that runs before any thread
// (Getafix's init, package frontend/bp), is a relation over copy GCur of
// the globals: [InitGlobals], set by [Network.WithInitial], which also
// replaces the threads' stacks. The relation replaces the Init values of
// the globals it covers (those of the network it was set on; the hidden
// globals WithThreadSlots adds keep theirs): [Network.InitOf].
// [Network.InitRel] is what the symbolic engines start from; package
// pds/explicit's Initial enumerates the relation's valuations (with
// bdd.Manager.Enumerate, never the product of the globals' domains); the
// replay of a trace checks its first configuration against both. An error
// label on top of an initial stack is a violation with 0 contexts.
//
// # Threads and forks
//
// A fork rule stays a fork in the Network; the explicit semantics
// (package pds/explicit) interprets it natively. The symbolic engine runs
// [Network.WithThreadSlots], which compiles forks into steps on hidden
// globals and dormant thread slots (see slots.go for the scheme and why it
// is exact). The number of slots is part of the layout: a reader counts
// the threads the program can have on its control flow ([Flow], flow.go)
// and says it with [Builder.ProgramThreads] before [Builder.Manager]; a
// finite count is the thread bound (unless [Options].MaxThreads is lower),
// an unbounded one (a start in a loop or in recursion) leaves it to
// MaxThreads or [DefaultMaxThreads]. Build counts again on the rules and
// fails if the reader counted too few.
//
// # Printing
//
// [Network.Print] writes a deterministic text form with every relation
// rendered by [Network.FormatRelation], for golden files and --print-rules.
package pds
