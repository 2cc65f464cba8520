package explicit

import "github.com/cbreach/cbreach/pds"

// Stepper computes the successors of configurations of one network like
// [Successors], remembering the constraints and rule solutions it builds
// across calls, so that an engine searching many configurations can share
// this package's successor function (and only it: the search stays
// Explore's own). Not safe for concurrent use. Its methods return a
// failure of the BDD manager (a node limit, a cancelled Run) as an error,
// with no result.
type Stepper struct {
	cs         *constraints
	maxThreads int
	maxDepth   int
}

// NewStepper returns a Stepper for n with the thread bound and stack depth
// cap of Successors (maxThreads <= 0 means n.MaxThreads, maxDepth <= 0
// DefaultMaxDepth).
func NewStepper(n *pds.Network, maxThreads, maxDepth int) *Stepper {
	return &Stepper{cs: newConstraints(n), maxThreads: maxThreads, maxDepth: maxDepth}
}

// bddFailure turns the panic of a BDD failure into *err; the caller
// returns it with zero results.
func bddFailure(err *error) {
	if r := recover(); r != nil {
		e, ok := r.(bddError)
		if !ok {
			panic(r)
		}
		*err = e.err
	}
}

// Successors is [Successors] with the Stepper's bounds.
func (s *Stepper) Successors(c Config, thread int) (succ []Config, cutoff, capped bool, err error) {
	defer bddFailure(&err)
	succ, _, cutoff, capped = successors(s.cs, c, thread, s.maxThreads, s.maxDepth, nil, false)
	return succ, cutoff, capped, nil
}

// Shared is Successors whose results share the stacks of the threads
// that do not move with c (their frames and locals): they must not be
// modified, nor c while they are used. It copies one thread's stack per
// successor, not all: for a search that only encodes the successors of
// configurations of many threads.
func (s *Stepper) Shared(c Config, thread int) (succ []Config, cutoff, capped bool, err error) {
	defer bddFailure(&err)
	succ, _, cutoff, capped = successors(s.cs, c, thread, s.maxThreads, s.maxDepth, nil, true)
	return succ, cutoff, capped, nil
}

// Rules is Successors with, for each successor, the first rule (in rule
// order) that makes it: for traces, which name the rule of every step.
func (s *Stepper) Rules(c Config, thread int) (succ []Config, rules []*pds.Rule, err error) {
	defer bddFailure(&err)
	succ, rules, _, _ = successors(s.cs, c, thread, s.maxThreads, s.maxDepth, nil, false)
	return succ, rules, nil
}

// By is Successors by one rule of the thread's top: the configurations
// that rule alone makes (for checking the rule a trace names).
func (s *Stepper) By(c Config, thread int, rule *pds.Rule) (succ []Config, err error) {
	defer bddFailure(&err)
	succ, _, _, _ = successors(s.cs, c, thread, s.maxThreads, s.maxDepth, rule, false)
	return succ, nil
}

// Allows reports whether rule takes the thread from c to want: By with
// the enumeration restricted to want's values, so that a step that sets a
// 32-bit variable to any value is checked in one BDD operation rather
// than by listing 2^32 successors.
func (s *Stepper) Allows(c Config, thread int, rule *pds.Rule, want Config) (ok bool, err error) {
	defer bddFailure(&err)
	if thread < 0 || thread >= len(c.Threads) || len(c.Threads[thread]) == 0 {
		return false, nil
	}
	x := newExpansion(s.cs, c, thread, false)
	x.want = &want
	succ, _, _, _ := expand(x, s.maxThreads, s.maxDepth, rule)
	key := want.Key()
	for _, d := range succ {
		if d.Key() == key {
			return true, nil
		}
	}
	// Not among the restricted successors: the plain enumeration decides
	// (a fork past the thread bound moves to its cutoff label, which the
	// restriction to want's values does not describe).
	succ, _, _, _ = successors(s.cs, c, thread, s.maxThreads, s.maxDepth, rule, false)
	for _, d := range succ {
		if d.Key() == key {
			return true, nil
		}
	}
	return false, nil
}

// Enabled reports whether the given thread can move in c: its stack is
// not empty and some rule at its top has a solution for c's globals and
// the top frame's locals (the rule's relation alone: a push beyond the
// depth cap, a start beyond the thread bound and a return whose receive
// relation refuses the value count as moves). This is the "cannot move"
// of preemption counting (cbr.Preemptions): a switch away from a
// thread that is not enabled is free.
func (s *Stepper) Enabled(c Config, thread int) (ok bool, err error) {
	defer bddFailure(&err)
	return enabled(s.cs, c, thread), nil
}

// Enabled is [Stepper.Enabled] for one configuration; it panics on a BDD
// failure, as Successors.
func Enabled(n *pds.Network, c Config, thread int) bool {
	return enabled(newConstraints(n), c, thread)
}
