package cover

import (
	"math"
	"slices"

	"github.com/cbreach/cbreach/bdd"
)

// The indexes of the kept tuples: by domain (groups, a trie each) and, in
// the point mode, by global value (a trie each).

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

// group returns the group of the kept tuples with domain dom, made empty
// when there is none.
func (s *Kept) group(dom bdd.Node) *keptGroup {
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

// triesAt yields the tries of the kept tuples whose domain holds the
// global g: its own trie (byPoint), then the wide groups' that hold it.
func (s *Kept) triesAt(g uint64) func(yield func(*trieNode) bool) {
	return func(yield func(*trieNode) bool) {
		if n := s.byPoint[g]; n != nil && !yield(n) {
			return
		}
		for _, w := range s.wide {
			if s.pts.Holds(w.dom, g) && !yield(w.root) {
				return
			}
		}
	}
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
