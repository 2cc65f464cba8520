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
//
// When every bit of the fields is a variable of its own (the Vecs of
// Vec and GlobalVec, not expressions) and a has at most maxPathPoints
// such valuations, the valuations are read off a's paths, with no BDD
// operation but one quantification of the other variables; else, and
// from the same point on, bit by bit with And and Diff.
func (m *Manager) Enumerate(a Node, fields []Vec, fn func(vals []uint64) bool) {
	if len(fields) > 0 && m.err == nil && m.enumeratePaths(a, fields, fn) {
		return
	}
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

// maxPathPoints bounds the valuations Enumerate collects from a's paths
// before it calls fn with the first of them (the walk finds them in the
// variable order and they are sorted before the calls): beyond it the
// enumeration goes bit by bit, which needs no memory per valuation and
// stops as soon as fn does.
const maxPathPoints = 1 << 14

// enumeratePaths is Enumerate read off the paths of a's projection on the
// fields' bits. It returns false, having called nothing, when a bit is
// not a variable of its own (an expression, a constant, a variable twice)
// or a has more than maxPathPoints valuations of the fields.
func (m *Manager) enumeratePaths(a Node, fields []Vec, fn func(vals []uint64) bool) bool {
	type bitAt struct{ f, b int32 }
	where := make([]bitAt, m.L.nbits) // level -> field and bit + 1 (f 0: none)
	nb := 0
	for f, v := range fields {
		for b, bit := range v {
			id := *bit.n
			if id < 2 {
				return false
			}
			level, low, high := m.b.NodeAt(id)
			if low != 0 || high != 1 || where[level].f != 0 {
				return false
			}
			where[level] = bitAt{int32(f) + 1, int32(b)}
			nb++
		}
	}
	var others []int
	m.walk(a, func(level int) {
		if where[level].f == 0 {
			others = append(others, level)
		}
	})
	p := a
	if len(others) > 0 {
		p = m.Exists(a, m.set(others))
		if m.err != nil {
			return true
		}
	}
	// The fields' levels in the variable order, and whether that order
	// is already the order of the calls (first field first, most
	// significant bit first).
	levels := make([]int, 0, nb)
	sorted := true
	for level, w := range where {
		if w.f == 0 {
			continue
		}
		if len(levels) > 0 {
			prev := where[levels[len(levels)-1]]
			if prev.f > w.f || prev.f == w.f && prev.b < w.b {
				sorted = false
			}
		}
		levels = append(levels, level)
	}
	nf := len(fields)
	vals := make([]uint64, nf)
	var rows []uint64 // the valuations found, nf values each
	var rec func(id, j int) bool
	rec = func(id, j int) bool {
		if id == 0 {
			return true
		}
		if j == len(levels) {
			// p depends on the fields' bits only: id is the constant true.
			if len(rows) >= maxPathPoints*nf {
				return false
			}
			rows = append(rows, vals...)
			return true
		}
		low, high := id, id // the variable is not on this path: both values
		if id >= 2 {
			if level, l, h := m.b.NodeAt(id); level == levels[j] {
				low, high = l, h
			}
		}
		w := where[levels[j]]
		f, bit := w.f-1, uint64(1)<<w.b
		if !rec(low, j+1) {
			return false
		}
		vals[f] |= bit
		ok := rec(high, j+1)
		vals[f] &^= bit
		return ok
	}
	if !rec(*p.n, 0) {
		return false
	}
	n := len(rows) / nf
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if !sorted {
		slices.SortFunc(order, func(x, y int) int {
			return slices.Compare(rows[x*nf:(x+1)*nf], rows[y*nf:(y+1)*nf])
		})
	}
	for _, i := range order {
		copy(vals, rows[i*nf:(i+1)*nf])
		if !fn(vals) {
			break
		}
	}
	return true
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
	// The copies seen, a bit per copy of each variable (a variable has
	// at most 64 copies in any layout of the project; more go by a map).
	copies := make([]uint64, len(m.L.vars))
	var many map[Ref]bool
	for i, s := range seen {
		if s {
			v, c, _ := m.L.locate(i)
			if c < 64 {
				copies[v] |= 1 << c
			} else {
				if many == nil {
					many = map[Ref]bool{}
				}
				many[Ref{v, c}] = true
			}
		}
	}
	var refs []Ref
	for v, set := range copies {
		if set == 0 && many == nil {
			continue
		}
		for c := 0; c < m.L.vars[v].copies; c++ {
			if c < 64 && set>>c&1 == 1 || c >= 64 && many[Ref{Var(v), c}] {
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
