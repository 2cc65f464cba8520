package split_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// union returns [[T]] of every tuple of ts as a set of keys "globals |
// stack of thread 0 | ...", each view enumerated up to depth 8 (the
// networks have no recursion).
func union(ts []split.Tuple) map[string]bool {
	out := map[string]bool{}
	for _, t := range ts {
		per := make([]map[string][]string, len(t.Views))
		for i, v := range t.Views {
			per[i] = map[string][]string{}
			v.Enumerate(8, func(g []uint64, st []symauto.Frame) {
				var fs []string
				for _, f := range st {
					fs = append(fs, fmt.Sprintf("%s%v", f.Label.Name, f.Locals))
				}
				gk := fmt.Sprint(g)
				per[i][gk] = append(per[i][gk], strings.Join(fs, " "))
			})
		}
		for gk := range per[0] {
			var rec func(i int, key string)
			rec = func(i int, key string) {
				if i == len(per) {
					out[key] = true
					return
				}
				for _, s := range per[i][gk] {
					rec(i+1, key+"|"+s)
				}
			}
			rec(0, gk)
		}
	}
	return out
}

// diffSets names the first few keys in one set only.
func diffSets(a, b map[string]bool, an, bn string) string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if !b[k] {
			lines = append(lines, "only "+an+": "+k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if !a[k] {
			lines = append(lines, "only "+bn+": "+k)
		}
	}
	if len(lines) > 6 {
		lines = append(lines[:6], fmt.Sprintf("... %d in all", len(lines)))
	}
	return strings.Join(lines, "\n")
}

// openWidths are the widths of TestOpenSplitsAgree's open global, by
// tier, taken by seed in turn. Eager splitting makes a tuple of every
// start value and every end value a context reaches from it, up to 2^2w
// after one context of a thread that sets the open global to any value,
// and the test enumerates each: at 8 bits one program took 214 s, where
// the shared table's differential tests run 8 bits within a budget of
// view tuples.
var openWidths = tier.Pick([]int{3, 4, 5}, []int{3, 4, 5, 6})

// TestOpenSplitsAgree: on random networks with open data (a global of
// openWidths's bits that starts with any value, which threads keep,
// overwrite, increment and compare: randnet.Params.OpenBits), eager
// and lazy splitting describe the same configurations: the eager initial
// tuples (one per initial value of the globals, the open one's 2^w among
// them) together hold the lazy initial tuple's, and after one context of
// each thread from them the split results of either together hold the
// same. Eager tuples have one global value each.
func TestOpenSplitsAgree(t *testing.T) {
	widths := openWidths
	tuplesSplit := 0
	for _, seed := range tier.Seeds(t, 6, 40, 12) {
		p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%2), Procs: 2 + int(seed%2), Labels: 2 + int(seed%3),
			LocalBits: int(seed % 2), Rules: 3 + int(seed%4), Errors: true, OpenBits: widths[int(seed%uint64(len(widths)))]}
		t.Run(fmt.Sprintf("bits=%d/seed=%d", p.OpenBits, seed), func(t *testing.T) {
			net, err := randnet.Generate(seed, p)
			require.NoError(t, err)
			sp := symauto.NewSpace(net)
			views := make([]*symauto.Auto, len(net.Threads))
			for i, th := range net.Threads {
				views[i] = sp.Init(th)
			}
			lazy, eager := split.New(split.Lazy, sp), split.New(split.Eager, sp)
			li, err := lazy.Initial(views)
			require.NoError(t, err)
			require.Len(t, li, 1)
			ei, err := eager.Initial(views)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(ei), 1<<p.OpenBits, "one eager tuple per initial value")
			require.Empty(t, diffSets(union(li), union(ei), "lazy", "eager"), "initial tuples")
			for i := range views {
				after := func(x *split.Splitter, from []split.Tuple) []split.Tuple {
					var out []split.Tuple
					for _, tp := range from {
						post, changed, err := symauto.PostStar(t.Context(), tp.Views[i].Tag(tp.Domain), 1)
						require.NoError(t, err)
						next, err := x.Split(tp, i, post, changed, 1)
						require.NoError(t, err)
						out = append(out, next...)
					}
					return out
				}
				l, e := after(lazy, li), after(eager, ei)
				for _, tp := range e {
					require.EqualValues(t, 1, net.M.Count(tp.Domain, sp.CurSet()).Int64(), "an eager tuple after thread %d has more than one global value", i)
				}
				tuplesSplit += len(e)
				checkAlike(t, sp, l)
				require.Empty(t, diffSets(union(l), union(e), "lazy", "eager"), "one context of thread %d", i)
			}
		})
	}
	require.Positive(t, tuplesSplit, "no split made a tuple")
}

// checkAlike: on every view of the tuples, TellApart of the pairs of
// distinct globals is what Alike leaves out of them, and AlikeTo of the
// least global of the tuple's domain is Alike's row there.
func checkAlike(t *testing.T, sp *symauto.Space, ts []split.Tuple) {
	t.Helper()
	m := sp.M
	neq := sp.StartsDiffer()
	for _, tp := range ts {
		y := m.Pick(sp.StartToStart2(sp.CurToStart(tp.Domain)), sp.Start2Set())
		for i, v := range tp.Views {
			require.True(t, v.TellApart(neq).Equal(m.Diff(neq, v.Alike())), "view %d: TellApart is not NOT Alike", i)
			require.True(t, v.AlikeTo(y).Equal(m.AndExists(v.Alike(), y, sp.Start2Set())), "view %d: AlikeTo is not Alike's row", i)
		}
	}
}
