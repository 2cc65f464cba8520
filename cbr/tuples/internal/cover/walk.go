package cover

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
)

// The covered-tuple test: one walk of the kept tuples' tries (walk), in
// one of two modes (probe): over sets of globals with BDD conjunctions
// (coverSets), or one global value at a time (coverPoints).

// query is a new tuple under test: its interned views (ids), the units of
// the bound that reached it and the thread that ran last, and the path
// of kept views a walk has taken so far.
type query struct {
	t           *split.Tuple
	ids         []int
	level, last int
	path        []int
}

// probe is how a walk tests the globals of a query. Over sets of globals
// (coverSets), x in walk is the globals a path of kept views may still
// cover and rem what is left of the query's domain; one global value at a
// time (the point mode, coverPoints), g is that global, x is unused, and
// mine holds the labels on top of the query's views at g, per thread.
type probe struct {
	s      *Kept
	q      *query
	points bool
	rem    bdd.Node // sets
	g      uint64   // point mode
	mine   [][]int  // point mode
}

// walk looks for kept tuples that cover the query where x holds, below
// trie node n at depth d (thread d's view), and reports whether the query
// is covered. The children of n are tried in the order first kept; in
// the trie of one global (the point mode), by their groups of labels on
// top there, whole groups ruled out by one comparison (the query's own
// view has its labels, so its group passes). Every node visited costs
// visitUnits of the test's budget.
func (p *probe) walk(n *trieNode, d int, x bdd.Node) bool {
	s, q := p.s, p.q
	if s.over(visitUnits) {
		return false
	}
	if d == len(q.ids) {
		return s.anyCovers(n, q.level, q.last) && p.leaf(x)
	}
	if n.byLabels != nil {
		for _, grp := range n.byLabels {
			if subset(p.mine[d], grp.labels) {
				for _, j := range grp.kids {
					if r := p.child(n, d, j, &x); r != next {
						return r == covered
					}
				}
			}
		}
		return false
	}
	for j := range n.keys {
		if r := p.child(n, d, j, &x); r != next {
			return r == covered
		}
	}
	return false
}

// What a child's walk tells its parent: the query is covered, the walk
// stops (nothing left to cover, or the budget spent), or the next child.
const (
	next = iota
	covered
	stop
)

// child walks the j-th child of n (at depth d) where x holds: a subtree
// whose tuples have more units of the bound than the query is skipped,
// and one where the necessary condition of thread d's views (narrow)
// leaves nothing is pruned. Over sets, x then loses what the subtree
// covered.
func (p *probe) child(n *trieNode, d, j int, x *bdd.Node) int {
	kid, b := n.kids[j], n.keys[j]
	if kid.minLevel > p.q.level {
		return next
	}
	if !p.points && p.s.exhausted() {
		return stop
	}
	y, ok := p.narrow(n, d, b, *x)
	if !ok {
		return next
	}
	p.q.path[d] = b
	if p.walk(kid, d+1, y) {
		return covered
	}
	if p.points {
		return next
	}
	// rem may have shrunk below: the rest of this node needs only what is
	// left.
	if *x = p.s.m.And(*x, p.rem); x.IsFalse() {
		return stop
	}
	return next
}

// narrow returns the globals of x where thread d's view of the query may
// lie within the kept view b, a child of n, by a necessary condition, and
// whether any is left: over sets, the tops condition of the pair of views (none for
// the same view); at a global, the labels on top there (compared for
// whole groups already in the trie of that global).
func (p *probe) narrow(n *trieNode, d, b int, x bdd.Node) (bdd.Node, bool) {
	s, q := p.s, p.q
	if b == q.ids[d] {
		return x, true
	}
	if p.points {
		return x, n.byLabels != nil || subset(p.mine[d], s.labelsAt(d, b, p.g))
	}
	x = s.m.And(x, s.pairTops(d, q.ids[d], b))
	return x, !x.IsFalse()
}

// leaf reports whether the walk is done at a leaf reached by the query's
// path: every view of the query that differs from the path's lies within
// it (the simulation, computed only for pairs that passed every thread's
// necessary condition). Over sets, rem loses the globals x where they
// all do, and the walk is done when nothing is left; at a global, when
// they all do there.
func (p *probe) leaf(x bdd.Node) bool {
	s, q := p.s, p.q
	for i, b := range q.path {
		if b == q.ids[i] {
			continue
		}
		if p.points {
			if !s.withinAt(i, q.ids[i], b, p.g) {
				return false
			}
		} else if x = s.within(i, q.ids[i], b, x); x.IsFalse() {
			return false
		}
	}
	if p.points {
		return true
	}
	p.rem = s.m.Diff(p.rem, x)
	return p.rem.IsFalse()
}

// coverSets is the test over sets of globals: rem, the globals of the
// query's domain not yet covered, loses the globals at which some kept
// tuple (covers) holds every view of the query. Per group of kept tuples
// whose domain meets rem, the trie is walked thread by thread: the
// conjunction x of rem, the group's domain and, for each thread i so far,
// the tops condition of the query's view within the path's view, prunes
// a subtree when it leaves nothing; at a leaf, the simulations of the
// differing views are conjoined. The result is the same whatever the
// order of the walk: rem loses the union of the leaves' x.
func (s *Kept) coverSets(q *query) (drop, shrunk bool) {
	p := &probe{s: s, q: q, rem: q.t.Domain}
	for _, g := range s.groups {
		if g.root.minLevel > q.level {
			continue
		}
		if s.exhausted() {
			break
		}
		if x := s.m.And(p.rem, g.dom); !x.IsFalse() && p.walk(g.root, 0, x) {
			return true, false
		}
	}
	return s.rest(q, p.rem)
}

// coverPoints is the test one global value of the query's domain at a
// time, when the domain is small: a global is covered when the trie of
// the kept tuples whose domain holds it (byPoint, then the wide groups)
// has a path of views that each hold the query's view of the same thread
// there. The tops condition is a comparison of label sets at that global
// (labelsAt) and the simulation (computed once per pair of views) is
// evaluated at it: no BDD is built but for the simulations and, when some
// globals are covered and others not, the remaining domain.
func (s *Kept) coverPoints(q *query) (drop, shrunk bool) {
	p := &probe{s: s, q: q, points: true, mine: make([][]int, len(q.ids))}
	var covered []uint64
	s.pts.Each(q.t.Domain, func(g uint64) bool {
		p.g = g
		p.mine[0] = nil // the query's tops at g: computed for the first trie walked
		for n := range s.triesAt(g) {
			if n.minLevel > q.level {
				continue
			}
			if p.mine[0] == nil {
				for i, id := range q.ids {
					p.mine[i] = s.labelsAt(i, id, g)
				}
			}
			if p.walk(n, 0, s.m.True()) {
				covered = append(covered, g)
				break
			}
		}
		return !s.exhausted()
	})
	if covered == nil {
		return s.rest(q, q.t.Domain)
	}
	rem := q.t.Domain
	for _, g := range covered {
		rem = s.m.Diff(rem, s.pts.Cube(g))
	}
	if rem.IsFalse() {
		return true, false
	}
	return s.rest(q, rem)
}
