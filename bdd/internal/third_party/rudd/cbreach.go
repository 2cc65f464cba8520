package rudd

import "sync/atomic"

// This file holds what cbreach added to its fork of rudd (see README.md
// beside it): operations that can be stopped from outside, a table that
// cannot grow aborts the operation cleanly, and direct access to the node
// table for the reference counting kept by package bdd.

// Aborted is the value an operation panics with when it stops before its
// end: Interrupted when the stop flag was set, otherwise because the node
// table reached its maximal size. The BDD stays usable: the caches hold
// only finished results (and are reset when the table was collected), the
// nodes built so far are unreferenced and freed by the next collection.
// Callers recover it at their operation boundary.
type Aborted struct{ Interrupted bool }

// SetStop makes every operation check flag before it builds a node and
// abort (panic with Aborted{Interrupted: true}) when it is true. A nil
// flag turns the check off. The flag may be set from another goroutine.
func (b *BDD) SetStop(flag *atomic.Bool) { b.stop = flag }

// SetMaxNodesize changes the maximal size of the node table (0: no
// limit). A table already larger is not shrunk; it will not grow.
func (b *BDD) SetMaxNodesize(n int) { b.maxnodesize = n }

// SetGrowBelow makes a full table smaller than n nodes grow without being
// collected first. A small initial table is then cheap to create (a run
// on a small model needs no more), while a larger run does not pay for
// collections, and the cache resets they bring, before its table reaches
// the size it would have started with.
func (b *BDD) SetGrowBelow(n int) { b.growbelow = n }

// SetBeforeGrow sets a function that a collection which leaves too few
// free nodes calls before the table grows (the collection then runs
// again), at most once per beforeGrowEvery tables' worth of nodes built.
// It may set reference counts to 0 (package bdd gives back the nodes
// whose handles died since it last looked), and nothing else: it runs
// inside an operation.
func (b *BDD) SetBeforeGrow(f func()) { b.beforegrow = f }

// SetBeforeCollect sets a function that an operation calls before it
// collects the full table. Like the function of SetBeforeGrow, it may set
// reference counts to 0 (package bdd gives back the nodes whose handles
// Go's collector found dead), and nothing else.
func (b *BDD) SetBeforeCollect(f func()) { b.precollect = f }

// beforeGrowEvery: f is a collection of Go's heap; on every growth it
// would keep the table small but run so often that it dominates a run,
// and much rarer it would save no memory. Once per table's worth is the
// measured compromise (docs/benchmarks.md, "BDD kernel notes").
const beforeGrowEvery = 1

// Collect runs the garbage collection of the node table now: every node
// with a zero reference count that no referenced node reaches is freed.
func (b *BDD) Collect() {
	b.initref()
	b.gbc(b.refstack)
	b.cachereset()
}

// Used returns the number of nodes in the table that are not free (live
// ones and dead ones not yet collected), constants included.
func (b *BDD) Used() int { return len(b.nodes) - b.freenum }

// Allocated returns the size of the node table.
func (b *BDD) Allocated() int { return len(b.nodes) }

// RefCount returns the reference count of node id.
func (b *BDD) RefCount(id int) int { return int(b.nodes[id].refcou) }

// SetRefCount sets the reference count of node id; a node whose count is
// positive is never collected, nor are the nodes it reaches.
func (b *BDD) SetRefCount(id, c int) { b.nodes[id].refcou = int32(c) }

// MaxRefCount is the count of the constants and variables: pinned for good.
const MaxRefCount = int(_MAXREFCOUNT)

// NodeAt returns the level, low and high successors of node id.
func (b *BDD) NodeAt(id int) (level, low, high int) {
	n := &b.nodes[id]
	return int(n.level & 0x1FFFFF), int(n.low), int(n.high)
}

// Cube returns the conjunction of the variables at the given levels,
// which must be sorted in increasing order without repetitions. It builds
// the cube from the bottom up, one node per variable.
func (b *BDD) Cube(levels []int) Node {
	b.initref()
	res := 1
	for k := len(levels) - 1; k >= 0; k-- {
		b.pushref(res)
		res = b.makenode(int32(levels[k]), 0, res)
		b.popref(1)
	}
	return b.retnode(res)
}

// Walk calls f with the level of every node that n reaches (n included,
// the constants not), once per node, depth first, the low successor
// first. It marks the nodes it visits with the collector's mark bit and
// unmarks them after: no set of visited nodes to allocate and hash. f must
// not use the BDD (an operation could collect the table, which uses the
// mark bit).
func (b *BDD) Walk(n int, f func(level int)) {
	b.walkrec(n, f)
	b.unmarkrec(n)
}

func (b *tables) walkrec(n int, f func(level int)) {
	if n < 2 || b.ismarked(n) {
		return
	}
	b.marknode(n)
	f(int(b.nodes[n].level & 0x1FFFFF))
	b.walkrec(int(b.nodes[n].low), f)
	b.walkrec(int(b.nodes[n].high), f)
}

func (b *tables) unmarkrec(n int) {
	if n < 2 || !b.ismarked(n) {
		return
	}
	b.unmarknode(n)
	b.unmarkrec(int(b.nodes[n].low))
	b.unmarkrec(int(b.nodes[n].high))
}

// PairChain builds, from the bottom up, f(k) = the function of x_k, y_k
// and f(k+1) given by cof, with f(len(pairs)) = base (0 or 1), and
// returns f(0), where pairs[k] = {x_k, y_k} are levels. The pairs must
// lie one below the other: max(pairs[k]) < min(pairs[k+1]) (two copies
// of variables whose copies are adjacent in the order). cof gives f(k)
// for x_k, y_k = 00, 01, 10, 11: 0 or 1 for that constant, -1 for f(k+1).
// The equality of the copies is base 1 and cof {-1, 0, 0, -1}. It makes
// at most three nodes per pair, where a conjunction by apply would pass
// over the partial result again.
func (b *BDD) PairChain(pairs [][2]int, base int, cof [4]int) Node {
	b.initref()
	res := base
	pick := func(c int) int {
		if c < 0 {
			return res
		}
		return c
	}
	for k := len(pairs) - 1; k >= 0; k-- {
		x, y, c := int32(pairs[k][0]), int32(pairs[k][1]), cof
		if x > y {
			x, y = y, x
			c[1], c[2] = c[2], c[1]
		}
		b.pushref(res)
		lo := b.pushref(b.makenode(y, pick(c[0]), pick(c[1])))
		hi := b.pushref(b.makenode(y, pick(c[2]), pick(c[3])))
		res = b.makenode(x, lo, hi)
		b.popref(3)
	}
	return b.retnode(res)
}
