package cover

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/symauto"
)

// What depends only on a pair of interned views of one thread, computed
// once per pair: the tops condition (topsIn) and the simulation (within).

// pairCond is what thread i's view a within view b requires of the
// globals: tops, a necessary condition (topsIn), computed when first
// needed (the point mode compares labels instead of tops); sim, the
// simulation of a by b (symauto.Auto.Simulate), made when first needed;
// and within, its answer (symauto.Simulation.At) at the globals asked
// about so far (asked): each global is evaluated once, and, outside the
// point mode, only where a test reaches it.
type pairCond struct {
	tops          bdd.Node
	haveTops      bool
	made          bool                // sim was made (it is dropped once asked is every global)
	sim           *symauto.Simulation // nil once every global is answered
	asked, within bdd.Node
}

// viewTops is the labels on top of an interned view, with the globals
// where each is, and the globals where its stack is empty.
type viewTops struct {
	tops     []symauto.Top
	finished bdd.Node
	at       map[uint64][]int // labelsAt, by global
}

// intern returns the id of thread i's view v (in canonical form).
func (s *Kept) intern(i int, v *symauto.Auto) int {
	c := v.Canonical()
	h := c.Hash()
	for _, id := range s.byHash[i][h] {
		if s.views[i][id].Equal(c) {
			return id
		}
	}
	id := len(s.views[i])
	s.views[i] = append(s.views[i], c)
	s.tops[i] = append(s.tops[i], nil)
	s.byHash[i][h] = append(s.byHash[i][h], id)
	return id
}

// topsOf returns the labels on top of thread i's view v (computed once).
func (s *Kept) topsOf(i, v int) *viewTops {
	if s.tops[i][v] == nil {
		s.tops[i][v] = &viewTops{tops: s.views[i][v].Tops(nil), finished: s.views[i][v].Finished()}
	}
	return s.tops[i][v]
}

// topsIn returns the globals (over G) at which every label on top of a
// stack of thread i's view a (and the empty stack) is one of view b at
// the same globals: a cheap necessary condition for Within.
func (s *Kept) topsIn(i, a, b int) bdd.Node {
	m := s.m
	ta, tb := s.topsOf(i, a), s.topsOf(i, b)
	w := m.True()
	if !ta.finished.Equal(tb.finished) {
		w = m.Imp(ta.finished, tb.finished)
	}
	j := 0
	for _, x := range ta.tops {
		if w.IsFalse() {
			break
		}
		for j < len(tb.tops) && tb.tops[j].Label.ID < x.Label.ID {
			j++
		}
		switch {
		case j == len(tb.tops) || tb.tops[j].Label != x.Label:
			w = m.Diff(w, x.Globals)
		case !x.Globals.Equal(tb.tops[j].Globals):
			w = m.And(w, m.Imp(x.Globals, tb.tops[j].Globals))
		}
	}
	return w
}

// pair returns the record of thread i's views a within b (made once).
func (s *Kept) pair(i, a, b int) *pairCond {
	k := [2]int{a, b}
	p, ok := s.pairs[i][k]
	if !ok {
		p = &pairCond{}
		s.pairs[i][k] = p
	}
	return p
}

// pairTops returns topsIn(i, a, b) (computed once).
func (s *Kept) pairTops(i, a, b int) bdd.Node {
	p := s.pair(i, a, b)
	if !p.haveTops {
		p.tops, p.haveTops = s.topsIn(i, a, b), true
	}
	return p.tops
}

// within returns the globals of x at which thread i's view a is within
// view b (symauto.Auto.Within), evaluating the simulation only at the
// globals of x not asked about before. When the test runs out of its
// budget, it answers with what is known (fewer globals: still exact).
func (s *Kept) within(i, a, b int, x bdd.Node) bdd.Node {
	m := s.m
	p := s.pair(i, a, b)
	if !p.made {
		if s.over(withinUnits) {
			return m.False()
		}
		p.sim, p.made = s.views[i][a].Simulate(s.views[i][b]), true
		p.asked, p.within = m.False(), m.False()
	}
	if todo := m.Diff(x, p.asked); !todo.IsFalse() {
		// The first evaluation is in withinUnits; each later one, at
		// globals not asked before (outside the point mode), atUnits.
		if !p.asked.IsFalse() && s.over(atUnits) {
			return m.And(x, p.within)
		}
		p.within = m.Or(p.within, p.sim.At(todo))
		if p.asked = m.Or(p.asked, todo); p.asked.IsTrue() {
			p.sim = nil // every global answered: its relations can go
		}
	}
	return m.And(x, p.within)
}

// withinAt reports whether thread i's view a is within view b at the
// global g (within, for the point mode). A pair is evaluated at every
// global the first time, and its simulation dropped: one global at a time
// made the binary search trees with a searcher (lazy, 6 contexts) 1.08
// times slower, and the simulations kept for the globals not yet asked
// held BDD nodes (a run of the bundled example under a node limit stopped
// at 40 tuples instead of 60); on the 3+2 Bluetooth driver it took the
// same time either way.
func (s *Kept) withinAt(i, a, b int, g uint64) bool {
	if p := s.pair(i, a, b); p.made && s.pts.Holds(p.asked, g) {
		return s.pts.Holds(p.within, g)
	}
	return s.pts.Holds(s.within(i, a, b, s.m.True()), g)
}

// labelsAt returns the ids of the labels on top of thread i's view v at
// the global g, sorted, -1 first for the empty stack (computed once).
func (s *Kept) labelsAt(i, v int, g uint64) []int {
	vt := s.topsOf(i, v)
	if l, ok := vt.at[g]; ok {
		return l
	}
	if vt.at == nil {
		vt.at = map[uint64][]int{}
	}
	l := []int{}
	if s.pts.Holds(vt.finished, g) {
		l = append(l, -1)
	}
	for _, x := range vt.tops {
		if s.pts.Holds(x.Globals, g) {
			l = append(l, x.Label.ID)
		}
	}
	vt.at[g] = l
	return l
}

// subset reports whether the sorted a is a subset of the sorted b.
func subset(a, b []int) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}
