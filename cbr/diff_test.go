package cbr_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/internal/randnet"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// frameKey renders a frame; stacks are bottom first.
func frameKey(l *pds.Label, locals []uint64) string { return fmt.Sprintf("%s%v", l.Name, locals) }

// nativeKey renders a configuration of the network's own semantics:
// visible globals, then every existing thread's stack.
func nativeKey(net *pds.Network, globals []uint64, threads [][]string) string {
	var b strings.Builder
	for i, g := range net.Globals {
		if !g.Hidden {
			fmt.Fprintf(&b, "%d,", globals[i])
		}
	}
	for _, t := range threads {
		b.WriteString("|" + strings.Join(t, " "))
	}
	return b.String()
}

// tupleConfigs enumerates [[T]] of a view tuple of the engine network (with
// dormant slots and hidden globals) and projects every configuration to
// the native form the explicit semantics uses: a dormant slot with a
// pending start is the new thread at its entry; one without is absent.
func tupleConfigs(t *testing.T, net *pds.Network, initial int, views []*symauto.Auto, depth int) []string {
	type view struct {
		g     []uint64
		stack []symauto.Frame
	}
	per := make([]map[string][]view, len(views))
	for i, v := range views {
		per[i] = map[string][]view{}
		v.Enumerate(depth, func(g []uint64, st []symauto.Frame) {
			k := fmt.Sprint(g)
			per[i][k] = append(per[i][k], view{g, st})
		})
	}
	var out []string
	for gk, first := range per[0] {
		g := first[0].g
		var rec func(i int, stacks [][]symauto.Frame)
		rec = func(i int, stacks [][]symauto.Frame) {
			if i == len(views) {
				out = append(out, project(t, net, initial, g, stacks))
				return
			}
			for _, v := range per[i][gk] {
				rec(i+1, append(stacks, v.stack))
			}
		}
		rec(0, nil)
	}
	return out
}

func project(t *testing.T, net *pds.Network, initial int, g []uint64, stacks [][]symauto.Frame) string {
	var threads [][]string
	absent := false
	for i, st := range stacks {
		var fs []string
		if i >= initial && len(st) == 1 && net.IsDormant(st[0].Label) {
			pending, locals := net.SlotState(g, i-initial)
			if pending == nil {
				absent = true
				continue
			}
			require.False(t, absent, "slot %d started before an earlier one", i-initial)
			fs = append(fs, frameKey(pending.Entry, locals))
		} else {
			require.False(t, absent, "slot %d runs after an absent one", i-initial)
			for _, f := range st {
				fs = append(fs, frameKey(f.Label, f.Locals))
			}
		}
		threads = append(threads, fs)
	}
	return nativeKey(net, g, threads)
}

type reach map[string]int // configuration -> fewest contexts

func explicitReach(net *pds.Network, res *explicit.Result) reach {
	r := reach{}
	for _, x := range res.Reached {
		var threads [][]string
		for _, st := range x.Config.Threads {
			var fs []string
			for _, f := range st {
				fs = append(fs, frameKey(f.Label, f.Locals))
			}
			threads = append(threads, fs)
		}
		k := nativeKey(net, x.Config.Globals, threads)
		if old, ok := r[k]; !ok || x.Contexts < old {
			r[k] = x.Contexts
		}
	}
	return r
}

func symbolicReach(t *testing.T, net *pds.Network, s split.Strategy, k, depth int, subsume bool) reach {
	r := reach{}
	_, err := cbr.Analyze(context.Background(), net, cbr.Options{Contexts: k, Split: s, All: true, KeepLast: true, Prune: pruneOrNone(subsume), SubsumeAfter: -1,
		OnTuple: func(level int, tp split.Tuple) {
			for _, c := range tupleConfigs(t, net, len(net.Threads), tp.Views, depth) {
				if old, ok := r[c]; !ok || level < old {
					r[c] = level
				}
			}
		}})
	require.NoError(t, err)
	return r
}

func diffReach(a, b reach) string {
	var lines []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			lines = append(lines, fmt.Sprintf("only in explicit: %s (%d contexts)", k, v))
		} else if v != w {
			lines = append(lines, fmt.Sprintf("contexts differ: %s explicit %d symbolic %d", k, v, w))
		}
	}
	for k, w := range b {
		if _, ok := a[k]; !ok {
			lines = append(lines, fmt.Sprintf("only in symbolic: %s (%d contexts)", k, w))
		}
	}
	sort.Strings(lines)
	if len(lines) > 8 {
		lines = append(lines[:8], fmt.Sprintf("... %d differences", len(lines)))
	}
	return strings.Join(lines, "\n")
}

type verdict struct {
	v     cbr.Verdict
	sites []string // label@contexts, sorted
}

func explicitVerdict(res *explicit.Result) verdict {
	var v verdict
	for _, x := range res.Violations {
		v.sites = append(v.sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
	}
	sort.Strings(v.sites)
	switch {
	case len(v.sites) > 0:
		v.v = cbr.Violation
	case res.CutOff:
		v.v = cbr.Unknown
	default:
		v.v = cbr.Safe
	}
	return v
}

func symbolicVerdict(r *cbr.Result) verdict {
	v := verdict{v: r.Verdict}
	for _, x := range r.Violations {
		v.sites = append(v.sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
	}
	sort.Strings(v.sites)
	return v
}

// TestRandomDifferential: on random programs with 2 or 3 threads, forks
// included and no recursion (so the explicit explorer is exact), for k from
// 1 to 4, eager, lazy and the explicit reference agree on the verdict, the
// violation sites with their fewest contexts, and the set of reachable
// configurations with the fewest contexts of each, with and without
// subsumption (Options.Subsume); lazy never processes more view tuples
// than eager.
func TestRandomDifferential(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	const depth = 8
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%3), Procs: 2 + int(seed%2), Labels: 2 + int(seed%3),
			LocalBits: int(seed % 3), Rules: 3 + int(seed%4), Forks: seed%3 != 0, Errors: true, MaxThreads: 3 + int(seed%2)}
		net, err := randnet.Generate(seed, p)
		require.NoError(t, err, "seed %d", seed)
		maxK := 4
		if p.Threads == 3 {
			maxK = 3
		}
		for k := 1; k <= maxK; k++ {
			res, err := explicit.Explore(net, explicit.Options{Contexts: k, MaxDepth: depth, MaxConfigs: 200000})
			require.NoError(t, err, "seed %d k %d", seed, k)
			require.False(t, res.DepthCapped, "seed %d: depth cap reached without recursion", seed)
			want := explicitVerdict(res)
			tuples := map[split.Strategy]int{}
			for _, s := range []split.Strategy{split.Eager, split.Lazy} {
				r, err := cbr.Analyze(context.Background(), net, cbr.Options{Contexts: k, Split: s, All: true, Prune: cbr.PruneNone})
				require.NoError(t, err, "seed %d k %d %s", seed, k, s)
				require.Equal(t, want, symbolicVerdict(r), "seed %d k %d %s: verdict", seed, k, s)
				tuples[s] = r.Stats.ViewTuples
			}
			require.LessOrEqual(t, tuples[split.Lazy], tuples[split.Eager], "seed %d k %d: lazy processed more tuples than eager", seed, k)
			for _, s := range []split.Strategy{split.Eager, split.Lazy} {
				r, err := cbr.Analyze(context.Background(), net, cbr.Options{Contexts: k, Split: s, All: true, Prune: cbr.PruneIdentical})
				require.NoError(t, err, "seed %d k %d %s dedup", seed, k, s)
				require.Equal(t, want, symbolicVerdict(r), "seed %d k %d %s with identical tuples dropped: verdict", seed, k, s)
				require.LessOrEqual(t, r.Stats.ViewTuples, tuples[s], "seed %d k %d %s: dropping identical tuples added tuples", seed, k, s)
				// Subsumption from the first tuple, and from the fourth kept
				// one (identical tuples dropped until then).
				for _, after := range []int{-1, 4} {
					r, err = cbr.Analyze(context.Background(), net, cbr.Options{Contexts: k, Split: s, All: true, SubsumeAfter: after})
					require.NoError(t, err, "seed %d k %d %s subsume after %d", seed, k, s, after)
					require.Equal(t, want, symbolicVerdict(r), "seed %d k %d %s with subsumed tuples dropped after %d: verdict", seed, k, s, after)
					require.LessOrEqual(t, r.Stats.ViewTuples, tuples[s], "seed %d k %d %s: subsumption after %d added tuples", seed, k, s, after)
				}
			}
			if k <= 3 {
				ref := explicitReach(net, res)
				for _, s := range []split.Strategy{split.Eager, split.Lazy} {
					for _, sub := range []bool{false, true} {
						got := symbolicReach(t, net, s, k, depth, sub)
						if d := diffReach(ref, got); d != "" {
							t.Fatalf("seed %d k %d %s (subsume %v): reachable configurations differ:\n%s", seed, k, s, sub, d)
						}
					}
				}
			}
		}
	}
}

// pruneOrNone is subsumption, or no pruning.
func pruneOrNone(subsume bool) cbr.Prune {
	if subsume {
		return cbr.PruneSubsumed
	}
	return cbr.PruneNone
}
