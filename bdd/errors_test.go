package bdd

import (
	"errors"
	"testing"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
	"github.com/stretchr/testify/require"
)

// allOpsFalse checks that every operation of a failed manager returns
// False (never a nil node) and does not panic.
func allOpsFalse(t *testing.T, f *fixture) {
	t.Helper()
	m := f.m
	x, y := Ref{f.u[3], 0}, Ref{f.u[3], 1}
	X, Y := m.Vec(x), m.Vec(y)
	p, q := m.Bit(x, 0), m.Bit(y, 1)
	s := m.Set(x)
	ren := m.Renaming([]Ref{x}, []Ref{{f.u[3], 2}})
	nodes := map[string]Node{
		"And":       m.And(p, q),
		"Or":        m.Or(p, q),
		"Not":       m.Not(p),
		"Imp":       m.Imp(p, q),
		"Equiv":     m.Equiv(p, q),
		"Xor":       m.Xor(p, q),
		"Diff":      m.Diff(p, q),
		"Ite":       m.Ite(p, q, m.True()),
		"Exists":    m.Exists(m.Or(p, q), s),
		"AndExists": m.AndExists(p, q, s),
		"Rename":    m.Rename(p, ren),
		"Eq":        m.Eq(X, Y),
		"Ne":        m.Ne(X, Y),
		"Lt":        m.Lt(X, Y),
		"Ge":        m.Ge(X, Y),
		"Value":     m.Value(x, 3),
		"Assign":    m.Assign(X, Y),
		"CopyEq":    m.CopyEq(0, 1, f.u[3]),
		"Ord":       m.Ord(0, 1, f.u[3]),
		"ValidEnum": m.ValidEnum(Ref{f.e5, 0}),
	}
	for _, v := range []Vec{m.Add(X, Y), m.Sub(X, Y), m.Mul(X, Y), m.IteVec(p, X, Y)} {
		for _, n := range v {
			nodes["vector bit"] = n
			require.NotNil(t, n.n)
			require.True(t, n.IsFalse(), "vector bit")
		}
	}
	for name, n := range nodes {
		require.NotNil(t, n.n, name)
		require.True(t, n.IsFalse(), "%s after an error", name)
	}
	require.Zero(t, m.SatCount(m.True(), x).Sign())
	require.True(t, m.Implies(p, q), "Implies after an error reports true")
	m.Enumerate(m.True(), []Vec{X}, func([]uint64) bool {
		t.Fatal("Enumerate after an error called fn")
		return false
	})
	require.Error(t, m.Err())
}

func TestNodeLimit(t *testing.T) {
	l := NewLayout()
	x := l.Uint("x", 12, 3)
	f := &fixture{}
	// The fixture's variables, for allOpsFalse.
	f.u[3] = l.Uint("u3", 3, 3)
	f.e5 = l.Enum("e5", 5, 1)
	m, err := New(l, Config{Limits: Limits{MaxNodes: 5000}})
	require.NoError(t, err)
	f.m = m
	require.Positive(t, m.Nodes())
	// A 12-bit multiplier: far more than 5000 nodes.
	X, Y, Z := m.Vec(Ref{x, 0}), m.Vec(Ref{x, 1}), m.Vec(Ref{x, 2})
	e := m.Eq(m.Mul(X, Y), Z)
	require.NotNil(t, e.n)
	require.True(t, e.IsFalse(), "the result of a failed computation is False")
	require.ErrorIs(t, m.Err(), ErrNodeLimit)
	require.ErrorIs(t, m.Check(), ErrNodeLimit)
	require.Greater(t, m.PeakNodes(), 5000)
	first := m.Err()
	m.SetErr(errors.New("later"))
	require.Equal(t, first, m.Err(), "the first error stays")
	allOpsFalse(t, f)
}

func TestNodeLimitCheck(t *testing.T) {
	// Under 1024 operations, the limit is seen by Check only.
	l := NewLayout()
	x := l.Uint("x", 8, 2)
	m, err := New(l, Config{Limits: Limits{MaxNodes: 10}})
	require.NoError(t, err)
	e := m.Lt(m.Vec(Ref{x, 0}), m.Vec(Ref{x, 1}))
	require.False(t, e.IsFalse())
	require.NoError(t, m.Err())
	require.ErrorIs(t, m.Check(), ErrNodeLimit)
	require.True(t, m.Not(e).IsFalse())
}

func TestSetErr(t *testing.T) {
	f := newFixture(t, Config{})
	cancel := errors.New("cancelled")
	f.m.SetErr(cancel)
	require.Equal(t, cancel, f.m.Err())
	allOpsFalse(t, f)
}

func TestRuddFailures(t *testing.T) {
	t.Run("panic", func(t *testing.T) {
		f := newFixture(t, Config{})
		n := f.m.call(func() rudd.Node { panic("index out of range [-1]") })
		require.NotNil(t, n.n)
		require.True(t, n.IsFalse())
		require.ErrorContains(t, f.m.Err(), "index out of range")
		allOpsFalse(t, f)
	})
	t.Run("nil", func(t *testing.T) {
		f := newFixture(t, Config{})
		n := f.m.call(func() rudd.Node { return nil })
		require.True(t, n.IsFalse())
		require.Error(t, f.m.Err())
		allOpsFalse(t, f)
	})
	t.Run("rename conflict", func(t *testing.T) {
		// A node holding both a source and its target: rudd reports it.
		f := newFixture(t, Config{})
		m := f.m
		x0, x1 := Ref{f.u[2], 0}, Ref{f.u[2], 1}
		n := m.Rename(m.And(m.Bit(x0, 0), m.Bit(x1, 0)), m.Renaming([]Ref{x0}, []Ref{x1}))
		require.True(t, n.IsFalse())
		require.ErrorContains(t, m.Err(), "replace")
		allOpsFalse(t, f)
	})
	t.Run("SetOf", func(t *testing.T) {
		f := newFixture(t, Config{})
		m := f.m
		x := m.Vec(Ref{f.u[2], 0})
		require.Panics(t, func() { m.SetOf(m.ConstVec(1, 2)) })
		require.Panics(t, func() { m.SetOf(Vec{m.And(x[0], x[1])}) })
		require.Panics(t, func() { m.SetOf(Vec{m.Not(x[0])}) })
		require.NoError(t, m.Err(), "a bad SetOf must not poison the manager")
	})
	t.Run("empty sets", func(t *testing.T) {
		// rudd's Exist fails on an empty set; ours returns the node.
		f := newFixture(t, Config{})
		m := f.m
		a, b := m.Bit(Ref{f.u[2], 0}, 0), m.Bit(Ref{f.u[2], 1}, 1)
		for _, s := range []VarSet{{}, m.Set(), m.SetOf(), m.Union(), m.Union(m.Set(), VarSet{})} {
			require.True(t, m.Exists(a, s).Equal(a))
			require.True(t, m.AndExists(a, b, s).Equal(m.And(a, b)))
			require.True(t, m.Exists(m.True(), s).IsTrue())
		}
		x := Ref{f.u[2], 0}
		require.True(t, m.Exists(m.Bit(x, 0), m.Union(VarSet{}, m.Set(x))).IsTrue())
		require.NoError(t, m.Err())
	})
}
