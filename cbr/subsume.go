package cbr

import (
	"cmp"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// subsumer implements Options.Subsume (package documentation, "Subsumed
// tuples"): it remembers every view tuple the analysis kept, with the
// number of contexts that reached it, and finds the globals of a new tuple
// at which all its configurations belong to one of them.
type subsumer struct {
	m      *bdd.Manager
	views  [][]*symauto.Auto     // per thread: the distinct views, by id
	byHash []map[uint64][]int    // per thread: structural hash -> ids
	within []map[[2]int]bdd.Node // per thread: Within(views[a], views[b])
	tops   [][]viewTops          // per thread and view: labels on top, finished
	sig    []map[[2]int]bdd.Node // per thread: where a's tops are among b's
	kept   []keptTuple           // in the order kept
}

type keptTuple struct {
	level int
	ids   []int
	dom   bdd.Node
}

func newSubsumer(m *bdd.Manager, threads int) *subsumer {
	s := &subsumer{m: m, views: make([][]*symauto.Auto, threads), byHash: make([]map[uint64][]int, threads),
		within: make([]map[[2]int]bdd.Node, threads), tops: make([][]viewTops, threads), sig: make([]map[[2]int]bdd.Node, threads)}
	for i := range threads {
		s.byHash[i] = map[uint64][]int{}
		s.within[i] = map[[2]int]bdd.Node{}
		s.sig[i] = map[[2]int]bdd.Node{}
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
	s.tops[i] = append(s.tops[i], viewTops{c.Tops(nil), c.Finished()})
	s.byHash[i][h] = append(s.byHash[i][h], id)
	return id
}

type viewTops struct {
	tops     []symauto.Top
	finished bdd.Node
}

// topsIn returns the globals at which every label on top of a stack of
// thread i's view a (and the empty stack) is one of view b: a cheap
// necessary condition for Within.
func (s *subsumer) topsIn(i, a, b int) bdd.Node {
	k := [2]int{a, b}
	if w, ok := s.sig[i][k]; ok {
		return w
	}
	m := s.m
	ta, tb := s.tops[i][a], s.tops[i][b]
	w := m.Not(m.Diff(ta.finished, tb.finished))
	j := 0
	for _, x := range ta.tops {
		for j < len(tb.tops) && tb.tops[j].Label.ID < x.Label.ID {
			j++
		}
		if j < len(tb.tops) && tb.tops[j].Label == x.Label {
			w = m.Diff(w, m.Diff(x.Globals, tb.tops[j].Globals))
		} else {
			w = m.Diff(w, x.Globals)
		}
	}
	s.sig[i][k] = w
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
// t's globals, restricts t to the others (shrunk).
func (s *subsumer) check(t *split.Tuple, level int) (drop, shrunk bool) {
	m := s.m
	ids := make([]int, len(t.Views))
	for i, v := range t.Views {
		ids[i] = s.intern(i, v)
		t.Views[i] = s.views[i][ids[i]]
	}
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
next:
	for _, k := range s.kept {
		if k.level > level {
			continue
		}
		x := rem
		for _, i := range order {
			b := k.ids[i]
			p, ok := tops[i][b]
			if !ok {
				p = m.And(t.Domain, s.topsIn(i, ids[i], b))
				tops[i][b] = p
			}
			if p.IsFalse() {
				continue next
			}
			x = m.And(x, p)
		}
		if x = m.And(x, k.dom); x.IsFalse() {
			continue
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
	}
	s.kept = append(s.kept, keptTuple{level, ids, t.Domain})
	if rem.Equal(t.Domain) {
		return false, false
	}
	t.Domain = rem
	for i, v := range t.Views {
		t.Views[i] = v.RestrictGlobals(rem)
	}
	return false, true
}
