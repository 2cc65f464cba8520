package bdd

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPoints: on random sets of values of two 3-bit variables, Each gives
// every satisfying point once, Holds agrees at all 64 points, the cubes of
// the points given make the set again, and Count stops at its limit.
func TestPoints(t *testing.T) {
	l := NewLayout()
	va, vb, vc := l.Uint("a", 3, 1), l.Uint("b", 3, 1), l.Uint("c", 2, 1)
	m, err := New(l, Config{})
	require.NoError(t, err)
	a, b := m.Vec(Ref{Var: va}), m.Vec(Ref{Var: vb})
	p := m.Points(m.Set(Ref{Var: va}, Ref{Var: vb}))
	require.NotNil(t, p)
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 200; round++ {
		set := m.False()
		want := map[[2]uint64]bool{}
		for i := 0; i < r.IntN(12); i++ {
			x := [2]uint64{r.Uint64N(8), r.Uint64N(8)}
			want[x] = true
			set = m.Or(set, m.And(m.Eq(a, m.ConstVec(x[0], 3)), m.Eq(b, m.ConstVec(x[1], 3))))
		}
		if round%10 == 0 {
			set = m.Or(set, m.Eq(a, m.ConstVec(5, 3))) // b free: 8 points
			for y := range uint64(8) {
				want[[2]uint64{5, y}] = true
			}
		}
		got := map[uint64]bool{}
		union := m.False()
		p.Each(set, func(pt uint64) bool {
			require.False(t, got[pt], "round %d: point %b twice", round, pt)
			got[pt] = true
			union = m.Or(union, p.Cube(pt))
			return true
		})
		require.Len(t, got, len(want), "round %d", round)
		require.True(t, union.Equal(set), "round %d: the cubes do not make the set", round)
		n := 0
		for pt := range uint64(64) {
			cube := p.Cube(pt)
			require.Equal(t, m.Implies(cube, set), p.Holds(set, pt), "round %d point %b", round, pt)
			require.Equal(t, got[pt], p.Holds(set, pt), "round %d point %b", round, pt)
			if p.Holds(set, pt) {
				n++
			}
		}
		require.Equal(t, len(want), n)
		require.Equal(t, min(n, 3), p.Count(set, 3))
	}
	// A BDD over another variable is a broken contract.
	c := m.Vec(Ref{Var: vc})
	require.Panics(t, func() { p.Holds(m.Eq(c, m.ConstVec(1, 2)), 0) })
	// More than MaxPointBits variables: no evaluator.
	l2 := NewLayout()
	x, y := l2.Uint("x", 40, 1), l2.Uint("y", 25, 1)
	m2, err := New(l2, Config{})
	require.NoError(t, err)
	require.Nil(t, m2.Points(m2.Set(Ref{Var: x}, Ref{Var: y})))
}

// TestDiffExists: on random relations over three 3-bit variables,
// DiffExists(a, b, s) is Exists(Diff(a, b), s), for every subset s of the
// variables (the empty one too), and so is it on constants.
func TestDiffExists(t *testing.T) {
	l := NewLayout()
	vs := []Var{l.Uint("a", 3, 1), l.Uint("b", 3, 1), l.Uint("c", 3, 1)}
	m, err := New(l, Config{})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(5, 6))
	random := func() Node {
		x := m.False()
		for range 1 + r.IntN(10) {
			c := m.True()
			for _, v := range vs {
				if r.IntN(3) > 0 {
					c = m.And(c, m.Eq(m.Vec(Ref{Var: v}), m.ConstVec(r.Uint64N(8), 3)))
				}
			}
			x = m.Or(x, c)
		}
		return x
	}
	for round := range 300 {
		a, b := random(), random()
		switch round % 10 {
		case 0:
			b = a
		case 1:
			a = m.True()
		case 2:
			b = m.False()
		}
		var refs []Ref
		for _, v := range vs {
			if r.IntN(2) == 0 {
				refs = append(refs, Ref{Var: v})
			}
		}
		s := m.Set(refs...)
		require.True(t, m.DiffExists(a, b, s).Equal(m.Exists(m.Diff(a, b), s)), "round %d", round)
	}
	require.NoError(t, m.Err())
}
