package bdd

import (
	"math/big"
	"slices"
)

// Reading BDDs: model counts, enumeration, support and size, the least
// assignment (Pick) and satisfiability of a conjunction (Meets), by walks
// over the kernel's node table.

// SatCount returns the number of assignments of the given variable copies
// that satisfy EXISTS (all other variables). a.
func (m *Manager) SatCount(a Node, refs ...Ref) *big.Int {
	keep := make([]bool, m.L.nbits)
	for _, r := range refs {
		for b := 0; b < m.L.Bits(r.Var); b++ {
			keep[m.L.index(r.Var, r.Copy, b)] = true
		}
	}
	return m.countOver(a, keep)
}

// Count returns the number of assignments of the variables of s that
// satisfy EXISTS (all other variables). a.
func (m *Manager) Count(a Node, s VarSet) *big.Int {
	keep := make([]bool, m.L.nbits)
	if !s.empty() {
		for id := *s.cube; id >= 2; {
			level, _, high := m.b.NodeAt(id)
			keep[level] = true
			id = high
		}
	}
	return m.countOver(a, keep)
}

// SetBits returns the number of variables in s.
func (m *Manager) SetBits(s VarSet) int {
	n := 0
	if !s.empty() {
		for id := *s.cube; id >= 2; n++ {
			_, _, id = m.b.NodeAt(id)
		}
	}
	return n
}

// countOver counts the assignments of the variables marked in keep.
func (m *Manager) countOver(a Node, keep []bool) *big.Int {
	var other []int
	for i, kp := range keep {
		if !kp {
			other = append(other, i)
		}
	}
	p := m.Exists(a, m.set(other))
	if m.err != nil {
		return new(big.Int)
	}
	c := m.b.Satcount(p.n)
	return c.Rsh(c, uint(len(other)))
}

// Enumerate calls fn with the values of fields, in ascending lexicographic
// order (the first field most significant), for every valuation of the
// fields that can be extended to a satisfying assignment of a. Fields are
// Vecs of at most 64 bits. It stops early when fn returns false.
func (m *Manager) Enumerate(a Node, fields []Vec, fn func(vals []uint64) bool) {
	vals := make([]uint64, len(fields))
	var rec func(n Node, f, b int) bool
	rec = func(n Node, f, b int) bool {
		if n.IsFalse() || m.err != nil {
			return true
		}
		if f == len(fields) {
			return fn(vals)
		}
		if b < 0 {
			if f+1 < len(fields) {
				return rec(n, f+1, len(fields[f+1])-1)
			}
			return rec(n, f+1, 0)
		}
		bit := fields[f][b]
		vals[f] &^= 1 << b
		if !rec(m.Diff(n, bit), f, b-1) {
			return false
		}
		vals[f] |= 1 << b
		ok := rec(m.And(n, bit), f, b-1)
		vals[f] &^= 1 << b
		return ok
	}
	if len(fields) == 0 {
		if !a.IsFalse() {
			fn(vals)
		}
		return
	}
	rec(a, 0, len(fields[0])-1)
}

// walk calls f with the level of every internal node of a, once each.
// (The kernel reads its table directly, following only a's nodes.) f must
// not use the manager.
func (m *Manager) walk(a Node, f func(level int)) {
	m.b.Walk(*a.n, f)
}

// Support returns the variable copies a depends on, in layout order.
func (m *Manager) Support(a Node) []Ref {
	seen := make([]bool, m.L.nbits)
	m.walk(a, func(level int) { seen[level] = true })
	type key struct {
		v Var
		c int
	}
	got := map[key]bool{}
	for i, s := range seen {
		if s {
			v, c, _ := m.L.locate(i)
			got[key{v, c}] = true
		}
	}
	var refs []Ref
	for v := range m.L.vars {
		for c := 0; c < m.L.vars[v].copies; c++ {
			if got[key{Var(v), c}] {
				refs = append(refs, Ref{Var(v), c})
			}
		}
	}
	return refs
}

// Size returns the number of nodes of a (without the constants).
func (m *Manager) Size(a Node) int {
	n := 0
	m.walk(a, func(int) { n++ })
	return n
}

// Pick returns one assignment to the variables of s that extends to a
// satisfying assignment of a, as a cube over exactly those variables: the
// least one, taking every variable false where it can, in the variable
// order. It returns false when a is false. Counterexample traces use it to
// choose concrete values deterministically. It costs one quantification
// of the other variables and a walk down one path.
func (m *Manager) Pick(a Node, s VarSet) Node {
	if a.IsFalse() || m.err != nil {
		return m.fls
	}
	in := make([]bool, m.L.nbits)
	var levels []int
	if !s.empty() {
		m.walk(Node{s.cube}, func(level int) { in[level] = true; levels = append(levels, level) })
	}
	var others []int
	m.walk(a, func(level int) {
		if !in[level] {
			others = append(others, level)
		}
	})
	if len(others) > 0 {
		a = m.Exists(a, m.set(others))
	}
	one := make([]bool, m.L.nbits)
	for id := *a.n; id >= 2; {
		level, low, high := m.b.NodeAt(id)
		if low != 0 {
			id = low
		} else {
			one[level], id = true, high
		}
	}
	slices.Sort(levels)
	cube := m.tru
	for i := len(levels) - 1; i >= 0; i-- {
		l := levels[i]
		if one[l] {
			cube = m.And(m.vars[l], cube)
		} else {
			cube = m.Diff(cube, m.vars[l])
		}
	}
	return cube
}

// Meets reports whether a AND b is satisfiable, without building the
// conjunction: a walk over pairs of nodes, cheap when one of them is
// small (a cube, say).
func (m *Manager) Meets(a, b Node) bool {
	if m.err != nil {
		return false
	}
	type pair struct{ x, y int }
	seen := map[pair]bool{} // pairs known to have no common satisfying assignment
	var rec func(x, y int) bool
	rec = func(x, y int) bool {
		switch {
		case x == 0 || y == 0:
			return false
		case x == 1 || y == 1:
			return true
		case x == y:
			return true
		}
		if seen[pair{x, y}] {
			return false
		}
		lx, x0, x1 := m.b.NodeAt(x)
		ly, y0, y1 := m.b.NodeAt(y)
		var ok bool
		switch {
		case lx == ly:
			ok = rec(x0, y0) || rec(x1, y1)
		case lx < ly:
			ok = rec(x0, y) || rec(x1, y)
		default:
			ok = rec(x, y0) || rec(x, y1)
		}
		if !ok {
			seen[pair{x, y}] = true
		}
		return ok
	}
	return rec(*a.n, *b.n)
}
