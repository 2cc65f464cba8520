package tuples

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples/internal/cover"
	"github.com/cbreach/cbreach/split"
)

// drop reports whether a new tuple is left out (options.Prune, line 10);
// it may also restrict the tuple to fewer globals.
func (a *analysis) drop(t *split.Tuple, level, last int) bool {
	if a.sub == nil {
		return false
	}
	drop, shrunk := a.sub.Check(t, level, last)
	if drop {
		a.res.Stats.Dropped++
	}
	if shrunk {
		a.res.Stats.Shrunk++
	}
	return drop
}

// newPruner returns the covered-tuple test that implements opts.Prune
// (package cover), nil for PruneNone. PruneIdentical is a test that
// never tests subsumption.
func newPruner(m *bdd.Manager, g bdd.VarSet, threads int, opts options) *cover.Kept {
	c := cover.Config{After: cover.Never, Last: -1, Preempt: opts.Unit == cbr.Preemptions}
	switch opts.Prune {
	case PruneNone:
		return nil
	case PruneIdentical:
	default:
		c.After = max(opts.SubsumeAfter, 0)
		c.Last, c.LastLimit, c.LastAllowance = lastTested(opts)
	}
	return cover.New(m, g, threads, c)
}
