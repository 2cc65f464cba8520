package explicit

import "github.com/cbreach/cbreach/pds"

// Stepper computes the successors of configurations of one network like
// [Successors], remembering the constraints and rule solutions it builds
// across calls, so that an engine searching many configurations can share
// this package's successor function (and only it: the search stays
// Explore's own). Not safe for concurrent use.
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

// Successors is [Successors] with the Stepper's bounds. A failure of the
// BDD manager (a node limit, a cancelled Run) is returned as an error
// instead of successors.
func (s *Stepper) Successors(c Config, thread int) (succ []Config, cutoff, capped bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(bddError)
			if !ok {
				panic(r)
			}
			succ, cutoff, capped, err = nil, false, false, e.err
		}
	}()
	succ, cutoff, capped = successors(s.cs, c, thread, s.maxThreads, s.maxDepth)
	return succ, cutoff, capped, nil
}
