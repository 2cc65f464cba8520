package engines_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/frontend"
	"github.com/stretchr/testify/require"
)

// TestTable: every engine of the table, made from the zero settings,
// finds the lost update of examples/lostupdate.pds with the fewest units
// of its own bound (4 contexts; 2 rounds), agrees that fewer are safe,
// and refuses a unit it does not count with an OptionError.
func TestTable(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "lostupdate.pds"))
	require.NoError(t, err)
	fewest := map[cbr.Unit]int{cbr.Contexts: 4, cbr.Rounds: 2}
	for _, entry := range engines.All {
		net, err := frontend.Compile("lostupdate.pds", src)
		require.NoError(t, err)
		e := entry.New(engines.Settings{})
		unit := entry.Units[0]
		k := fewest[unit]
		r, err := e.Analyze(context.Background(), net, cbr.Options{Bound: k, Unit: unit, Traces: true})
		require.NoError(t, err, entry.Name)
		require.Equal(t, cbr.Violation, r.Verdict, entry.Name)
		require.Equal(t, k, r.Contexts(), entry.Name)
		require.NotNil(t, r.Violations[0].Trace, entry.Name)
		require.NoError(t, r.Violations[0].Trace.Check(r.Net, r.Violations[0], unit), entry.Name)
		r, err = e.Analyze(context.Background(), net, cbr.Options{Bound: k - 1, Unit: unit})
		require.NoError(t, err, entry.Name)
		require.Equal(t, cbr.Safe, r.Verdict, entry.Name)
		for _, u := range []cbr.Unit{cbr.Preemptions, cbr.Rounds} {
			if entry.Counts(u) || u == cbr.Rounds && unit == cbr.Rounds {
				continue
			}
			_, err := e.Analyze(context.Background(), net, cbr.Options{Bound: 1, Unit: u})
			var oe *cbr.OptionError
			require.ErrorAs(t, err, &oe, "%s counting %s", entry.Name, u)
			require.Equal(t, "Unit", oe.Option)
		}
	}
	_, err = engines.Lookup("magic")
	require.EqualError(t, err, `want cbr, seq or explicit, got "magic"`)
}

// TestLimitTexts: each limit every engine meets (a deadline, a
// cancellation, the node and the memory limit) reads the same in
// Result.Limit whichever engine met it, and still is the error it wraps
// (errors.Is). The cbr and seq engines met a context's end inside a BDD
// operation ("bdd: context deadline exceeded"), the explicit engine
// outside one ("context deadline exceeded").
func TestLimitTexts(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "bluetooth.pds"))
	require.NoError(t, err)
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		limits cbr.Limits
		is     error
		text   string
	}{
		{"deadline", expired, cbr.Limits{}, context.DeadlineExceeded, "cbr: time limit reached"},
		{"cancelled", cancelled, cbr.Limits{}, context.Canceled, "cbr: cancelled"},
		{"nodes", context.Background(), cbr.Limits{MaxNodes: 1}, cbr.ErrNodeLimit, "cbr: BDD node limit reached"},
		{"memory", context.Background(), cbr.Limits{MaxMemory: 1}, cbr.ErrMemoryLimit, "cbr: memory limit reached"},
	} {
		for _, entry := range engines.All {
			net, err := frontend.Compile("bluetooth.pds", src)
			require.NoError(t, err)
			r, err := entry.New(engines.Settings{}).Analyze(tc.ctx, net, cbr.Options{Bound: 5, Unit: entry.Units[0], Limits: tc.limits})
			require.NoError(t, err, "%s %s", tc.name, entry.Name)
			require.Equal(t, cbr.Unknown, r.Verdict, "%s %s", tc.name, entry.Name)
			require.ErrorIs(t, r.Limit, tc.is, "%s %s", tc.name, entry.Name)
			require.EqualError(t, r.Limit, tc.text, "%s %s", tc.name, entry.Name)
		}
	}
}
