// Package states is cbreach's explicit-state engine (engine name
// "explicit"): context-bounded reachability of a [pds.Network] by a search
// over concrete configurations, for users whose models are small enough
// to enumerate. It returns the same [cbr.Result] as the symbolic
// engines (packages cbr/tuples and cbr/seq), so the two can be compared on any model.
//
// # States and caching
//
// A configuration is the values of the globals and every thread's stack,
// each frame a label with its procedure's locals (package pds/explicit's
// Config, whose successor function this engine shares; its search, the
// tests' oracle, stays separate). A state is a configuration together
// with the thread that ran last and the number of contexts used: the
// last thread decides whether the next step starts a new context.
//
// States are cached by the rule for bounded context switching of the Spin
// paper (Holzmann and Florian, "Model checking with bounded context
// switching", Section 2, "The basic algorithm", Figure 3 and cases i to
// iv): a configuration reached again is explored again
// only when reached with fewer switches than ever before by the same last
// thread; reached with as many by another last thread, it is explored
// again too, since the last thread is part of the stored state. The store
// keeps, per configuration, the fewest contexts it was queued with for
// each last thread, in one small record keyed by a compact byte encoding
// of the configuration (the queues hold the keys only).
//
// # Iterative context bounding
//
// The search is ordered by bound as CHESS's iterative context bounding
// (Musuvathi and Qadeer, "Iterative context bounding for systematic
// testing of multithreaded programs", Section 3, Algorithm 1): all states reached
// with j contexts are expanded before any reached with j+1; a step by
// the last thread stays in bucket j, a step by another thread goes to
// bucket j+1 (dropped beyond the bound k). Within a bucket the search is
// depth first. So the contexts a configuration is first expanded with are
// the fewest that reach it, a violation is reported with its fewest
// contexts, and the run stops at the first one unless Options.All is set.
// Stats.ConfigsPerLevel gives the coverage of each bound: the
// configurations first reached with j contexts (that paper's Section 4.4
// measures the same curve).
//
// # Preemptions
//
// With Options.Unit = cbr.Preemptions the buckets count preempting
// switches (CHESS's Algorithm 1, lines 29-39; Spin's Definition 3;
// docs/design.md, "Preemption counting"): a step by another thread than
// the last costs 0 when the last thread cannot move in the configuration
// (no rule at its top has a solution: pds/explicit.Stepper.Enabled; a
// finished thread, an error or cutoff label) or no thread ran yet, else
// 1. A free step stays in the bucket, so the order is 0-1 breadth first
// and the bucket a configuration is first expanded in is its fewest
// preemptions. The reduction below is argued for contexts only and is
// turned off in this mode. It is the reference the symbolic engine's
// preemption counting is tested against.
//
// # Partial-order reduction
//
// A step of thread t is local when the rules of its top label neither
// read nor write a global and start no thread (each relation is "G' = G
// and a relation of the other variables", tested on the BDD once per
// label), and a pop returns into a label whose receive relation is
// local too. Such a step touches t's stack alone. It is invisible when,
// besides, the top it leaves t with is named by no target (and it does
// not finish t when a target asks for a finished thread). The reduction
// is one rule: after an invisible local step of t, only t runs on: the
// state is stored "reduced", and the switches from it are left out
// (Stats.Reduced counts them). A switch from t therefore happens only
// after a step that is not invisible local, or at a state t entered by
// a switch. Engine.NoPOR turns the rule off.
//
// Why it is sound under the bound. Take any run ρ with c contexts that
// reaches a violation or a target, and in it a switch away from t that
// directly follows a maximal block B of invisible local steps of t (B
// ends t's context). Move B to the start of t's next context in ρ, or
// drop it if t never runs again. The steps of the other threads in
// between do not read t's stack, and B reads and writes no global, so
// every step stays enabled with the same effect; B is enabled at its new
// place because t's top frame is the one it had. The switches are the
// same ones at the same places, or fewer when t's context consisted of
// B alone (its neighbours then merge): the new run has at most c
// contexts, never more. After the move every configuration agrees with
// ρ's at the same point but for t's stack, which lags behind by B until
// t runs again, and the final configuration differs only when B was
// dropped, then only in the tops of threads that do not run last. Those
// tops satisfy every target condition the original ones did (the
// condition is Any, since B's last top is named by no target and B does
// not finish t when a target asks for that); an error label on such a
// top was reached by the step that put it there, at the end of a prefix
// of ρ whose last thread is that thread, which the same construction
// preserves. Repeating the move for the last such block first removes
// every switch after an invisible local step, so the reduced search
// meets a run with at most c contexts that exposes the same violation
// or target. Conversely every reduced run is a run: the search never
// reports a violation that does not exist, nor a count of contexts
// below the true fewest. The reduction never moves a step across a
// switch that the bound counts, so it never adds switches, and the
// fewest contexts it reports are exact: no rerun without it is needed.
//
// Caching and loops. A reduced state allows a subset of the moves of
// the same state unreduced, so the store keeps both marks: a reduced
// state is skipped when the same configuration and last thread were
// reached with at most as many contexts either way, an unreduced one
// only when reached unreduced. The bucketed search computes, for every
// (configuration, last thread, reduced) of the reduced graph, the fewest
// contexts that reach it; the run of the argument above is a path in
// that graph, so caching loses nothing, also on cycles of local steps
// (the ignoring problem of Spin's Section 3.1 and 3.3 needs no
// proviso: other threads are never deferred past a state where t
// entered its context or made a global step, and those states are
// expanded in full).
//
// Why not the naive combination. The POR seed (Musuvathi and Qadeer,
// partial-order reduction for context-bounded state exploration, Section
// 1, Figure 1; reproduced in Spin's Section 3.3, Figure 4) shows sleep
// sets under a context bound missing a run: the local step of T1 put to
// sleep after T2 ran first is never woken, although "T2, then T1 to the
// end" needs no more contexts. A reduction that removes switches can
// only be sound when every run it prunes has a replacement with no more
// switches, which is what the argument above establishes; Spin's
// Section 3.3 instead credits two switches to each out-of-order safe
// transition, and the seed's Section 3 tracks happens-before graphs.
// TestPORMissedBug is that program (testdata/sleepset.pds): found with
// the reduction, with the fewest contexts, 2; TestNaiveSleepSetsMiss runs
// the naive combination on it, which finds the violation only with 3.
//
// # Limits
//
// A push beyond Engine.MaxDepth frames is not explored; when that
// happened and no violation was found the verdict is Unknown with
// cbr.ErrDepthLimit, never Safe. A start beyond the network's thread
// bound moves the thread to the fork's cutoff label and gives Unknown
// with cbr.ErrThreadBound. Engine.MaxStateBytes bounds an estimate of
// the bytes of the stored states (deterministic: the run stops at the same
// state every time) and Limits.MaxMemory the process's memory, both with
// cbr.ErrMemoryLimit; the context's deadline and cancellation are
// checked at every state expanded, and the memory every 256 states
// queued or expanded (the search allocates outside BDD operations, which
// check it themselves).
//
// The initial configurations (one per choice of the open initial values)
// are enumerated one at a time (pds/explicit.EachInitial) and queued
// under the same limits from the first one. Every one of them is queued
// before any is expanded, so when their number (counted exactly,
// pds/explicit.InitialCount) times the stored bytes of the first one
// passes MaxStateBytes (or, without it, MaxMemory), the run gives
// Unknown at once with cbr.ErrMemoryLimit and says so: "2^22 initial
// configurations: more than the memory limit allows".
package states
