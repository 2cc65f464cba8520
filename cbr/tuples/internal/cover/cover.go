package cover

import (
	"math"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// Kept remembers every view tuple the analysis kept, with the units of
// the bound that reached it and its last thread, and tests new tuples
// against them (Check).
//
// The test's cost is kept off the number of kept tuples squared by
// indexes. What depends only on a pair of interned views of one thread
// (the tops condition and the simulation) is computed once per pair
// (pairs). Kept tuples are grouped by domain, and within a group stored
// in a trie over their view ids, thread by thread, so that one
// conjunction rules out every kept tuple below a prefix of views whose
// conditions leave no global (coverSets). Where domains are small, they
// are also in a trie per global value, whose children are grouped by
// their labels on top there, and the test runs one global at a time
// without building a BDD (coverPoints).
type Kept struct {
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
	// (lastSpent, lastSaved).
	last                     int
	spent, limit             int
	lastSpent, lastSaved     int
	lastLimit, lastAllowance int

	// preempt: the levels count preemptions, and a kept tuple covers a
	// new one only when it leaves at most as many for the next switch
	// (covers).
	preempt bool
}

// Never as Config.After: no subsumption test, identical tuples only.
const Never = math.MaxInt

// Config says which tests a Kept runs.
type Config struct {
	// After is the number of kept tuples before the first subsumption
	// test (identical tuples are dropped until then); Never: identical
	// tuples only, always.
	After int
	// Last is the level whose tests run on a budget (package
	// documentation, "The last level"), -1 for none; LastLimit the units
	// of work of one test, LastAllowance those the level's tests may
	// spend beyond what they saved (DefaultLastLimit and
	// DefaultLastAllowance unless a test exhausts them on purpose).
	Last, LastLimit, LastAllowance int
	// Preempt: the levels count preemptions (covers).
	Preempt bool
}

// New returns an empty Kept for tuples of the given number of threads
// whose domains are over the globals g.
func New(m *bdd.Manager, g bdd.VarSet, threads int, c Config) *Kept {
	s := &Kept{m: m, byDom: map[int]*keptGroup{}, after: c.After, last: c.Last, lastLimit: c.LastLimit, lastAllowance: c.LastAllowance, preempt: c.Preempt,
		views: make([][]*symauto.Auto, threads), byHash: make([]map[uint64][]int, threads),
		pairs: make([]map[[2]int]*pairCond, threads), tops: make([][]*viewTops, threads),
		pts: m.Points(g), byPoint: map[uint64]*trieNode{}}
	for i := range threads {
		s.byHash[i] = map[uint64][]int{}
		s.pairs[i] = map[[2]int]*pairCond{}
	}
	if c.After == Never {
		s.pts = nil // no test: no point mode
	}
	return s
}

// Check reports whether every configuration of t belongs to a tuple kept
// at level or below (covers: with as many preemptions and the same last
// thread, or fewer). Otherwise it keeps t and, when that holds at some
// of t's globals, restricts t to the others (shrunk). Until After tuples
// are kept, and at the last level once its tests no longer pay (budget),
// only a tuple identical to a kept one (the same interned views and
// domain) is dropped. last is the thread that ran last (-1: none). The
// views of t become the interned ones.
func (s *Kept) Check(t *split.Tuple, level, last int) (drop, shrunk bool) {
	q := &query{t: t, ids: make([]int, len(t.Views)), level: level, last: last}
	q.path = make([]int, len(q.ids))
	for i, v := range t.Views {
		q.ids[i] = s.intern(i, v)
		t.Views[i] = s.views[i][q.ids[i]]
	}
	if level != s.last && s.n >= s.after {
		s.spent, s.limit = 0, math.MaxInt
		return s.cover(q)
	}
	if s.identical(q) {
		return true, false
	}
	if s.n < s.after || !s.budget() {
		s.keep(q)
		return false, false
	}
	s.spent, s.limit = 0, s.lastLimit
	if drop, shrunk = s.cover(q); drop {
		s.lastSaved += postUnits * (len(q.ids) - 1)
	}
	s.lastSpent += s.spent
	return drop, shrunk
}

// cover is the subsumption test, one global at a time when the point
// mode serves the query's domain, else over sets of globals.
func (s *Kept) cover(q *query) (drop, shrunk bool) {
	if s.pts != nil && s.group(q.t.Domain).points <= maxPoints {
		return s.coverPoints(q)
	}
	return s.coverSets(q)
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
// DefaultLastLimit; the level's tests go on while they have spent at most
// DefaultLastAllowance more than they saved, the other threads' post*
// calls of each tuple they dropped.
const (
	postUnits            = 300
	withinUnits          = 150
	atUnits              = 20
	visitUnits           = 2
	DefaultLastLimit     = 10 * postUnits
	DefaultLastAllowance = 100 * postUnits
)

// budget reports whether a tuple of the last level is tested: whether
// the level's tests have paid for themselves so far, give or take
// s.lastAllowance.
func (s *Kept) budget() bool {
	return s.lastSpent <= s.lastAllowance+s.lastSaved
}

// over counts units of work of the current test and reports whether it
// is over its limit.
func (s *Kept) over(units int) bool {
	s.spent += units
	return s.exhausted()
}

// exhausted reports whether the current test is over its limit: it then
// stops, and what it found covered so far stands.
func (s *Kept) exhausted() bool { return s.spent > s.limit }

// identical reports whether a tuple with the query's domain and views
// was kept and covers it: a lookup in the trie of the domain's group.
func (s *Kept) identical(q *query) bool {
	g := s.byDom[q.t.Domain.ID()]
	if g == nil {
		return false
	}
	n := g.root
	for _, id := range q.ids {
		j := n.child(id)
		if j < 0 {
			return false
		}
		n = n.kids[j]
	}
	return s.anyCovers(n, q.level, q.last)
}

// covers reports whether kept tuple k may cover a new tuple reached with
// level units of the bound, thread last having run last. Counting
// contexts: k was kept at level or below. Counting preemptions the next
// switch's cost depends on the last thread too (whether it can move), so
// k qualifies when it has fewer preemptions (its next switch costs at
// most one), or as many and the same last thread or none (an initial
// tuple: every switch free).
func (s *Kept) covers(k keptTuple, level, last int) bool {
	if !s.preempt {
		return k.level <= level
	}
	return k.level < level || k.level == level && (k.last == last || k.last < 0)
}

// anyCovers reports whether a tuple at trie node n covers a new one
// (covers).
func (s *Kept) anyCovers(n *trieNode, level, last int) bool {
	return slices.ContainsFunc(n.tuples, func(k keptTuple) bool { return s.covers(k, level, last) })
}

// keep records the query's tuple: in its domain's group and, in the point
// mode, in the trie of each of its globals (or, for a wide domain, with
// its group in wide).
func (s *Kept) keep(q *query) {
	s.n++
	k := keptTuple{q.level, q.last}
	g := s.group(q.t.Domain)
	g.root.insert(q.ids, k, nil)
	if s.pts == nil || g.wide || s.after == Never {
		return // the tries per global serve the test only
	}
	s.pts.Each(q.t.Domain, func(p uint64) bool {
		n := s.byPoint[p]
		if n == nil {
			n = &trieNode{minLevel: q.level}
			s.byPoint[p] = n
		}
		n.insert(q.ids, k, func(d, id int) []int { return s.labelsAt(d, id, p) })
		return true
	})
}

// rest keeps the query's tuple restricted to rem, the globals of its
// domain that no kept tuple covers (shrunk when that is not the whole
// domain).
func (s *Kept) rest(q *query, rem bdd.Node) (drop, shrunk bool) {
	t := q.t
	if rem.Equal(t.Domain) {
		s.keep(q)
		return false, false
	}
	t.Domain = rem
	for i, v := range t.Views {
		t.Views[i] = v.RestrictGlobals(rem)
	}
	s.keep(q)
	return false, true
}
