package states_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/benchmarks"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

func compile(t testing.TB, file string) *pds.Network {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	net, err := frontend.Compile(file, src)
	require.NoError(t, err)
	return net
}

// TestModels: the benchmark models with small state spaces give their
// EXPECTED verdicts and fewest contexts, with and without the reduction,
// at the bound of the benchmarks and one below the fewest contexts.
func TestModels(t *testing.T) {
	cases := []struct {
		model string
		k     int
	}{
		{"bluetooth-v1-a1s1", 3}, {"bluetooth-v1-a1s2", 3}, {"bluetooth-v1-a2s1", 3},
		{"bluetooth-v2-a1s1", 5}, {"bluetooth-v2-a2s1", 5}, {"bluetooth-v2-a1s2", 5},
		{"bluetooth-v3-a1s1", 4}, {"bluetooth-v3-a1s2", 4}, {"bluetooth-v3-a2s1", 4},
	}
	for _, tc := range cases {
		t.Run(tc.model, func(t *testing.T) {
			file := filepath.Join("..", "..", "benchmarks", "models", tc.model+".pds")
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			want, err := benchmarks.ParseExpected(src)
			require.NoError(t, err)
			net := compile(t, file)
			ks := []int{tc.k}
			if want.Violation && want.Contexts > 1 {
				ks = append(ks, want.Contexts-1)
			}
			for _, k := range ks {
				viol, fewest := want.Within(k)
				for _, noPOR := range []bool{false, true} {
					r, err := states.Engine{NoPOR: noPOR}.Analyze(context.Background(), net, cbr.Options{Bound: k})
					require.NoError(t, err)
					if viol {
						require.Equal(t, cbr.Violation, r.Verdict, "k %d no-por %v: %s", k, noPOR, r.Reason)
						require.Equal(t, fewest, r.Contexts(), "k %d no-por %v: fewest contexts", k, noPOR)
					} else {
						require.Equal(t, cbr.Safe, r.Verdict, "k %d no-por %v: %s", k, noPOR, r.Reason)
					}
					t.Logf("k %d no-por %v: %v, %d states, %d configs, %d transitions, %d reduced, %s", k, noPOR, r.Verdict,
						states.Figures(r).States, states.Figures(r).Configs, states.Figures(r).Transitions, states.Figures(r).Reduced, r.Stats.Time)
				}
			}
		})
	}
}

// TestBundledExample: the bundled Bluetooth example agrees with the
// symbolic engine at every bound up to 5.
func TestBundledExample(t *testing.T) {
	net := compile(t, filepath.Join("..", "..", "examples", "bluetooth.pds"))
	for k := 1; k <= 5; k++ {
		want, err := tuples.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: k, All: true})
		require.NoError(t, err)
		got, err := states.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: k, All: true})
		require.NoError(t, err)
		require.Equal(t, want.Verdict, got.Verdict, "k %d", k)
		require.Equal(t, sites(want), sites(got), "k %d", k)
	}
}
