package pds

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/stretchr/testify/require"
)

// TestFrameRelations: the frame conditions and valuations that
// conjoin many variables in one bdd.Manager.Conj or CopyEq (issue 38)
// are the very nodes of the folds of And they replace, and Unchanged's
// cache answers each set of exceptions with the same node.
func TestFrameRelations(t *testing.T) {
	b := NewBuilder(Options{})
	var gs []*Global
	for i := range 12 {
		typ, init := IntType(1+i%5), Init{Any: i%3 == 0, Value: uint64(i % 2)}
		if i%4 == 1 {
			typ = EnumType(fmt.Sprintf("e%d", i), "a", "b", "c")
		}
		gs = append(gs, b.Global(fmt.Sprintf("g%d", i), typ, init, Pos{}))
	}
	p := b.Proc("p", nil, Pos{})
	var ls []*Local
	for i := range 6 {
		ls = append(ls, b.Local(p, fmt.Sprintf("l%d", i), IntType(1+i%3), Pos{}))
	}
	q := b.Proc("q", nil, Pos{})
	b.Local(q, "only", IntType(2), Pos{})
	l0 := b.Label(p, "p.0", Pos{})
	b.Label(q, "q.0", Pos{})
	n, m := b.Net(), b.Manager()

	unchanged := func(except ...*Global) bdd.Node {
		r := m.True()
		for _, g := range n.Globals {
			if !slices.Contains(except, g) {
				r = m.And(r, m.Eq(n.GlobalVec(g, GCur), n.GlobalVec(g, GNext)))
			}
		}
		return r
	}
	for _, except := range [][]*Global{nil, {gs[3]}, {gs[0], gs[11]}, {gs[5], gs[5], gs[2]}, gs} {
		want := unchanged(except...)
		got := n.Unchanged(except...)
		require.True(t, got.Equal(want), "Unchanged(%d globals)", len(except))
		require.True(t, n.Unchanged(except...).Equal(got), "Unchanged again")
	}
	require.True(t, n.Unchanged(gs[0], gs[11]).Equal(n.Unchanged(gs[11], gs[0])), "Unchanged in another order")

	for _, c := range []int{GCur, GlobalCopies - 1} {
		want := m.True()
		for _, g := range n.Globals {
			ref := bdd.Ref{Var: g.Var, Copy: c}
			if init := n.InitOf(g); init.Any {
				want = m.And(want, n.ValidType(m.Vec(ref), g.Type))
			} else {
				want = m.And(want, m.Value(ref, init.Value))
			}
		}
		require.True(t, n.InitRel(c).Equal(want), "InitRel(%d)", c)
	}

	for _, except := range [][]*Local{nil, {ls[2]}, ls} {
		wantSame, wantZero := m.True(), m.True()
		for _, l := range p.Locals {
			if !slices.Contains(except, l) {
				wantSame = m.And(wantSame, m.Eq(n.LocalVec(l, LNext), n.LocalVec(l, LCur)))
				wantZero = m.And(wantZero, m.Eq(n.LocalVec(l, LSaved), m.ConstVec(0, l.Type.Bits)))
			}
		}
		require.True(t, n.LocalsUnchanged(p, LNext, except...).Equal(wantSame), "LocalsUnchanged")
		require.True(t, n.LocalsZero(p, LSaved, except...).Equal(wantZero), "LocalsZero")
	}

	f := Frame{Label: l0, Locals: make([]Init, len(ls))}
	want := n.padding(p, LCur)
	for i, l := range ls {
		f.Locals[i] = Init{Any: i%2 == 1, Value: uint64(i % 2)}
		if !f.Locals[i].Any {
			want = m.And(want, m.Eq(n.LocalVec(l, LCur), m.ConstVec(f.Locals[i].Value, l.Type.Bits)))
		}
	}
	require.True(t, n.FrameRel(f, LCur).Equal(want), "FrameRel")
	require.NoError(t, m.Err())
}
