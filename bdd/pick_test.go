package bdd

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPick: on random relations between two 3-bit variables and a 2-bit
// one, Pick over the first two returns the cube of the least pair (a, b)
// in the variable order for which some value of the third satisfies the
// relation; false on false.
func TestPick(t *testing.T) {
	l := NewLayout()
	va, vb, vc := l.Uint("a", 3, 1), l.Uint("b", 3, 1), l.Uint("c", 2, 1)
	m, err := New(l, Config{})
	require.NoError(t, err)
	a, b, c := m.Vec(Ref{Var: va}), m.Vec(Ref{Var: vb}), m.Vec(Ref{Var: vc})
	s := m.Set(Ref{Var: va}, Ref{Var: vb})
	require.True(t, m.Pick(m.False(), s).IsFalse())
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		rel := m.False()
		var sat [][3]uint64
		for i := 0; i < 1+r.IntN(6); i++ {
			x := [3]uint64{r.Uint64N(8), r.Uint64N(8), r.Uint64N(4)}
			sat = append(sat, x)
			rel = m.Or(rel, m.And(m.Eq(a, m.ConstVec(x[0], 3)), m.Eq(b, m.ConstVec(x[1], 3)), m.Eq(c, m.ConstVec(x[2], 2))))
		}
		// The least (a, b) in the variable order: compare the bits level
		// by level, 0 before 1.
		key := func(x [3]uint64) []int {
			bits := make([]int, m.L.NumBits())
			for i := range bits {
				bits[i] = -1
			}
			for bit := 0; bit < 3; bit++ {
				bits[m.L.index(va, 0, bit)] = int(x[0] >> bit & 1)
				bits[m.L.index(vb, 0, bit)] = int(x[1] >> bit & 1)
			}
			return bits
		}
		less := func(x, y [3]uint64) bool {
			kx, ky := key(x), key(y)
			for i := range kx {
				if kx[i] != ky[i] {
					return kx[i] < ky[i]
				}
			}
			return false
		}
		best := sat[0]
		for _, x := range sat[1:] {
			if less(x, best) {
				best = x
			}
		}
		want := m.And(m.Eq(a, m.ConstVec(best[0], 3)), m.Eq(b, m.ConstVec(best[1], 3)))
		require.True(t, m.Pick(rel, s).Equal(want), "round %d: %v", round, sat)
	}
}

// TestMeets: Meets agrees with the conjunction on random relations.
func TestMeets(t *testing.T) {
	l := NewLayout()
	va, vb := l.Uint("a", 3, 1), l.Uint("b", 3, 1)
	m, err := New(l, Config{})
	require.NoError(t, err)
	a, b := m.Vec(Ref{Var: va}), m.Vec(Ref{Var: vb})
	r := rand.New(rand.NewPCG(3, 4))
	rel := func() Node {
		x := m.False()
		for i := 0; i < r.IntN(4); i++ {
			x = m.Or(x, m.And(m.Eq(a, m.ConstVec(r.Uint64N(8), 3)), m.Lt(b, m.ConstVec(r.Uint64N(8), 3))))
		}
		return x
	}
	for round := 0; round < 500; round++ {
		x, y := rel(), rel()
		require.Equal(t, !m.And(x, y).IsFalse(), m.Meets(x, y), "round %d", round)
	}
	require.True(t, m.Meets(m.True(), m.True()))
	require.False(t, m.Meets(m.True(), m.False()))
}
