package tuples

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// What the levels of the worklist count (options.Count): the jMoped
// paper's j counts contexts; counting preemptions (package documentation,
// "Preemptions"; docs/design.md, "Preemption counting") a switch away
// from a thread that cannot move is free. The driver (run, expand,
// successors) asks a levels value its questions and never branches on
// the unit itself.

// levels answers the worklist's questions about its levels.
type levels interface {
	// closed returns the highest level whose tuples have all been made
	// and checked once the first item of level is taken, -1 for none;
	// closed(0) is the level done once the initial tuples are made.
	closed(level int) int
	// last reports whether the tuples made at level are the bound's last
	// ones: checked and handed to OnTuple, never expanded (line 6, j < k).
	last(level int) bool
	// from returns the items that the other threads run from now (line
	// 7), each at the level of its successors, and the items deferred to
	// the worklist.
	from(it *item) (now, later []*item)
	// starts returns, for an item from which threads run, the start
	// globals a post* result is split by, given those it changed (line
	// 9): a post* whose result is the empty set adds nothing.
	starts(from *item) func(changed bdd.Node) bdd.Node
	// postLevel returns the context level post* names its mid-states
	// with for an item of level, calls being the post* calls made before.
	postLevel(level, calls int) int
	// shares reports whether equal post* calls of the items of one level
	// may share their result (package documentation, "Shared post*
	// results").
	shares() bool
}

// newLevels returns the levels of opts.Unit, whose bound is
// opts.Bound.
func newLevels(opts options, sp *symauto.Space) levels {
	if opts.Unit == cbr.Preemptions {
		return preemptLevels{k: opts.Bound, sp: sp}
	}
	return contextLevels{k: opts.Bound}
}

// unclosed is what a limit's reason adds when counting preemptions cut
// the run off before every level up to the bound closed ("" otherwise).
func unclosed(r *cbr.Result) string {
	if r.Unit != cbr.Preemptions || r.Complete >= r.Bound || errors.Is(r.Limit, cbr.ErrThreadBound) {
		return ""
	}
	return fmt.Sprintf(" before the runs with %s were all explored (free switches may go on without end)", cbr.Preemptions.Of(r.Complete+1))
}

// contextLevels counts contexts, the paper's j: every item's successors
// have one more context, and those of the k-th are not expanded.
type contextLevels struct{ k int }

// closed: items make tuples of the next level only, so every tuple of a
// level was made (and queued) before its first item is taken; the
// initial tuples are the whole level 0.
func (l contextLevels) closed(level int) int { return level }

func (l contextLevels) last(level int) bool { return level >= l.k }

// from: the item's own tuple, one context further.
func (l contextLevels) from(it *item) (now, later []*item) {
	return []*item{{level: it.level + 1, last: it.last, tuple: it.tuple, parent: it.parent}}, nil
}

// starts: the changed start globals; the others are stale (the
// configurations from them are in the item already).
func (l contextLevels) starts(*item) func(bdd.Node) bdd.Node {
	return func(changed bdd.Node) bdd.Node { return changed }
}

// postLevel: the number of contexts.
func (l contextLevels) postLevel(level, _ int) int { return level }

func (l contextLevels) shares() bool { return true }

// preemptLevels counts preemptions: the items of a level make tuples of
// the same level (free switches), so a level closes only when the
// worklist's first item of the next is taken, and no level is the last.
type preemptLevels struct {
	k  int
	sp *symauto.Space
}

// closed: only the level below the first item's is done, as its items
// may still make items of their own level.
func (l preemptLevels) closed(level int) int { return level - 1 }

// last: none; from caps the levels at the bound.
func (l preemptLevels) last(int) bool { return false }

// from returns the item itself when the switch away from its last thread
// is paid for or free (the first context); else the part of the tuple
// where the last thread cannot move, at the same level (free switches),
// and the rest deferred as a paid item of the next level (none beyond
// the bound, none empty), so that every configuration of a level is
// checked before any of the next (the first violation found has the
// fewest preemptions; 0-1 breadth first).
//
// A part has the item's parent and class of start globals (its
// configurations are the item's), so that traces walk back through it.
func (l preemptLevels) from(it *item) (now, later []*item) {
	if it.last < 0 || it.paid {
		return []*item{it}, nil
	}
	m := l.sp.M
	v := it.tuple.Views[it.last]
	for _, blocked := range []bool{true, false} {
		level := it.level
		if !blocked {
			level++
		}
		if level > l.k {
			continue
		}
		w := v.RestrictMoving(!blocked)
		dom := m.And(it.tuple.Domain, w.Accepting())
		if dom.IsFalse() {
			continue
		}
		t := split.Tuple{Views: slices.Clone(it.tuple.Views), Domain: dom, Class: it.tuple.Class}
		t.Views[it.last] = w
		if blocked {
			now = append(now, &item{level: level, last: it.last, tuple: t, parent: it.parent})
		} else {
			later = append(later, &item{level: level, last: it.last, tuple: t, paid: true, parent: it.parent})
		}
	}
	return now, later
}

// starts: every start global of from, stale or not: a successor has
// another last thread, so another cost for the next switch
// (docs/design.md, "Preemption counting").
func (l preemptLevels) starts(from *item) func(bdd.Node) bdd.Node {
	every := l.sp.CurToStart(from.tuple.Domain)
	return func(bdd.Node) bdd.Node { return every }
}

// postLevel: a number of its own per post* call (one thread may run
// several contexts at one preemption level, and post* must not mix their
// summaries).
func (l preemptLevels) postLevel(_, calls int) int { return calls + 1 }

// shares: no, each call has a level of its own (postLevel).
func (l preemptLevels) shares() bool { return false }
