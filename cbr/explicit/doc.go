// Package explicit is cbreach's explicit-state engine (engine name
// "explicit"): context-bounded reachability of a [pds.Network] by a search
// over concrete configurations, for users whose models are small enough
// to enumerate. It returns the same [engine.Result] as the symbolic
// engine (package cbr), so the two can be compared on any model.
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
// switching", Section 4): a configuration reached again is explored again
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
// testing of multithreaded programs", Section 3): all states reached
// with j contexts are expanded before any reached with j+1; a step by
// the last thread stays in bucket j, a step by another thread goes to
// bucket j+1 (dropped beyond the bound k). Within a bucket the search is
// depth first. So the contexts a configuration is first expanded with are
// the fewest that reach it, a violation is reported with its fewest
// contexts, and the run stops at the first one unless Options.All is set.
// Stats.ConfigsPerLevel gives the coverage of each bound: the
// configurations first reached with j contexts.
//
// # Limits
//
// A push beyond Options.MaxDepth frames is not explored; when that
// happened and no violation was found the verdict is Unknown with
// engine.ErrDepthLimit, never Safe. A start beyond the network's thread
// bound moves the thread to the fork's cutoff label and gives Unknown
// with engine.ErrThreadBound. Limits.MaxMemory bounds an estimate of the
// bytes of the stored states (deterministic) as well as the process's
// memory; the context's deadline and cancellation are checked every 256
// states.
package explicit
