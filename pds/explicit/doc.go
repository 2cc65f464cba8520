// Package explicit is cbreach's reference semantics: an explicit-state
// explorer of a [pds.Network] for small models, the oracle the symbolic
// engine (eager and lazy splitting), the front end and the thread-slot
// compilation are tested against (docs/design.md, "Testing the engine").
//
// # What it computes
//
// A [Config] is a concrete global configuration: one value per global
// (hidden ones included) and, per thread, a stack of [Frame]s, each a label
// with the values of its procedure's locals. [Initial] lists the initial
// configurations (one per choice of the "any" initial values);
// [EachInitial] gives them one at a time and [InitialCount] counts them
// exactly, for callers that apply limits to open data of 32 bits or
// more. [Successors] lists the configurations one step of one thread leads to. [Explore]
// enumerates every configuration reachable within k contexts, with the
// fewest contexts that reach it, and the error labels found on top of a
// stack (docs/design.md, "The model"; the jMoped paper, Sections 2.1 to 2.3:
// post*≤k(C0)).
//
// # Why it can be trusted
//
// It reads the rules' relations directly and shares nothing with the
// symbolic engine but the Network itself. Each rule is applied to one
// concrete state by conjoining its relation with constants for the state
// (globals in GCur, the top frame's locals in LCur, zeros in the unused
// bits of the local block) and listing the satisfying values of the output
// copies with bdd.Manager.Enumerate:
//
//	step  <g,(γ,l)>        -> <g',(γ',l')>             (G', L' of γ'.Proc)
//	push  <g,(γ,l)>        -> <g',(γe,l')(γr,l'')>     (G', L' of γe.Proc, L'' of γr.Proc)
//	pop   <g,(γ,l)>        -> <g',ε>, register r       (G', R)
//	      then the return point (γr,lr) below receives r:
//	      Recv(g',r,lr, g'',lr')                       (G', L' of γr.Proc; none: unchanged)
//	fork  <g,(γ,l)>        -> <g',(γ',l')> + thread (child entry, l'')
//	      (G', L' of γ'.Proc, L'' of the child's locals)
//
// Popping the last frame finishes the thread (its stack stays, empty). A
// fork when the configuration already has the maximum number of threads
// moves the thread to n.CutoffLabel(rule), globals and locals unchanged, if
// the fork's relation allows the step at all. A push beyond the depth cap
// is not taken. Error labels and cutoff labels have no rules.
//
// There are no automata, no summaries, no renamings, no quantification
// over sets of states: every state is a plain value, and every reachable
// state is visited. Forks are native here (a new thread is appended), while
// the symbolic engine runs Network.WithThreadSlots; the tests of this
// package check that both agree after projection, on hand-built and random
// networks.
//
// # Contexts
//
// A context is a maximal run of steps of one thread; k contexts allow k-1
// switches, and any thread may run first. The explored states are pairs
// (configuration, last thread); they are processed in buckets of
// increasing context count, breadth first within a bucket: a step by the
// last thread stays in the bucket, a step by another thread goes to the
// next one (if it is <= k). A state is only expanded with the fewest
// contexts it was reached with, which allows everything a larger count
// allows; hence the count recorded when a configuration is first expanded
// is the fewest.
//
// # Cost
//
// Exponential in everything: meant for models with at most a few thousand
// reachable configurations. Options.MaxConfigs turns a blow-up into an
// error, before any initial configuration is built when they alone are
// more. Explore keeps the constant constraints it builds (one per
// valuation met) for the duration of the call.
package explicit
