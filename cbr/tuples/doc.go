// Package tuples is the view-tuple engine (engine name "cbr"): the worklist driver of context-bounded reachability: the
// jMoped paper's Algorithm 1 with eager or lazy splitting (package split),
// post* per thread (package symauto), and the verdicts, violations and
// statistics of docs/design.md ("The worklist driver", "Verdicts, output and
// exit status").
//
// # The algorithm
//
// [Analyze] compiles forks into thread slots (pds.Network.WithThreadSlots),
// builds every thread's initial view and the initial tuples (one for lazy,
// one per initial global value for eager), then processes work items (j, i,
// T) in order of increasing j, the number of contexts that reached T, i the
// thread that ran last. For j < k and every thread i' != i it tags the view
// of i' with the start global, saturates it, checks the result for errors
// and targets, and (when j+1 < k) splits it into new items. Breadth-first
// order makes the first violation found one with the fewest contexts. A
// post* whose start globals are all stale yields nothing.
//
// cbr.go holds Algorithm 1 alone (run, expand, postStar, successors,
// citing its lines); what it asks besides sits in files of its own:
// preempt.go answers for what the levels count (contexts or
// preemptions, the type levels), lastlevel.go for the bound's last level
// (KeepLast, the k-th context's split, convergence, the budget of the
// tests), share.go keeps the post* results shared within a level,
// prune.go calls the covered-tuple test (package cbr/tuples/internal/cover) at
// line 10, and finish.go makes the cbr.Result.
//
// Errors are checked on the tagged post* result directly: every accepted
// configuration there belongs to a start global of the tuple's domain,
// where every other view accepts, so an error label on top is a reachable
// violation of thread i' with j+1 contexts. Targets ([pds.Target], CUBA's
// visible states) combine all threads: EXISTS Gs, G. target(G) AND
// top_i'(Gs, G) AND the other threads' conditions at Gs.
//
// # cbr.Limits and verdicts
//
// Analyze runs under pds.Network.M.Run: the context and options.Limits
// (live BDD nodes, memory) stop it promptly, even inside one BDD
// operation, and the network serves again afterwards. cbr.Violation when one
// was found (even if a limit is hit later in an All run); cbr.Unknown when a
// limit cut the search off first, with the limit in cbr.Result.Limit (test it
// with errors.Is: context.DeadlineExceeded, context.Canceled,
// cbr.ErrNodeLimit, cbr.ErrMemoryLimit, cbr.ErrTupleLimit for an eager split refused
// up front, cbr.ErrThreadBound when a thread reached a cutoff label, a start
// beyond the network's thread bound) and Reason saying it in words; cbr.Safe
// otherwise, for the bound in cbr.Result.Bound. The types are package
// engine's, shared by every engine.
//
// # Coverage and convergence
//
// Breadth-first order gives cbr.Result.Complete: when the first item with j
// contexts is taken, every tuple with at most j contexts has been made
// and checked. When no tuple is kept at level j+1 (every successor of the
// items with j contexts stale or pruned), the reachable configurations
// have stopped growing at j (cbr.Result.Converged): by the induction below,
// every configuration reachable with j+1 contexts, hence with any number,
// lies in a tuple kept with at most j. The k-th context's results are
// split and pruned to tell this at k-1 until one of them is kept (then the
// rest need not be). options.Unbounded deepens until convergence, a
// violation or a limit (docs/design.md, "Convergence and coverage").
//
// # Visible states
//
// The configurations of a recursive program may grow for ever (CUBA's
// stefan-2 and stefan-4: the stacks grow without end) while what errors
// and targets are made of stops growing: the visible states, a value of
// the globals with every thread's top of stack (a label, or empty).
// Unbounded runs that count contexts, on networks without locals and
// without forks (a stack symbol is its label; the threads are fixed:
// CUBA's systems and the programs of that shape), also follow the
// visible states T_j reachable within j contexts, and stop with
// cbr.Result.Visible (and the verdict for every bound) at the first k with
//
//	(a) T_{k+1} = T_k: no visible state is new with k+1 contexts, and
//	(b) G ⊆ T_k: every generator is reachable within k contexts,
//
// where G over-approximates the visible states a pop step produces in
// some reachable configuration (CUBA's generators; Liu and Wahl, PLDI
// 2018, and with Reps, TOPLAS 2020). A plateau alone is no proof: a
// stack can grow by a context while every visible state stays the same,
// and a later pop shows what lies below (TestVisiblePlateau: the visible
// states of its system stay the same from 3 to 4 contexts and grow at 5).
//
// Soundness: T_j ⊆ T_k for every j, by induction on j > k. Take a run of
// j+1 contexts, its last context by thread z from c in R_j (the
// configurations within j contexts), so vis(c) ∈ T_k, and some c' in R_k
// with vis(c') = vis(c). Cut z's steps at its pops below the height its
// stack had when the segment began. Within a segment z reads and writes
// only the frames above that height, and its first frame, the top,
// is the same in c' (same visible state): so the same steps run from c',
// in one more context, and every visible state of the segment is in
// T_{k+1} = T_k (a). A pop that ends a segment produces a visible state
// of a reachable configuration, so a generator, in T_k by (b); the next
// segment starts from a configuration d of R_k with that visible state
// and the same argument applies. The other threads do not move, so their
// tops are those of c throughout. Hence every visible state of the run
// is in T_k. Errors are visible (an error label on top) and so are
// CUBA's targets: none found within k+1 contexts means none for any
// number. T_j is read off the tuples kept at levels up to j (every
// configuration with j contexts lies in one, "Subsumed tuples"), at every
// global of a tuple's domain the product of the views' tops there;
// a level is done when the first item of the next is taken, so (a) for k
// is known when the first item with k+1 contexts is taken, and the run
// stops there, having explored k+1 contexts (cbr.Result.Visible.Explored).
//
// G (converge.go, generators) is computed once, when (a) first holds, by
// an explicit search of an abstraction: every stack cut to its top
// genDepth = 2 frames, with a mark that frames may lie below, the frames
// cut off collected per thread; a thread whose one frame left is marked
// runs from each collected frame put below it (with or without more
// frames below). Every concrete step is matched by a step of the
// abstraction from a configuration with the same globals and tops (the
// frames below the kept ones are among those collected), so every
// reachable pop's visible state is among the visible states the
// abstraction's pops produce; the search repeats until no new frame is
// cut off. CUBA's generators (its -z 2) put below a popped frame any
// symbol that some push puts below another, and explore the same cut
// stacks. Frames below the top never change (no locals), so the frames
// collected here are such symbols or frames of the initial stacks: when
// every initial stack has one frame (as in all of CUBA's suite), G here
// is no larger than CUBA's, and the criterion holds no later. It is given up
// (the run goes on as without it) beyond 200,000 abstract configurations.
// TestVisibleConvergence checks every claim against the explicit
// semantics with three more contexts, on random CUBA systems, random
// programs and random members of the plateau's family.
//
// # Counting
//
// cbr.Stats.ViewTuples counts the items taken from the worklist to compute
// their successors (levels 0 to k-1): the figure of the paper's tables.
// PruneIdentical drops a new tuple whose views equal (up to state numbering
// and context levels, symauto.Auto.Canonical) those of a tuple queued at
// the same or a lower level: exact, often much faster, but it changes that
// figure, so the benchmark harness runs with PruneNone; PruneSubsumed,
// below, the default, changes it too.
//
// # Subsumed tuples
//
// PruneSubsumed generalises PruneIdentical from equal tuples to covered
// ones (from the first tuple, or after options.SubsumeAfter kept tuples;
// identical ones before).
// Tuples overlap: a post* result contains the configurations of earlier
// tuples of the same thread, reached again by another interleaving, and
// then its split tuples are new as automata but add little or nothing:
// the tuples kept by PruneIdentical can go on growing, context after
// context, after the reachable configurations have stopped, and with
// subsumption they stop too (docs/benchmarks.md, "Engine notes").
//
// A new tuple T reached with j contexts is restricted to the globals g of
// its domain at which no kept tuple S with at most j contexts has g in its
// domain and every view of T within the same thread's view of S
// (symauto.Auto.Within, a simulation, so a sufficient test); it is dropped
// when nothing is left. Exactness, by induction on j: every configuration
// reachable with j contexts lies in a tuple kept at level j or below.
// Take one reachable with j+1 contexts, the last context by thread z, and
// the configuration c before it, in a kept S (level <= j, thread y last).
// If z != y, S's post* of z computed the successor (kept, or covered at
// level <= j+1). If z == y, the successor is in S as split (y's post* from
// the start globals of one class of a safe partition is closed under y's
// moves), and the globals removed from S were covered at S's level. So
// the reachable configurations, the violations and their fewest contexts
// are unchanged; the random differential test checks all three.
//
// The test itself is package cbr/tuples/internal/cover, which the driver calls
// where line 10 adds a tuple (prune.go): views interned per thread, a
// cheap necessary condition (the labels on top, and the empty stack)
// before any simulation, both computed once per pair of interned views,
// and the kept tuples indexed by domain and, where domains are small, by
// global value (its documentation explains the indexes). The indexes
// change what the test visits, not its result, and so no count.
//
// # The last level
//
// At the last level expanded (k-1 contexts, when the bound counts
// contexts), a test can save only the tuple's own post* calls, one per
// other thread: their results, of the k-th context, are checked for
// errors but never split (options.KeepLast aside), so there is no
// subtree to prune. There the test is first a lookup of an identical
// tuple in the trie of the tuple's domain, and then runs on a budget
// counted in deterministic units of work (trie nodes visited,
// simulations computed, post* calls saved; never time, so that every
// count is the same from run to run): one test stops when it has spent
// about ten post* calls' worth, keeping what it found covered so far,
// and the level's tests stop, but for the lookup, once they have spent
// more than a hundred post* calls' worth beyond what they saved. On small
// models the tests pay and run as before; on the larger ones they stop
// early (docs/benchmarks.md, "Engine notes", has the figures). Not
// testing the last level at all would leave lazy splitting with more
// tuples than eager on small programs; the level below is tested in full,
// since a tuple dropped there also saves its successors' post* calls. The level reached by the k-th context is still tested in
// full, until a tuple is kept (lastLevel.splits), so that convergence is seen
// as before; runs that count preemptions, and unbounded runs, test every
// level in full. Exactness is unchanged: a tuple kept although covered
// adds only reachable configurations.
//
// # Shared post* results
//
// post* of thread i from a tuple depends only on i's view and the tuple's
// domain (line 8 tags the view with the domain's start globals), not on
// the other threads' views. The tuples of one level often share a view
// of a thread and differ in the others': the siblings of one split carry
// the rebased views of the threads that did not run, and interning makes
// equal views one pointer. Every item of a level is queued before the
// first of them is taken (breadth-first order), so the driver counts, when
// it takes that first item, how often each (thread, view, domain) will
// be asked for; a result asked for more than once is kept until its last
// use, with its splits into new views (split.Parts: the classes or start
// globals and the active thread's restricted views; when they depend on
// the other views, one per list of other views, split.Others, which
// siblings mostly share), and only the other
// views' rebasing (split.Splitter.Apply) is done per tuple, once per view
// and class (31 % of the rebasings on the driver below were repeats).
// Interning the new tuples' views then finds the same pointers again:
// symauto.Auto keeps its canonical form and hash. cbr.Stats.PostStarCalls
// still counts every call of the algorithm (the paper's figure);
// cbr.Stats.PostStarShared counts those answered by a kept result, and
// cbr.Stats.PostStarSteps only the steps of results computed. Counting
// preemptions every post* call names its mid-states apart (a level of its
// own), and without pruning views are not interned: nothing is shared
// there. Near a node or memory limit the kept results are dropped first
// (bdd.Manager.OnPressure), so they do not bring a limit closer: the
// bundled example under a limit of 6,000 nodes at 6 contexts stops after
// 60 tuples with them and without (29 in an earlier step that kept every
// result of a level, without the hook).
//
// On Bluetooth v2 with 3 adders and 2 stoppers at 6 contexts (lazy),
// 75,791 of the 91,121 calls are shared (eager: 187,219 of 191,765); the
// post* steps fall from 1.38 million to 241,005, and the run takes half
// the time (docs/benchmarks.md, "Engine notes"). The answers, the traces and every other figure are
// those of a run that computes every call (TestSharedPostStar, on the
// hand-made and random programs).
//
// # Traces
//
// With options.Traces every violation carries a cbr.Trace (cbr.Found.Trace): the
// initial configuration and, context by context, the thread's steps (the
// rule with its source position, the configuration after it), with the
// fewest contexts. It is rebuilt after the search without any explicit
// search (docs/traces.md): each work item keeps its parent and each tuple
// the class of start globals it was split with (split.Tuple.Class); the
// last configuration is chosen in a post* of the violating item's view
// recorded with symauto.Saturation.Record, and each context is walked
// back (symauto.Saturation.Back) through a recorded post* of the parent's
// view, to an initial item. Then cbr.Trace.Check replays it on the
// explicit semantics of package pds/explicit; one that fails is an
// internal error in cbr.Found.TraceErr, never a trace. Traces are built
// after the search under cbr.Grace(ctx): a run cut off by its context
// (a time limit, Ctrl-C) still builds the traces of the violations it
// found, for up to cbr.GraceTime (1 s) more, unless the hard stop that
// cbr.WithHardStop attached to ctx ends first. Traces keep every item
// that has successors alive with its views' BDDs, and cost one post* per
// context of each trace (BenchmarkTraces in package benchmarks measures
// both; docs/benchmarks.md, "Engine notes").
//
// # cbr.Preemptions
//
// With options.Count = cbr.Preemptions the bound counts preempting switches
// (CHESS and Spin; docs/design.md, "Preemption counting"): a switch away
// from a thread that cannot move (no rule at its top has a solution:
// symauto.Space.Enabled; a finished thread; a dormant slot not started;
// an error or cutoff label) is free, and so is the first context. Levels
// count preemptions. Expanding (j, i, T) cuts T by whether i can move
// (symauto.Auto.RestrictMoving): the other threads run from the part where
// it cannot at level j, and the rest is queued as a paid item of level
// j+1 (0-1 breadth first; same-level items first), so the first violation
// found has the fewest preemptions. Levels need not close (free switches
// can chain for ever): SAFE only when every level up to the bound closed,
// else UNKNOWN at a limit, with Reason saying so. Pruning compares the
// last thread too (a kept tuple covers a new one with fewer preemptions,
// or as many and the same last thread), stale start globals are kept, and
// PruneNone is refused. options.Contexts holds the bound; cbr.ZeroBound asks
// for 0 preemptions.
//
// # Hooks
//
// The library never prints: OnProgress after every item, OnViolation for
// every violation, OnTuple for every tuple created (with KeepLast, the
// k-th context's tuples too). [VisibleStates] uses OnTuple to count the
// reachable visible states (globals and every thread's top) per bound.
package tuples
