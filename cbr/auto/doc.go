// Package auto is cbreach's portfolio engine (engine name "auto"): it
// runs the symbolic view-tuple engine (package cbr/tuples, lazy
// splitting, subsumed tuples left out) and the explicit-state engine
// (package cbr/states) side by side, one goroutine each, returns the
// first conclusive answer and stops the other. The two are good at
// different programs: within 4 contexts the explicit engine answers
// first on the bundled examples and two of the binary search trees of
// benchmarks/models, the symbolic engine on Lal and Reps' Bluetooth
// driver with 4 and 5 threads and on the vectors of 8 bits (where the
// explicit one enumerates values), and only the symbolic one past the
// explicit engine's depth limit (docs/design.md, "The portfolio"). It is
// the fourth engine behind the seam of package cbr/engines, and built
// from two others through that seam's vocabulary alone (cbr.Options,
// cbr.Result). The two compete for the processors: the portfolio takes
// about the faster engine's time when each has a core of its own, up to
// twice that when they share one.
//
// # Why the answer is exact
//
// An algorithm portfolio (Gomes and Selman, "Algorithm portfolios",
// Artificial Intelligence 126, 2001) runs several algorithms for one
// problem and takes the first answer; for decision procedures that are
// exact, any answer is the answer, and the portfolio's answer is the
// same whichever member gives it. Both members here are exact within
// the bound:
//
//   - the view-tuple engine computes exactly the configurations
//     reachable within k contexts (the jMoped paper's Theorem 1 for lazy
//     splitting, with package split's proof for the confluence it uses;
//     the pruning of covered tuples is exact: package cbr/tuples,
//     "Subsumed tuples"), breadth first by contexts;
//   - the explicit engine enumerates them (CHESS's iterative context
//     bounding, Spin's state caching for bounded switching), its
//     partial-order reduction leaving out switches without ever losing a
//     violation or lowering a fewest count (package cbr/states,
//     "Partial-order reduction").
//
// Both count the same units (contexts, or preemptions) on the same
// runs and the same thread bound, so a conclusive answer of either, Safe
// or Violation with no limit having cut the search, has the same
// verdict, the same violation sites with the same fewest units, and the
// same coverage (the whole bound, or up to the first violation). The
// random differential tests compare the portfolio with the explicit
// reference semantics like every other engine (internal/testkit/
// reachcases), and this package's tests compare it with both members on
// the bundled examples.
//
// An answer that is not conclusive never wins: the explicit engine's
// Unknown at its depth limit or its memory bound on stored states, or
// either engine's at the thread bound, leaves the decision to the other
// engine's search, which goes on. When both end without a conclusive
// answer (a limit of the user's, or the engines' own), the portfolio
// returns the result that found a violation, else the one that covered
// more of the bound (the symbolic one on ties), with the other engine's
// reason added to its own when they differ: each reason is true of the
// run that gave it.
//
// # Determinism
//
// Which engine answers first depends on timing, and with it the figures
// (view tuples or states) and the traces (each engine makes its own,
// replayed on the explicit semantics before it is returned); the
// verdict, the fewest counts and the coverage do not. When both have
// answered before either was stopped, the symbolic engine's answer is
// returned, so that the whole result is the same wherever both finish.
// Stats.Answered names the engine that answered; the command line's JSON
// says it in "answered".
//
// # One BDD manager per goroutine
//
// The explicit engine uses BDDs during its search: package pds/explicit
// computes the successors of a configuration by conjoining a rule's
// relation with the configuration's values and enumerating the
// solutions, and remembers both, in the network's manager. A manager
// (package bdd, a fork of rudd) is not safe for concurrent use, and
// neither is the network's cache of renamings (pds.Network.Sets). So the
// explicit engine runs on a copy of the network in a manager of its own
// (pds.Network.CopyTo: the same layout, every relation translated by
// bdd.Manager.Translate, procedures, labels and rules of its own
// numbered as the original's), made before either engine starts, since
// Translate reads the original's node table. The symbolic engine keeps
// the original. The two runs then share only what neither writes: the
// frozen BDD layout, the globals, the types. The race detector checks
// it in this package's tests.
//
// The explicit engine's result names the copy's labels, rules and
// targets; the portfolio maps them back by number (Label.ID, Rule.Index,
// the targets' order), so that its result is a result on the network it
// was given, whichever engine answered: violations, traces and Net.
//
// # Limits and hooks
//
// The limits are the portfolio's. The context is both engines': a
// deadline or a cancellation (Ctrl-C) stops both, each at its next BDD
// operation or state, and Analyze returns when both have stopped, so
// that the network's manager is free again. An engine stopped because
// the other answered stops building traces at once (cbr.WithHardStop);
// a run cut off by the caller's context keeps cbr.GraceTime for the
// traces of what it found, as an engine run alone. MaxMemory bounds the
// memory of the process, which both engines check. MaxNodes bounds the
// live nodes of the two node tables together: three quarters for the
// symbolic engine's, a quarter for the explicit engine's (which holds
// the copied relations and the solutions it remembers). The copy is made
// under the explicit engine's share and the context; when it cannot be
// made, the symbolic engine runs alone.
//
// Options.OnProgress and OnViolation are called from the engines'
// goroutines, one call at a time: the progress is the symbolic engine's
// while it runs, then the explicit engine's; each violation site is
// passed once, from the engine that found it first.
package auto
