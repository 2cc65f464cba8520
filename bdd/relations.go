package bdd

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
)

// Relations over the layout's variables: their bits, a value, the
// equality and the order of two copies, an enum's valid values. The
// arithmetic on Vecs is in vec.go.

// Bit returns the BDD of bit b of the variable copy r.
func (m *Manager) Bit(r Ref, b int) Node { return m.vars[m.L.index(r.Var, r.Copy, b)] }

// Vec returns the bits of the variable copy r, least significant first.
func (m *Manager) Vec(r Ref) Vec {
	v := make(Vec, m.L.Bits(r.Var))
	for b := range v {
		v[b] = m.Bit(r, b)
	}
	return v
}

// Value returns r == val. A value that does not fit r's width gives false.
func (m *Manager) Value(r Ref, val uint64) Node {
	w := m.L.Bits(r.Var)
	if val&^mask(w) != 0 {
		// ConstVec would keep only the low bits of val.
		return m.fls
	}
	return m.Eq(m.Vec(r), m.ConstVec(val, w))
}

// mask returns the value with the w low bits set.
func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// CopyEq returns copy c1 == copy c2 for every variable in vars. When the
// two copies of each bit are closer to each other in the BDD order than
// to any other bit of vars (as the layout places copies), the kernel
// builds it in one pass from the bottom up, three nodes per bit;
// otherwise the bits' equivalences are conjoined from the deepest up
// ([Manager.Conj]). Either way the time is linear in the number of bits,
// where conjoining the bits in the order of vars, against the BDD order,
// was quadratic (issue 38: 2,000 globals of 32 bits took minutes).
func (m *Manager) CopyEq(c1, c2 int, vars ...Var) Node {
	if c1 == c2 || len(vars) == 0 {
		return m.tru
	}
	pairs, chain := m.copyPairs(c1, c2, vars)
	if chain {
		return m.call(func() rudd.Node { return m.b.PairChain(pairs, 1, [4]int{-1, 0, 0, -1}) })
	}
	return m.copyEqConj(pairs)
}

// copyEqConj is CopyEq when the copies' bits interleave.
func (m *Manager) copyEqConj(pairs [][2]int) Node {
	fs := make([]Node, len(pairs))
	for i, p := range pairs {
		fs[i] = m.Equiv(m.vars[p[0]], m.vars[p[1]])
	}
	return m.Conj(fs...)
}

// copyPairs returns the BDD variables of copies c1 and c2 (c1 != c2) of
// each bit of vars, as pairs {c1's, c2's} sorted by the upper one, and
// whether the pairs lie one below the other (the kernel's PairChain).
func (m *Manager) copyPairs(c1, c2 int, vars []Var) (pairs [][2]int, chain bool) {
	for _, v := range vars {
		for b := 0; b < m.L.Bits(v); b++ {
			pairs = append(pairs, [2]int{m.L.index(v, c1, b), m.L.index(v, c2, b)})
		}
	}
	slices.SortFunc(pairs, func(p, q [2]int) int { return cmp.Compare(min(p[0], p[1]), min(q[0], q[1])) })
	pairs = slices.Compact(pairs) // a variable named twice
	chain = true
	for k := 1; k < len(pairs) && chain; k++ {
		chain = max(pairs[k-1][0], pairs[k-1][1]) < min(pairs[k][0], pairs[k][1])
	}
	return pairs, chain
}

// Conj returns the conjunction of ns (true for none), conjoined from the
// operand whose top variable is deepest in the BDD order up (operands
// with the same top variable in the order given). The result is the same
// BDD in any order; the time is not. When the operands' supports lie in
// stretches of the order that do not interleave (the bits of a copy
// equality, the literals of values), each And puts its operand above the
// partial result and the whole conjunction takes time linear in its size,
// where a fold from the top down rebuilds the partial result at every
// step: quadratic in the number of operands.
func (m *Manager) Conj(ns ...Node) Node {
	type op struct {
		top int
		n   Node
	}
	ops := make([]op, 0, len(ns))
	for _, n := range ns {
		switch {
		case n.IsFalse():
			return m.fls
		case n.IsTrue():
		default:
			ops = append(ops, op{m.b.Label(n.n), n})
		}
	}
	slices.SortStableFunc(ops, func(x, y op) int { return cmp.Compare(y.top, x.top) })
	r := m.tru
	for _, o := range ops {
		r = m.And(o.n, r)
	}
	return r
}

// BitEqs returns the equivalences of the bits of a and b (after
// widening), least significant first: the operands of [Manager.Conj]
// whose conjunction is a == b. A caller conjoining several equalities
// passes all their bits to one Conj.
func (m *Manager) BitEqs(a, b Vec) []Node {
	a, b = m.widen(a, b)
	fs := make([]Node, len(a))
	for i := range a {
		fs[i] = m.Equiv(a[i], b[i])
	}
	return fs
}

// Values returns refs[i] == vals[i] for every i, one cube built from its
// deepest literal up ([Manager.Conj]). A value that does not fit its
// variable's width gives false; Values panics unless len(refs) ==
// len(vals).
func (m *Manager) Values(refs []Ref, vals []uint64) Node {
	if len(refs) != len(vals) {
		panic(fmt.Sprintf("bdd: Values: %d variables and %d values", len(refs), len(vals)))
	}
	var fs []Node
	for i, r := range refs {
		w := m.L.Bits(r.Var)
		if vals[i]&^mask(w) != 0 {
			return m.fls
		}
		for b := range w {
			x := m.Bit(r, b)
			if vals[i]>>b&1 == 0 {
				x = m.Not(x)
			}
			fs = append(fs, x)
		}
	}
	return m.Conj(fs...)
}

// ValidEnum restricts an enum variable copy to its valid values; for other
// variables it returns true.
func (m *Manager) ValidEnum(r Ref) Node {
	n := m.L.EnumValues(r.Var)
	if n == 0 || n == 1<<m.L.Bits(r.Var) {
		return m.tru
	}
	return m.Lt(m.Vec(r), m.ConstVec(uint64(n), m.L.Bits(r.Var)))
}

// Ord returns the strict lexicographic order x < y between copy cx and copy
// cy of vars, comparing bits in BDD variable order (the first BDD variable
// is the most significant). It is a strict total order on valuations.
// Like [Manager.CopyEq], it is built in one pass of the kernel when the
// copies of each bit lie together, else bit after bit from the bottom up:
// linear in the number of bits either way.
func (m *Manager) Ord(cx, cy int, vars ...Var) Node {
	if cx == cy || len(vars) == 0 {
		return m.fls
	}
	if pairs, chain := m.copyPairs(cx, cy, vars); chain {
		// At each bit, from the first: x's bit 0 and y's 1 decides
		// true, 1 and 0 false, equal bits defer to the bits after.
		return m.call(func() rudd.Node { return m.b.PairChain(pairs, 0, [4]int{-1, 1, 0, -1}) })
	}
	return m.ordFold(cx, cy, vars)
}

// ordFold is Ord when the copies' bits interleave.
func (m *Manager) ordFold(cx, cy int, vars []Var) Node {
	type pair struct{ x, y int }
	var bits []pair
	for _, v := range vars {
		for b := 0; b < m.L.Bits(v); b++ {
			bits = append(bits, pair{m.L.index(v, cx, b), m.L.index(v, cy, b)})
		}
	}
	// Sort by the position of x's bit (an insertion sort here was
	// quadratic: the bits of variables given in declaration order
	// interleave in the order by significance).
	slices.SortFunc(bits, func(p, q pair) int { return cmp.Compare(p.x, q.x) })
	lt := m.fls
	for i := len(bits) - 1; i >= 0; i-- {
		x, y := m.vars[bits[i].x], m.vars[bits[i].y]
		lt = m.Or(m.And(m.Not(x), y), m.And(m.Equiv(x, y), lt))
	}
	return lt
}
