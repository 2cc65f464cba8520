package bdd

import (
	"fmt"
	"slices"
	"sync"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
)

// The Boolean algebra: the operations on Nodes, variable sets and
// quantification, renaming between variable copies. Every operation that
// needs the kernel goes through Manager.call (manager.go).

func (m *Manager) apply(a, b Node, op rudd.Operator) Node {
	return m.call(func() rudd.Node { return m.b.Apply(a.n, b.n, op) })
}

// And returns the conjunction of ns (true for none). It folds from the
// first operand and calls the kernel only when neither side decides the
// result (a constant, or equal operands).
func (m *Manager) And(ns ...Node) Node { return m.fold(ns, m.tru, rudd.OPand) }

// Or returns the disjunction of ns (false for none), folded as And.
func (m *Manager) Or(ns ...Node) Node { return m.fold(ns, m.fls, rudd.OPor) }

// fold combines ns with op, whose neutral element is unit (true for And,
// false for Or) and whose absorbing element is the other constant.
func (m *Manager) fold(ns []Node, unit Node, op rudd.Operator) Node {
	if len(ns) == 0 {
		return unit
	}
	absorbing := m.tru
	if unit.IsTrue() {
		absorbing = m.fls
	}
	r := ns[0]
	for _, n := range ns[1:] {
		switch {
		case r.Equal(absorbing) || n.Equal(unit) || r.Equal(n):
		case n.Equal(absorbing) || r.Equal(unit):
			r = n
		default:
			r = m.apply(r, n, op)
		}
	}
	if m.err != nil {
		return m.fls
	}
	return r
}

// Diff returns a AND NOT b, in one kernel operation (the fork's OPdiff;
// upstream rudd's was wrong when a is false).
func (m *Manager) Diff(a, b Node) Node {
	switch {
	case a.IsFalse() || b.IsTrue() || a.Equal(b):
		return m.fls
	case b.IsFalse() && m.err == nil:
		return a
	}
	return m.apply(a, b, rudd.OPdiff)
}

// Imp returns a IMPLIES b.
func (m *Manager) Imp(a, b Node) Node { return m.apply(a, b, rudd.OPimp) }

// Equiv returns a IFF b.
func (m *Manager) Equiv(a, b Node) Node { return m.apply(a, b, rudd.OPbiimp) }

// Xor returns a XOR b.
func (m *Manager) Xor(a, b Node) Node { return m.apply(a, b, rudd.OPxor) }

// Not returns NOT a.
func (m *Manager) Not(a Node) Node {
	return m.call(func() rudd.Node { return m.b.Not(a.n) })
}

// Ite returns (c AND t) OR (NOT c AND e).
func (m *Manager) Ite(c, t, e Node) Node {
	return m.call(func() rudd.Node { return m.b.Ite(c.n, t.n, e.n) })
}

// Implies reports whether every assignment of a satisfies b. After an
// error it reports true (a fixpoint loop stops; its caller checks Err).
func (m *Manager) Implies(a, b Node) bool { return m.Diff(a, b).IsFalse() }

// VarSet is a set of BDD variables, for quantification. The zero VarSet is
// the empty set.
type VarSet struct{ cube rudd.Node }

// empty reports whether s is the empty set (or a set made by a failed
// manager).
func (s VarSet) empty() bool { return s.cube == nil || *s.cube < 2 }

// Set returns the set of all bits of the given variable copies.
func (m *Manager) Set(refs ...Ref) VarSet {
	var idx []int
	for _, r := range refs {
		for b := 0; b < m.L.Bits(r.Var); b++ {
			idx = append(idx, m.L.index(r.Var, r.Copy, b))
		}
	}
	return m.set(idx)
}

// SetOf returns the set of the variables a Vec is made of; every bit of v
// must be a single BDD variable (as returned by [Manager.Vec]), else SetOf
// panics.
func (m *Manager) SetOf(vs ...Vec) VarSet {
	var idx []int
	for _, v := range vs {
		for b, n := range v {
			// rudd's Label gives the top variable of any node, and fails
			// (leaving its error set) on a constant.
			i := -1
			if *n.n >= 2 {
				i = m.b.Label(n.n)
			}
			if i < 0 || !n.Equal(m.vars[i]) {
				panic(fmt.Sprintf("bdd: SetOf: bit %d is not a variable", b))
			}
			idx = append(idx, i)
		}
	}
	return m.set(idx)
}

// Union returns the union of variable sets: one cube of their variables,
// built in one pass (conjoining the cubes, whose variables interleave,
// rebuilt the partial union at every step).
func (m *Manager) Union(sets ...VarSet) VarSet {
	var idx []int
	for _, s := range sets {
		if s.empty() {
			continue
		}
		// A cube is a chain of nodes, its low successors false.
		for n := *s.cube; n >= 2; {
			level, _, high := m.b.NodeAt(n)
			idx = append(idx, level)
			n = high
		}
	}
	if len(idx) == 0 {
		return VarSet{m.tru.n}
	}
	return m.set(idx)
}

// set returns the cube of the variables idx, built by the kernel in one
// operation from the bottom of the order up.
func (m *Manager) set(idx []int) VarSet {
	idx = slices.Clone(idx)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	return VarSet{m.call(func() rudd.Node { return m.b.Cube(idx) }).n}
}

// Exists returns a with the variables of s quantified existentially.
func (m *Manager) Exists(a Node, s VarSet) Node {
	if m.err != nil {
		return m.fls
	}
	if s.empty() {
		// rudd's Exist fails on an empty set, and leaves its error set.
		return a
	}
	return m.call(func() rudd.Node { return m.b.Exist(a.n, s.cube) })
}

// AndExists returns EXISTS s. a AND b (the relational product), computed in
// one pass.
func (m *Manager) AndExists(a, b Node, s VarSet) Node {
	if s.empty() {
		return m.apply(a, b, rudd.OPand)
	}
	return m.call(func() rudd.Node { return m.b.AndExist(s.cube, a.n, b.n) })
}

// DiffExists returns EXISTS s. a AND NOT b in one kernel operation (the
// fork's AppEx with OPdiff), without the copy of b that a Not makes (the
// kernel has no complement edges).
func (m *Manager) DiffExists(a, b Node, s VarSet) Node {
	if s.empty() {
		return m.Diff(a, b)
	}
	return m.call(func() rudd.Node { return m.b.AppEx(a.n, b.n, rudd.OPdiff, s.cube) })
}

var replacerMu sync.Mutex

// Renaming maps variable copies to other copies of the same variables (or
// other variables of equal width). Build it once with [Manager.Renaming].
type Renaming struct{ r rudd.Replacer }

// Renaming returns the renaming from[i] -> to[i]. No copy may be both a
// source and a target, and the blocks must match in length and widths;
// violations panic. The target copies must not occur in a node that is
// renamed together with their sources: rudd detects that, and the manager
// fails with an error.
func (m *Manager) Renaming(from, to []Ref) *Renaming {
	if len(from) != len(to) {
		panic("bdd: renaming between blocks of different sizes")
	}
	var old, nw []int
	for i := range from {
		w := m.L.Bits(from[i].Var)
		if w != m.L.Bits(to[i].Var) {
			panic(fmt.Sprintf("bdd: renaming %s to %s of another width", m.L.Name(from[i].Var), m.L.Name(to[i].Var)))
		}
		for b := 0; b < w; b++ {
			old = append(old, m.L.index(from[i].Var, from[i].Copy, b))
			nw = append(nw, m.L.index(to[i].Var, to[i].Copy, b))
		}
	}
	// rudd numbers its replacers with a global counter, unsynchronized:
	// managers on different goroutines would race on it and could give two
	// renamings of one manager the same number, which keys rudd's cache of
	// renamed nodes.
	replacerMu.Lock()
	r, err := m.b.NewReplacer(old, nw)
	replacerMu.Unlock()
	if err != nil {
		panic("bdd: " + err.Error())
	}
	return &Renaming{r}
}

// Rename applies r to a.
func (m *Manager) Rename(a Node, r *Renaming) Node {
	return m.call(func() rudd.Node { return m.b.Replace(a.n, r.r) })
}
