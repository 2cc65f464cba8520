package bdd

// Points evaluates BDDs over one small set of variables at concrete
// assignments ("points") without building a node: a walk down one path
// per evaluation, and a walk over the satisfying paths to enumerate. It
// serves tests that run many times on few values, such as the subsumption
// test of package cbr/tuples on the globals of a tuple's domain. A point is a
// bit set over the set's variables, bit j the j-th variable in the
// variable order.
type Points struct {
	m      *Manager
	levels []int // the set's variables, in order
	pos    []int // level -> index in levels, or -1
}

// MaxPointBits is the largest set of variables Points takes.
const MaxPointBits = 64

// Points returns the evaluator for the variables of s, or nil when s has
// more than MaxPointBits variables.
func (m *Manager) Points(s VarSet) *Points {
	p := &Points{m: m, pos: make([]int, m.L.nbits)}
	for i := range p.pos {
		p.pos[i] = -1
	}
	if !s.empty() {
		for id := *s.cube; id >= 2; {
			level, _, high := m.b.NodeAt(id)
			p.pos[level] = len(p.levels)
			p.levels = append(p.levels, level)
			id = high
		}
	}
	if len(p.levels) > MaxPointBits {
		return nil
	}
	return p
}

// Holds reports whether the point satisfies a, a BDD over the set's
// variables only; it panics when a depends on another variable (a broken
// caller contract). It costs one step per variable on a's path.
func (p *Points) Holds(a Node, point uint64) bool {
	if p.m.err != nil {
		return false
	}
	id := *a.n
	for id >= 2 {
		level, low, high := p.m.b.NodeAt(id)
		j := p.pos[level]
		if j < 0 {
			panic("bdd: Points.Holds on a BDD over other variables")
		}
		if point>>j&1 == 1 {
			id = high
		} else {
			id = low
		}
	}
	return id == 1
}

// Each calls fn with every point that satisfies a, a BDD over the set's
// variables only, in a fixed order (the first variable's value varying
// slowest, false first); fn returns false to stop. It returns false when
// it was stopped. It visits a's satisfying paths, each variable missing
// from a path once with either value, so it costs about the number of
// points times the number of variables.
func (p *Points) Each(a Node, fn func(point uint64) bool) bool {
	if p.m.err != nil {
		return true
	}
	var rec func(id, j int, point uint64) bool
	rec = func(id, j int, point uint64) bool {
		if id == 0 {
			return true
		}
		if j == len(p.levels) {
			if id != 1 {
				panic("bdd: Points.Each on a BDD over other variables")
			}
			return fn(point)
		}
		level, low, high := -1, id, id
		if id >= 2 {
			level, low, high = p.m.b.NodeAt(id)
			if p.pos[level] < 0 {
				panic("bdd: Points.Each on a BDD over other variables")
			}
		}
		if level != p.levels[j] {
			// The variable does not occur on this path: both values.
			low, high = id, id
		}
		return rec(low, j+1, point) && rec(high, j+1, point|1<<j)
	}
	return rec(*a.n, 0, 0)
}

// Count returns the number of points that satisfy a (a BDD over the
// set's variables only), counting no further than limit: the result is
// min(count, limit).
func (p *Points) Count(a Node, limit int) int {
	n := 0
	p.Each(a, func(uint64) bool {
		n++
		return n < limit
	})
	return n
}

// Cube returns the BDD of one point: the conjunction of the set's
// variables, each as the point has it.
func (p *Points) Cube(point uint64) Node {
	m := p.m
	c := m.tru
	for j := len(p.levels) - 1; j >= 0; j-- {
		if point>>j&1 == 1 {
			c = m.And(m.vars[p.levels[j]], c)
		} else {
			c = m.Diff(c, m.vars[p.levels[j]])
		}
	}
	return c
}
