package tuples_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
)

// TestCutOffKeepsTraces: a run whose context ends right after its first
// violation (as a time limit or Ctrl-C would, with --all) still gives that
// violation its trace, built in the grace period, on every engine; with
// the hard stop already ended (a second Ctrl-C) it gives none, and says
// why.
func TestCutOffKeepsTraces(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "benchmarks", "models", "bluetooth-v2-a3s2.pds"))
	require.NoError(t, err)
	net, err := frontend.Compile("bluetooth-v2-a3s2.pds", src)
	require.NoError(t, err)
	engines := map[string]func(ctx context.Context, stop func(cbr.Found)) (*cbr.Result, error){
		"cbr": func(ctx context.Context, stop func(cbr.Found)) (*cbr.Result, error) {
			return tuples.Engine{}.Analyze(ctx, net, cbr.Options{Bound: 8, All: true, Traces: true, OnViolation: stop})
		},
		"explicit": func(ctx context.Context, stop func(cbr.Found)) (*cbr.Result, error) {
			r, err := states.Engine{}.Analyze(ctx, net, cbr.Options{Bound: 9, All: true, Traces: true, OnViolation: stop})
			return r, err
		},
		"seq": func(ctx context.Context, stop func(cbr.Found)) (*cbr.Result, error) {
			r, err := seq.Engine{}.Analyze(ctx, net, cbr.Options{Bound: 4, All: true, Traces: true, OnViolation: stop})
			return r, err
		},
	}
	for _, name := range []string{"cbr", "explicit", "seq"} {
		run := engines[name]
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			r, err := run(ctx, func(cbr.Found) { cancel() })
			require.NoError(t, err)
			require.Equal(t, cbr.Violation, r.Verdict)
			require.NotEmpty(t, r.Violations)
			for _, f := range r.Violations {
				require.NoError(t, f.TraceErr, f.Label.Name)
				require.NotNil(t, f.Trace, f.Label.Name)
			}

			hard, stopHard := context.WithCancel(t.Context())
			stopHard()
			ctx, cancel = context.WithCancel(cbr.WithHardStop(t.Context(), hard))
			defer cancel()
			r, err = run(ctx, func(cbr.Found) { cancel() })
			require.NoError(t, err)
			require.Equal(t, cbr.Violation, r.Verdict)
			for _, f := range r.Violations {
				require.Nil(t, f.Trace, f.Label.Name)
				require.True(t, cbr.IsLimit(f.TraceErr), "%s: %v", f.Label.Name, f.TraceErr)
			}
		})
	}
}
