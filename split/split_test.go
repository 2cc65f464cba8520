package split_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// runningExample is the network of the paper's Sections 2.4 and 3.1
// (reachcases.Paper).
func runningExample(t *testing.T) *pds.Network {
	net, err := reachcases.Paper()
	require.NoError(t, err)
	return net
}

// configs returns [[T]] as sorted strings "g|stack1|stack2" (stacks of
// labels, top first), enumerating each view up to depth 4.
func configs(net *pds.Network, views []*symauto.Auto) []string {
	type cfg struct {
		g     uint64
		stack string
	}
	per := make([][]cfg, len(views))
	for i, v := range views {
		v.Enumerate(4, func(gl []uint64, st []symauto.Frame) {
			var names []string
			for j := len(st) - 1; j >= 0; j-- {
				names = append(names, st[j].Label.Name)
			}
			per[i] = append(per[i], cfg{gl[0], strings.Join(names, ".")})
		})
	}
	var out []string
	var rec func(i int, g uint64, acc []string)
	rec = func(i int, g uint64, acc []string) {
		if i == len(views) {
			out = append(out, fmt.Sprintf("%s|%s", net.Globals[0].Type.Format(g), strings.Join(acc, "|")))
			return
		}
		for _, c := range per[i] {
			if c.g == g {
				rec(i+1, g, append(acc, c.stack))
			}
		}
	}
	for g := uint64(0); g < 3; g++ {
		rec(0, g, nil)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestRunningExample(t *testing.T) {
	net := runningExample(t)
	sp := symauto.NewSpace(net)
	x := split.New(split.Lazy, sp)
	init, err := x.Initial([]*symauto.Auto{sp.Init(net.Threads[0]), sp.Init(net.Threads[1])})
	require.NoError(t, err)
	require.Len(t, init, 1)
	require.Equal(t, []string{"g|a|a"}, configs(net, init[0].Views))

	// One context of thread 1 gives T0 = {(g,a,a), (g',b,a)}.
	u, changed, err := symauto.PostStar(t.Context(), init[0].Views[0].Tag(init[0].Domain), 1)
	require.NoError(t, err)
	t0, err := x.Split(init[0], 0, u, changed, 1)
	require.NoError(t, err)
	require.Len(t, t0, 1)
	require.Equal(t, []string{"g'|b|a", "g|a|a"}, configs(net, t0[0].Views))

	// post* of thread 2 on T0 is C0; g and g' are confluent.
	u2, changed2, err := symauto.PostStar(t.Context(), t0[0].Views[1].Tag(t0[0].Domain), 2)
	require.NoError(t, err)
	acc := u2.Accepting()
	conf := x.Confluence(acc)
	m := net.M
	gs := func(c int, v uint64) bdd.Node { return m.Value(bdd.Ref{Var: net.Globals[0].Var, Copy: c}, v) }
	require.False(t, m.And(conf, gs(symauto.GStart, 0), gs(symauto.GStart2, 1)).IsFalse(), "g and g' must be confluent")
	require.True(t, m.And(conf, gs(symauto.GStart, 0), gs(symauto.GStart2, 0)).IsFalse(), "confluence is irreflexive")

	live := m.And(changed2, m.Exists(acc, net.Sets().G[pds.GCur]))
	classes := x.Partition(acc, live, sp.M.False())
	require.Len(t, classes, 2, "with only g and g' present, Algorithm 2 yields {g}, {g'}")
	require.True(t, classes[0].Equal(gs(symauto.GStart, 0)) || classes[0].Equal(gs(symauto.GStart, 1)))
	require.True(t, m.And(classes[0], classes[1]).IsFalse())

	// Thread 1's view holds a at g and b at g': it tells them apart, so
	// they stay apart; a relation that put them together would make one
	// class of the two.
	alike := x.Alike(t0[0], 1)
	require.True(t, m.And(alike, gs(symauto.GStart, 0), gs(symauto.GStart2, 1)).IsFalse(), "thread 1 tells g from g'")
	require.False(t, m.And(alike, gs(symauto.GStart, 0), gs(symauto.GStart2, 0)).IsFalse(), "Alike is reflexive")
	require.Len(t, x.Partition(acc, live, alike), 2)
	require.Len(t, x.Partition(acc, live, m.True()), 1)

	tuples, err := x.Split(t0[0], 1, u2, changed2, 2)
	require.NoError(t, err)
	require.Len(t, tuples, 2)
	var union []string
	for _, tp := range tuples {
		union = append(union, configs(net, tp.Views)...)
	}
	slices.Sort(union)
	require.Equal(t, []string{"g''|a|a", "g''|b|b", "g'|b|a", "g|a|a"}, union, "the union of the split tuples is C0")
}
