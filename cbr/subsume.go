package cbr

import (
	"math"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// subsumer implements PruneSubsumed, and PruneIdentical as a subsumer
// that never tests subsumption (package documentation, "Subsumed
// tuples"): it remembers every view tuple the analysis kept, with the
// number of contexts that reached it, and finds the globals of a new tuple
// at which all its configurations belong to one of them.
//
// The test's cost is kept off the number of kept tuples squared by
// indexes. What depends only on a pair of interned views of one thread
// (the tops condition and the simulation) is computed once per pair
// (pairs). Kept tuples are grouped by domain, and within a group stored
// in a trie over their view ids, thread by thread, so that one
// conjunction rules out every kept tuple below a prefix of views whose
// conditions leave no global (cover). Where domains are small, they are
// also in a trie per global value, whose children are grouped by their
// labels on top there, and the test runs one global at a time without
// building a BDD (coverPoints).
type subsumer struct {
	m      *bdd.Manager
	views  [][]*symauto.Auto      // per thread: the distinct views, by id
	byHash []map[uint64][]int     // per thread: structural hash -> ids
	pairs  []map[[2]int]*pairCond // per thread: conditions of (new view, kept view)
	tops   [][]*viewTops          // per thread and view: labels on top, finished (when needed)
	groups []*keptGroup           // kept tuples by domain, in the order first kept
	byDom  map[int]*keptGroup     // domain BDD id -> its group

	// The point mode (coverPoints), when the globals have at most
	// bdd.MaxPointBits bits: kept tuples whose domain has at most
	// maxPoints globals are also in a trie per global (byPoint); the
	// groups of larger domains are listed in wide.
	pts     *bdd.Points
	byPoint map[uint64]*trieNode
	wide    []*keptGroup

	after int // kept tuples before the first subsumption test
	n     int // tuples kept so far
	// The last level expanded (-1: none, every test unlimited), whose
	// tests are given a budget (package documentation, "The last
	// level"): the units spent (spent) are counted against the limit of
	// one test, and the level's tests go on while all of them together
	// have spent at most lastAllowance plus what their drops saved
	// (lastSpent, lastSaved); by default defaultLastLimit and
	// defaultLastAllowance.
	last                     int
	spent, limit             int
	lastSpent, lastSaved     int
	lastLimit, lastAllowance int

	// preempt: the levels count preemptions, and a kept tuple covers a
	// new one only when it leaves at most as many for the next switch
	// (covers).
	preempt bool
}

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

// keptGroup holds the kept tuples of one domain, so that a domain disjoint
// from a new tuple's rules them all out with one conjunction, in a trie
// over their views.
type keptGroup struct {
	dom    bdd.Node
	root   *trieNode
	points int  // the globals of dom, up to maxPoints+1 (point mode)
	wide   bool // more than maxPoints: in wide, not in byPoint
}

// trieNode is a node of a group's trie at depth d: its children are keyed
// by the view id of thread d (in the order first kept, for a deterministic
// walk); at depth n (the number of threads) it holds the tuples whose
// views are the path to it. minLevel is the fewest contexts of a tuple
// below: a subtree kept with more than a new tuple's cannot cover it.
type trieNode struct {
	minLevel int
	keys     []int
	kids     []*trieNode
	index    map[int]int // key -> its index, once the node has many children
	tuples   []keptTuple
	// In the trie of one global (byPoint), the children grouped by the
	// labels on top of their view at that global: one comparison of label
	// sets decides for a whole group.
	byLabels []labelGroup
}

// labelGroup is the children of a trie node whose views have the same
// labels on top at the trie's global.
type labelGroup struct {
	labels []int
	kids   []int // indices into keys and kids
}

// maxPoints is the largest domain (in global values) tested in the point
// mode: the test runs once per global, so it pays where domains are
// small (always under eager splitting, mostly under lazy).
const maxPoints = 64

type keptTuple struct {
	level int
	last  int // the thread that ran last (-1: an initial tuple)
}

// newSubsumer returns a subsumer for tuples of the given number of
// threads whose domains are over the globals g; it tests subsumption once
// after tuples are kept.
func newSubsumer(m *bdd.Manager, g bdd.VarSet, threads, after int) *subsumer {
	s := &subsumer{m: m, byDom: map[int]*keptGroup{}, after: after, last: -1, lastLimit: defaultLastLimit, lastAllowance: defaultLastAllowance, views: make([][]*symauto.Auto, threads), byHash: make([]map[uint64][]int, threads),
		pairs: make([]map[[2]int]*pairCond, threads), tops: make([][]*viewTops, threads),
		pts: m.Points(g), byPoint: map[uint64]*trieNode{}}
	for i := range threads {
		s.byHash[i] = map[uint64][]int{}
		s.pairs[i] = map[[2]int]*pairCond{}
	}
	if after == math.MaxInt {
		s.pts = nil // no test: no point mode
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
	at       map[uint64][]int // labelsAt, by global
}

// topsOf returns the labels on top of thread i's view v (computed once).
func (s *subsumer) topsOf(i, v int) *viewTops {
	if s.tops[i][v] == nil {
		s.tops[i][v] = &viewTops{tops: s.views[i][v].Tops(nil), finished: s.views[i][v].Finished()}
	}
	return s.tops[i][v]
}

// topsIn returns the globals (over G) at which every label on top of a
// stack of thread i's view a (and the empty stack) is one of view b at
// the same globals: a cheap necessary condition for Within.
func (s *subsumer) topsIn(i, a, b int) bdd.Node {
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
func (s *subsumer) pair(i, a, b int) *pairCond {
	k := [2]int{a, b}
	p, ok := s.pairs[i][k]
	if !ok {
		p = &pairCond{}
		s.pairs[i][k] = p
	}
	return p
}

// pairTops returns topsIn(i, a, b) (computed once).
func (s *subsumer) pairTops(i, a, b int) bdd.Node {
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
func (s *subsumer) within(i, a, b int, x bdd.Node) bdd.Node {
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
func (s *subsumer) withinAt(i, a, b int, g uint64) bool {
	if p := s.pair(i, a, b); p.made && s.pts.Holds(p.asked, g) {
		return s.pts.Holds(p.within, g)
	}
	return s.pts.Holds(s.within(i, a, b, s.m.True()), g)
}

// check reports whether every configuration of t belongs to a tuple kept
// at level or below. Otherwise it keeps t and, when that holds at some of
// t's globals, restricts t to the others (shrunk). Until s.after tuples
// are kept, and at the last level once its tests no longer pay (budget),
// only a tuple identical to a kept one (the same interned views and
// domain, covers) is dropped. last is the thread that ran last (-1:
// none).
func (s *subsumer) check(t *split.Tuple, level, last int) (drop, shrunk bool) {
	ids := make([]int, len(t.Views))
	for i, v := range t.Views {
		ids[i] = s.intern(i, v)
		t.Views[i] = s.views[i][ids[i]]
	}
	if level != s.last && s.n >= s.after {
		s.spent, s.limit = 0, math.MaxInt
		return s.cover(t, ids, level, last)
	}
	if s.identical(t.Domain, ids, level, last) {
		return true, false
	}
	if s.n < s.after || !s.budget() {
		s.keep(t, ids, level, last)
		return false, false
	}
	s.spent, s.limit = 0, s.lastLimit
	if drop, shrunk = s.cover(t, ids, level, last); drop {
		s.lastSaved += postUnits * (len(ids) - 1)
	}
	s.lastSpent += s.spent
	return drop, shrunk
}

// The budget of the tests of the last level, in units of work: a post*
// call is postUnits, a simulation computed (Within) withinUnits and a
// visit of a trie node visitUnits. Measured at 5 contexts (CPU profiles,
// lazy), a simulation costs 0.39 of a post* call on Bluetooth v2 with 3
// adders and 2 stoppers (30 µs against 77 µs), 0.31 on the Lal-Reps
// driver with 4 threads (56 µs against 180 µs) and 0.83 on the binary
// search trees with a searcher (10.6 ms against 12.8 ms); a visit (about
// 0.45 µs) is 1/170 of a post* call on the first and less on the others.
// withinUnits takes half a post* call, between those; it pays for a
// pair's simulation and its first evaluation, and each later evaluation
// at globals not asked before (outside the point mode) costs atUnits,
// not measured apart (the point mode never needs one). One test may spend
// defaultLastLimit; the level's tests go on while they have spent at most
// defaultLastAllowance more than they saved, the other threads' post*
// calls of each tuple they dropped.
const (
	postUnits            = 300
	withinUnits          = 150
	atUnits              = 20
	visitUnits           = 2
	defaultLastLimit     = 10 * postUnits
	defaultLastAllowance = 100 * postUnits
)

// budget reports whether a tuple of the last level is tested: whether
// the level's tests have paid for themselves so far, give or take
// s.lastAllowance.
func (s *subsumer) budget() bool {
	return s.lastSpent <= s.lastAllowance+s.lastSaved
}

// over counts units of work of the current test and reports whether it
// is over its limit.
func (s *subsumer) over(units int) bool {
	s.spent += units
	return s.exhausted()
}

// exhausted reports whether the current test is over its limit: it then
// stops, and what it found covered so far stands.
func (s *subsumer) exhausted() bool { return s.spent > s.limit }

// identical reports whether a tuple with domain dom and the views ids was
// kept and covers one reached with level units of the bound, last having
// run last: a lookup in the trie of dom's group.
func (s *subsumer) identical(dom bdd.Node, ids []int, level, last int) bool {
	g := s.byDom[dom.ID()]
	if g == nil {
		return false
	}
	n := g.root
	for _, id := range ids {
		j := n.child(id)
		if j < 0 {
			return false
		}
		n = n.kids[j]
	}
	return s.anyCovers(n, level, last)
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

// anyCovers reports whether a tuple at trie node n covers a new one
// (covers).
func (s *subsumer) anyCovers(n *trieNode, level, last int) bool {
	return slices.ContainsFunc(n.tuples, func(k keptTuple) bool { return s.covers(k, level, last) })
}

// keep records t, reached with level contexts, last having run last: in
// its domain's group and, in the point mode, in the trie of each of its
// globals (or, for a wide domain, with its group in wide).
func (s *subsumer) keep(t *split.Tuple, ids []int, level, last int) {
	s.n++
	g := s.group(t.Domain)
	g.root.insert(ids, keptTuple{level, last}, nil)
	if s.pts == nil || g.wide || s.after == math.MaxInt {
		return // the tries per global serve the test only
	}
	s.pts.Each(t.Domain, func(p uint64) bool {
		n := s.byPoint[p]
		if n == nil {
			n = &trieNode{minLevel: level}
			s.byPoint[p] = n
		}
		n.insert(ids, keptTuple{level, last}, func(d, id int) []int { return s.labelsAt(d, id, p) })
		return true
	})
}

// group returns the group of the kept tuples with domain dom, made empty
// when there is none.
func (s *subsumer) group(dom bdd.Node) *keptGroup {
	g := s.byDom[dom.ID()]
	if g == nil {
		g = &keptGroup{dom: dom, root: &trieNode{minLevel: math.MaxInt}}
		if s.pts != nil {
			g.points = s.pts.Count(dom, maxPoints+1)
			if g.wide = g.points > maxPoints; g.wide {
				s.wide = append(s.wide, g)
			}
		}
		s.byDom[dom.ID()] = g
		s.groups = append(s.groups, g)
	}
	return g
}

// insert adds a tuple with the given views below n. In the trie of one
// global, labels gives the labels on top of thread d's view id there, by
// which the children are grouped; nil elsewhere.
func (n *trieNode) insert(ids []int, k keptTuple, labels func(d, id int) []int) {
	for d, id := range ids {
		n.minLevel = min(n.minLevel, k.level)
		j := n.child(id)
		if j < 0 {
			j = len(n.keys)
			n.keys = append(n.keys, id)
			n.kids = append(n.kids, &trieNode{minLevel: k.level})
			if n.index != nil || len(n.keys) > 16 {
				if n.index == nil {
					n.index = map[int]int{}
					for i, key := range n.keys {
						n.index[key] = i
					}
				}
				n.index[id] = j
			}
			if labels != nil {
				ls := labels(d, id)
				g := slices.IndexFunc(n.byLabels, func(g labelGroup) bool { return slices.Equal(g.labels, ls) })
				if g < 0 {
					g = len(n.byLabels)
					n.byLabels = append(n.byLabels, labelGroup{labels: ls})
				}
				n.byLabels[g].kids = append(n.byLabels[g].kids, j)
			}
		}
		n = n.kids[j]
	}
	n.minLevel = min(n.minLevel, k.level)
	n.tuples = append(n.tuples, k)
}

// child returns the index of the child with the given key, or -1.
func (n *trieNode) child(key int) int {
	if n.index != nil {
		if j, ok := n.index[key]; ok {
			return j
		}
		return -1
	}
	return slices.Index(n.keys, key)
}

// cover is check's subsumption test: rem, the globals of t's domain not
// yet covered, loses the globals at which some kept tuple k (covers)
// holds every view of t. Per group of kept tuples whose domain meets
// rem, the trie is walked thread by thread: the conjunction x of rem, the
// group's domain and, for each thread i so far, the tops condition of
// t's view within the path's view (none when they are the same view),
// prunes a subtree when it leaves nothing. At a leaf, the simulations
// of the differing views are conjoined (tops are necessary for them, so
// they are computed only for pairs that pass every thread's tops). The
// result is the same whatever the order of the walk: rem loses the union
// of the leaves' x.
func (s *subsumer) cover(t *split.Tuple, ids []int, level, last int) (drop, shrunk bool) {
	m := s.m
	if s.pts != nil && s.group(t.Domain).points <= maxPoints {
		return s.coverPoints(t, ids, level, last)
	}
	rem := t.Domain
	path := make([]int, len(ids))
	var walk func(n *trieNode, d int, x bdd.Node) bool
	walk = func(n *trieNode, d int, x bdd.Node) bool {
		if s.over(visitUnits) {
			return false
		}
		if d == len(ids) {
			if !s.anyCovers(n, level, last) {
				return false
			}
			for i, b := range path {
				if b != ids[i] {
					if x = s.within(i, ids[i], b, x); x.IsFalse() {
						return false
					}
				}
			}
			rem = m.Diff(rem, x)
			return rem.IsFalse()
		}
		for j, b := range n.keys {
			kid := n.kids[j]
			if kid.minLevel > level {
				continue
			}
			if s.exhausted() {
				return false
			}
			y := x
			if b != ids[d] {
				y = m.And(x, s.pairTops(d, ids[d], b))
			}
			if !y.IsFalse() {
				path[d] = b
				if walk(kid, d+1, y) {
					return true
				}
				// rem may have shrunk below: the rest of this node needs
				// only what is left.
				if x = m.And(x, rem); x.IsFalse() {
					return false
				}
			}
		}
		return false
	}
	for _, g := range s.groups {
		if g.root.minLevel > level {
			continue
		}
		if s.exhausted() {
			break
		}
		if x := m.And(rem, g.dom); !x.IsFalse() && walk(g.root, 0, x) {
			return true, false
		}
	}
	return s.rest(t, ids, level, last, rem)
}

// rest keeps t restricted to rem, the globals of its domain that no kept
// tuple covers (shrunk when that is not the whole domain).
func (s *subsumer) rest(t *split.Tuple, ids []int, level, last int, rem bdd.Node) (drop, shrunk bool) {
	if rem.Equal(t.Domain) {
		s.keep(t, ids, level, last)
		return false, false
	}
	t.Domain = rem
	for i, v := range t.Views {
		t.Views[i] = v.RestrictGlobals(rem)
	}
	s.keep(t, ids, level, last)
	return false, true
}

// coverPoints is cover, one global value of t's domain at a time, when
// the domain is small: a global is covered when the trie of the kept
// tuples whose domain holds it (byPoint, then the wide groups) has a
// path of views that each hold t's view of the same thread there. The
// tops condition is a comparison of label sets at that global (topsAt)
// and the simulation (computed once per pair of views) is evaluated at
// it: no BDD is built but for the simulations and, when some globals
// are covered and others not, the remaining domain.
func (s *subsumer) coverPoints(t *split.Tuple, ids []int, level, last int) (drop, shrunk bool) {
	m := s.m
	path := make([]int, len(ids))
	mine := make([][]int, len(ids)) // t's tops at the global g, per thread
	var g uint64
	var walk func(n *trieNode, d int) bool
	walk = func(n *trieNode, d int) bool {
		if s.over(visitUnits) {
			return false
		}
		if d == len(ids) {
			if !s.anyCovers(n, level, last) {
				return false
			}
			for i, b := range path {
				if b != ids[i] && !s.withinAt(i, ids[i], b, g) {
					return false
				}
			}
			return true
		}
		try := func(j int) bool {
			if n.kids[j].minLevel > level {
				return false
			}
			path[d] = n.keys[j]
			return walk(n.kids[j], d+1)
		}
		if n.byLabels != nil {
			// A trie of g: whole groups of children by their labels (t's
			// own view has t's labels, so its group passes).
			for _, grp := range n.byLabels {
				if subset(mine[d], grp.labels) {
					for _, j := range grp.kids {
						if try(j) {
							return true
						}
					}
				}
			}
			return false
		}
		for j, b := range n.keys {
			if (b == ids[d] || subset(mine[d], s.labelsAt(d, b, g))) && try(j) {
				return true
			}
		}
		return false
	}
	var covered []uint64
	s.pts.Each(t.Domain, func(p uint64) bool {
		g = p
		mine[0] = nil // t's tops at g: computed for the first trie walked
		tries := func(yield func(*trieNode) bool) {
			if n := s.byPoint[g]; n != nil && !yield(n) {
				return
			}
			for _, w := range s.wide {
				if s.pts.Holds(w.dom, g) && !yield(w.root) {
					return
				}
			}
		}
		for n := range tries {
			if n.minLevel > level {
				continue
			}
			if mine[0] == nil {
				for i, id := range ids {
					mine[i] = s.labelsAt(i, id, g)
				}
			}
			if walk(n, 0) {
				covered = append(covered, g)
				break
			}
		}
		return !s.exhausted()
	})
	if covered == nil {
		return s.rest(t, ids, level, last, t.Domain)
	}
	rem := t.Domain
	for _, g := range covered {
		rem = m.Diff(rem, s.pts.Cube(g))
	}
	if rem.IsFalse() {
		return true, false
	}
	return s.rest(t, ids, level, last, rem)
}

// labelsAt returns the ids of the labels on top of thread i's view v at
// the global g, sorted, -1 first for the empty stack (computed once).
func (s *subsumer) labelsAt(i, v int, g uint64) []int {
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
