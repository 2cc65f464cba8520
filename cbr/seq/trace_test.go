package seq_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"
)

// TestRandomTraces: on the random programs of the differential test,
// every violation carries a trace, replayed on the explicit semantics with
// exactly its fewest rounds (Analyze checks it before it returns; a trace
// that fails is TraceErr): the lazy form's own, and the eager form's from
// a lazy run (within 1 and 2 rounds), which must agree with it. Open
// data as in TestRandomDifferential: programs with a global of
// reachcases.OpenWidths's bits that starts with any value, whose traces
// start from one of its values.
func TestRandomTraces(t *testing.T) {
	seeds := tier.Seeds(t, 6, 50, 20)
	open, widths := tier.Seeds(t, 3, 6, 4), reachcases.OpenWidths()
	ctx := context.Background()
	var traces, openTraces atomic.Int32
	t.Run("seeds", func(t *testing.T) { // returns when every seed is done
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
				t.Parallel() // each network has a BDD manager of its own
				randomTraces(t, ctx, seed, randomParams(seed), &traces)
			})
		}
		for _, seed := range open {
			p := randomParams(seed)
			p.OpenBits = widths[int(seed%uint64(len(widths)))]
			t.Run(fmt.Sprintf("open/bits=%d/seed=%d", p.OpenBits, seed), func(t *testing.T) {
				t.Parallel()
				randomTraces(t, ctx, seed, p, &openTraces)
			})
		}
	})
	t.Logf("%d traces checked, %d on open data", traces.Load(), openTraces.Load())
	require.Greater(t, int(traces.Load()), len(seeds)/2)
	require.Positive(t, openTraces.Load(), "no trace on open data")
}

// randomTraces is TestRandomTraces on one seed.
func randomTraces(t *testing.T, ctx context.Context, seed uint64, p randnet.Params, traces *atomic.Int32) {
	{
		net, err := randnet.Generate(seed, p)
		require.NoError(t, err)
		for K := 1; K <= 3; K++ {
			for _, run := range []struct{ all, lazy bool }{{true, true}, {false, true}, {true, false}} {
				all := run.all
				if !run.lazy && K == 3 {
					continue
				}
				res, err := seq.Engine{Eager: !run.lazy}.Analyze(ctx, net, cbr.Options{Bound: K, All: all, Traces: true, Limits: cbr.Limits{MaxNodes: 1 << 21}})
				require.NoError(t, err, "seed %d K %d", seed, K)
				if errors.Is(res.Limit, cbr.ErrNodeLimit) {
					continue
				}
				slotted, err := net.WithThreadSlots(net.MaxThreads)
				require.NoError(t, err)
				for _, f := range res.Violations {
					require.NoError(t, f.TraceErr, "seed %d K %d %+v: %s within %d rounds", seed, K, run, f.Label.Name, f.Contexts)
					require.NotNil(t, f.Trace, "seed %d K %d", seed, K)
					traces.Add(1)
					// The check counts rounds: one more or one fewer
					// than the trace holds, or a step left out, fails.
					wrong := f
					wrong.Contexts++
					require.Error(t, f.Trace.Check(slotted, wrong, cbr.Rounds), "seed %d K %d: %d rounds accepted", seed, K, wrong.Contexts)
					if f.Contexts > 1 {
						wrong.Contexts -= 2
						require.Error(t, f.Trace.Check(slotted, wrong, cbr.Rounds), "seed %d K %d: %d rounds accepted", seed, K, wrong.Contexts)
					}
					cut := *f.Trace
					last := cut.Contexts[len(cut.Contexts)-1]
					cut.Contexts = append(append([]cbr.TraceContext(nil), cut.Contexts[:len(cut.Contexts)-1]...),
						cbr.TraceContext{Thread: last.Thread, Steps: last.Steps[:len(last.Steps)-1]})
					require.Error(t, cut.Check(slotted, f, cbr.Rounds), "seed %d K %d: a trace without its last step accepted", seed, K)
				}
			}
		}
	}
}
