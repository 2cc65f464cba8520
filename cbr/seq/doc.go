// Package seq is cbreach's second symbolic engine: Lal and Reps'
// reduction of context-bounded analysis to the analysis of ONE sequential
// pushdown system ("Reducing concurrent analysis under a context bound to
// sequential analysis", Formal Methods in System Design 35(1), 2009),
// analysed with the same post* as the view-tuple engine (package symauto)
// and a BDD query for the error labels: the eager form of the paper's
// Sections 2 to 5, and the lazy form of its Section 6 (lazy.go).
//
// # The bound: rounds
//
// A round is one context of every thread, in a fixed order T1..Tn; a
// context may be empty. K rounds are the schedules T1 T2 .. Tn T1 T2 .. Tn
// .. repeated K times. A schedule of c contexts fits in c rounds (each of
// its contexts in a round of its own, the other threads idle), and K rounds
// of n threads are at most n*K contexts, so
//
//	SAFE at n*K contexts  ⇒  SAFE at K rounds  ⇒  SAFE at K contexts,
//
// and a violation with c contexts is found within c rounds
// (TestBoundsAgainstCBR checks all three against package cbr/tuples). n counts
// the thread slots: with `start`, pds.Network.WithThreadSlots gives the
// network MaxThreads threads, the i-th started thread in slot i, and a
// dormant slot is a thread whose contexts are empty until its start.
//
// # The construction (Build)
//
// The sequential network has the original procedures, locals and labels,
// one thread, and these globals:
//
//	x@r      for every original global x and round r = 1..K: the values of
//	         round r; x@1 starts with x's initial value
//	x?r      r = 2..K: the guess of the values at the start of round r
//	         (any value, and x@r = x?r in the initial configuration)
//	$thread  the running thread, $round the running round (k of the paper)
//	$err, $errthread, $errround   which error was reached, by whom, when
//
// Its rules (Fig. 1 and Fig. 4 of the paper, with the threads of Section
// 2.3; sched.go builds them, one function per construct):
//
//   - every original rule, as the disjunction over r of the rule on the
//     copies x@r, guarded by $round = r, every other copy unchanged
//     (the paper's "if k = 1 then τ(st, 1) else if k = 2 ...");
//   - at every label: $round := any larger round (a context switch of the
//     running thread; several at once are empty contexts);
//   - at every label, when $thread = j-1: push a scheduler frame $run_j
//     above the current frame, with $thread := j and $round := 1 (the
//     paper's "goto L_{j+1}" as a call, Section 4, so that the stack of
//     thread j-1 stays below, never to be returned to: the return point
//     is a label $dead without rules); $run_j pushes thread j's initial
//     stack above a scheduler frame $after_j, where thread j is when it
//     has finished, with the same switch rules. (Returning into the frame
//     the switch was made from would relate a finished thread's globals
//     to the entry of that frame, a relation that compounds over the
//     threads; $after_j's frame starts with thread j.) A stack of several
//     frames is pushed by a chain of loader labels, an empty one by a
//     frame that pops at once;
//   - the original error labels (and the cutoff labels of a start beyond
//     the thread bound) are no dead ends: when $err = 0 they record
//     themselves, the thread and the round in $err, $errthread, $errround
//     and switch to the next thread (the rest of this thread's contexts
//     are empty);
//   - the checker: when $thread = n (the last thread) and an error is
//     recorded, any label may step to the procedure's `$end` label, an
//     Assert label, under the check that for every r < $errround the last
//     values of round r are the guessed start of round r+1:
//     x@r = x?(r+1). An error of the last thread records itself and
//     checks in the same step.
//
// The query: post* of the initial automaton (Space.Init restricted to
// x@r = x?r), then Auto.Tops of the `$end` labels, the globals projected
// onto ($err, $errthread, $errround) and enumerated (Net.Sites). The
// fewest rounds of an error label are the least $errround+1 with it.
//
// Why this is exact. (⇐) A sequential run reaching `$end` with error e
// recorded in round k by thread i gives a round-robin run of the original
// network: thread 1's contexts are its runs on copies 1..k, and so on;
// the checks say that round r+1 of thread 1 starts where round r of thread
// n ended, for r < k; thread i's context of round k ends at e. Rounds
// after k are not needed (the error is in round k), which is why only
// r < $errround is checked. Threads after i in round k and later did run
// in the sequential run but act on copies that no check of r < k reads,
// except their rounds < k, which the checks confirm. (⇒) Given a
// round-robin run reaching e in round k by thread i, guess x?r = the
// values at the start of round r in that run; each thread runs its
// contexts on the copies in order and switches when its round-k context
// is over (thread i at e); the copies then hold exactly the run's
// round-end values, so every check holds. This is the paper's Theorem 1
// with the error recorded instead of the final state; the cutoff labels
// are handled the same way and make the verdict UNKNOWN
// (cbr.ErrThreadBound), as in the other engines. The round-robin
// reference of the tests (roundRobin in diff_test.go) is this definition
// on the explicit semantics: same verdicts, same sites, same fewest
// rounds.
//
// # One manager of its own
//
// The sequential network has (2K-1) copies of every global; rudd cannot
// add variables to a manager, so the network is built with a pds.Builder
// into a manager of its own, and every original relation (rules and
// receive relations) is moved into it by bdd.Manager.Translate: a walk
// over the relation's nodes with a memo, one if-then-else per node in the
// new manager, with every global copy renamed to its round's copy. This is
// linear in the relation's size, independent of the width of the data,
// and needs nothing but the network (compiling the source again would tie
// the engine to the front ends: CUBA, Boolean programs and randnet build
// networks without one; enumerating relations is exponential in the
// data). The scheduler's variables are Booleans declared first, so they
// come first in the BDD order: every rule tests $round, and a relation
// that picks the copy after reading it would be the product of the
// copies. In the eager form every bound K is a new network: deepening
// over K rebuilds it (the build is the `build` figure of --stats; on the
// examples a few milliseconds to a second, a small part of a run), and
// each network's guesses use what the smaller ones confirmed (below,
// "The guesses from the rounds before"); the lazy form builds one
// network for the bound.
//
// # The BDD order
//
// pds lays out the globals by significance (bdd.Layout): bit 0 of every
// global, then bit 1 of every global, and so on, so that relations
// between variables (x = y, x = y + 1) stay linear in the width. The
// eager network has 2K-1 copies of every global, and what post* carries
// is mostly values read as a whole, compared with their own copies only
// (x@r = x?(r+1), a current value and its entry): the procedure code and
// the counter of the thread slots, small enums and counters. By
// significance the bits of one such value sit apart, with bit 0 of every
// copy of every global between its bit 0 and its bit 1, and a relation
// over the copies keeps the low bits of each open until it reads the high
// ones. The eager form therefore packs (pds.Global.Packed, packs) the
// copies of the hidden globals of the slots and of the globals of at most
// 2 bits: their bits side by side, each global's copies next to each
// other; wider globals keep the order by significance, where packing
// would make a comparison of two of them exponential in their width
// (Vector's 8-bit data: 1.5 s at 2 rounds by significance, past 30 s
// packed). On nested.pds at 2 rounds the peak of the node table fell from
// 8.1M to 3.1M nodes and the time by about 5 times (docs/benchmarks.md,
// "Engine notes"). The lazy form keeps the order by significance.
//
// Every copy of a global keeps the global's order group (pds.Global.Group,
// which the front end derives from the program's relation graph; 0 for
// the other readers), and the local block keeps its group
// (pds.Network.LocalGroup): the groups come one after the other as in the
// original network, so Translate keeps the relative order of a rule's
// variables. The scheduler's Booleans are in group 0, declared first, and
// still come first.
//
// # All sites, or the first
//
// The lazy form runs round by round and reports each label with the
// first round in which a thread reaches it; without Options.All it stops
// after the first thread that does. The eager form deepens: K' = 1, 2,
// ... each a new network. Without Options.All, post* is stopped as soon
// as a `$end` transition gets a label naming an error label (not a
// cutoff); the first K' with one is the fewest rounds, since K'-1 had
// none. (If the stopped automaton accepted no such configuration, post*
// is run again to the end: a safeguard, never needed in the tests.) With
// Options.All every K' runs to the end and reports the labels not
// reported before, each with the round its `$errround` says: the fewest
// within K', hence within the bound. The tests check both paths against
// the round-robin reference.
//
// # The guesses from the rounds before (ends.go)
//
// Deepening gives each network what the smaller ones computed. After a
// complete post* of the network of K' rounds, the sequences of starts it
// confirms are (x?2, ..., x?K', x@K') in the configurations of the last
// thread in round K' ($thread = n, $round = K') with no error recorded
// and every guess confirmed (x@r = x?(r+1), r < K'): the guesses, and
// the end of round K' as the start of round K'+1. They are kept, between
// the networks, as a relation in a manager of their own (confirmed), and
// the network of K'+1 rounds restricts its guesses (x?2, ..., x?(K'+1))
// to them. This is exact. (⇐) only loses sequential runs. (⇒) Take a
// round-robin run whose first error is recorded in round k, with the
// guesses of the proof above (x?r the start of round r). If K' < k, the
// run's first K' rounds are a run of the network of K' rounds, with no
// error recorded and its guesses confirmed, in which the last thread's
// round-K' context ends at the start of round K'+1: the sequence is
// confirmed. If K' >= k, the guesses after round k are not checked and
// may be anything the relation allows: the run of the first k-1 rounds
// followed by empty contexts confirms the run's starts up to round k,
// then the start of round k repeated. Each network is complete before
// it is used: deepening goes on only when post* found no error (without
// All) or ran to the end (with All).
//
// On nested.pds (4 threads; 93 ends of round 1, among the 2^17
// valuations of the globals) the eager form at 2 rounds became about 3
// times faster and its peak node table fell from 2.97 M to 1.95 M nodes.
// With All, the smaller networks cost a little on the small examples
// (lostupdate.pds, 3 rounds: 99 post* steps before, 199 after, within
// milliseconds) and save more on the larger ones (docs/benchmarks.md,
// "Engine notes").
//
// # Eager and lazy, here and in jMoped
//
// The two words mean different things in the two engines. In the
// view-tuple engine (package cbr/tuples, package split, the jMoped paper's
// Section 3.3) eager and lazy are splitting strategies: whether the
// post* result of a thread is split at once into one view tuple per value
// of the globals, or kept symbolic and split only when another thread
// needs it. Both explore the same schedules. Here (the paper's Sections 5
// and 6) eager means that the guesses of the start of every round are
// made up front, for every value, as symbolic constants in the initial
// configuration, so that post* explores every thread from every guessed
// start, reachable or not, and the checks at the end discard the wrong
// ones; lazy (Fig. 5) starts a thread's round r+1 only from values
// that the previous threads actually produced, by running the threads'
// effects in tandem, and explores only reachable values. Eager costs
// summaries over 2K copies of the globals, the |P|^2K of the paper's
// Section 4: fast when the globals are few bits, slow as they grow (a
// thread-slot network of three threads carries 20 bits per round). With
// `start`, every slot is a thread of the round-robin order and its hidden
// globals are guessed too, so that a guess may wake a dormant slot that
// no thread started (the check discards it, after post* explored it;
// "The guesses of the slot globals" below narrows them):
// the eager form's cost grows fast with the slots (race.bp, 2 rounds:
// 15 s with 8 threads, 0.2 s with 2; spawn.pds: over 30 s with 8, 0.5 s
// with 3), which is why a program that starts a bounded number of threads
// gets exactly that many (pds.Builder.ProgramThreads). The lazy form
// wakes a slot only when a thread started it.
//
// # The guesses of the slot globals (hidden.go)
//
// The guesses are symbolic constants over every value (the paper's
// Section 2.2, eager computation), and post* pays for every one, reachable
// or not. The hidden globals of the thread slots ($created, each slot's
// procedure code and carried bits) are written only by a start and a
// wake, which the other rules keep; so the guesses of round r+1 are
// restricted to the values reachable from round r's start (round 1: the
// initial values) in the network abstracted to its hidden globals: every
// rule's and receive relation's projection onto them, the rest quantified
// away, closed reflexively and transitively by squaring (a few bits:
// microseconds). This is exact: the projection of a step of any run is a
// step of the abstraction, so the start of every round of a round-robin
// run satisfies it and the (⇒) direction below keeps its guesses; (⇐)
// only loses sequential runs. It removes guesses such as a slot with a
// procedure code but not yet counted in $created, or a counter that goes
// down between rounds. On nested.pds (4 threads, 11 hidden bits, 6 user
// bits) the eager form at 2 rounds went from over 60 s to about 30 s: the
// guesses of the user globals and the dormant slots that a guess wakes
// remain (docs/benchmarks.md, "Engine notes").
//
// Measured (docs/benchmarks.md, "The seq engine"): on the bundled
// Bluetooth driver within 3 rounds the eager form takes 3.9 s and the
// lazy one 0.05 s; on the Lal-Reps family, the binary search tree and
// Vector (the harness's --engines) the lazy form is 75 to 160 times
// faster where the eager one finishes at all, and the eager one times
// out (60 s) from 3 threads, 2 rounds of the tree and 2 bits of Vector
// on.
//
// # Validity (the lazy form)
//
// The copies of a round that has not started hold no assumption at all,
// not even the validity of their type (the paper's Section 6: the analysis
// "makes no assumptions on the values of Var^i_G when k < i"): the first
// round's automaton quantifies every copy away before its entry, and the
// entry of round k+1 gives x@(k+1) and x?(k+1) their values, the ends of
// the previous threads, which are valid because the network's rules give
// valid values to valid inputs (pds's Validate checks it) and the initial
// values are valid. Conjoining the validity of every copy instead (the
// initial relation of a global with any value) costs an exponential in
// the copies for an enum with unused codes: the layout orders the bits by
// significance, so the validity of one copy spans all bits of lower
// significance of every other global, and the BDD of the validity of c
// copies keeps 2^c nodes between them, in every relation of the run. On
// nested.pds (a 3-valued enum global) the lazy form at 3 rounds went from
// 3.4 s to 0.66 s.
//
// # Traces (the lazy form; trace.go)
//
// With Options.Traces, every violation carries a trace of the network
// with thread slots, replayed on the explicit semantics before it is
// returned (cbr.Trace.Check, counting rounds: the fewest rounds of
// round-robin that hold the trace's contexts in order must be the
// violation's). The analysis keeps every thread's automaton at the start
// of every round and its effect after it; a violation found by thread j
// in round k is rebuilt in three parts:
//
//   - the starts and ends of every thread's rounds: thread j's are read
//     off the configuration with the error on top (the copies of earlier
//     rounds are frozen, so the last configuration holds them all); the
//     others are picked around the cycle of effects that round k started
//     from, forward sets of possible starts from thread j's ends to
//     thread j-1, then one choice per thread backwards so that thread j-1
//     ends where thread j started;
//   - each thread's run: a configuration of its last round with those
//     starts and ends, walked back through a recorded post* of every
//     round (symauto.Saturation.Back) to its initial stack; between two
//     rounds only $round differs (Reassign), so the path continues in
//     the previous round's result;
//   - the schedule: round by round, the threads in order, each with the
//     steps of that round on that round's copies of the globals, empty
//     contexts left out and a thread's consecutive contexts joined.
//
// Every choice is the least one, so the same input gives the same trace.
// A trace costs a recorded post* per thread and round of the run. The
// eager form's one sequential run holds the threads' runs only with
// guessed values for which the checker alone vouches; its violations
// take the traces of a lazy run to their rounds (lazyTraces), which must
// find each with the same fewest rounds: a second check of the one form
// by the other.
//
// # Not here yet
//
// CUBA targets (a visible state needs every thread's top at once, which
// neither form keeps: the eager one has buried the other threads' stacks,
// the lazy one keeps each thread's configurations apart, related only
// through the globals).
package seq
