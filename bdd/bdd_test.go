package bdd

import (
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tests in this file check every operation of the package exhaustively
// against the brute-force oracle of oracle_test.go, over all assignments of
// variables of widths 1 to 4.

func TestLayout(t *testing.T) {
	l := NewLayout()
	a := l.Uint("a", 3, 2)
	b := l.Bool("b", 1)
	c := l.Enum("c", 5, 3)
	require.Equal(t, 3, l.NumVars())
	require.Equal(t, 3*2+1+3*3, l.NumBits())
	require.Equal(t, "c", l.Name(c))
	require.Equal(t, 3, l.Bits(c))
	require.Equal(t, 3, l.Copies(c))
	require.Equal(t, 5, l.EnumValues(c))
	require.Equal(t, 0, l.EnumValues(a))
	require.Equal(t, []Ref{{a, 1}, {c, 1}}, Refs(1, a, c))

	// Bits are ordered by significance, then by declaration, with the
	// copies of a bit adjacent: copy k of bit b of v is pos(v, b) + k, and
	// locate inverts it.
	l.freeze()
	pos := map[Var][]int{a: {0, 6, 11}, b: {2}, c: {3, 8, 13}}
	seen := map[int]bool{}
	for _, v := range []Var{a, b, c} {
		for k := 0; k < l.Copies(v); k++ {
			for bit := 0; bit < l.Bits(v); bit++ {
				i := l.index(v, k, bit)
				require.Equal(t, pos[v][bit]+k, i)
				require.False(t, seen[i])
				seen[i] = true
				gv, gk, gb := l.locate(i)
				require.Equal(t, []int{int(v), k, bit}, []int{int(gv), gk, gb})
			}
		}
	}
	require.Len(t, seen, l.NumBits())

	for _, tc := range []struct{ n, bits int }{{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {8, 3}, {9, 4}, {1 << 20, 20}} {
		require.Equal(t, tc.bits, BitsFor(tc.n), "BitsFor(%d)", tc.n)
	}
	require.Panics(t, func() { l.index(a, 2, 0) })
	require.Panics(t, func() { l.index(a, 0, 3) })
	require.Panics(t, func() { l.Uint("z", 0, 1) })
	require.Panics(t, func() { l.Uint("z", 65, 1) })
	require.Panics(t, func() { l.Bool("z", 0) })
	require.Panics(t, func() { l.Enum("z", 0, 1) })

	_, err := New(l, Config{})
	require.NoError(t, err)
	require.Panics(t, func() { l.Bool("late", 1) }, "declaring after New must panic")

	// An empty layout still gives a working manager.
	m, err := New(NewLayout(), Config{})
	require.NoError(t, err)
	require.True(t, m.And(m.True(), m.True()).IsTrue())
}

// TestLayoutPacked: the bits of a packed variable are side by side, least
// significant first, among the bits of significance 0 in declaration
// order, with the copies of a bit adjacent; the others keep their order by
// significance.
func TestLayoutPacked(t *testing.T) {
	l := NewLayout()
	a := l.Uint("a", 2, 2)
	p := l.Packed("p", 3, 2)
	b := l.Bool("b", 1)
	l.freeze()
	// Significance 0: a.0 (2 copies), p.0 p.1 p.2 (2 copies each), b;
	// significance 1: a.1.
	pos := map[Var][]int{a: {0, 9}, p: {2, 4, 6}, b: {8}}
	for _, v := range []Var{a, p, b} {
		for k := 0; k < l.Copies(v); k++ {
			for bit := 0; bit < l.Bits(v); bit++ {
				i := l.index(v, k, bit)
				require.Equal(t, pos[v][bit]+k, i, "%s copy %d bit %d", l.Name(v), k, bit)
				gv, gk, gb := l.locate(i)
				require.Equal(t, []int{int(v), k, bit}, []int{int(gv), gk, gb})
			}
		}
	}
	m, err := New(l, Config{})
	require.NoError(t, err)
	// A packed variable is a value like any other.
	x := m.Eq(m.Vec(Ref{p, 0}), m.ConstVec(5, 3))
	require.Equal(t, "1", m.SatCount(x, Ref{p, 0}).String())
}

// TestLayoutGroups: groups come one after the other, ascending, each
// ordered by significance within; without groups the order is by
// significance across all variables. k increments in one relation cost
// the sum of k increments when each variable has a group of its own, and
// 2^k a bit boundary when they share one.
func TestLayoutGroups(t *testing.T) {
	l := NewLayout()
	a := l.Uint("a", 2, 2)
	b := l.Uint("b", 2, 1)
	c := l.Uint("c", 2, 1)
	l.Group(a, 1)
	l.Group(c, 1)
	require.Equal(t, 1, l.GroupOf(a))
	require.Equal(t, 0, l.GroupOf(b))
	l.freeze()
	require.Panics(t, func() { l.Group(b, 2) })
	// Group 0: b.0 b.1; group 1: a.0 (2 copies) c.0, a.1 (2 copies) c.1.
	pos := map[Var][]int{b: {0, 1}, a: {2, 5}, c: {4, 7}}
	for _, v := range []Var{a, b, c} {
		for k := 0; k < l.Copies(v); k++ {
			for bit := 0; bit < l.Bits(v); bit++ {
				require.Equal(t, pos[v][bit]+k, l.index(v, k, bit), "%s copy %d bit %d", l.Name(v), k, bit)
			}
		}
	}

	incs := func(k int, grouped bool) int {
		l := NewLayout()
		var vs []Var
		for i := range k {
			v := l.Uint(fmt.Sprintf("v%d", i), 8, 2)
			if grouped {
				l.Group(v, i)
			}
			vs = append(vs, v)
		}
		m, err := New(l, Config{})
		require.NoError(t, err)
		r := m.True()
		for _, v := range vs {
			r = m.And(r, m.Assign(m.Vec(Ref{v, 1}), m.Add(m.Vec(Ref{v, 0}), m.ConstVec(1, 8))))
		}
		return m.Size(r)
	}
	one := incs(1, true)
	require.Equal(t, 6*one, incs(6, true), "6 increments in groups of their own")
	require.Greater(t, incs(6, false), 10*6*one, "6 increments in one group")
}

// boolFn is a Boolean function of three bits p, q, r, as a node and in Go.
type boolFn struct {
	name string
	n    Node
	f    func(p, q, r bool) bool
}

func TestBoolOps(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		pr, qr, rr := Ref{f.flag, 0}, Ref{f.flag, 1}, Ref{f.u[1], 2}
		refs := []Ref{pr, qr, rr}
		P, Q, R := m.Bit(pr, 0), m.Bit(qr, 0), m.Bit(rr, 0)
		// Constants and small functions: the constant cases are where rudd's
		// shortcuts live (its OPdiff returns the right operand when the left
		// one is false).
		pool := []boolFn{
			{"false", m.False(), func(p, q, r bool) bool { return false }},
			{"true", m.True(), func(p, q, r bool) bool { return true }},
			{"p", P, func(p, q, r bool) bool { return p }},
			{"q", Q, func(p, q, r bool) bool { return q }},
			{"r", R, func(p, q, r bool) bool { return r }},
			{"!p", m.Not(P), func(p, q, r bool) bool { return !p }},
			{"p&q", m.And(P, Q), func(p, q, r bool) bool { return p && q }},
			{"p|!r", m.Or(P, m.Not(R)), func(p, q, r bool) bool { return p || !r }},
			{"p^q^r", m.Xor(m.Xor(P, Q), R), func(p, q, r bool) bool { return p != q != r }},
			{"q?r:!p", m.Ite(Q, R, m.Not(P)), func(p, q, r bool) bool { return q && r || !q && !p }},
		}
		eval := func(what string, n Node, want func(p, q, r bool) bool) {
			t.Helper()
			f.checkNode(t, what, n, refs, func(v []uint64) bool { return want(v[0] == 1, v[1] == 1, v[2] == 1) })
		}
		for _, x := range pool {
			eval(x.name, x.n, x.f)
		}
		binary := []struct {
			name string
			op   func(a, b Node) Node
			f    func(a, b bool) bool
		}{
			{"And", func(a, b Node) Node { return m.And(a, b) }, func(a, b bool) bool { return a && b }},
			{"Or", func(a, b Node) Node { return m.Or(a, b) }, func(a, b bool) bool { return a || b }},
			{"Imp", m.Imp, func(a, b bool) bool { return !a || b }},
			{"Equiv", m.Equiv, func(a, b bool) bool { return a == b }},
			{"Xor", m.Xor, func(a, b bool) bool { return a != b }},
			{"Diff", m.Diff, func(a, b bool) bool { return a && !b }},
		}
		for _, x := range pool {
			eval("Not "+x.name, m.Not(x.n), func(p, q, r bool) bool { return !x.f(p, q, r) })
			for _, y := range pool {
				for _, op := range binary {
					eval(fmt.Sprintf("%s(%s, %s)", op.name, x.name, y.name), op.op(x.n, y.n),
						func(p, q, r bool) bool { return op.f(x.f(p, q, r), y.f(p, q, r)) })
				}
				want := true
				for i := range 8 {
					p, q, r := i&1 == 1, i&2 == 2, i&4 == 4
					want = want && (!x.f(p, q, r) || y.f(p, q, r))
				}
				require.Equal(t, want, m.Implies(x.n, y.n), "Implies(%s, %s)", x.name, y.name)
				for _, z := range pool {
					eval(fmt.Sprintf("Ite(%s, %s, %s)", x.name, y.name, z.name), m.Ite(x.n, y.n, z.n),
						func(p, q, r bool) bool {
							if x.f(p, q, r) {
								return y.f(p, q, r)
							}
							return z.f(p, q, r)
						})
					eval(fmt.Sprintf("And(%s, %s, %s)", x.name, y.name, z.name), m.And(x.n, y.n, z.n),
						func(p, q, r bool) bool { return x.f(p, q, r) && y.f(p, q, r) && z.f(p, q, r) })
					eval(fmt.Sprintf("Or(%s, %s, %s)", x.name, y.name, z.name), m.Or(x.n, y.n, z.n),
						func(p, q, r bool) bool { return x.f(p, q, r) || y.f(p, q, r) || z.f(p, q, r) })
				}
			}
		}
		require.True(t, m.And().IsTrue())
		require.True(t, m.Or().IsFalse())
		require.True(t, m.And(P).Equal(P))
		require.True(t, m.Or(Q).Equal(Q))
		require.True(t, m.Const(true).IsTrue())
		require.True(t, m.Const(false).IsFalse())
		require.False(t, P.IsTrue() || P.IsFalse())

		// Canonicity: equal functions built differently are Equal and share
		// an ID; different ones are not Equal.
		a := m.Or(m.And(P, Q), m.And(P, m.Not(Q)))
		require.True(t, a.Equal(P))
		require.Equal(t, P.ID(), a.ID())
		require.True(t, m.Not(m.Not(pool[9].n)).Equal(pool[9].n))
		require.False(t, P.Equal(Q))
		require.True(t, m.Xor(P, P).IsFalse())
		require.True(t, m.Equiv(R, R).IsTrue())
	})
}

// operand is an unsigned expression for the arithmetic tests: a variable
// copy or a constant.
type operand struct {
	name  string
	vec   Vec
	width int
	ref   *Ref                  // the variable copy, nil for a constant
	value func(v uint64) uint64 // the value given the variable's value
}

// operands returns copy c of every Uint variable and the constants 0..17
// in widths 1..4 (truncated to the width, as ConstVec does).
func (f *fixture) operands(c int) []operand {
	var ops []operand
	for w := 1; w <= 4; w++ {
		r := Ref{f.u[w], c}
		ops = append(ops, operand{fmt.Sprintf("u%d/%d", w, c), f.m.Vec(r), w, &r, func(v uint64) uint64 { return v }})
	}
	for w := 1; w <= 4; w++ {
		for k := uint64(0); k <= 17; k++ {
			ops = append(ops, operand{fmt.Sprintf("%d:%d", k, w), f.m.ConstVec(k, w), w, nil,
				func(uint64) uint64 { return k & mask(w) }})
		}
	}
	return ops
}

// pairRefs returns the refs of two operands and a function that splits a
// valuation of them into the operands' values.
func pairRefs(x, y operand) ([]Ref, func(vals []uint64) (uint64, uint64)) {
	var refs []Ref
	ix, iy := -1, -1
	if x.ref != nil {
		ix = len(refs)
		refs = append(refs, *x.ref)
	}
	if y.ref != nil {
		if x.ref != nil && *x.ref == *y.ref {
			iy = ix
		} else {
			iy = len(refs)
			refs = append(refs, *y.ref)
		}
	}
	return refs, func(vals []uint64) (uint64, uint64) {
		var a, b uint64
		if ix >= 0 {
			a = vals[ix]
		}
		if iy >= 0 {
			b = vals[iy]
		}
		return x.value(a), y.value(b)
	}
}

// pairs returns the operand pairs the binary tests run on: two variables of
// every pair of widths, a variable with itself, a variable and a constant
// either way round, and two constants.
func (f *fixture) pairs() [][2]operand {
	xs, ys := f.operands(0), f.operands(1)
	var ps [][2]operand
	for _, x := range xs {
		for _, y := range ys {
			switch {
			case x.ref != nil || y.ref != nil:
				ps = append(ps, [2]operand{x, y})
			case x.width <= 2 && y.width >= 3: // a sample of constant pairs
				ps = append(ps, [2]operand{x, y})
			}
		}
		if x.ref != nil {
			ps = append(ps, [2]operand{x, x})
		}
	}
	return ps
}

func TestArith(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		ops := []struct {
			name string
			op   func(a, b Vec) Vec
			f    func(a, b uint64) uint64
		}{
			{"Add", m.Add, func(a, b uint64) uint64 { return a + b }},
			{"Sub", m.Sub, func(a, b uint64) uint64 { return a - b }},
			{"Mul", m.Mul, func(a, b uint64) uint64 { return a * b }},
		}
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			for _, op := range ops {
				what := fmt.Sprintf("%s(%s, %s)", op.name, x.name, y.name)
				r := op.op(x.vec, y.vec)
				require.Len(t, r, max(x.width, y.width), what)
				f.checkVec(t, what, r, refs, func(vals []uint64) uint64 { return op.f(split(vals)) })
			}
		}
		// Operations compose: (x*y + z) - x over three widths.
		x, y, z := Ref{f.u[2], 0}, Ref{f.u[3], 1}, Ref{f.u[4], 2}
		e := m.Sub(m.Add(m.Mul(m.Vec(x), m.Vec(y)), m.Vec(z)), m.Vec(x))
		f.checkVec(t, "x*y+z-x", e, []Ref{x, y, z}, func(v []uint64) uint64 { return (v[0]*v[1])&7 + v[2] - v[0] })
		// Commutativity gives the very same nodes (the table is canonical).
		a, b := m.Vec(x), m.Vec(y)
		for i, n := range m.Add(a, b) {
			require.True(t, n.Equal(m.Add(b, a)[i]))
			require.True(t, m.Mul(a, b)[i].Equal(m.Mul(b, a)[i]))
		}
		// Empty vectors.
		require.Empty(t, m.Add(nil, nil))
		require.True(t, m.Eq(nil, nil).IsTrue())
		require.True(t, m.Lt(nil, nil).IsFalse())
	})
}

func TestConstVecResize(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for _, w := range []int{0, 1, 2, 3, 4, 5, 63, 64, 65, 70} {
			for _, k := range []uint64{0, 1, 2, 5, 6, 17, 1<<63 | 5, ^uint64(0)} {
				v := m.ConstVec(k, w)
				require.Len(t, v, w)
				for b, n := range v {
					want := b < 64 && k>>b&1 == 1
					require.True(t, n.IsTrue() == want && n.IsFalse() == !want, "ConstVec(%d, %d) bit %d", k, w, b)
				}
			}
		}
		for w := 1; w <= 4; w++ {
			r := Ref{f.u[w], 1}
			for nw := 0; nw <= 6; nw++ {
				v := m.Resize(m.Vec(r), nw)
				require.Len(t, v, nw)
				f.checkVec(t, fmt.Sprintf("Resize(u%d, %d)", w, nw), v, []Ref{r}, func(vals []uint64) uint64 { return vals[0] })
			}
		}
	})
}

func TestCompare(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		ops := []struct {
			name string
			op   func(a, b Vec) Node
			f    func(a, b uint64) bool
		}{
			{"Eq", m.Eq, func(a, b uint64) bool { return a == b }},
			{"Ne", m.Ne, func(a, b uint64) bool { return a != b }},
			{"Lt", m.Lt, func(a, b uint64) bool { return a < b }},
			{"Le", m.Le, func(a, b uint64) bool { return a <= b }},
			{"Gt", m.Gt, func(a, b uint64) bool { return a > b }},
			{"Ge", m.Ge, func(a, b uint64) bool { return a >= b }},
		}
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			for _, op := range ops {
				f.checkNode(t, fmt.Sprintf("%s(%s, %s)", op.name, x.name, y.name), op.op(x.vec, y.vec), refs,
					func(vals []uint64) bool { return op.f(split(vals)) })
			}
		}
	})
}

func TestIteVec(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		c := Ref{f.flag, 0}
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			refs = append(refs, c)
			what := fmt.Sprintf("IteVec(flag, %s, %s)", x.name, y.name)
			v := m.IteVec(m.Bit(c, 0), x.vec, y.vec)
			require.Len(t, v, max(x.width, y.width), what)
			f.checkVec(t, what, v, refs, func(vals []uint64) uint64 {
				a, b := split(vals)
				if vals[len(vals)-1] == 1 {
					return a
				}
				return b
			})
		}
		// Constant conditions.
		x, y := m.Vec(Ref{f.u[2], 0}), m.Vec(Ref{f.u[3], 1})
		for i, n := range m.IteVec(m.True(), x, y) {
			require.True(t, n.Equal(m.Resize(x, 3)[i]))
		}
		for i, n := range m.IteVec(m.False(), x, y) {
			require.True(t, n.Equal(y[i]))
		}
	})
}

func TestAssign(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for wd := 1; wd <= 4; wd++ {
			d := Ref{f.u[wd], 2}
			for w1 := 1; w1 <= 4; w1++ {
				for w2 := 1; w2 <= 4; w2++ {
					x, y := Ref{f.u[w1], 0}, Ref{f.u[w2], 1}
					// The product in max(w1, w2) bits, then truncated or
					// widened to wd bits.
					src := m.Mul(m.Vec(x), m.Vec(y))
					f.checkNode(t, fmt.Sprintf("Assign(u%d, u%d*u%d)", wd, w1, w2), m.Assign(m.Vec(d), src), []Ref{d, x, y},
						func(v []uint64) bool { return v[0] == (v[1]*v[2])&mask(max(w1, w2))&mask(wd) })
				}
				for k := uint64(0); k < 20; k++ {
					f.checkNode(t, fmt.Sprintf("Assign(u%d, %d:5)", wd, k), m.Assign(m.Vec(d), m.ConstVec(k, 5)), []Ref{d},
						func(v []uint64) bool { return v[0] == k&mask(wd) })
				}
			}
		}
	})
}

func TestValue(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for v := range m.L.NumVars() {
			for c := 0; c < m.L.Copies(Var(v)); c++ {
				r := Ref{Var(v), c}
				for _, k := range []uint64{0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 1 << 40, ^uint64(0)} {
					f.checkNode(t, fmt.Sprintf("Value(%s/%d, %d)", m.L.Name(r.Var), c, k), m.Value(r, k), []Ref{r},
						func(vals []uint64) bool { return vals[0] == k })
				}
			}
		}
	})
}

func TestValidEnum(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for _, tc := range []struct {
			v     Var
			c     int
			valid uint64 // values 0..valid-1 are valid
		}{
			{f.e3, 0, 3}, {f.e3, 1, 3}, {f.e5, 0, 5}, {f.e5, 1, 5}, {f.e4, 0, 4}, {f.e1, 0, 1},
			{f.flag, 0, 2}, {f.u[3], 2, 8},
		} {
			r := Ref{tc.v, tc.c}
			f.checkNode(t, "ValidEnum "+m.L.Name(tc.v), m.ValidEnum(r), []Ref{r}, func(vals []uint64) bool { return vals[0] < tc.valid })
		}
		require.True(t, m.ValidEnum(Ref{f.e4, 0}).IsTrue())
		require.True(t, m.ValidEnum(Ref{f.u[2], 0}).IsTrue())
	})
}

func TestCopyEq(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		require.True(t, m.CopyEq(0, 1).IsTrue())
		for _, vars := range [][]Var{{f.u[1]}, {f.u[4]}, {f.u[2], f.u[3]}, {f.e3, f.flag}, {f.u[3], f.u[1], f.e5}} {
			for _, cs := range [][2]int{{0, 1}, {1, 0}} {
				var refs []Ref
				refs = append(refs, Refs(cs[0], vars...)...)
				refs = append(refs, Refs(cs[1], vars...)...)
				n := len(vars)
				f.checkNode(t, fmt.Sprintf("CopyEq%v %v", cs, vars), m.CopyEq(cs[0], cs[1], vars...), refs, func(v []uint64) bool {
					return slices.Equal(v[:n], v[n:])
				})
			}
		}
		// Linear size: three nodes per bit.
		require.Equal(t, 3*(2+3), m.Size(m.CopyEq(0, 2, f.u[2], f.u[3])))
	})
}

func TestOrd(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		// A block of two variables of two bits: u2 and e3.
		vars := []Var{f.u[2], f.e3}
		xs, ys := Refs(0, vars...), Refs(1, vars...)
		// The documented order: bits compared in BDD variable order, the
		// first BDD variable most significant.
		key := func(vals []uint64) uint64 {
			type bit struct{ idx, val int }
			var bits []bit
			for i, v := range vars {
				for b := 0; b < m.L.Bits(v); b++ {
					bits = append(bits, bit{m.L.index(v, 0, b), int(vals[i] >> b & 1)})
				}
			}
			slices.SortFunc(bits, func(a, b bit) int { return a.idx - b.idx })
			var k uint64
			for _, b := range bits {
				k = k<<1 | uint64(b.val)
			}
			return k
		}
		for _, order := range [][]Var{vars, {f.e3, f.u[2]}} {
			ord := m.Ord(0, 1, order...)
			rev := m.Ord(1, 0, order...)
			c, crev := f.compile(t, ord), f.compile(t, rev)
			// lt[a][b] for valuations a, b of the block, each a number
			// u2 + 4*e3.
			var lt [16][16]bool
			f.each(append(append([]Ref{}, xs...), ys...), func(v []uint64, a asg) {
				i, j := v[0]+4*v[1], v[2]+4*v[3]
				lt[i][j] = c.eval(t, a)
				require.Equal(t, key(v[:2]) < key(v[2:]), lt[i][j], "Ord %v %v", v[:2], v[2:])
				gt := crev.eval(t, a)
				require.Equal(t, key(v[:2]) > key(v[2:]), gt, "reverse Ord %v %v", v[:2], v[2:])
			})
			for a := range 16 {
				require.False(t, lt[a][a], "irreflexive")
				for b := range 16 {
					if a != b {
						require.True(t, lt[a][b] != lt[b][a], "total and asymmetric at %d %d", a, b)
					}
					for c := range 16 {
						if lt[a][b] && lt[b][c] {
							require.True(t, lt[a][c], "transitive at %d %d %d", a, b, c)
						}
					}
				}
			}
		}
		require.True(t, m.Ord(0, 1).IsFalse(), "empty block: nothing is smaller")
	})
}

func TestExists(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for _, r := range f.rels(t) {
			for _, q := range subsets(r.refs) {
				keep := slices.DeleteFunc(slices.Clone(r.refs), func(x Ref) bool { return indexOf(q, x) >= 0 })
				vecs := make([]Vec, len(q))
				for i, x := range q {
					vecs[i] = m.Vec(x)
				}
				// The same set three ways, plus a variable outside the support.
				sets := []struct {
					name string
					s    VarSet
				}{
					{"Set", m.Set(q...)},
					{"SetOf", m.SetOf(vecs...)},
					{"Union", m.Union(m.Set(q[:len(q)/2]...), m.Set(q[len(q)/2:]...), m.Set())},
					{"Extra", m.Union(m.Set(q...), m.Set(Ref{f.u[4], 2}, Ref{f.e5, 1}))},
				}
				for _, set := range sets {
					sname, s := set.name, set.s
					what := fmt.Sprintf("Exists(%s, %s%v)", r.name, sname, q)
					// Evaluating under an assignment of the kept refs only
					// also checks that the quantified ones are gone.
					f.checkNode(t, what, m.Exists(r.node, s), keep, func(kv []uint64) bool {
						found := false
						full := make([]uint64, len(r.refs))
						f.each(q, func(qv []uint64, _ asg) {
							for i, x := range r.refs {
								if j := indexOf(keep, x); j >= 0 {
									full[i] = kv[j]
								} else {
									full[i] = qv[indexOf(q, x)]
								}
							}
							found = found || r.pred(full)
						})
						return found
					})
				}
			}
		}
		all := m.Set(Ref{f.u[3], 0}, Ref{f.u[3], 1})
		require.True(t, m.Exists(m.True(), all).IsTrue())
		require.True(t, m.Exists(m.False(), all).IsFalse())
		require.True(t, m.Exists(m.Bit(Ref{f.u[3], 0}, 1), all).IsTrue())
	})
}

func TestAndExists(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		rs := f.rels(t)
		// rs[0] and rs[1] are false and true; the others are over flag/0,
		// u2/0, u3/0, u3/1 and u4/0, and share some.
		for _, pr := range [][2]int{{0, 2}, {2, 1}, {1, 1}, {2, 2}, {2, 3}, {3, 4}, {4, 6}, {2, 5}, {5, 6}} {
			a, b := rs[pr[0]], rs[pr[1]]
			all := refsUnion(a.refs, b.refs)
			pick := func(full []uint64, rs []Ref) []uint64 {
				out := make([]uint64, len(rs))
				for k, x := range rs {
					out[k] = full[indexOf(all, x)]
				}
				return out
			}
			for _, q := range subsets(all) {
				keep := slices.DeleteFunc(slices.Clone(all), func(x Ref) bool { return indexOf(q, x) >= 0 })
				s := m.Set(q...)
				got := m.AndExists(a.node, b.node, s)
				what := fmt.Sprintf("AndExists(%s, %s, %v)", a.name, b.name, q)
				require.True(t, got.Equal(m.Exists(m.And(a.node, b.node), s)), what+" differs from Exists(And)")
				f.checkNode(t, what, got, keep, func(kv []uint64) bool {
					found := false
					full := make([]uint64, len(all))
					f.each(q, func(qv []uint64, _ asg) {
						for k, x := range all {
							if j := indexOf(keep, x); j >= 0 {
								full[k] = kv[j]
							} else {
								full[k] = qv[indexOf(q, x)]
							}
						}
						found = found || a.pred(pick(full, a.refs)) && b.pred(pick(full, b.refs))
					})
					return found
				})
			}
		}
	})
}

func TestRename(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		fl := Ref{f.flag, 0}
		x, y, z := Ref{f.u[2], 0}, Ref{f.u[3], 0}, Ref{f.u[3], 1}
		e3, e5 := Ref{f.e3, 0}, Ref{f.e5, 0}
		X, Y, Z := m.Vec(x), m.Vec(y), m.Vec(z)
		nodes := []rel{
			{"x<y ^ flag", []Ref{fl, x, y}, m.Xor(m.Lt(X, Y), m.Bit(fl, 0)),
				func(v []uint64) bool { return (v[1] < v[2]) != (v[0] == 1) }},
			{"x+y==z", []Ref{x, y, z}, m.Eq(m.Add(X, Y), Z),
				func(v []uint64) bool { return (v[0]+v[1])&7 == v[2] }},
			{"e3*2 > e5 | x==1", []Ref{e3, e5, x}, m.Or(m.Gt(m.Mul(m.Vec(e3), m.ConstVec(2, 3)), m.Vec(e5)), m.Value(x, 1)),
				func(v []uint64) bool { return (v[0]*2)&7 > v[1] || v[2] == 1 }},
			{"true", []Ref{x}, m.True(), func([]uint64) bool { return true }},
			{"false", []Ref{x}, m.False(), func([]uint64) bool { return false }},
		}
		renamings := []struct {
			name     string
			from, to []Ref
		}{
			{"none", nil, nil},
			{"x/0->x/1", []Ref{x}, []Ref{{f.u[2], 1}}},
			{"x/0->x/2, y/0->y/2", []Ref{x, y}, []Ref{{f.u[2], 2}, {f.u[3], 2}}},
			{"z/1->z/0 (downwards)", []Ref{z}, []Ref{{f.u[3], 2}}},
			{"flag/0->flag/1, x/0->x/1, y/0->y/2", []Ref{fl, x, y}, []Ref{{f.flag, 1}, {f.u[2], 1}, {f.u[3], 2}}},
			// Between variables of equal width, crossing the layout order.
			{"x->e3/1, y->e5/1", []Ref{x, y}, []Ref{{f.e3, 1}, {f.e5, 1}}},
			{"e3->u2/2, e5->u3/2", []Ref{e3, e5}, []Ref{{f.u[2], 2}, {f.u[3], 2}}},
			{"flag->u1/0, x->e4", []Ref{fl, x}, []Ref{{f.u[1], 0}, {f.e4, 0}}},
			{"e3->x/1, x->e3/1 (cross)", []Ref{e3, x}, []Ref{{f.u[2], 1}, {f.e3, 1}}},
		}
		for _, rn := range renamings {
			ren := m.Renaming(rn.from, rn.to)
			for _, n := range nodes {
				if slices.ContainsFunc(rn.to, func(r Ref) bool { return indexOf(n.refs, r) >= 0 }) {
					continue // a target in the support: a caller error
				}
				// The renamed node over the image of n's refs.
				img := make([]Ref, len(n.refs))
				for i, r := range n.refs {
					img[i] = r
					if k := indexOf(rn.from, r); k >= 0 {
						img[i] = rn.to[k]
					}
				}
				what := fmt.Sprintf("Rename(%s, %s)", n.name, rn.name)
				got := m.Rename(n.node, ren)
				f.checkNode(t, what, got, img, n.pred)
				// Renaming back gives the node again (the cache of the
				// renaming must not confuse the two directions).
				back := m.Renaming(rn.to, rn.from)
				require.True(t, m.Rename(got, back).Equal(n.node), what+" and back")
				require.True(t, m.Rename(n.node, ren).Equal(got), what+" twice")
			}
		}
		require.Panics(t, func() { m.Renaming([]Ref{x}, nil) }, "blocks of different sizes")
		require.Panics(t, func() { m.Renaming([]Ref{x}, []Ref{{f.u[3], 1}}) }, "different widths")
		require.Panics(t, func() { m.Renaming([]Ref{x, {f.u[2], 1}}, []Ref{{f.u[2], 1}, {f.u[2], 2}}) }, "a source is a target")
		require.Panics(t, func() { m.Renaming([]Ref{x, x}, []Ref{{f.u[2], 1}, {f.u[2], 2}}) }, "a source twice")
	})
}

func TestSatCount(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		extra := Ref{f.u[4], 2} // in no relation
		for _, r := range f.rels(t) {
			lists := append(subsets(r.refs), append(slices.Clone(r.refs), extra), []Ref{r.refs[0], r.refs[0]}, []Ref{extra})
			for _, refs := range lists {
				// Count the valuations of refs (each counted once) that
				// extend to a valuation of r's refs satisfying the predicate.
				uniq := refsUnion(nil, refs)
				all := refsUnion(uniq, r.refs)
				seen := map[string]bool{}
				f.each(all, func(v []uint64, _ asg) {
					full := make([]uint64, len(r.refs))
					for i, x := range r.refs {
						full[i] = v[indexOf(all, x)]
					}
					if r.pred(full) {
						seen[fmt.Sprint(v[:len(uniq)])] = true
					}
				})
				want := len(seen)
				got := m.SatCount(r.node, refs...)
				require.Equal(t, 0, big.NewInt(int64(want)).Cmp(got), "SatCount(%s, %v): got %v want %d", r.name, refs, got, want)
			}
		}
		require.Equal(t, int64(1), m.SatCount(m.True()).Int64())
		require.Equal(t, int64(0), m.SatCount(m.False()).Int64())
		require.Equal(t, int64(16*16*8), m.SatCount(m.True(), Ref{f.u[4], 0}, Ref{f.u[4], 1}, Ref{f.u[3], 0}).Int64())
		// All BDD variables at once.
		all := []Ref{}
		for v := range m.L.NumVars() {
			all = append(all, Refs(0, Var(v))...)
			for c := 1; c < m.L.Copies(Var(v)); c++ {
				all = append(all, Ref{Var(v), c})
			}
		}
		want := new(big.Int).Lsh(big.NewInt(1), uint(m.L.NumBits()-3))
		require.Equal(t, 0, want.Cmp(m.SatCount(m.Value(Ref{f.u[3], 1}, 5), all...)))
	})
}

func TestEnumerate(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for _, r := range f.rels(t) {
			var orders [][]Ref
			for _, fs := range subsets(r.refs) {
				// Each subset in the layout's order and reversed: the
				// values come off the paths in the variable order, and are
				// sorted when that is not the order of the fields.
				rev := slices.Clone(fs)
				slices.Reverse(rev)
				orders = append(orders, fs)
				if len(fs) > 1 {
					orders = append(orders, rev)
				}
			}
			for _, fs := range orders {
				// The projection, by brute force, sorted with the first field
				// most significant.
				var want [][]uint64
				f.each(r.refs, func(v []uint64, _ asg) {
					if !r.pred(v) {
						return
					}
					p := make([]uint64, len(fs))
					for i, x := range fs {
						p[i] = v[indexOf(r.refs, x)]
					}
					want = append(want, p)
				})
				slices.SortFunc(want, slices.Compare)
				want = slices.CompactFunc(want, slices.Equal)
				fields := make([]Vec, len(fs))
				for i, x := range fs {
					fields[i] = m.Vec(x)
				}
				var got [][]uint64
				m.Enumerate(r.node, fields, func(vals []uint64) bool {
					got = append(got, slices.Clone(vals))
					return true
				})
				require.Equal(t, want, got, "Enumerate(%s, %v)", r.name, fs)
				// Early stop after k calls.
				for _, k := range slices.Compact([]int{1, 2, len(want) / 2, len(want) - 1, len(want)}) {
					if k < 1 || k > len(want) {
						continue
					}
					calls := 0
					m.Enumerate(r.node, fields, func([]uint64) bool {
						calls++
						return calls < k
					})
					require.Equal(t, k, calls, "Enumerate(%s, %v) stopping after %d", r.name, fs, k)
				}
			}
		}
		// A field that is an expression: the values x+y takes when x < y.
		x, y := Ref{f.u[2], 0}, Ref{f.u[3], 0}
		var got []uint64
		m.Enumerate(m.Lt(m.Vec(x), m.Vec(y)), []Vec{m.Add(m.Vec(x), m.Vec(y))}, func(v []uint64) bool {
			got = append(got, v[0])
			return true
		})
		var want []uint64
		f.each([]Ref{x, y}, func(v []uint64, _ asg) {
			if v[0] < v[1] {
				want = append(want, (v[0]+v[1])&7)
			}
		})
		slices.Sort(want)
		require.Equal(t, slices.Compact(want), got)
		// A field of 64 bits.
		wl := NewLayout()
		w := wl.Uint("w", 64, 1)
		bm, err := New(wl, Config{})
		require.NoError(t, err)
		vals := []uint64{0, 1, 1 << 63, ^uint64(0)}
		var set []Node
		for _, v := range vals {
			set = append(set, bm.Value(Ref{w, 0}, v))
		}
		got = nil
		bm.Enumerate(bm.Or(set...), []Vec{bm.Vec(Ref{w, 0})}, func(v []uint64) bool {
			got = append(got, v[0])
			return true
		})
		require.Equal(t, vals, got)
		// More valuations than are read off the paths at once: bit by
		// bit, in the same order, stopping when fn does.
		bl := NewLayout()
		u := bl.Uint("u", 15, 1)
		um, err := New(bl, Config{})
		require.NoError(t, err)
		n := uint64(0)
		um.Enumerate(um.True(), []Vec{um.Vec(Ref{u, 0})}, func(v []uint64) bool {
			require.Equal(t, n, v[0])
			n++
			return true
		})
		require.Equal(t, uint64(1<<15), n)
		n = 0
		um.Enumerate(um.True(), []Vec{um.Vec(Ref{u, 0})}, func(v []uint64) bool {
			n++
			return n < 3
		})
		require.Equal(t, uint64(3), n)
	})
}

func TestSupportSize(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		rs := f.rels(t)
		x := Ref{f.u[2], 0}
		P := m.Bit(x, 0)
		rs = append(rs,
			rel{"p|!p&q", []Ref{x}, m.Or(P, m.And(m.Not(P), m.Bit(x, 1))), nil},
			rel{"cancelling", []Ref{x, {f.e5, 1}}, m.Or(m.And(P, m.Bit(Ref{f.e5, 1}, 2)), m.And(P, m.Not(m.Bit(Ref{f.e5, 1}, 2)))), nil},
			rel{"e1 and u1/2", []Ref{{f.e1, 0}, {f.u[1], 2}}, m.Xor(m.Bit(Ref{f.e1, 0}, 0), m.Bit(Ref{f.u[1], 2}, 0)), nil},
		)
		for _, r := range rs {
			// Semantic support: a ref matters if changing its value alone
			// changes the node's value.
			c := f.compile(t, r.node)
			var want []Ref
			for _, q := range r.refs {
				matters := false
				others := slices.DeleteFunc(slices.Clone(r.refs), func(x Ref) bool { return x == q })
				f.each(others, func(_ []uint64, a asg) {
					b := slices.Clone(a)
					b.set(m.L, q, 0)
					base := c.eval(t, b)
					for v := uint64(1); v <= mask(m.L.Bits(q.Var)); v++ {
						b.set(m.L, q, v)
						matters = matters || c.eval(t, b) != base
					}
				})
				if matters {
					want = append(want, q)
				}
			}
			slices.SortFunc(want, func(a, b Ref) int {
				if a.Var != b.Var {
					return int(a.Var - b.Var)
				}
				return a.Copy - b.Copy
			})
			require.Equal(t, want, m.Support(r.node), "Support(%s)", r.name)
			require.Equal(t, len(c.nodes), m.Size(r.node), "Size(%s)", r.name)
		}
		require.Empty(t, m.Support(m.True()))
		require.Equal(t, 0, m.Size(m.False()))
		require.Equal(t, 1, m.Size(P))
		require.Equal(t, 5, m.Size(m.Xor(P, m.Xor(m.Bit(x, 1), m.Bit(Ref{f.flag, 1}, 0)))))
	})
}

// TestSupportManyCopies: Support on a variable with more than 64 copies
// (the copies past 64 are counted apart).
func TestSupportManyCopies(t *testing.T) {
	l := NewLayout()
	w := l.Bool("w", 70)
	v := l.Uint("v", 2, 2)
	m, err := New(l, Config{})
	require.NoError(t, err)
	a := m.And(m.Bit(Ref{w, 3}, 0), m.Bit(Ref{w, 66}, 0), m.Bit(Ref{v, 1}, 1))
	require.Equal(t, []Ref{{w, 3}, {w, 66}, {v, 1}}, m.Support(a))
}
