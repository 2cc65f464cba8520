package tuples_test

import (
	"context"
	"errors"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/pds"
	pexp "github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/stretchr/testify/require"
)

// preemptMaxK is the largest preemption bound the differential test asks.
const preemptMaxK = 2

// preemptBudget is the number of view tuples one cbr run of the
// differential test may process before its case counts as one too large
// for the test, levels that do not close (free switches making new view
// tuples without end) among them. A budget of tuples, not of time, leaves
// out the same cases on every machine.
const preemptBudget = 10000

// TestDifferentialPreemptions runs the shared cases (hand-made and random,
// seeds printed in the case names) counting preemptions, with bounds 0 to
// preemptMaxK (identical pruning to 1), against cbr eager and lazy
// (reachcases.PreemptionVariants), and on the hand-made cases the
// portfolio (reachcases.Auto):
// all agree with the explicit-state engine counting preemptions (the
// reference) on the verdict and every violation site with its fewest
// preemptions, and with subsumption from the first tuple and within 1
// preemption they reach the reference's configurations, each with its
// fewest preemptions. A case where the reference met its depth
// limit (recursion), or where a cbr run did not finish within preemptBudget
// (a level that does not close), is skipped for larger bounds and
// counted; the test fails when more than a tenth are.
func TestDifferentialPreemptions(t *testing.T) {
	seeds := reachcases.PreemptionSeeds(t)
	variants := reachcases.PreemptionVariants()
	// The portfolio counting preemptions runs on the hand-made cases (its
	// explicit half costs as much as the reference).
	withAuto := append(slices.Clip(variants), reachcases.Auto(cbr.Preemptions))
	hand := len(reachcases.Cases())
	cases := append(reachcases.Cases(), reachcases.Random(seeds)...)
	cases = append(cases, reachcases.RandomOpen(seeds[:min(len(seeds), 2)], reachcases.OpenWidths())...)
	var nskipped atomic.Int32
	t.Run("cases", func(t *testing.T) { // returns when every case is done
		for i, c := range cases {
			vs := variants
			if i < hand {
				vs = withAuto
			}
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel() // each case has a network and BDD manager of its own
				net, err := c.Build()
				require.NoError(t, err)
				for k := 0; k <= preemptMaxK; k++ {
					if why := checkPreempt(t, net, k, vs); why != "" {
						t.Logf("k %d: skipped: %s", k, why)
						nskipped.Add(1)
						return
					}
				}
			})
		}
	})
	skipped := int(nskipped.Load())
	t.Logf("%d of %d cases skipped", skipped, len(cases))
	require.LessOrEqual(t, skipped*10, len(cases), "too many cases skipped")
}

// checkPreempt compares the variants at bound k; it returns why the case
// was skipped, or "".
func checkPreempt(t *testing.T, net *pds.Network, k int, variants []reachcases.Variant) string {
	ref, err := variants[0].Run(context.Background(), net, k)
	require.NoError(t, err)
	if r := ref.Raw.(*cbr.Result); errors.Is(r.Limit, cbr.ErrDepthLimit) {
		return "the reference met its depth limit"
	}
	for _, v := range variants[1:] {
		if v.CBR != nil && v.CBR.Prune == tuples.PruneIdentical && k > 1 {
			continue // it keeps many more tuples: seconds per case
		}
		ctx, cancel := reachcases.TupleBudget(context.Background(), preemptBudget)
		o, err := v.Run(ctx, net, k)
		cancel()
		require.NoError(t, err, "k %d %s", k, v.Name)
		if r := o.Raw.(*cbr.Result); reachcases.NoAnswer(o) != nil {
			// Past the budget (or one eager split past it): no answer.
			require.Less(t, r.Complete, r.Bound, "k %d %s: cut off but complete", k, v.Name)
			if v.CBR != nil && v.CBR.Prune == tuples.PruneIdentical {
				t.Logf("k %d: %s did not finish (it keeps many more tuples): %s", k, v.Name, r.Reason)
				continue
			}
			return v.Name + " did not finish: " + r.Reason
		}
		if !reflect.DeepEqual(o.Answer, ref.Answer) {
			t.Fatalf("k %d %s: got %v want %v (%s)", k, v.Name, o.Answer, ref.Answer, variants[0].Name)
		}
	}
	// Stopping at the first violation, it has the fewest preemptions.
	first := *variants[2].CBR // lazy, subsumed (the default)
	bound := k
	if k == 0 {
		bound = cbr.ZeroBound
	}
	r, err := first.Analyze(context.Background(), net, cbr.Options{Bound: bound, Unit: cbr.Preemptions})
	require.NoError(t, err)
	if ref.Answer.Verdict == cbr.Violation {
		require.Equal(t, ref.Answer.Contexts, r.Contexts(), "k %d: the first violation's preemptions (verdict %v, %s)", k, r.Verdict, r.Reason)
	}
	if k > 1 {
		return ""
	}
	ex := explicitPreemptReach(t, net, k)
	for _, v := range variants[1:] {
		if v.CBR != nil && v.CBR.Prune == tuples.PruneSubsumed && v.CBR.SubsumeAfter == 0 {
			if d := diffReach(ex, symbolicPreemptReach(t, net, *v.CBR, k)); d != "" {
				t.Fatalf("k %d %s: reachable configurations differ:\n%s", k, v.Name, d)
			}
		}
	}
	return ""
}

// explicitPreemptReach returns every configuration the explicit-state
// engine reaches within k preemptions, with the fewest.
func explicitPreemptReach(t *testing.T, net *pds.Network, k int) reach {
	r := reach{}
	bound := k
	if k == 0 {
		bound = cbr.ZeroBound
	}
	_, err := states.Engine{MaxDepth: reachcases.ReferenceDepth, OnConfig: func(j int, c pexp.Config) {
		var threads [][]string
		for _, st := range c.Threads {
			var fs []string
			for _, f := range st {
				fs = append(fs, frameKey(f.Label, f.Locals))
			}
			threads = append(threads, fs)
		}
		key := nativeKey(net, c.Globals, threads)
		if old, ok := r[key]; !ok || j < old {
			r[key] = j
		}
	}}.Analyze(context.Background(), net, cbr.Options{Bound: bound, Unit: cbr.Preemptions, All: true})
	require.NoError(t, err)
	return r
}

// symbolicPreemptReach returns every configuration of the view tuples a
// cbr variant keeps within k preemptions, with the fewest.
func symbolicPreemptReach(t *testing.T, net *pds.Network, eng tuples.Engine, k int) reach {
	r := reach{}
	opts := cbr.Options{Bound: k, Unit: cbr.Preemptions, All: true}
	if k == 0 {
		opts.Bound = cbr.ZeroBound
	}
	e := newConfigEnum(t, net, reachcases.ReferenceDepth)
	eng.OnTuple = func(level int, tp split.Tuple) {
		e.configs(tp.Views, func(c string) {
			if old, ok := r[c]; !ok || level < old {
				r[c] = level
			}
		})
	}
	// The same options as the answer run, which finished: so does this.
	res, err := eng.Analyze(context.Background(), net, opts)
	require.NoError(t, err)
	require.False(t, errors.Is(res.Limit, context.Canceled), "the answer run finished: %s", res.Reason)
	return r
}

// lastMatters is a program in which one configuration is reached with 0
// preemptions both with a thread that can move having run last and with
// one that cannot: A sets a and waits for b; B sets b and finishes. After
// A (blocked), B runs for free; the observer C, switched to for free
// after B, sees a == b == 1. After B then A (a = 1, A can go on), the
// same configuration is reached, but a switch to C costs one. Pruning
// must not let the second tuple cover the first (the last thread decides
// the next switch's cost). Which tuple the search keeps first decides
// whether this program exposes a pruning that ignores the last thread;
// TestPruneLastThread checks the rule itself.
const lastMatters = `
int<1> a;
int<1> b;
proc A() {
  a = 1;
  assume(b == 1);
  a = 0;
}
proc B() {
  b = 1;
}
proc C() {
  assert(a == 0 || b == 0);
}
start A();
start B();
start C();
`

func TestPreemptionsLastThreadMatters(t *testing.T) {
	net, err := frontend.Compile("last.pds", []byte(lastMatters))
	require.NoError(t, err)
	for _, v := range reachcases.PreemptionVariants() {
		o, err := v.Run(context.Background(), net, 0)
		require.NoError(t, err)
		require.Equal(t, cbr.Violation, o.Verdict, v.Name)
		require.Equal(t, 0, o.Contexts, v.Name)
	}
	// Counting contexts: A, B, C.
	r, err := tuples.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 3})
	require.NoError(t, err)
	require.Equal(t, 3, r.Contexts())
}

func TestPreemptionsNeedPruning(t *testing.T) {
	net, err := frontend.Compile("last.pds", []byte(lastMatters))
	require.NoError(t, err)
	_, err = tuples.Engine{Prune: tuples.PruneNone}.Analyze(context.Background(), net, cbr.Options{Unit: cbr.Preemptions})
	require.ErrorContains(t, err, "pruning")
}

// TestPreemptionTraceEmptyContext: the trace of the violation of
// reachcases' free-empty-context replays, without an empty context, with
// its fewest preemptions (1), under lazy and eager splitting. Counting
// preemptions, lazy splitting first reaches it from the initial tuple
// through thread 1, run first and free, whose post* holds its initial
// configurations (where g1 is false it cannot move), then thread 0, free
// too. That tuple of thread 0 is kept although thread 0's own from the
// initial tuple holds the same configurations of thread 0, because
// thread 1 finished in others. Thread 1 must still be where it started
// in its second context, so the walk back leaves it there in its first:
// an empty context, which no run of the explicit semantics has.
func TestPreemptionTraceEmptyContext(t *testing.T) {
	for _, s := range []split.Strategy{split.Lazy, split.Eager} {
		net, err := reachcases.Lookup("free-empty-context").Build()
		require.NoError(t, err)
		r, err := tuples.Engine{Split: s}.Analyze(t.Context(), net, cbr.Options{Bound: 1, Unit: cbr.Preemptions, Traces: true})
		require.NoError(t, err, s)
		require.Equal(t, cbr.Violation, r.Verdict, s)
		f := r.Violations[0]
		require.Equal(t, 1, f.Contexts, s)
		require.NoError(t, reachcases.CheckTrace(f, cbr.Preemptions, r.Net), s)
		n, err := f.Trace.Preemptions(r.Net)
		require.NoError(t, err, s)
		require.Equal(t, 1, n, s)
		require.Len(t, f.Trace.Contexts, 3, s)
	}
}

// The sizes of TestPreemptionTracesRandom's campaign, as RandomSeeds's
// (package tier): fixed seeds 1 to n, and in the long tier drawn ones.
const (
	everydayTraceSeeds = 200
	longTraceSeeds     = 4000
	drawnTraceSeeds    = 1000
)

// preemptTraceParams are the networks of TestPreemptionTracesRandom: two
// threads and relations as random tables over one or two globals (bool,
// int<2> or a three-valued enum, each starting with any value one in
// four), so that a thread may move from some start values and not from
// others, which a walk back needs to leave a thread where it started in
// a free context (free-empty-context in reachcases).
var preemptTraceParams = randnet.Params{Threads: 2, Procs: 3, Labels: 2, Rules: 3, Errors: true, MaxThreads: 2, Density: 0.7, Enums: true}

// emptyContextSeeds are seeds of preemptTraceParams whose traces once
// failed their replay with an empty context (lazy splitting, 0 to 2
// preemptions: thread 1 left where it started in context 1). Few networks
// have that shape, 2 of the first 65,000 seeds, so every tier runs them
// besides its own.
var emptyContextSeeds = []uint64{4287, 60704}

// TestPreemptionTracesRandom runs cbr lazy and eager counting preemptions,
// within 0 to preemptMaxK, with traces, on random networks, and checks
// every violation's trace (reachcases.CheckTrace: replayed on the explicit
// semantics, no context empty, as many preemptions as the violation's
// fewest). TestDifferentialPreemptions checks traces too, with the fewest
// preemptions against the explicit reference, on fewer networks of
// another kind (guards and updates), among which a walk back with an empty
// context did not show up.
func TestPreemptionTracesRandom(t *testing.T) {
	seeds := append(tier.Seeds(t, everydayTraceSeeds, longTraceSeeds, drawnTraceSeeds), emptyContextSeeds...)
	variants := []reachcases.Variant{
		reachcases.CBR("lazy", tuples.Engine{}, cbr.Preemptions),
		reachcases.CBR("eager", tuples.Engine{Split: split.Eager}, cbr.Preemptions),
	}
	traces, runs, cut := 0, 0, 0
	for _, seed := range seeds {
		net, err := randnet.Generate(seed, preemptTraceParams)
		require.NoError(t, err, "seed %d", seed)
		for k := 0; k <= preemptMaxK; k++ {
			for _, v := range variants {
				ctx, cancel := reachcases.TupleBudget(t.Context(), preemptBudget)
				o, err := v.Run(ctx, net, k) // checks the traces
				cancel()
				require.NoError(t, err, "seed %d k %d %s", seed, k, v.Name)
				runs++
				if reachcases.NoAnswer(o) != nil {
					cut++
				}
				for _, f := range o.Raw.(*cbr.Result).Violations {
					if f.Trace != nil {
						traces++
					}
				}
			}
		}
	}
	t.Logf("%d networks, %d runs (%d cut off by the budget), %d traces checked", len(seeds), runs, cut, traces)
	require.LessOrEqual(t, cut*10, runs, "too many runs cut off")
}
