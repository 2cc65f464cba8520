package seq_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cbreach/cbreach/benchmarks"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"
)

// TestModelsExpected: every benchmark model with an EXPECTED verdict
// gives, within 1 and 2 rounds (the lazy form also 3), a verdict
// consistent with it under the relation between the bounds (doc.go): a
// model safe for every bound is never a violation; a model whose violation
// needs c contexts is a violation within K rounds when K >= c (with at
// most c rounds), and not one when n*K < c. A run cut off by its time
// limit says nothing (the eager form is slow on wide globals; the test
// reports how many were).
func TestModelsExpected(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "benchmarks", "models", "*.pds"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	maxK := tier.Pick(1, 2)
	decided, cut := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		want, err := benchmarks.ParseExpected(src)
		require.NoError(t, err, f)
		net, err := frontend.Compile(filepath.Base(f), src)
		require.NoError(t, err, f)
		for _, form := range forms {
			upTo := maxK
			if form.lazy {
				upTo++
			}
			for K := 1; K <= upTo; K++ {
				ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
				res, err := seq.Engine{Eager: !form.lazy}.Analyze(ctx, net, cbr.Options{Bound: K, Limits: cbr.Limits{MaxNodes: 4 << 20}})
				cancel()
				require.NoError(t, err, f)
				if res.Verdict == cbr.Unknown {
					cut++
					t.Logf("%s K %d %s: %s", filepath.Base(f), K, form.name, res.Reason)
					continue
				}
				decided++
				n := seq.Figures(res).Threads
				switch {
				case !want.Violation:
					require.Equal(t, cbr.Safe, res.Verdict, "%s K %d %s: expected %s", f, K, form.name, want)
				case K >= want.Contexts:
					require.Equal(t, cbr.Violation, res.Verdict, "%s K %d %s: expected %s", f, K, form.name, want)
					require.LessOrEqual(t, res.Contexts(), want.Contexts, "%s K %d %s", f, K, form.name)
				case n*K < want.Contexts:
					require.Equal(t, cbr.Safe, res.Verdict, "%s K %d %s: expected %s with %d threads", f, K, form.name, want, n)
				case res.Verdict == cbr.Violation:
					// Within K rounds, so with at most n*K contexts, and
					// not with fewer than the expected fewest.
					require.GreaterOrEqual(t, n*res.Contexts(), want.Contexts, "%s K %d %s", f, K, form.name)
				}
			}
		}
	}
	t.Logf("%d runs decided, %d cut off by the time or node limit", decided, cut)
	require.Greater(t, decided, cut)
}
