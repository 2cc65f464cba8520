package cbr_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/internal/reachcases"
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

// symbolicReach runs a cbr variant's options within k contexts and
// returns every configuration of its reachable set with the fewest
// contexts.
func symbolicReach(t *testing.T, net *pds.Network, opts cbr.Options, k, depth int) reach {
	r := reach{}
	opts.Contexts, opts.KeepLast = k, true
	opts.OnTuple = func(level int, tp split.Tuple) {
		for _, c := range tupleConfigs(t, net, len(net.Threads), tp.Views, depth) {
			if old, ok := r[c]; !ok || level < old {
				r[c] = level
			}
		}
	}
	_, err := cbr.Analyze(context.Background(), net, opts)
	require.NoError(t, err)
	return r
}

func diffReach(a, b reach) string { return reachcases.DiffReach(a, b, "explicit", "symbolic") }

// reachSets reports whether a variant's whole reachable sets are compared
// with the explicit reference's: cbr without pruning and with subsumption
// from the first tuple, eager and lazy.
func reachSets(v reachcases.Variant) bool {
	return v.CBR != nil && (v.CBR.Prune == cbr.PruneNone || v.CBR.Prune == cbr.PruneSubsumed && v.CBR.SubsumeAfter < 0)
}

// TestDifferential runs every case of the shared table (the hand-made
// ones, then random programs with 2 or 3 threads, forks included and no
// recursion, so that the explicit explorer is exact) with every bound k
// from 1 to the case's, against every engine variant. All agree with the
// expected answer (the hand-made case's, else the explicit reference's):
// the verdict and the violation sites with their fewest contexts. Lazy
// never processes more view tuples than eager, and pruning never adds
// tuples. For k <= 3, eager and lazy, without pruning and with
// subsumption, reach the explicit reference's configurations with the
// same fewest contexts.
func TestDifferential(t *testing.T) {
	seeds := reachcases.RandomSeeds
	if testing.Short() {
		seeds = reachcases.ShortRandomSeeds
	}
	variants := reachcases.Variants()
	for _, c := range append(reachcases.Cases(), reachcases.Random(seeds)...) {
		t.Run(c.Name, func(t *testing.T) {
			net, err := c.Build()
			require.NoError(t, err)
			for k := 1; k <= c.K; k++ {
				checkCase(t, c, net, k, variants)
			}
		})
	}
}

func checkCase(t *testing.T, c reachcases.Case, net *pds.Network, k int, variants []reachcases.Variant) {
	got := map[string]*reachcases.Outcome{}
	var ref *explicit.Result
	for _, v := range variants {
		o, err := v.Run(context.Background(), net, k)
		require.NoError(t, err, "k %d %s", k, v.Name)
		got[v.Name] = o
		if v.Reference {
			ref = o.Raw.(*explicit.Result)
			if ref.DepthCapped {
				t.Fatalf("k %d: the explicit reference met its depth cap on a case without recursion", k)
			}
		}
	}
	require.NotNil(t, ref, "no reference variant")
	want := reachcases.Reference.Name
	wantAnswer := got[want].Answer
	if c.Want != nil {
		want, wantAnswer = "the case", c.At(k)
	}
	for _, v := range variants {
		o := got[v.Name]
		if !reflect.DeepEqual(o.Answer, wantAnswer) {
			t.Fatalf("k %d %s: got %v want %v (%s)", k, v.Name, o.Answer, wantAnswer, want)
		}
		for _, w := range v.AtMost {
			if o.Tuples > got[w].Tuples {
				t.Fatalf("k %d %s: got %d view tuples want at most %d (%s)", k, v.Name, o.Tuples, got[w].Tuples, w)
			}
		}
	}
	if k > 3 {
		return
	}
	ex := explicitReach(net, ref)
	for _, v := range variants {
		if reachSets(v) {
			if d := diffReach(ex, symbolicReach(t, net, *v.CBR, k, reachcases.ReferenceDepth)); d != "" {
				t.Fatalf("k %d %s: reachable configurations differ:\n%s", k, v.Name, d)
			}
		}
	}
}
