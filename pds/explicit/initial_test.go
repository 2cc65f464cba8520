package explicit_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// TestInitGlobals: a relation over the globals that is no product of
// per-global values (a = b is odd, b != 2) gives the initial
// configurations it allows, enumerated; it replaces the globals' own
// Init values (c, declared 1, is free in it); an empty relation gives no
// configuration; a relation over another copy is rejected.
func TestInitGlobals(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	ga := b.Global("a", pds.BoolType(), pds.Init{Any: true}, pds.Pos{})
	gb := b.Global("b", pds.IntType(2), pds.Init{Any: true}, pds.Pos{})
	gc := b.Global("c", pds.BoolType(), pds.Init{Value: 1}, pds.Pos{})
	main := b.Proc("main", nil, pds.Pos{})
	l0 := b.Label(main, "main.0", pds.Pos{})
	b.SetEntry(l0)
	b.Thread("main", pds.Call(main))
	b.Thread("done")
	m := b.Manager()
	n, err := b.Build()
	require.NoError(t, err)
	require.Len(t, explicit.Initial(n), 8) // a, b any; c = 1

	cur := func(g *pds.Global) bdd.Vec { return n.GlobalVec(g, pds.GCur) }
	// a = (b is odd), b != 2; c free.
	rel := m.And(m.Equiv(cur(ga)[0], cur(gb)[0]), m.Not(m.Eq(cur(gb), m.ConstVec(2, 2))))
	x, err := n.WithInitial(&pds.InitGlobals{Rel: rel, By: "test"}, []*pds.Thread{n.Threads[1], n.Threads[0]})
	require.NoError(t, err)
	require.Equal(t, "done", x.Threads[0].Name)
	require.Equal(t, 1, x.Threads[1].Index)
	var got [][]uint64
	for _, c := range explicit.Initial(x) {
		got = append(got, c.Globals)
		require.Empty(t, c.Threads[0])
		require.Len(t, c.Threads[1], 1)
	}
	require.Equal(t, [][]uint64{{0, 0, 0}, {0, 0, 1}, {1, 1, 0}, {1, 1, 1}, {1, 3, 0}, {1, 3, 1}}, got)
	require.Equal(t, m.Value(bdd.Ref{Var: gc.Var, Copy: pds.GCur}, 1), m.And(n.InitRel(pds.GCur), m.True()))
	require.Equal(t, rel, x.InitRel(pds.GCur))
	require.Equal(t, pds.Init{Any: true}, x.InitOf(gc))
	require.Equal(t, pds.Init{Value: 1}, n.InitOf(gc))

	// No valuation: no initial configuration.
	none, err := n.WithInitial(&pds.InitGlobals{Rel: m.False()}, n.Threads)
	require.NoError(t, err)
	require.Empty(t, explicit.Initial(none))

	_, err = n.WithInitial(&pds.InitGlobals{Rel: n.GlobalVec(ga, pds.GNext)[0]}, n.Threads)
	require.ErrorContains(t, err, "initial globals")
}
