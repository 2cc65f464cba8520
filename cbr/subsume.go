package cbr

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// subsumer implements Options.Subsume, and Dedup as a subsumer that never
// tests subsumption (package documentation, "Subsumed tuples"): it remembers every view tuple the analysis kept, with the
// number of contexts that reached it, and finds the globals of a new tuple
// at which all its configurations belong to one of them.
type subsumer struct {
	m      *bdd.Manager
	views  [][]*symauto.Auto     // per thread: the distinct views, by id
	byHash []map[uint64][]int    // per thread: structural hash -> ids
	within []map[[2]int]bdd.Node // per thread: Within(views[a], views[b])
	tops   [][]*viewTops         // per thread and view: labels on top, finished (when needed)
	groups []*keptGroup          // kept tuples by domain, in the order first kept
	byDom  map[int]*keptGroup    // domain BDD id -> its group

	after int            // kept tuples before the first subsumption test
	n     int            // tuples kept so far
	exact map[string]int // until then: views and domain -> fewest contexts

	// preempt: the levels count preemptions, and a kept tuple covers a
	// new one only when it leaves at most as many for the next switch
	// (covers).
	preempt bool
}

// keptGroup holds the kept tuples of one domain, so that a domain disjoint
// from a new tuple's rules them all out with one conjunction.
type keptGroup struct {
	dom    bdd.Node
	tuples []keptTuple // in the order kept
}

type keptTuple struct {
	level int
	last  int // the thread that ran last (-1: an initial tuple)
	ids   []int
}

func newSubsumer(m *bdd.Manager, threads, after int) *subsumer {
	s := &subsumer{m: m, byDom: map[int]*keptGroup{}, after: after, exact: map[string]int{}, views: make([][]*symauto.Auto, threads), byHash: make([]map[uint64][]int, threads),
		within: make([]map[[2]int]bdd.Node, threads), tops: make([][]*viewTops, threads)}
	for i := range threads {
		s.byHash[i] = map[uint64][]int{}
		s.within[i] = map[[2]int]bdd.Node{}
	}
	return s
}

// intern returns the id of thread i's view v (in canonical form).
func (s *subsumer) intern(i int, v *symauto.Auto) int {
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

type viewTops struct {
	tops     []symauto.Top
	finished bdd.Node
}

// topsOf returns the labels on top of thread i's view v (computed once).
func (s *subsumer) topsOf(i, v int) *viewTops {
	if s.tops[i][v] == nil {
		s.tops[i][v] = &viewTops{s.views[i][v].Tops(nil), s.views[i][v].Finished()}
	}
	return s.tops[i][v]
}

// topsIn returns the part of d (over G) at which every label on top of a
// stack of thread i's view a (and the empty stack) is one of view b at
// the same globals: a cheap necessary condition for Within, computed
// within d and given up as soon as nothing is left.
func (s *subsumer) topsIn(i, a, b int, d bdd.Node) bdd.Node {
	m := s.m
	ta, tb := s.topsOf(i, a), s.topsOf(i, b)
	w := d
	if !ta.finished.Equal(tb.finished) {
		w = m.And(w, m.Imp(ta.finished, tb.finished))
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

// within1 returns Within(views[a], views[b]) of thread i (cached).
func (s *subsumer) within1(i, a, b int) bdd.Node {
	k := [2]int{a, b}
	if w, ok := s.within[i][k]; ok {
		return w
	}
	w := s.views[i][a].Within(s.views[i][b])
	s.within[i][k] = w
	return w
}

// check reports whether every configuration of t belongs to a tuple kept
// at level or below. Otherwise it keeps t and, when that holds at some of
// t's globals, restricts t to the others (shrunk). Until s.after tuples
// are kept, only a tuple identical to a kept one (the same interned views
// and domain; counting preemptions, the same last thread too) is
// dropped. last is the thread that ran last (-1: none).
func (s *subsumer) check(t *split.Tuple, level, last int) (drop, shrunk bool) {
	ids := make([]int, len(t.Views))
	for i, v := range t.Views {
		ids[i] = s.intern(i, v)
		t.Views[i] = s.views[i][ids[i]]
	}
	if s.n < s.after {
		key := fmt.Sprint(ids, t.Domain.ID())
		if s.preempt {
			key = fmt.Sprint(key, " ", last)
		}
		if l, ok := s.exact[key]; ok && l <= level {
			return true, false
		}
		s.exact[key] = level
		s.keep(t, ids, level, last)
		return false, false
	}
	return s.cover(t, ids, level, last)
}

// covers reports whether kept tuple k may cover a new tuple reached with
// level units of the bound, thread last having run last. Counting
// contexts: k was kept at level or below. Counting preemptions the next
// switch's cost depends on the last thread too (whether it can move), so
// k qualifies when it has fewer preemptions (its next switch costs at
// most one), or as many and the same last thread or none (an initial
// tuple: every switch free).
func (s *subsumer) covers(k keptTuple, level, last int) bool {
	if !s.preempt {
		return k.level <= level
	}
	return k.level < level || k.level == level && (k.last == last || k.last < 0)
}

// keep records t, reached with level contexts, last having run last.
func (s *subsumer) keep(t *split.Tuple, ids []int, level, last int) {
	s.n++
	g := s.byDom[t.Domain.ID()]
	if g == nil {
		g = &keptGroup{dom: t.Domain}
		s.byDom[t.Domain.ID()] = g
		s.groups = append(s.groups, g)
	}
	g.tuples = append(g.tuples, keptTuple{level, last, ids})
}

// cover is check's subsumption test.
func (s *subsumer) cover(t *split.Tuple, ids []int, level, last int) (drop, shrunk bool) {
	m := s.m
	// Threads with fewer distinct views first: their pairs are mostly
	// cached, and a global they rule out spares the others' tests.
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(len(s.views[x]), len(s.views[y])) })
	// tops[i][b] is where t's view of thread i has its tops among those of
	// view b, inside t's domain: computed once per check, and an empty
	// one rules out every kept tuple with view b before any simulation.
	tops := make([]map[int]bdd.Node, len(ids))
	for i := range tops {
		tops[i] = map[int]bdd.Node{}
	}
	rem := t.Domain
	for _, g := range s.groups {
		dx := m.And(rem, g.dom)
		if dx.IsFalse() {
			continue
		}
	next:
		for _, k := range g.tuples {
			if !s.covers(k, level, last) {
				continue
			}
			x := dx
			for _, i := range order {
				b := k.ids[i]
				if b == ids[i] {
					continue
				}
				p, ok := tops[i][b]
				if !ok {
					p = s.topsIn(i, ids[i], b, t.Domain)
					tops[i][b] = p
				}
				if x = m.And(x, p); x.IsFalse() {
					continue next
				}
			}
			for _, i := range order {
				if ids[i] != k.ids[i] {
					if x = m.And(x, s.within1(i, ids[i], k.ids[i])); x.IsFalse() {
						continue next
					}
				}
			}
			if rem = m.Diff(rem, x); rem.IsFalse() {
				return true, false
			}
			if dx = m.And(dx, rem); dx.IsFalse() {
				break
			}
		}
	}
	s.keep(t, ids, level, last)
	if rem.Equal(t.Domain) {
		return false, false
	}
	t.Domain = rem
	for i, v := range t.Views {
		t.Views[i] = v.RestrictGlobals(rem)
	}
	return false, true
}
