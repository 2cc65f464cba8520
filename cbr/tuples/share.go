package tuples

import (
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// postCache keeps post* results for the items of one level that ask for
// them again: the tuples of a level often share one thread's view and
// differ in the others' (package documentation, "Shared post* results").
// Every item of a level is queued before the first is taken, so the
// uses of each result are counted then (uses), and a result is kept
// until its last use only.
type postCache struct {
	level   int // the level of the items counted
	uses    map[postKey]int
	results map[postKey]*postEntry
}

// postKey is a view (interned by the pruning, so equal views of kept
// tuples are one pointer), the thread that runs it and its domain's node
// id (held alive by the items queued, so not reused meanwhile).
type postKey struct {
	view   *symauto.Auto
	thread int
	dom    int
}

// postEntry is a post* result: the saturated view, its changed start
// globals and, once a tuple was split with it, its parts: free when they
// do not depend on the other views (no live start globals are
// confluent), else by the tuple's other views (split.Others; interned,
// so equal views are one pointer), which tell start globals apart.
type postEntry struct {
	post    *symauto.Auto
	changed bdd.Node
	free    *split.Parts
	parts   []partsEntry
}

type partsEntry struct {
	others []*symauto.Auto
	parts  *split.Parts
}

// newPostCache returns the cache of the level of the queue's first item:
// when share, it counts the post* calls the items of that level will
// make (line 7: every thread but the last one).
func newPostCache(queue []*item, share bool) postCache {
	c := postCache{level: queue[0].level}
	if !share {
		return c
	}
	c.uses, c.results = map[postKey]int{}, map[postKey]*postEntry{}
	for _, it := range queue {
		if it.level != c.level {
			break // the queue is in the order of levels
		}
		for i, v := range it.tuple.Views {
			if i != it.last {
				c.uses[postKey{v, i, it.tuple.Domain.ID()}]++
			}
		}
	}
	return c
}

// sharing reports whether post* results are shared: not when the levels
// say so (counting preemptions), and not without pruning, whose
// interning makes equal views one pointer.
func (a *analysis) sharing() bool {
	return a.levels.shares() && a.sub != nil && !a.opts.noShare
}

// take counts one use of key and returns its kept result, if any, and
// the uses left after this one (-1 when key is not counted).
func (c *postCache) take(key postKey) (*postEntry, int) {
	n := c.uses[key] - 1
	if n >= 0 {
		if n == 0 {
			delete(c.uses, key)
		} else {
			c.uses[key] = n
		}
	}
	e := c.results[key]
	if e != nil && n <= 0 {
		delete(c.results, key)
	}
	return e, n
}

// keep keeps key's result e when it has uses left.
func (c *postCache) keep(key postKey, e *postEntry, left int) {
	if left > 0 {
		c.results[key] = e
	}
}

// splitParts returns the parts of post* result e for tuple t (thread i
// active; line 9), computed once per result when they do not depend on
// t's other views, else once per list of other views.
func (a *analysis) splitParts(t split.Tuple, i int, e *postEntry, pl int) (*split.Parts, error) {
	if e.free != nil {
		return e.free, nil
	}
	others := split.Others(t, i)
	for _, pe := range e.parts { // the parts of this result need the other views
		if slices.Equal(pe.others, others) {
			return pe.parts, nil
		}
	}
	p, err := a.splitter.Parts(e.post, e.changed, pl, others)
	if err != nil {
		return nil, err
	}
	if !p.NeedsAlike() {
		e.free = p
		return p, nil
	}
	e.parts = append(e.parts, partsEntry{others, p})
	return p, nil
}
