package seq_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"
)

// TestHardStopDuringTraces stops the lazy form (Ctrl-C, then the hard
// stop a moment later) at forty points of a run on the 3+2 Bluetooth
// driver within 12 rounds, many of them while it builds the traces of
// what it found: it never panics (reading the values of a run's steps
// after the stop found none, and indexed them: "index out of range [4]
// with length 0" in TestLimitsEveryEngine), and every violation has a
// trace that replays, or a trace error that is the stop's.
func TestHardStopDuringTraces(t *testing.T) {
	tier.SkipUnlessLong(t, "forty runs stopped at different points, 15 to 30 s")
	src, err := os.ReadFile(filepath.Join("..", "..", "benchmarks", "models", "bluetooth-v2-a3s2.pds"))
	require.NoError(t, err)
	for i := range 40 {
		net, err := frontend.Compile("bluetooth-v2-a3s2.pds", src)
		require.NoError(t, err)
		hard, hardStop := context.WithCancel(context.Background())
		ctx, stop := context.WithCancel(hard)
		ctx = cbr.WithHardStop(ctx, hard)
		at := time.Duration(100+(i*7919)%1300) * time.Millisecond
		t1 := time.AfterFunc(at, stop)
		t2 := time.AfterFunc(at+time.Duration(1+(i*31)%60)*time.Millisecond, hardStop)
		r, err := seq.Engine{}.Analyze(ctx, net, cbr.Options{Bound: 12, All: true, Traces: true})
		t1.Stop()
		t2.Stop()
		stop()
		hardStop()
		require.NoError(t, err, "stopped at %v", at)
		for _, v := range r.Violations {
			if v.Trace == nil {
				require.True(t, cbr.IsLimit(v.TraceErr), "stopped at %v: %v", at, v.TraceErr)
				continue
			}
			require.NoError(t, v.Trace.Check(r.Net, v, cbr.Rounds), "stopped at %v", at)
		}
	}
}
