package engines_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/split"
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
		e := entry.MustNew(nil)
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
	require.EqualError(t, err, `want cbr, seq, explicit or auto, got "magic"`)
}

// TestThreadBoundCoverage: on a program that starts threads in a loop,
// every engine and splitting explores the runs with at most the thread
// bound's threads to the end and says so in the same way: the whole
// bound complete, the thread bound it assumes (cbr.Result.ThreadBound),
// the same reason. With room for the three workers the violation needs,
// each finds it with the same fewest count, qualified in the same way.
// (The view-tuple engine said 2 of 3 contexts complete, the explicit
// engine none.)
func TestThreadBoundCoverage(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "spawnloop.pds"))
	require.NoError(t, err)
	for _, tc := range []struct {
		threads int
		verdict cbr.Verdict
		fewest  map[cbr.Unit]int
	}{
		{3, cbr.Unknown, map[cbr.Unit]int{cbr.Contexts: -1, cbr.Rounds: -1}},
		{5, cbr.Violation, map[cbr.Unit]int{cbr.Contexts: 3, cbr.Rounds: 2}},
	} {
		net, err := frontend.CompileWith("spawnloop.pds", src, frontend.Options{MaxThreads: tc.threads})
		require.NoError(t, err)
		for _, entry := range engines.All {
			for _, s := range []split.Strategy{split.Lazy, split.Eager} {
				name := fmt.Sprintf("%s/%s/%d threads", entry.Name, s, tc.threads)
				if entry.Name == "seq" && s == split.Eager && tc.threads > 3 {
					continue // the eager form takes 90 s here (its guesses of every slot's globals), the lazy form 0.2 s
				}
				unit := entry.Units[0]
				r, err := entry.MustNew(engines.Settings{"split": s.String()}).Analyze(context.Background(), net, cbr.Options{Bound: 3, Unit: unit, All: true})
				require.NoError(t, err, name)
				require.Equal(t, tc.verdict, r.Verdict, name)
				require.Equal(t, tc.fewest[unit], r.Contexts(), name)
				require.Equal(t, 3, r.Complete, name)
				require.Equal(t, tc.threads, r.ThreadBound, name)
				require.ErrorIs(t, r.Limit, cbr.ErrThreadBound, name)
				require.Equal(t, fmt.Sprintf("a start at spawnloop.pds:5:41 would exceed the thread bound of %d threads", tc.threads), r.Reason, name)
			}
		}
	}
}

// TestThreadBoundThenLimit: a limit that cuts the search off after a
// start was cut at the thread bound keeps both in the reason, and the
// coverage its thread bound (the seq engine dropped the thread bound).
// A BDD node limit stops the run at the same point every time.
func TestThreadBoundThenLimit(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "spawnloop.pds"))
	require.NoError(t, err)
	net, err := frontend.CompileWith("spawnloop.pds", src, frontend.Options{MaxThreads: 3})
	require.NoError(t, err)
	e, err := engines.Lookup("seq")
	require.NoError(t, err)
	for _, tc := range []struct {
		s            split.Strategy
		rounds, node int
	}{{split.Eager, 4, 200000}, {split.Lazy, 12, 100000}} {
		r, err := e.MustNew(engines.Settings{"split": tc.s.String()}).Analyze(context.Background(), net,
			cbr.Options{Bound: tc.rounds, Unit: cbr.Rounds, Limits: cbr.Limits{MaxNodes: tc.node}})
		require.NoError(t, err, tc.s)
		require.Equal(t, cbr.Unknown, r.Verdict, tc.s)
		require.ErrorIs(t, r.Limit, cbr.ErrNodeLimit, tc.s)
		require.Equal(t, 3, r.ThreadBound, tc.s)
		require.Less(t, r.Complete, tc.rounds, tc.s)
		require.Equal(t, "BDD node limit reached; a start at spawnloop.pds:5:41 would exceed the thread bound of 3 threads", r.Reason, tc.s)
	}
}

// TestZeroOptions: the zero cbr.Options and the zero engine values are
// the command line's defaults: 4 units of every engine's bound (the seq
// engine analysed 2 rounds), and the lazy form of the sequential
// reduction, the same as its zero Settings.
func TestZeroOptions(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "lostupdate.pds"))
	require.NoError(t, err)
	net, err := frontend.Compile("lostupdate.pds", src)
	require.NoError(t, err)
	for _, entry := range engines.All {
		r, err := entry.MustNew(nil).Analyze(context.Background(), net, cbr.Options{})
		require.NoError(t, err, entry.Name)
		require.Equal(t, cbr.DefaultBound, r.Bound, entry.Name)
	}
	lazy, err := seq.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 2})
	require.NoError(t, err)
	eager, err := seq.Engine{Eager: true}.Analyze(context.Background(), net, cbr.Options{Bound: 2})
	require.NoError(t, err)
	// The eager form's network guesses the globals of every round and
	// schedules the threads itself: more rules than the lazy form's.
	require.Less(t, seq.Figures(lazy).Rules, seq.Figures(eager).Rules)
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
			r, err := entry.MustNew(nil).Analyze(tc.ctx, net, cbr.Options{Bound: 5, Unit: entry.Units[0], Limits: tc.limits})
			require.NoError(t, err, "%s %s", tc.name, entry.Name)
			require.Equal(t, cbr.Unknown, r.Verdict, "%s %s", tc.name, entry.Name)
			require.ErrorIs(t, r.Limit, tc.is, "%s %s", tc.name, entry.Name)
			require.EqualError(t, r.Limit, tc.text, "%s %s", tc.name, entry.Name)
		}
	}
}

// TestNodeLimitDeterministic: a run cut off by a BDD node limit stops at
// the same point in every run, so its output (coverage, counts, the
// violations found) is the same. The limit is decided on an exact count
// of live nodes every 1024 operations, so this holds as long as the
// engines perform the same operations in the same order; iterating over
// a Go map, whose order changes from run to run, broke it (seq's post*
// steps under --max-nodes 2000 on bluetooth.pds were 50 or 51). The
// portfolio (auto, which takes no split) answers with whichever of its
// engines answers first when both can: its answer (verdict, reason,
// coverage, violations) is the same every time, its figures not.
func TestNodeLimitDeterministic(t *testing.T) {
	for _, model := range []string{"bluetooth.pds", "lostupdate.pds", "recursion.pds", "spawn.pds"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", model))
		require.NoError(t, err)
		for _, entry := range engines.All {
			if entry.Name == "explicit" {
				continue // no BDDs
			}
			for _, s := range []split.Strategy{split.Lazy, split.Eager} {
				if entry.Name == "auto" && s == split.Eager {
					continue
				}
				for _, nodes := range []int{1500, 3000, 6000} {
					name := fmt.Sprintf("%s %s/%s %d nodes", model, entry.Name, s, nodes)
					var first string
					for range 4 {
						net, err := frontend.Compile(model, src)
						require.NoError(t, err)
						opts := cbr.Options{Bound: 4, Unit: entry.Units[0], All: true, Limits: cbr.Limits{MaxNodes: nodes}}
						r, err := entry.MustNew(engines.Settings{"split": s.String()}).Analyze(context.Background(), net, opts)
						require.NoError(t, err, name)
						st := r.Stats
						got := fmt.Sprintf("%v %q complete %d; %d tuples %v kept %v; post* %d/%d, %d steps; %d violations",
							r.Verdict, r.Reason, r.Complete, st.ViewTuples, st.TuplesPerLevel, st.KeptPerLevel,
							st.PostStarCalls, st.PostStarShared, st.PostStarSteps, len(r.Violations))
						if entry.Name == "auto" {
							got = fmt.Sprintf("%v %q complete %d; %d violations", r.Verdict, r.Reason, r.Complete, len(r.Violations))
						}
						if first == "" {
							first = got
						}
						require.Equal(t, first, got, name)
					}
				}
			}
		}
	}
}
