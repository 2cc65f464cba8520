package tuples_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/stretchr/testify/require"
)

// TestConvergence: on random programs (no recursion, so the explicit
// reference is exact) where the search converges at j below the bound,
// the explicit reference with a bound of j+3 reaches no configuration
// that needs more than j contexts. The unbounded search converges too, no
// later, and soundly, at some c; with pruning, a bound of c+1 contexts
// reports convergence at c (the last context's results are split to tell). (Convergence is a sufficient test: with pruning
// off, or tuples that only a union of kept ones covers, the configurations
// can stop growing unnoticed; the test does not ask for the converse.)
//
// Open data: the seeds after the first ones add a global of 2 to 4 bits
// that starts with any value (randnet.Params.OpenBits), named by the seed
// plus 10^12 in messages. Eager splitting and the reference enumerate
// its values, and the reference takes j+3 contexts: wider data costs them
// more than a test of convergence needs (TestDifferential runs 8 bits).
// Runs on open data have a budget of view tuples (convergeRun); a run it
// stops claims nothing and is left out.
func TestConvergence(t *testing.T) {
	seeds := tier.Seeds(t, 20, 200, 60)
	open := tier.Seeds(t, 6, 60, 20)
	converged, convergedOpen := 0, 0
	for n, seed := range append(seeds, open...) {
		p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%3), Procs: 2, Labels: 2 + int(seed%3),
			LocalBits: int(seed % 2), Rules: 3 + int(seed%4), Forks: seed%4 == 0, MaxThreads: 3}
		if n >= len(seeds) {
			p.OpenBits = 2 + int(seed%3)
		}
		net, err := randnet.Generate(seed, p)
		if n >= len(seeds) {
			seed += 1_000_000_000_000
		}
		require.NoError(t, err, "seed %d", seed)
		const k = 4
		for _, s := range []split.Strategy{split.Eager, split.Lazy} {
			for _, prune := range []tuples.Prune{tuples.PruneSubsumed, tuples.PruneIdentical, tuples.PruneNone} {
				r, _ := convergeRun(t, context.Background(), tuples.Engine{Split: s, Prune: prune, SubsumeAfter: -1}, net, cbr.Options{Bound: k, All: true}, p.OpenBits > 0)
				if r.Verdict == cbr.Unknown {
					require.Equal(t, -1, r.Converged, "seed %d: converged although cut off", seed)
					continue
				}
				j := r.Converged
				ref, err := explicit.Explore(net, explicit.Options{Contexts: max(j, k) + 3, MaxDepth: 8, MaxConfigs: 400000})
				if p.OpenBits > 0 && errors.Is(err, explicit.ErrTooManyConfigs) {
					continue // the reference enumerates the open values
				}
				require.NoError(t, err, "seed %d", seed)
				most := 0
				for _, x := range ref.Reached {
					most = max(most, x.Contexts)
				}
				if j >= 0 {
					converged++
					if p.OpenBits > 0 {
						convergedOpen++
					}
					require.LessOrEqual(t, most, j, "seed %d %s prune %s: converged at %d, but a configuration needs %d contexts", seed, s, prune, j, most)
					// The unbounded search reruns the same levels, so it
					// converges as soon; a deadline turns a bug into a failure.
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					u, stopped := convergeRun(t, ctx, tuples.Engine{Split: s, Prune: prune, SubsumeAfter: -1}, net, cbr.Options{Unbounded: true, All: true}, p.OpenBits > 0)
					cancel()
					if stopped {
						continue // past the budget of open data: no answer
					}
					require.Nil(t, u.Limit, "seed %d: the unbounded search did not converge", seed)
					require.Equal(t, r.Verdict, u.Verdict, "seed %d: unbounded verdict", seed)
					if u.Visible != nil {
						// The visible states stopped growing first
						// (TestVisibleConvergence checks such claims); they
						// do at the latest with the configurations.
						require.LessOrEqual(t, u.Visible.Level, j, "seed %d: visible states", seed)
						require.LessOrEqual(t, u.Visible.States, len(ref.Reached), "seed %d", seed)
						continue
					}
					require.LessOrEqual(t, u.Converged, j, "seed %d: unbounded converged later", seed)
					require.GreaterOrEqual(t, u.Converged, 0, "seed %d: unbounded did not converge", seed)
					require.LessOrEqual(t, most, u.Converged, "seed %d: unbounded converged at %d, but a configuration needs %d", seed, u.Converged, most)
					if prune != tuples.PruneNone {
						// A bound of one context more tells it: the k-th
						// context's results are split to see.
						c := u.Converged
						b, stopped := convergeRun(t, context.Background(), tuples.Engine{Split: s, Prune: prune}, net, cbr.Options{Bound: c + 1, All: true}, p.OpenBits > 0)
						if stopped {
							continue
						}
						require.Equal(t, c, b.Converged, "seed %d %s prune %s: within %d contexts", seed, s, prune, c+1)
					}
				}
			}
		}
	}
	require.Positive(t, converged, "no random program converged: the test tests nothing")
	require.Positive(t, convergedOpen, "no random program with open data converged")
	t.Logf("%d runs converged, %d of them on open data", converged, convergedOpen)
}

// convergeBudget is the view tuples a run of TestConvergence on open data
// may make (processed and waiting, as reachcases.TupleBudget counts), and
// the most one eager split may make: without it, eager splitting without
// pruning on a drawn program of the long tier queued tuples past 8 GiB of
// heap within 47 s.
const convergeBudget = 20000

// convergeRun runs e on net; on open data under convergeBudget and
// reachcases.BudgetNodes, reporting whether one of them stopped it (no
// answer).
func convergeRun(t *testing.T, ctx context.Context, e tuples.Engine, net *pds.Network, o cbr.Options, open bool) (*cbr.Result, bool) {
	t.Helper()
	var budget context.CancelCauseFunc
	if open {
		ctx, budget = context.WithCancelCause(ctx)
		defer budget(nil)
		o.Limits.MaxTuples, o.Limits.MaxNodes = convergeBudget, reachcases.BudgetNodes
		o.OnProgress = func(p cbr.Progress) {
			if p.Tuples+p.Queued >= convergeBudget {
				budget(errConvergeBudget)
			}
		}
	}
	r, err := e.Analyze(ctx, net, o)
	require.NoError(t, err)
	stopped := open && r.Limit != nil && (errors.Is(context.Cause(ctx), errConvergeBudget) ||
		errors.Is(r.Limit, cbr.ErrNodeLimit) || errors.Is(r.Limit, cbr.ErrTupleLimit))
	return r, stopped
}

var errConvergeBudget = errors.New("past the budget of view tuples")
