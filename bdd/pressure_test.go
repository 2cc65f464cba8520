package bdd

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOnPressure: a computation that fits the node limit only without
// what its caller keeps to save work goes on when the pressure function
// drops that, and reaches the limit when there is none.
func TestOnPressure(t *testing.T) {
	// product is one 9-bit multiplication table, over copies 3i to 3i+2.
	product := func(m *Manager, x Var, i int) Node {
		X, Y, Z := m.Vec(Ref{x, 3 * i}), m.Vec(Ref{x, 3*i + 1}), m.Vec(Ref{x, 3*i + 2})
		return m.Eq(m.Mul(X, Y), Z)
	}
	setup := func(lim int) (*Manager, Var) {
		l := NewLayout()
		x := l.Uint("x", 9, 6)
		m, err := New(l, Config{Limits: Limits{MaxNodes: lim}})
		require.NoError(t, err)
		return m, x
	}
	// The live nodes with one product, and with two.
	m, x := setup(0)
	p := product(m, x, 1)
	one := m.Live()
	q := product(m, x, 0)
	two := m.Live()
	require.Greater(t, two, one+1000, "the second product is not large enough")
	runtime.KeepAlive(p)
	runtime.KeepAlive(q)
	for _, relief := range []bool{false, true} {
		m, x := setup((one + two) / 2)
		kept := product(m, x, 0) // what the caller keeps to save work
		calls := 0
		if relief {
			m.OnPressure(func() { calls++; kept = Node{} })
		}
		p := product(m, x, 1)
		err := m.Check()
		if !relief {
			require.ErrorIs(t, err, ErrNodeLimit)
			runtime.KeepAlive(kept)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, 1, calls)
		require.Nil(t, kept.n, "the pressure function ran")
		require.False(t, p.IsFalse())
		require.Equal(t, one, m.Live())
		runtime.KeepAlive(p)
	}
}
