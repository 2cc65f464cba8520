package tuples

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples/internal/cover"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// The engine-neutral types, under this package's name.
type (
	Target = pds.Target
	Top    = pds.Top
	Value  = pds.Value
)

// What options.Contexts bounds (options.Count).

// The limits a run can hit (cbr.Result.Limit; test with errors.Is).

// split.Strategy selects how post* results are split into view tuples.

// Prune says which new view tuples are left out because kept ones already
// hold their configurations (package documentation, "Subsumed tuples").
// Every setting is exact: the reachable configurations, the violations and
// their fewest contexts are the same; only the work and the view-tuple
// counts differ.
type Prune int

const (
	// PruneSubsumed (the default) drops a new tuple whose configurations
	// all belong to tuples kept with at most as many contexts, and
	// restricts it to the other globals when that holds at some; before
	// SubsumeAfter tuples are kept (by default none), it drops identical
	// tuples only; at the last level expanded, the test is given a budget
	// (package documentation, "The last level").
	PruneSubsumed Prune = iota
	// PruneIdentical drops a new tuple only when one with the same views
	// and domain was kept with at most as many contexts.
	PruneIdentical
	// PruneNone keeps every tuple: the jMoped paper's counting, which the
	// benchmark harness uses to compare with the paper's tables.
	PruneNone
)

func (p Prune) String() string { return [...]string{"subsumed", "identical", "none"}[p] }

// options are what the analysis reads: the engine's settings and the
// common options, checked once by Engine.options (cbr.Options.Check):
// Bound is the bound as the check resolved it (math.MaxInt32 when
// Unbounded) and Unit is Contexts or Preemptions. The thread bound is the
// network's (pds.Options.MaxThreads).
type options struct {
	Engine
	cbr.Options
}

// item is a work item (j, i, T) of Algorithm 1: a view tuple reached with
// j contexts, thread i having run last (-1 for none).
type item struct {
	level int
	last  int
	tuple split.Tuple
	// paid: counting preemptions, the switch away from last is paid for
	// (level counts it): the other threads run from the tuple at level
	// (preemptLevels.from).
	paid   bool
	parent *item // the item whose context made this one (options.Traces)
}

// Analyze computes context-bounded reachability of net within
// opts.Bound contexts (docs/design.md, "The worklist driver"; the jMoped
// paper's Algorithm 1): items are processed breadth first by their number
// of contexts, so the first violation found uses the fewest contexts. For
// each item with j < k and each thread i' other than the last one, post*
// of the view of i′ tagged with the start global is computed and split into
// new items; the post* results of the k-th context are checked for errors
// but not split.
//
// cbr.Limits (ctx's deadline or cancellation, opts.Limits, the network's
// thread bound) give a cbr.Result with cbr.Verdict cbr.Unknown and the limit in
// cbr.Result.Limit, or cbr.Violation when one was found before; the network is
// left as it was and can be analysed again. Analyze returns an error only
// for a network it cannot analyse.
func analyze(ctx context.Context, net *pds.Network, opts options) (*cbr.Result, error) {
	start := time.Now()
	r := &cbr.Result{Bound: opts.Bound, Unit: opts.Unit, Complete: -1, Converged: -1}
	if !opts.Unbounded {
		r.Stats.TuplesPerLevel = make([]int, opts.Bound+1)
		r.Stats.KeptPerLevel = make([]int, opts.Bound+1)
	}
	a := &analysis{ctx: ctx, opts: opts, res: r, found: map[any]bool{}, start: start, posts: postCache{level: -1}, last: newLastLevel(opts)}
	err := net.M.Run(ctx, bdd.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory}, func() error {
		return a.search(net)
	})
	return a.finish(ctx, net, err)
}

// errStop ends a run at the first violation.
var errStop = errors.New("cbr: stop at first violation")

type analysis struct {
	ctx      context.Context
	net      *pds.Network // with thread slots
	opts     options
	sp       *symauto.Space
	splitter *split.Splitter
	levels   levels // what the levels count (preempt.go)
	res      *cbr.Result
	found    map[any]bool // labels and targets already reported
	cutoff   *pds.Label
	sub      *cover.Kept      // the covered-tuple test, nil for PruneNone (prune.go)
	cur      *item            // the item (or part of one) being expanded or checked
	inPost   bool             // checking a post* result of cur, not cur's tuple
	traces   map[any]traceJob // by label or target: where each violation was found (options.Traces)
	start    time.Time
	last     lastLevel       // the k-th context's results (lastlevel.go)
	posts    postCache       // post* results shared within a level (share.go)
	vis      *visibleTracker // unbounded runs: the reachable visible states (converge.go)
}

// search runs Algorithm 1 on net, under the limits of net.M.Run, on the
// network with thread slots (whose threads the worklist runs).
func (a *analysis) search(net *pds.Network) error {
	eng, err := net.WithThreadSlots(net.MaxThreads)
	if err != nil {
		return fmt.Errorf("cbr: %w", err)
	}
	a.net, a.sp, a.res.Net = eng, symauto.NewSpace(eng), eng
	a.levels = newLevels(a.opts, a.sp)
	// Near a node or memory limit, the shared post* results go first.
	net.M.OnPressure(func() { clear(a.posts.results) })
	defer net.M.OnPressure(nil)
	a.splitter = split.New(a.opts.Split, a.sp)
	a.splitter.MaxTuples = a.opts.MaxTuples
	a.splitter.Classes = a.opts.Traces
	a.watchVisible(a.ctx)
	return a.run()
}

// run is the paper's Algorithm 1: the worklist starts with the initial
// tuples (lines 1-2); each item taken (lines 3-4) is expanded by every
// thread but the last one (lines 6-10). Line 5, adding [[T]] to the
// result, is OnTuple; the errors and targets in [[T]] are checked when
// the tuple is made (in the post* result it comes from). Successors at
// the item's own level (free switches, counting preemptions) are taken
// before the worklist's next item.
func (a *analysis) run() error {
	queue, err := a.initialItems() // lines 1-2
	if err != nil {
		return err
	}
	if done := a.levels.closed(0); done >= 0 {
		a.levelDone(done)
	}
	var now []*item                      // successors at the level being done
	for len(now) > 0 || len(queue) > 0 { // line 3
		var it *item // line 4
		if len(now) > 0 {
			it, now = now[len(now)-1], now[:len(now)-1]
		} else {
			if queue[0].level != a.posts.level {
				a.posts = newPostCache(queue, a.sharing())
			}
			it, queue = queue[0], queue[1:]
		}
		if done := a.levels.closed(it.level); done > a.res.Complete {
			a.levelDone(done)
			if a.vis != nil && a.vis.done(done) {
				return errVisible
			}
		}
		a.taken(it)
		next, err := a.expand(it) // lines 6-10
		if err != nil {
			return err
		}
		for _, n := range next {
			if n.level == it.level {
				now = append(now, n)
			} else {
				queue = append(queue, n)
			}
		}
		a.progress(it.level, len(now)+len(queue))
	}
	return a.net.M.Err()
}

// initialItems returns the items of the initial tuples (lines 1-2: one
// for lazy, one per initial global value for eager), after checking them
// for errors and targets.
func (a *analysis) initialItems() ([]*item, error) {
	views := make([]*symauto.Auto, len(a.net.Threads))
	for i, t := range a.net.Threads {
		views[i] = a.sp.Init(t)
	}
	a.sub = newPruner(a.net.M, a.sp.CurSet(), len(views), a.opts)
	tuples, err := a.splitter.Initial(views)
	if err != nil {
		return nil, err
	}
	var queue []*item
	for _, t := range tuples {
		if err := a.net.M.Err(); err != nil {
			return nil, err // a limit or the deadline among many eager tuples
		}
		if a.drop(&t, 0, -1) {
			continue
		}
		a.kept(0)
		queue = append(queue, &item{level: 0, last: -1, tuple: t})
		if a.opts.OnTuple != nil {
			a.opts.OnTuple(0, t)
		}
	}
	for _, it := range queue {
		a.cur = it
		if err := a.net.M.Err(); err != nil {
			return nil, err
		}
		if err := a.checkTuple(it.tuple, 0); err != nil {
			return nil, err
		}
	}
	return queue, nil
}

// expand runs one more context of every thread but the last one from it
// (lines 6-8), checks each post* result, and returns the successors
// (lines 9-10). The levels say from which items the threads run
// (levels.from: it at one more context, counting contexts), by which
// start globals a result is split, and which results are the bound's
// last: checked, but split only when the last level asks for it.
func (a *analysis) expand(it *item) ([]*item, error) {
	now, next := a.levels.from(it)
	for _, from := range now {
		a.cur = from
		level := from.level
		starts := a.levels.starts(from)
		for i := range it.tuple.Views { // line 7
			if i == it.last {
				continue
			}
			if err := a.ctx.Err(); err != nil {
				return nil, err
			}
			pl := a.levels.postLevel(level, a.res.Stats.PostStarCalls)
			e, err := a.postStar(from.tuple, i, pl) // line 8
			if err != nil {
				return nil, err
			}
			if e.changed = starts(e.changed); e.changed.IsFalse() {
				continue // every start global stale: nothing new
			}
			if err := a.checkPost(from.tuple, i, e.post, level); err != nil {
				return nil, err
			}
			if a.levels.last(level) && !a.last.splits(a.keptAt(level)) {
				continue
			}
			succ, err := a.successors(from, i, e, pl) // lines 9-10
			if err != nil {
				return nil, err
			}
			next = append(next, succ...)
		}
	}
	return next, nil
}

// postStar tags thread i's view of t with the start global and saturates
// it (line 8), or takes the result from the level's shared ones.
func (a *analysis) postStar(t split.Tuple, i, level int) (*postEntry, error) {
	a.res.Stats.PostStarCalls++
	key := postKey{t.Views[i], i, t.Domain.ID()}
	e, left := a.posts.take(key)
	if e != nil {
		a.res.Stats.PostStarShared++
		return e, nil
	}
	e, err := a.saturate(t.Views[i].Tag(t.Domain), level)
	if err != nil {
		return nil, err
	}
	a.posts.keep(key, e, left)
	return e, nil
}

// saturate computes post* of a tagged view, naming its mid-states with
// level.
func (a *analysis) saturate(tagged *symauto.Auto, level int) (*postEntry, error) {
	if !tagged.CanMove() {
		// No rule is enabled anywhere in the view: post* would add
		// nothing (every start global stale), so no saturation.
		return &postEntry{post: tagged, changed: a.net.M.False()}, a.net.M.Err()
	}
	s := symauto.NewSaturation(tagged, level)
	err := s.Run(a.ctx)
	a.res.Stats.PostStarSteps += s.Steps()
	if err == nil {
		// The limits at a point of the run that does not depend on
		// timing, besides every 1024 operations: a short run is checked too.
		err = a.net.M.Check()
	}
	if err != nil {
		return nil, err
	}
	return &postEntry{post: s.Result(), changed: s.Changed()}, nil
}

// successors splits thread i's post* result e into new tuples (line 9) and
// returns those the pruning keeps as items (line 10); those of the bound's
// last level only go to OnTuple (KeepLast). from is the item expanded, at
// the level of the successors; pl the level post* named its mid-states
// with (levels.postLevel).
func (a *analysis) successors(from *item, i int, e *postEntry, pl int) ([]*item, error) {
	level := from.level
	p, err := a.splitParts(from.tuple, i, e, pl)
	if err != nil {
		return nil, err
	}
	var next []*item
	for _, t := range a.splitter.Apply(from.tuple, i, p) {
		if err := a.net.M.Err(); err != nil {
			return nil, err // a limit or the deadline among many eager tuples
		}
		if a.drop(&t, level, i) {
			continue
		}
		a.kept(level)
		if !a.levels.last(level) {
			nt := &item{level: level, last: i, tuple: t}
			if a.opts.Traces {
				nt.parent = from
			}
			next = append(next, nt)
		}
		if a.opts.OnTuple != nil {
			a.opts.OnTuple(level, t) // line 5
		}
	}
	return next, a.net.M.Err()
}

// checkPost reports the error labels on top of the active thread's stack
// in post*: every accepted configuration of the tagged result belongs to a
// start global of the tuple's domain, where every other view accepts, so
// it is a reachable global configuration.
func (a *analysis) checkPost(t split.Tuple, active int, post *symauto.Auto, level int) error {
	a.inPost = true
	for _, top := range post.Tops(interesting) {
		if err := a.report(top.Label, active, level); err != nil {
			return err
		}
	}
	return a.checkTargets(t, active, post, level)
}

func interesting(l *pds.Label) bool { return l.Kind != pds.Normal }

// checkTuple reports error labels on top in any thread of a tuple.
func (a *analysis) checkTuple(t split.Tuple, level int) error {
	a.inPost = false
	for i, v := range t.Views {
		for _, top := range v.Tops(interesting) {
			if err := a.report(top.Label, i, level); err != nil {
				return err
			}
		}
	}
	return a.checkTargets(t, -1, nil, level)
}

func (a *analysis) report(l *pds.Label, thread, level int) error {
	if l.Kind == pds.Cutoff {
		if a.cutoff == nil {
			a.cutoff = l
		}
		return nil
	}
	if a.found[l] {
		return nil
	}
	a.found[l] = true
	a.traceFound(l, thread)
	f := cbr.Found{Kind: l.Kind, Label: l, Pos: l.Pos, Thread: thread, Proc: l.Proc.Name, Contexts: level, Message: l.Message}
	return a.addFound(f)
}

func (a *analysis) addFound(f cbr.Found) error {
	if a.res.AddFound(f, a.opts.OnViolation, a.opts.All) {
		return errStop
	}
	return nil
}

// taken counts an item taken from the worklist.
func (a *analysis) taken(it *item) {
	a.res.Stats.ViewTuples++
	a.grow(it.level)
	a.res.Stats.TuplesPerLevel[it.level]++
}

// progress calls OnProgress after an item of level was expanded, queued
// items being left.
func (a *analysis) progress(level, queued int) {
	if a.opts.OnProgress != nil {
		a.opts.OnProgress(cbr.Progress{Level: level, Tuples: a.res.Stats.ViewTuples, Queued: queued,
			PostStar: a.res.Stats.PostStarCalls, Elapsed: time.Since(a.start), Violations: len(a.res.Violations)})
	}
}

// grow makes the per-level statistics long enough for level.
func (a *analysis) grow(level int) {
	st := &a.res.Stats
	for len(st.TuplesPerLevel) <= level {
		st.TuplesPerLevel = append(st.TuplesPerLevel, 0)
		st.KeptPerLevel = append(st.KeptPerLevel, 0)
	}
}

// kept counts a new tuple kept at level.
func (a *analysis) kept(level int) {
	a.grow(level)
	a.res.Stats.KeptPerLevel[level]++
}

// keptAt returns the number of tuples kept at level so far.
func (a *analysis) keptAt(level int) int {
	if kept := a.res.Stats.KeptPerLevel; level < len(kept) {
		return kept[level]
	}
	return 0
}

// levelDone records that every tuple of at most level contexts has been
// made and checked (breadth-first order: the first item of a level is
// taken when the level before is done).
func (a *analysis) levelDone(level int) {
	a.res.Complete = level
	a.res.Stats.LevelTime = append(a.res.Stats.LevelTime, time.Since(a.start))
}
