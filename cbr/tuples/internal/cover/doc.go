// Package cover is the covered-tuple test of the view-tuple engine
// (package cbr/tuples, Engine.Prune): it remembers the view tuples the worklist
// kept, each with the units of the bound that reached it (contexts or
// preemptions) and the thread that ran last, and decides for a new tuple
// whether its configurations all belong to kept ones. The engine calls
// it at line 10 of the jMoped paper's Algorithm 1 (Suwimonteerabuth,
// Esparza, Schwoon, SPIN 2008), before a tuple of split(P) is added to
// the worklist: [Kept.Check] drops a covered tuple, or restricts it to
// the globals where it is not covered.
//
// # The test
//
// A new tuple T reached with j units is restricted to the globals g of
// its domain at which no kept tuple S with at most j units has g in its
// domain and every view of T within the same thread's view of S; it is
// dropped when nothing is left. "Within" is a simulation of one view's
// automaton by the other's, relative to the globals (symauto.Auto.Simulate,
// symauto.Simulation.At): a sufficient test for the inclusion of their
// languages at those globals. A tuple's configurations at a global are
// the product of its views there, so T's configurations at g are then
// S's. That this leaves the reachable configurations, the violations and
// their fewest contexts as they are is proved in package cbr's
// documentation ("Subsumed tuples", by induction on j), and checked by
// its random differential tests against the explicit semantics.
//
// Counting preemptions, the cost of the next switch depends on the last
// thread (whether it can still move), so a kept tuple covers a new one
// only with fewer preemptions, or as many and the same last thread (or
// none, an initial tuple): the view-tuple form of Holzmann and Florian's
// rule (Model Checking with Bounded Context Switching, Section 2) that a
// state revisited with fewer switches than before is explored again.
//
// # Identical tuples
//
// With Config.After = Never (cbr's PruneIdentical), and before After
// tuples are kept, the test is a lookup only: a tuple is dropped when one
// with the same interned views (per thread, structurally: their
// canonical form, symauto.Auto.Canonical) and the same domain was kept
// and covers it.
//
// # Indexes
//
// Views are interned per thread; a cheap necessary condition (the labels
// on top, and the empty stack, at each global) rules out most kept
// tuples before any simulation is computed, and both are computed once
// per pair of interned views (pairs.go), the simulation's answer only at
// the globals a test asks about. Kept tuples are indexed so that the
// test does not scan them all (trie.go): by domain, each group holding a
// trie over the tuples' view ids thread by thread (a prefix of views
// whose conditions leave no global rules out every tuple below it), and,
// when the globals have at most 64 bits and a domain at most 64 values,
// by global value. One walk of a trie serves both (walk.go, Kept.walk):
// over sets of globals, where the conditions are BDDs conjoined along the
// path and a leaf's simulations remove the globals it covers from what
// is left (coverSets); or one global at a time (the point mode,
// coverPoints), where the tops condition is a comparison of label sets at
// that global, the children of a node grouped by their labels there, and
// the simulation is evaluated at it (bdd.Points), with no BDD built. The
// answer is the same whatever the index and the order of the walk: the
// globals left are those no kept tuple covers.
//
// # The last level's budget
//
// At the last level the engine expands (Config.Last), a dropped tuple
// saves only its own post* calls, one per other thread (cbr's package
// documentation, "The last level"). There the test is first the lookup of
// an identical tuple and then runs on a budget counted in deterministic
// units of work (trie nodes visited, simulations computed, post* calls
// saved; never time, so that every count is the same from run to run):
// one test stops at Config.LastLimit, keeping what it found covered so
// far, and the level's tests stop, but for the lookup, once they have
// spent Config.LastAllowance beyond what they saved. Stopping early only
// keeps more tuples, which adds no configuration that is not reachable.
package cover
