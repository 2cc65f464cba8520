package tuples_test

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// frameKey renders a frame; stacks are bottom first.
func frameKey(l *pds.Label, locals []uint64) string {
	b := append([]byte(l.Name), '[')
	for i, v := range locals {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendUint(b, v, 10)
	}
	return string(append(b, ']'))
}

// nativeKey renders a configuration of the network's own semantics:
// visible globals, then every existing thread's stack.
func nativeKey(net *pds.Network, globals []uint64, threads [][]string) string {
	var b strings.Builder
	b.WriteString(visibleKey(net, globals))
	for _, t := range threads {
		b.WriteString("|" + strings.Join(t, " "))
	}
	return b.String()
}

// visibleKey renders the visible globals, the first part of nativeKey.
func visibleKey(net *pds.Network, globals []uint64) string {
	var b []byte
	for i, g := range net.Globals {
		if !g.Hidden {
			b = append(strconv.AppendUint(b, globals[i], 10), ',')
		}
	}
	return string(b)
}

// configEnum enumerates [[T]] of the view tuples of one run of the engine
// network (with dormant slots and hidden globals) and projects every
// configuration to the native form the explicit semantics uses (the keys
// of nativeKey): a dormant slot with a pending start is the new thread at
// its entry; one without is absent. Each view's stacks are enumerated and
// rendered once per run (views are shared between tuples and never change
// once made); a tuple's configurations are then the product of its views'
// rendered stacks under each globals valuation.
type configEnum struct {
	t       *testing.T
	net     *pds.Network
	initial int // threads of the native network; the rest are slots
	depth   int
	views   map[viewAt]map[string][]string // globals key -> rendered stacks
	globals map[string][]uint64            // globals key -> valuation
}

type viewAt struct {
	a      *symauto.Auto
	thread int
}

// absent marks a dormant slot without a pending start among rendered
// stacks (a real stack renders as frame keys joined, never this).
const absent = "\x00absent"

func newConfigEnum(t *testing.T, net *pds.Network, depth int) *configEnum {
	return &configEnum{t: t, net: net, initial: len(net.Threads), depth: depth, views: map[viewAt]map[string][]string{}, globals: map[string][]uint64{}}
}

// stacks returns thread i's view v rendered, by globals key.
func (e *configEnum) stacks(v *symauto.Auto, i int) map[string][]string {
	at := viewAt{v, i}
	if r, ok := e.views[at]; ok {
		return r
	}
	r := map[string][]string{}
	v.Enumerate(e.depth, func(g []uint64, st []symauto.Frame) {
		gk := fmt.Sprint(g)
		if _, ok := e.globals[gk]; !ok {
			e.globals[gk] = g
		}
		r[gk] = append(r[gk], e.render(g, i, st))
	})
	e.views[at] = r
	return r
}

// render renders thread i's stack under globals g.
func (e *configEnum) render(g []uint64, i int, st []symauto.Frame) string {
	if i >= e.initial && len(st) == 1 && e.net.IsDormant(st[0].Label) {
		pending, locals := e.net.SlotState(g, i-e.initial)
		if pending == nil {
			return absent
		}
		return frameKey(pending.Entry, locals)
	}
	fs := make([]string, len(st))
	for j, f := range st {
		fs[j] = frameKey(f.Label, f.Locals)
	}
	return strings.Join(fs, " ")
}

// configs calls fn with the native key of every configuration of the
// tuple's views.
func (e *configEnum) configs(views []*symauto.Auto, fn func(key string)) {
	per := make([]map[string][]string, len(views))
	for i, v := range views {
		per[i] = e.stacks(v, i)
	}
	for gk := range per[0] {
		prefix := visibleKey(e.net, e.globals[gk])
		var rec func(i int, key string, gone int)
		rec = func(i int, key string, gone int) {
			if i == len(views) {
				fn(key)
				return
			}
			for _, s := range per[i][gk] {
				switch {
				case s == absent:
					rec(i+1, key, gone+1)
				case gone > 0:
					e.t.Fatalf("slot %d runs (or was started) after an absent one", i-e.initial)
				default:
					rec(i+1, key+"|"+s, gone)
				}
			}
		}
		rec(0, prefix, 0)
	}
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
func symbolicReach(t *testing.T, net *pds.Network, eng tuples.Engine, k, depth int) reach {
	r := reach{}
	eng.KeepLast = true
	e := newConfigEnum(t, net, depth)
	eng.OnTuple = func(level int, tp split.Tuple) {
		e.configs(tp.Views, func(c string) {
			if old, ok := r[c]; !ok || level < old {
				r[c] = level
			}
		})
	}
	_, err := eng.Analyze(context.Background(), net, cbr.Options{Bound: k, All: true})
	require.NoError(t, err)
	return r
}

func diffReach(a, b reach) string { return reachcases.DiffReach(a, b, "explicit", "symbolic") }

// reachSets reports whether a variant's whole reachable sets are compared
// with the explicit reference's: cbr without pruning and with subsumption
// from the first tuple, eager and lazy.
func reachSets(v reachcases.Variant) bool {
	return v.CBR != nil && (v.CBR.Prune == tuples.PruneNone || v.CBR.Prune == tuples.PruneSubsumed && v.CBR.SubsumeAfter == 0)
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
// same fewest contexts. Two more variants, eager and lazy, run the last
// level's tests on a budget small enough to run out: one test stops
// after a few trie nodes and the level's tests after a few tests.
func TestDifferential(t *testing.T) {
	seeds := reachcases.RandomSeeds(t)
	variants := reachcases.Variants()
	for _, s := range []split.Strategy{split.Eager, split.Lazy} {
		e := tuples.WithLastBudget(tuples.Engine{Split: s}, 5, 30)
		variants = append(variants, reachcases.CBR(fmt.Sprintf("%s/subsumed-small-budget", s), e, cbr.Contexts, fmt.Sprintf("%s/none", s)))
	}
	cases := append(reachcases.Cases(), reachcases.Random(seeds)...)
	cases = append(cases, reachcases.RandomOpen(reachcases.OpenSeeds(t), reachcases.OpenWidths())...)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel() // each case has a network and BDD manager of its own
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
	if k > 3 || c.Params.OpenBits > 0 && tier.Long() {
		// The configuration sets are enumerated view by view; with open
		// data a view's stacks times the open values outgrew 16 GiB on
		// some drawn programs of 5 bits. The everyday tier's open
		// programs compare them.
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
