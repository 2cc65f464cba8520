package states_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/stretchr/testify/require"
)

// TestPreemptions: on the hand-over of cmd/cbreach/testdata (ping and pong
// hand over by blocking on assume; the observer sees a value ping holds
// between two of its steps) the fewest preemptions are 1 where the fewest
// contexts are 4: the switches away from a blocked thread and the first
// context are free. Within 0 preemptions it is safe.
func TestPreemptions(t *testing.T) {
	net := compile(t, filepath.Join("..", "..", "cmd", "cbreach", "testdata", "handover.pds"))
	run := func(k int, u cbr.Unit) *cbr.Result {
		r, err := states.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: k, Unit: u, All: true})
		require.NoError(t, err)
		return r
	}
	r := run(cbr.ZeroBound, cbr.Preemptions)
	require.Equal(t, cbr.Safe, r.Verdict)
	require.Equal(t, 0, r.Bound)
	require.Equal(t, cbr.Preemptions, r.Unit)
	r = run(1, cbr.Preemptions)
	require.Equal(t, cbr.Violation, r.Verdict)
	require.Equal(t, 1, r.Contexts())
	require.Zero(t, states.Figures(r).Reduced, "no reduction when counting preemptions")
	r = run(4, cbr.Contexts)
	require.Equal(t, 4, r.Contexts())
	r = run(3, cbr.Contexts)
	require.Equal(t, cbr.Safe, r.Verdict)

	_, err := states.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: cbr.ZeroBound})
	require.Error(t, err, "0 contexts")
}
