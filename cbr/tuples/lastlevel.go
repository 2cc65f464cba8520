package tuples

import (
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples/internal/cover"
)

// The last level (package documentation, "The last level" and "Coverage
// and convergence"): Algorithm 1 checks the post* results of the k-th
// context (line 8) but, for j = k, goes no further (line 6). The driver
// splits them all the same for OnTuple (options.KeepLast), and until one
// of their tuples is kept, to tell whether the search has converged; the
// covered-tuple test of the level below, the last one expanded, runs on a
// budget.

// lastLevel is what the driver knows of the bound's last level.
type lastLevel struct {
	keep    bool // options.KeepLast: every result is split, for OnTuple
	pruned  bool // pruning can tell a tuple covered (not PruneNone)
	unsplit bool // a changed post* result of the k-th context was not split
}

func newLastLevel(opts options) lastLevel {
	return lastLevel{keep: opts.KeepLast, pruned: opts.Prune != PruneNone}
}

// splits reports whether a post* result of the k-th context is split and
// its tuples pruned, kept being the tuples kept at that level so far:
// with KeepLast; or, to tell whether the search has converged
// (cbr.Result.Converged), when pruning can tell and no tuple of the k-th
// context has been kept yet. One kept tuple there says that the
// configurations still grew, and the rest need not be split; when none
// is kept, every result was split and found covered, and the search has
// converged at k-1. So the test is exact and costs, where the
// configurations still grow, about one split. A result not split is
// recorded (converged).
func (l *lastLevel) splits(kept int) bool {
	if l.keep || l.pruned && kept == 0 {
		return true
	}
	l.unsplit = true
	return false
}

// converged returns the level at which the reachable configurations
// stopped growing, or -1, kept being the tuples kept per level and k the
// bound: the first level j whose successors were all stale or pruned (no
// tuple kept at j+1), provided the search looked at j+1 (within the
// bound, or the k-th context's results split and pruned). Every
// configuration with j+1 contexts then lies in a tuple kept with at most
// j (package documentation, "Subsumed tuples", the same induction), so
// none appears with more. A start cut off at the thread bound never
// converges (the verdict is cbr.Unknown then).
func (l *lastLevel) converged(kept []int, k int) int {
	for j := 0; j < k; j++ {
		if j+1 < len(kept) && kept[j+1] > 0 {
			continue
		}
		if j+1 == k && l.unsplit {
			return -1 // the k-th context's results were not split: cannot tell
		}
		return j
	}
	return -1
}

// lastTested returns the level whose covered-tuple tests run on a budget,
// the last one expanded (-1: none, every level tested in full; counting
// preemptions and in unbounded runs no level is the last expanded), with
// the budget: the limit per test and the allowance of the level's tests,
// in units of work (package documentation, "The last level").
func lastTested(opts options) (level, limit, allowance int) {
	level, limit, allowance = -1, cover.DefaultLastLimit, cover.DefaultLastAllowance
	if opts.Unit == cbr.Contexts && !opts.Unbounded {
		level = opts.Bound - 1
	}
	if opts.lastBudget != nil {
		limit, allowance = opts.lastBudget[0], opts.lastBudget[1]
	}
	return level, limit, allowance
}
