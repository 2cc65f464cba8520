package bdd

// Translate returns, as a BDD of m, the function that a denotes in the
// manager src (which may be m), with its variables renamed: bit b of copy
// r of a variable of src's layout becomes the bit of m's layout that f
// returns for it. f must be injective on the bits a depends on; the new
// order need not follow the old one.
//
// It is a walk over a's nodes with a memo, one if-then-else in m per node
// (rudd has no transfer between managers): linear in the size of a when
// f keeps the relative order of a's variables, and in general bounded by
// the size of the result times that of a. src must not run operations
// while Translate reads its table.
func (m *Manager) Translate(src *Manager, a Node, f func(r Ref, b int) (Ref, int)) Node {
	memo := map[int]Node{0: m.fls, 1: m.tru}
	var rec func(id int) Node
	rec = func(id int) Node {
		if x, ok := memo[id]; ok {
			return x
		}
		level, low, high := src.b.NodeAt(id)
		v, c, b := src.L.locate(level)
		r, nb := f(Ref{Var: v, Copy: c}, b)
		hi := rec(high)
		lo := rec(low)
		x := m.Ite(m.Bit(r, nb), hi, lo)
		memo[id] = x
		return x
	}
	if m.err != nil {
		return m.fls
	}
	return rec(*a.n)
}
