package bdd

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The relations built in one pass of the kernel (CopyEq, Ord), or in an
// order of their own (Conj, Values, Union), must be the very nodes that
// the plain folds build: the same node of the table (Equal), in every
// order the layout can place the bits in.

// randomLayout declares a random mix of variables: by significance
// (Uint, Enum, Bool), shifted (BoolAt) and packed, 2 to 6 copies each;
// with permute, the bit groups (a bit with its copies) are then placed in
// a random order, which covers any order a layout can make (the copies of
// a bit are adjacent by construction: Layout.index).
func randomLayout(t *testing.T, rng *rand.Rand, permute bool) (*Manager, []Var) {
	t.Helper()
	l := NewLayout()
	var vars []Var
	for i := range 4 + rng.IntN(8) {
		copies := 2 + rng.IntN(5)
		name := fmt.Sprintf("v%d", i)
		switch rng.IntN(5) {
		case 0:
			vars = append(vars, l.Bool(name, copies))
		case 1:
			vars = append(vars, l.BoolAt(name, copies, rng.IntN(6)))
		case 2:
			vars = append(vars, l.Packed(name, 1+rng.IntN(6), copies))
		case 3:
			vars = append(vars, l.Enum(name, 2+rng.IntN(30), copies))
		default:
			vars = append(vars, l.Uint(name, 1+rng.IntN(8), copies))
		}
	}
	l.freeze()
	if permute {
		type group struct{ v, b int }
		var gs []group
		for v := range l.vars {
			for b := range l.vars[v].bits {
				gs = append(gs, group{v, b})
			}
		}
		rng.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		i := 0
		for _, g := range gs {
			d := &l.vars[g.v]
			d.pos[g.b] = i
			for c := range d.copies {
				l.owner[i], l.bitOf[i] = Ref{Var(g.v), c}, g.b
				i++
			}
		}
	}
	m, err := New(l, Config{})
	require.NoError(t, err)
	return m, vars
}

// randomVars picks some of vars (a repeat now and then), in a random
// order, and two different copies that all of them have.
func randomVars(rng *rand.Rand, m *Manager, vars []Var) (picked []Var, c1, c2 int) {
	copies := 6
	for _, v := range rng.Perm(len(vars))[:1+rng.IntN(len(vars))] {
		picked = append(picked, vars[v])
		copies = min(copies, m.L.Copies(vars[v]))
	}
	if rng.IntN(4) == 0 {
		picked = append(picked, picked[rng.IntN(len(picked))])
	}
	c1 = rng.IntN(copies)
	c2 = (c1 + 1 + rng.IntN(copies-1)) % copies
	return picked, c1, c2
}

// foldCopyEq is CopyEq as it was built before issue 38: an And per bit,
// from the last variable's last bit up to the first's first.
func foldCopyEq(m *Manager, c1, c2 int, vars []Var) Node {
	r := m.True()
	for i := len(vars) - 1; i >= 0; i-- {
		for b := m.L.Bits(vars[i]) - 1; b >= 0; b-- {
			r = m.And(m.Equiv(m.Bit(Ref{vars[i], c1}, b), m.Bit(Ref{vars[i], c2}, b)), r)
		}
	}
	return r
}

func TestCopyEqOrdEveryOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	for i := range 60 {
		m, vars := randomLayout(t, rng, i%3 != 0)
		for range 10 {
			picked, c1, c2 := randomVars(rng, m, vars)
			what := fmt.Sprintf("layout %d, copies %d and %d of %v", i, c1, c2, picked)
			want := foldCopyEq(m, c1, c2, picked)
			got := m.CopyEq(c1, c2, picked...)
			require.True(t, got.Equal(want), "CopyEq, %s: got node %d, want %d", what, got.ID(), want.ID())
			pairs, chain := m.copyPairs(c1, c2, picked)
			require.True(t, chain, "%s: the copies of a bit are adjacent, the pairs must chain", what)
			require.True(t, m.copyEqConj(pairs).Equal(want), "CopyEq by Conj, %s", what)

			want = m.ordFold(c1, c2, picked)
			got = m.Ord(c1, c2, picked...)
			require.True(t, got.Equal(want), "Ord, %s: got node %d, want %d", what, got.ID(), want.ID())
		}
		require.NoError(t, m.Err())
	}
}

// TestConjValuesUnion: Conj, Values, BitEqs and Union against the plain
// folds of And, on random operands.
func TestConjValuesUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	for i := range 40 {
		m, vars := randomLayout(t, rng, i%2 == 1)
		for range 10 {
			picked, c1, c2 := randomVars(rng, m, vars)
			// Operands: bits, literals, equivalences of two bits, small
			// values, a constant now and then.
			var ns []Node
			for range 1 + rng.IntN(12) {
				v := picked[rng.IntN(len(picked))]
				x := m.Bit(Ref{v, c1}, rng.IntN(m.L.Bits(v)))
				switch rng.IntN(6) {
				case 0:
					ns = append(ns, m.Not(x))
				case 1:
					ns = append(ns, m.Equiv(x, m.Bit(Ref{v, c2}, rng.IntN(m.L.Bits(v)))))
				case 2:
					ns = append(ns, m.Value(Ref{v, c2}, uint64(rng.IntN(1<<m.L.Bits(v)))))
				case 3:
					ns = append(ns, m.Const(rng.IntN(8) != 0))
				default:
					ns = append(ns, x)
				}
			}
			want := m.And(ns...)
			require.True(t, m.Conj(ns...).Equal(want), "Conj of %d operands", len(ns))

			refs := Refs(c1, picked...)
			vals := make([]uint64, len(refs))
			want = m.True()
			for j, r := range refs {
				vals[j] = uint64(rng.IntN(1 << m.L.Bits(r.Var)))
				want = m.And(want, m.Value(r, vals[j]))
			}
			require.True(t, m.Values(refs, vals).Equal(want), "Values %v %v", refs, vals)

			var fs []Node
			want = m.True()
			for _, v := range picked {
				fs = append(fs, m.BitEqs(m.Vec(Ref{v, c1}), m.Vec(Ref{v, c2}))...)
				want = m.And(want, m.Eq(m.Vec(Ref{v, c1}), m.Vec(Ref{v, c2})))
			}
			require.True(t, m.Conj(fs...).Equal(want), "Conj of BitEqs")

			var sets []VarSet
			cube := m.True()
			for _, r := range refs {
				s := m.Set(r)
				sets = append(sets, s)
				cube = m.And(cube, Node{s.cube})
			}
			sets = append(sets, VarSet{})
			require.True(t, Node{m.Union(sets...).cube}.Equal(cube), "Union of %v", refs)
		}
		require.NoError(t, m.Err())
	}
	m, _ := randomLayout(t, rng, false)
	require.True(t, m.Conj().IsTrue())
	require.True(t, m.Conj(m.Bit(Ref{0, 0}, 0), m.False()).IsFalse())
	require.True(t, m.Union().empty())
	require.True(t, m.Values(nil, nil).IsTrue())
	require.True(t, m.Values([]Ref{{0, 0}}, []uint64{1 << m.L.Bits(0)}).IsFalse(), "a value that does not fit")
	require.Panics(t, func() { m.Values([]Ref{{0, 0}}, nil) })
}

// TestCopyEqLinear: the equality of two copies of 2,000 variables of 32
// bits (issue 38's family C) is one pass of the kernel, three nodes a
// bit; the fold it replaces took minutes. So are the order and the
// union of their sets.
func TestCopyEqLinear(t *testing.T) {
	l := NewLayout()
	var vars []Var
	for i := range 2000 {
		vars = append(vars, l.Uint(fmt.Sprintf("g%d", i), 32, 2))
	}
	m, err := New(l, Config{})
	require.NoError(t, err)
	ops := m.ops
	eq := m.CopyEq(0, 1, vars...)
	require.Equal(t, ops+1, m.ops, "one kernel operation")
	require.Equal(t, 3*2000*32, m.Size(eq))
	ops = m.ops
	rev := slices.Clone(vars)
	slices.Reverse(rev)
	ord := m.Ord(1, 0, rev...)
	require.Equal(t, ops+1, m.ops, "one kernel operation")
	require.LessOrEqual(t, m.Size(ord), 3*2000*32)
	u := m.Union(m.Set(Refs(0, vars...)...), m.Set(Refs(1, vars...)...))
	require.Equal(t, 2*2000*32, m.Size(Node{u.cube}))
	require.NoError(t, m.Err())
}
