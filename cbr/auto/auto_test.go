package auto_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/auto"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

// compile compiles a .pds file named from the module's root.
func compile(t *testing.T, name string) *pds.Network {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	require.NoError(t, err)
	net, err := frontend.Compile(filepath.Base(name), src)
	require.NoError(t, err)
	return net
}

// answer is what a result says that must not depend on the engine that
// answered: the verdict, the coverage and its thread bound, every
// violation site with its fewest units.
func answer(r *cbr.Result) string {
	var sites []string
	for _, f := range r.Violations {
		name := f.Message
		if f.Label != nil {
			name = f.Label.Name
		}
		sites = append(sites, fmt.Sprintf("%s@%d", name, f.Contexts))
	}
	sort.Strings(sites)
	return fmt.Sprintf("%s, complete %d of %d %s with %d threads, fewest %d, sites %v",
		r.Verdict, r.Complete, r.Bound, r.Unit, r.ThreadBound, r.Contexts(), sites)
}

// checkOnNet checks that r is a result on net: its violations name net's
// labels (or the given targets), and their traces replay on r.Net, which
// is net or its slotted network.
func checkOnNet(t *testing.T, name string, net *pds.Network, r *cbr.Result, o cbr.Options) {
	t.Helper()
	require.NotNil(t, r.Net, name)
	if r.Net != net {
		slotted, err := net.WithThreadSlots(net.MaxThreads)
		require.NoError(t, err, name)
		require.Same(t, slotted.Labels[0], r.Net.Labels[0], "%s: Net is neither the network nor its slotted one", name)
	}
	for _, f := range r.Violations {
		if f.Label != nil {
			require.Same(t, net.Labels[f.Label.ID], f.Label, name)
		}
		if f.Target != nil {
			caller := false
			for i := range o.Targets {
				caller = caller || f.Target == &o.Targets[i]
			}
			require.True(t, caller, "%s: a target that is not the caller's", name)
		}
		if o.Traces {
			require.NoError(t, f.TraceErr, name)
			require.NotNil(t, f.Trace, name)
			require.NoError(t, f.Trace.Check(r.Net, f, r.Unit), name)
		}
	}
}

// variants are the ways the tests run the portfolio: as it is, with
// each engine held back until the other has returned (so that the other
// answers first, when its answer is conclusive), and without stopping
// either (both finish: the symbolic engine answers). answered is the
// engine that must answer when both are conclusive, "" when either may.
var variants = []struct {
	name     string
	e        auto.Engine
	answered string
}{
	{"auto", auto.Engine{}, ""},
	{"auto, explicit first", auto.Holding(auto.Engine{}, tuples.Name), states.Name},
	{"auto, cbr first", auto.Holding(auto.Engine{}, states.Name), tuples.Name},
	{"auto, both finish", auto.WithoutCancel(auto.Engine{}), tuples.Name},
}

// TestExamples: on the bundled examples, counting contexts (1 to 5) or
// preemptions (0 to 4), stopping at the first violation or exploring
// the whole bound, the portfolio gives the answer of cbr (lazy) and of
// the explicit engine, which agree: the verdict, the coverage, every
// site with its fewest units. Whichever engine answers, the result is
// one on the network given (its labels, traces that replay on its Net).
// When both finish, the answer is the symbolic engine's, figures
// included.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "*.pds"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		file := "examples/" + filepath.Base(f)
		net := compile(t, file)
		for _, unit := range []cbr.Unit{cbr.Contexts, cbr.Preemptions} {
			lo, hi := 1, 5
			if unit == cbr.Preemptions {
				lo, hi = 0, 4
			}
			for k := lo; k <= hi; k++ {
				for _, all := range []bool{false, true} {
					if all && k > hi-2 && strings.Contains(file, "bluetooth") {
						continue // half a second each, most of the test's time
					}
					bound := k
					if k == 0 {
						bound = cbr.ZeroBound
					}
					o := cbr.Options{Bound: bound, Unit: unit, All: all, Traces: true}
					name := fmt.Sprintf("%s %s, all %v", file, unit.Of(k), all)
					sym, err := tuples.Engine{}.Analyze(context.Background(), net, o)
					require.NoError(t, err, name)
					exp, err := states.Engine{}.Analyze(context.Background(), net, o)
					require.NoError(t, err, name)
					want := answer(sym)
					require.Nil(t, sym.Limit, name)
					require.Equal(t, want, answer(exp), "%s: cbr and explicit disagree", name)
					for _, v := range variants {
						r, err := v.e.Analyze(context.Background(), net, o)
						require.NoError(t, err, "%s %s", name, v.name)
						require.Equal(t, want, answer(r), "%s %s", name, v.name)
						checkOnNet(t, name+" "+v.name, net, r, o)
						st := auto.Figures(r)
						require.NotNil(t, st, name)
						if v.answered != "" {
							answered := v.answered
							if exp.Limit != nil { // not conclusive: the explicit engine met its depth limit
								answered = tuples.Name
							}
							require.Equal(t, answered, st.Answered, "%s %s", name, v.name)
						}
						if st.Answered == tuples.Name {
							require.Equal(t, sym.Stats.ViewTuples, r.Stats.ViewTuples, "%s %s", name, v.name)
							require.Equal(t, "viewTuples", auto.Own(r).Figures.Work().Name, name) // the view-tuple engine's own figures
						} else {
							require.Equal(t, states.Figures(exp).States, states.Figures(auto.Own(r)).States, "%s %s", name, v.name)
						}
					}
				}
			}
		}
	}
}

// TestUnknownDoesNotWin: the explicit engine at a depth limit of one
// frame cannot explore the recursion of examples/recursion.pds and ends
// UNKNOWN first; the portfolio waits for the symbolic engine, which finds
// the violation with its fewest contexts.
func TestUnknownDoesNotWin(t *testing.T) {
	net := compile(t, "examples/recursion.pds")
	o := cbr.Options{Bound: 3, All: true, Traces: true}
	alone, err := states.Engine{MaxDepth: 1}.Analyze(context.Background(), net, o)
	require.NoError(t, err)
	require.Equal(t, cbr.Unknown, alone.Verdict)
	require.ErrorIs(t, alone.Limit, cbr.ErrDepthLimit)

	e := auto.Holding(auto.Engine{MaxDepth: 1}, tuples.Name)
	r, err := e.Analyze(context.Background(), net, o)
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, r.Verdict)
	require.Nil(t, r.Limit)
	require.Equal(t, 2, r.Contexts())
	require.Equal(t, 3, r.Complete)
	st := auto.Figures(r)
	require.Equal(t, tuples.Name, st.Answered)
	require.Equal(t, cbr.Unknown, st.Runs[1].Verdict)
	require.Contains(t, st.Runs[1].Reason, "stack depth limit of 1 frame")
	require.False(t, st.Runs[1].Stopped)
	checkOnNet(t, "recursion", net, r, o)
}

// TestThreadBound: both engines meet the thread bound on the same runs
// and end UNKNOWN with the same coverage and reason; the portfolio says
// it once, with the symbolic engine's result (ties go to it).
func TestThreadBound(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "engines", "testdata", "spawnloop.pds"))
	require.NoError(t, err)
	net, err := frontend.CompileWith("spawnloop.pds", src, frontend.Options{MaxThreads: 3})
	require.NoError(t, err)
	for _, v := range variants {
		r, err := v.e.Analyze(context.Background(), net, cbr.Options{Bound: 3, All: true})
		require.NoError(t, err, v.name)
		require.Equal(t, cbr.Unknown, r.Verdict, v.name)
		require.Equal(t, 3, r.Complete, v.name)
		require.Equal(t, 3, r.ThreadBound, v.name)
		require.ErrorIs(t, r.Limit, cbr.ErrThreadBound, v.name)
		require.Equal(t, "a start at spawnloop.pds:5:41 would exceed the thread bound of 3 threads", r.Reason, v.name)
		require.Equal(t, tuples.Name, auto.Figures(r).Answered, v.name)
	}
}

// TestTargets: a CUBA target reached is reported with the caller's
// target, whichever engine reached it (the explicit engine runs on a copy
// of the network, with a copy of the targets).
func TestTargets(t *testing.T) {
	dir := filepath.Join("..", "..", "cmd", "cbreach", "testdata", "cuba")
	inst, err := cuba.ReadFiles(filepath.Join(dir, "two.pds"), filepath.Join(dir, "two.init"), pds.Options{})
	require.NoError(t, err)
	spec, err := os.ReadFile(filepath.Join(dir, "two.spec"))
	require.NoError(t, err)
	tg, err := cuba.ParseTarget("two.spec", spec, inst)
	require.NoError(t, err)
	o := cbr.Options{Bound: 3, Targets: []pds.Target{inst.EngineTarget(tg)}, Traces: true}
	want, err := tuples.Engine{}.Analyze(context.Background(), inst.Net, o)
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, want.Verdict)
	for _, v := range variants {
		r, err := v.e.Analyze(context.Background(), inst.Net, o)
		require.NoError(t, err, v.name)
		require.Equal(t, answer(want), answer(r), v.name)
		require.Same(t, &o.Targets[0], r.Violations[0].Target, v.name)
		checkOnNet(t, v.name, inst.Net, r, o)
	}
}

// TestHooks: the hooks are called one at a time, each violation site
// once, with the labels of the network given, whichever engine found it.
func TestHooks(t *testing.T) {
	net := compile(t, "examples/lostupdate.pds")
	for _, v := range variants {
		var inside, overlaps, progress atomic.Int32
		seen := map[*pds.Label]int{}
		enter := func() func() {
			if inside.Add(1) > 1 {
				overlaps.Add(1)
			}
			time.Sleep(time.Millisecond)
			return func() { inside.Add(-1) }
		}
		o := cbr.Options{Bound: 5, All: true,
			OnProgress: func(cbr.Progress) {
				defer enter()()
				progress.Add(1)
			},
			OnViolation: func(f cbr.Found) {
				defer enter()()
				require.Same(t, net.Labels[f.Label.ID], f.Label, v.name)
				seen[f.Label]++
			}}
		r, err := v.e.Analyze(context.Background(), net, o)
		require.NoError(t, err, v.name)
		require.Zero(t, overlaps.Load(), v.name)
		require.Len(t, seen, len(r.Violations), v.name)
		for l, n := range seen {
			require.Equal(t, 1, n, "%s: %s passed %d times", v.name, l.Name, n)
		}
	}
}

// slow is a program on which both engines take long: the Bluetooth driver
// of Lal and Reps with five threads, within 7 contexts, every violation
// (each engine alone is still running after 20 s).
func slow(t *testing.T) (*pds.Network, cbr.Options) {
	return compile(t, "benchmarks/models/bluetooth-lalreps-n5.pds"), cbr.Options{Bound: 7, All: true}
}

// TestCancel: a cancelled context or a deadline stops both engines
// promptly; the result is UNKNOWN (or a violation found before) with the
// limit and its reason, no engine stopped by the other. A context
// cancelled before the start stops the copy of the network too.
func TestCancel(t *testing.T) {
	net, o := slow(t)
	for _, tc := range []struct {
		name   string
		is     error
		reason string
		ctx    func() (context.Context, context.CancelFunc)
	}{
		{"cancel", context.Canceled, "cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			return ctx, cancel
		}},
		{"deadline", context.DeadlineExceeded, "time limit reached", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 300*time.Millisecond)
		}},
		{"cancelled before", context.Canceled, "cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}},
	} {
		ctx, cancel := tc.ctx()
		ended := make(chan time.Time, 1)
		context.AfterFunc(ctx, func() { ended <- time.Now() })
		r, err := auto.Engine{}.Analyze(ctx, net, o)
		returned := time.Now()
		cancel()
		require.NoError(t, err, tc.name)
		// From the end of the context to the return: both engines
		// stop at their next BDD operation or state.
		late := returned.Sub(<-ended)
		require.Less(t, late, 2*time.Second, tc.name)
		require.NotEqual(t, cbr.Safe, r.Verdict, tc.name)
		require.ErrorIs(t, r.Limit, tc.is, tc.name)
		require.True(t, strings.HasPrefix(r.Reason, tc.reason), "%s: %q", tc.name, r.Reason)
		st := auto.Figures(r)
		for _, run := range st.Runs {
			require.False(t, run.Stopped, "%s: %s", tc.name, run.Engine)
			require.NotEqual(t, cbr.Safe, run.Verdict, tc.name)
		}
		t.Logf("%s: %s, answered by %s; returned %v after the context ended", tc.name, r.Reason, st.Answered, late)
	}
}

// TestStopsTheOther: when one engine answers, the other is stopped at
// once: on the slow program within 4 contexts, the symbolic engine finds
// the first violation in a fraction of a second and the explicit engine,
// which takes seconds alone, is stopped.
func TestStopsTheOther(t *testing.T) {
	net, o := slow(t)
	o.Bound, o.All = 4, false
	start := time.Now()
	r, err := auto.Engine{}.Analyze(context.Background(), net, o)
	require.NoError(t, err)
	took := time.Since(start)
	require.Equal(t, cbr.Violation, r.Verdict)
	require.Equal(t, 4, r.Contexts())
	st := auto.Figures(r)
	require.Equal(t, tuples.Name, st.Answered)
	require.True(t, st.Runs[1].Stopped)
	require.Equal(t, cbr.Unknown, st.Runs[1].Verdict)
	t.Logf("answered in %v (explicit stopped at %v)", took, st.Runs[1].Time)
}

// TestOptions: the portfolio refuses what it cannot do: deepening (the
// explicit engine explores a bound), rounds, and a bound beyond the
// explicit engine's.
func TestOptions(t *testing.T) {
	net := compile(t, "examples/lostupdate.pds")
	for _, tc := range []struct {
		o      cbr.Options
		option string
	}{
		{cbr.Options{Unbounded: true}, "Unbounded"},
		{cbr.Options{Unit: cbr.Rounds}, "Unit"},
		{cbr.Options{Bound: 300}, "Bound"},
	} {
		r, err := auto.Engine{}.Analyze(context.Background(), net, tc.o)
		require.Nil(t, r)
		var oe *cbr.OptionError
		require.ErrorAs(t, err, &oe)
		require.Equal(t, tc.option, oe.Option)
	}
	// The network can be analysed again.
	r, err := auto.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 4})
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, r.Verdict)
}
