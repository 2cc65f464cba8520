package cbr

import (
	"math"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
)

// drop reports whether a new tuple is left out (Options.Prune); it may
// also restrict the tuple to fewer globals.
func (a *analysis) drop(t *split.Tuple, level, last int) bool {
	if a.sub == nil {
		return false
	}
	drop, shrunk := a.sub.check(t, level, last)
	if drop {
		a.res.Stats.Dropped++
	}
	if shrunk {
		a.res.Stats.Shrunk++
	}
	return drop
}

// newPruner returns the subsumer that implements opts.Prune, nil for
// PruneNone. PruneIdentical is a subsumer that never tests subsumption.
func newPruner(m *bdd.Manager, g bdd.VarSet, threads int, opts Options) *subsumer {
	var s *subsumer
	switch opts.Prune {
	case PruneNone:
		return nil
	case PruneIdentical:
		s = newSubsumer(m, g, threads, math.MaxInt)
	default:
		s = newSubsumer(m, g, threads, max(opts.SubsumeAfter, 0))
		s.last, s.lastLimit, s.lastAllowance = lastTested(opts)
	}
	s.preempt = opts.Count == Preemptions
	return s
}
