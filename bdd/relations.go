package bdd

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

// CopyEq returns copy c1 == copy c2 for every variable in vars.
func (m *Manager) CopyEq(c1, c2 int, vars ...Var) Node {
	r := m.tru
	// Build bottom-up in BDD order so that the conjunction stays linear.
	for i := len(vars) - 1; i >= 0; i-- {
		v := vars[i]
		for b := m.L.Bits(v) - 1; b >= 0; b-- {
			r = m.And(m.Equiv(m.Bit(Ref{v, c1}, b), m.Bit(Ref{v, c2}, b)), r)
		}
	}
	return r
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
func (m *Manager) Ord(cx, cy int, vars ...Var) Node {
	type pair struct{ x, y int }
	var bits []pair
	for _, v := range vars {
		for b := 0; b < m.L.Bits(v); b++ {
			bits = append(bits, pair{m.L.index(v, cx, b), m.L.index(v, cy, b)})
		}
	}
	// Sort by the position of x's bit; vars are usually given in order.
	for i := 1; i < len(bits); i++ {
		for j := i; j > 0 && bits[j].x < bits[j-1].x; j-- {
			bits[j], bits[j-1] = bits[j-1], bits[j]
		}
	}
	lt := m.fls
	for i := len(bits) - 1; i >= 0; i-- {
		x, y := m.vars[bits[i].x], m.vars[bits[i].y]
		lt = m.Or(m.And(m.Not(x), y), m.And(m.Equiv(x, y), lt))
	}
	return lt
}
