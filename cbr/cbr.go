package cbr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// The engine-neutral types, under this package's name.
type (
	Verdict  = engine.Verdict
	Found    = engine.Found
	Target   = pds.Target
	Top      = pds.Top
	Value    = pds.Value
	Result   = engine.Result
	Stats    = engine.Stats
	Progress = engine.Progress
	Limits   = engine.Limits
	Unit     = engine.Unit
)

const (
	Safe      = engine.Safe
	Violation = engine.Violation
	Unknown   = engine.Unknown
)

// What Options.Contexts bounds (Options.Count).
const (
	Contexts    = engine.Contexts    // maximal runs of one thread
	Preemptions = engine.Preemptions // preempting switches (package documentation, "Preemptions")
	// ZeroBound in Options.Contexts asks for a bound of 0 preemptions (0
	// means DefaultContexts).
	ZeroBound = engine.ZeroBound
)

// The limits a run can hit (Result.Limit; test with errors.Is).
var (
	ErrNodeLimit   = engine.ErrNodeLimit
	ErrMemoryLimit = engine.ErrMemoryLimit
	ErrThreadBound = engine.ErrThreadBound
	ErrTupleLimit  = engine.ErrTupleLimit
)

// IsLimit reports whether err is a limit (Result.Limit's errors, a
// context's cancellation or deadline): the run was cut off, not wrong.
func IsLimit(err error) bool { return engine.IsLimit(err) }

// Strategy selects how post* results are split into view tuples.
type Strategy = split.Strategy

const (
	// Lazy splits by a safe partition of the start globals (the jMoped
	// paper's Section 3): tuples may hold many global values.
	Lazy = split.Lazy
	// Eager keeps one global value per tuple (Qadeer and Rehof).
	Eager = split.Eager
)

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

// DefaultContexts is the bound when Options.Contexts is 0.
const DefaultContexts = 4

// Options configure Analyze. The zero value analyzes DefaultContexts
// contexts with lazy splitting and PruneSubsumed, stopping at the first
// violation: the command line's defaults. The thread bound is the
// network's (pds.Options.MaxThreads).
type Options struct {
	Contexts int // the bound k in units of Count (default DefaultContexts; ZeroBound for 0 preemptions)
	// Count is what the bound counts: Contexts (the default) or
	// Preemptions, switches away from a thread that could still move
	// (package documentation, "Preemptions").
	Count Unit
	// Unbounded deepens the bound until the reachable configurations stop
	// growing (Result.Converged), a violation is found, or a limit stops
	// the run; Contexts is then ignored.
	Unbounded bool
	Split     Strategy     // eager or lazy (default lazy)
	All       bool         // explore the whole bound and report every violation site
	Targets   []pds.Target // visible states to reach, besides the error labels
	Prune     Prune        // which covered tuples are left out (default PruneSubsumed)
	// SubsumeAfter is, for PruneSubsumed, the number of kept tuples before
	// the subsumption test starts (identical tuples are dropped until
	// then); 0 (the default) or less: from the first tuple.
	SubsumeAfter int
	Limits       // BDD nodes, memory, eager tuples; time comes with ctx

	// OnProgress, when set, is called after every view tuple's successors
	// have been computed.
	OnProgress func(Progress)
	// OnViolation, when set, is called with every violation when found.
	OnViolation func(Found)
	// OnTuple, when set, is called with every view tuple the analysis
	// keeps (the initial ones at level 0, then every split result) and
	// the number of contexts that reached it. For tests and tools that
	// inspect the reachable sets.
	OnTuple func(level int, t split.Tuple)
	// KeepLast splits the post* results of the k-th context too and hands
	// them to OnTuple (they are never processed further), so that OnTuple
	// sees the whole reachable set within the bound.
	KeepLast bool
	// Traces gives every violation a trace (Found.Trace): a concrete run
	// with the fewest contexts (or preemptions), replayed on the explicit
	// semantics. It keeps every view tuple that has successors alive, with
	// the BDDs of its views, and costs one more post* per context of each
	// trace (package documentation, "Traces").
	Traces bool

	// lastBudget, when set, replaces the budget of the last level's tests
	// (limit per test, allowance; package documentation, "The last
	// level"): for tests, which exhaust it on small programs.
	lastBudget *[2]int
	// noShare computes every post* call, for tests that compare with
	// the shared results.
	noShare bool
}

// item is a work item (j, i, T) of Algorithm 1: a view tuple reached with
// j contexts, thread i having run last (-1 for none).
type item struct {
	level int
	last  int
	tuple split.Tuple
	// paid: counting preemptions, the switch away from last is paid for
	// (level counts it): the other threads run from the tuple at level.
	paid   bool
	parent *item // the item whose context made this one (Options.Traces)
}

// Analyze computes context-bounded reachability of net within
// opts.Contexts contexts (docs/design.md, "The worklist driver"; the jMoped
// paper's Algorithm 1): items are processed breadth first by their number
// of contexts, so the first violation found uses the fewest contexts. For
// each item with j < k and each thread i' other than the last one, post*
// of the view of i′ tagged with the start global is computed and split into
// new items; the post* results of the k-th context are checked for errors
// but not split.
//
// Limits (ctx's deadline or cancellation, opts.Limits, the network's
// thread bound) give a Result with Verdict Unknown and the limit in
// Result.Limit, or Violation when one was found before; the network is
// left as it was and can be analysed again. Analyze returns an error only
// for a network it cannot analyse.
func Analyze(ctx context.Context, net *pds.Network, opts Options) (*Result, error) {
	start := time.Now()
	preempt := opts.Count == Preemptions
	switch {
	case opts.Contexts == 0:
		opts.Contexts = DefaultContexts
	case opts.Contexts == ZeroBound && preempt:
		opts.Contexts = 0
	}
	if opts.Unbounded {
		opts.Contexts = math.MaxInt32
	}
	switch {
	case opts.Count != Contexts && !preempt:
		return nil, fmt.Errorf("cbr: unknown unit %d", opts.Count)
	case preempt && opts.Contexts < 0:
		return nil, fmt.Errorf("cbr: preemption bound %d: need at least 0", opts.Contexts)
	case !preempt && opts.Contexts < 1:
		return nil, fmt.Errorf("cbr: context bound %d: need at least 1", opts.Contexts)
	case preempt && opts.Prune == PruneNone:
		// Every expansion makes successors (stale ones too: another last
		// thread), so without pruning a level never closes.
		return nil, errors.New("cbr: counting preemptions needs pruning (identical or subsumed tuples)")
	}
	r := &Result{Bound: opts.Contexts, Unit: opts.Count, Complete: -1, Converged: -1}
	if !opts.Unbounded {
		r.Stats.TuplesPerLevel = make([]int, opts.Contexts+1)
		r.Stats.KeptPerLevel = make([]int, opts.Contexts+1)
	}
	a := &analysis{ctx: ctx, opts: opts, res: r, found: map[any]bool{}, start: start, posts: postCache{level: -1}}
	err := net.M.Run(ctx, bdd.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory}, func() error {
		eng, err := net.WithThreadSlots(net.MaxThreads)
		if err != nil {
			return fmt.Errorf("cbr: %w", err)
		}
		a.net, a.sp, r.Net = eng, symauto.NewSpace(eng), eng
		// Near a node or memory limit, the shared post* results go first.
		net.M.OnPressure(func() { clear(a.posts.results) })
		defer net.M.OnPressure(nil)
		a.splitter = split.New(opts.Split, a.sp)
		a.splitter.MaxTuples = opts.MaxTuples
		a.splitter.Classes = opts.Traces
		a.watchVisible(ctx)
		return a.run()
	})
	err = asLimit(err)
	if errors.Is(err, errVisible) {
		r.Visible, err = a.vis.result, nil
	}
	stopped := errors.Is(err, errStop)
	if stopped {
		err = nil
	}
	r.Stats.Time = time.Since(start)
	r.Stats.PeakNodes = net.M.PeakNodes()
	switch {
	case err != nil && engine.IsLimit(err):
		r.Limit = err
	case err != nil:
		r.Verdict, r.Reason = Unknown, err.Error() // never Safe on an error
		return r, err
	case a.cutoff != nil:
		r.Limit = fmt.Errorf("cbr: a start at %s would exceed the thread bound of %d threads: %w", a.cutoff.Pos, net.MaxThreads, ErrThreadBound)
	}
	// Traces are built after the search, under the same limits.
	if err := r.BuildTraces(ctx, net.M, opts.Limits, opts.Traces, a.buildTraces); err != nil {
		return r, err
	}
	r.Decide()
	if r.Verdict == Safe && r.Visible == nil {
		// (Stopped by the visible states, the level after the last one
		// made was never made: it says nothing about the configurations.)
		r.Converged = a.converged()
	}
	if r.Limit == nil && !stopped && !opts.Unbounded {
		// The queue ran empty: every level is done.
		r.Complete = r.Bound
		for len(r.Stats.LevelTime) <= r.Bound {
			r.Stats.LevelTime = append(r.Stats.LevelTime, r.Stats.Time)
		}
	}
	if opts.Unbounded {
		if r.Converged >= 0 {
			r.Complete = r.Converged
		}
		// The bound is how far the search went.
		r.Bound = max(len(r.Stats.TuplesPerLevel)-1, r.Complete, 0)
		if r.Converged >= 0 {
			r.Bound = r.Converged
		}
		if r.Visible != nil {
			r.Bound = r.Visible.Explored
		}
		for len(r.Stats.TuplesPerLevel) <= r.Bound {
			r.Stats.TuplesPerLevel = append(r.Stats.TuplesPerLevel, 0)
			r.Stats.KeptPerLevel = append(r.Stats.KeptPerLevel, 0)
		}
		if r.Verdict == Safe && r.Converged < 0 && r.Visible == nil {
			r.Verdict = Unknown // cannot happen: unbounded runs end converged or cut off
		}
	}
	if r.Limit != nil {
		r.Reason = reason(r.Limit, a.cutoff, net.MaxThreads)
		if preempt && r.Complete < r.Bound && !errors.Is(r.Limit, ErrThreadBound) {
			r.Reason += fmt.Sprintf(" before the runs with %s were all explored (free switches may go on without end)", Preemptions.Of(r.Complete+1))
		}
	}
	return r, nil
}

// reason says a limit in words.
func reason(err error, cutoff *pds.Label, threads int) string {
	switch {
	case errors.Is(err, ErrThreadBound):
		return fmt.Sprintf("a start at %s would exceed the thread bound of %d threads", cutoff.Pos, threads)
	case errors.Is(err, ErrTupleLimit):
		return strings.TrimSuffix(strings.TrimPrefix(err.Error(), "split: "), ": "+ErrTupleLimit.Error())
	}
	if w := engine.LimitWords(err); w != "" {
		return w
	}
	return err.Error()
}

// errStop ends a run at the first violation.
var errStop = errors.New("cbr: stop at first violation")

type analysis struct {
	ctx      context.Context
	net      *pds.Network // with thread slots
	opts     Options
	sp       *symauto.Space
	splitter *split.Splitter
	res      *Result
	found    map[any]bool // labels and targets already reported
	cutoff   *pds.Label
	sub      *subsumer
	cur      *item            // the item (or part of one) being expanded or checked
	inPost   bool             // checking a post* result of cur, not cur's tuple
	traces   map[any]traceJob // by label or target: where each violation was found (Options.Traces)
	start    time.Time
	unsplit  bool // a changed post* result of the k-th context was not split
	posts    postCache
	vis      *visibleTracker // unbounded runs: the reachable visible states (converge.go)
}

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
// confluent), else by the relation of start globals the tuple's other
// views cannot tell apart (split.Splitter.Alike; the key is its node id,
// the node kept alive in the value so that the id is not reused).
type postEntry struct {
	post    *symauto.Auto
	changed bdd.Node
	free    *split.Parts
	parts   map[int]partsEntry
}

type partsEntry struct {
	alike bdd.Node
	parts *split.Parts
}

// sharePosts starts the cache of the level of the queue's first item:
// it counts the post* calls the items of that level will make (expand).
// Counting preemptions every call has a level of its own (postLevel),
// and without pruning views are not interned (equal views are seldom
// one pointer): nothing is shared then.
func (a *analysis) sharePosts(queue []*item) {
	a.posts = postCache{level: queue[0].level}
	if a.preempt() || a.sub == nil || a.opts.noShare {
		return
	}
	a.posts.uses, a.posts.results = map[postKey]int{}, map[postKey]*postEntry{}
	for _, it := range queue {
		if it.level != a.posts.level {
			break // the queue is in the order of levels
		}
		for i, v := range it.tuple.Views {
			if i != it.last {
				a.posts.uses[postKey{v, i, it.tuple.Domain.ID()}]++
			}
		}
	}
}

// run is the paper's Algorithm 1: the worklist starts with the initial
// tuples (lines 1-2); each item taken (lines 3-4) is expanded by every
// thread but the last one (lines 6-10). Line 5, adding [[T]] to the
// result, is OnTuple; the errors and targets in [[T]] are checked when
// the tuple is made (in the post* result it comes from).
func (a *analysis) run() error {
	queue, err := a.initialItems()
	if err != nil {
		return err
	}
	if !a.preempt() {
		a.levelDone(0)
	}
	var now []*item // items of the level being done (free switches; Preemptions)
	for len(now) > 0 || len(queue) > 0 {
		var it *item
		if len(now) > 0 {
			it, now = now[len(now)-1], now[:len(now)-1]
		} else {
			if queue[0].level != a.posts.level {
				a.sharePosts(queue)
			}
			it, queue = queue[0], queue[1:]
		}
		if done := it.level - a.free(); done > a.res.Complete {
			a.levelDone(done)
			if a.vis != nil && a.vis.done(done) {
				return errVisible
			}
		}
		a.res.Stats.ViewTuples++
		a.grow(it.level)
		a.res.Stats.TuplesPerLevel[it.level]++
		next, err := a.expand(it)
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
		if a.opts.OnProgress != nil {
			a.opts.OnProgress(Progress{Level: it.level, Tuples: a.res.Stats.ViewTuples, Queued: len(now) + len(queue),
				PostStar: a.res.Stats.PostStarCalls, Elapsed: time.Since(a.start), Violations: len(a.res.Violations)})
		}
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
	if a.sub != nil {
		a.sub.preempt = a.preempt()
	}
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
// (lines 9-10), none beyond the bound.
//
// Counting preemptions, the item's tuple is first cut in two by whether
// the last thread can move (parts): the other threads run from the part
// where it cannot at the same level (free switches); the other part is
// returned as an item of the next level, paid for, so that every
// configuration of a level is checked before any of the next (the first
// violation found has the fewest preemptions).
func (a *analysis) expand(it *item) ([]*item, error) {
	now, next := a.parts(it)
	for _, from := range now {
		a.cur = from
		level := from.level
		var every bdd.Node // counting preemptions: every start global of from
		if a.preempt() {
			every = a.sp.CurToStart(from.tuple.Domain)
		}
		for i := range it.tuple.Views {
			if i == it.last {
				continue
			}
			if err := a.ctx.Err(); err != nil {
				return nil, err
			}
			pl := a.postLevel(level)
			e, err := a.postStar(from.tuple, i, pl)
			if err != nil {
				return nil, err
			}
			if a.preempt() {
				// Every start global, stale or not: the successor has
				// another last thread, so another cost for the next switch
				// (docs/design.md, "Preemption counting"). Counting
				// preemptions no result is shared (sharePosts): e is this
				// call's own.
				e.changed = every
			}
			if e.changed.IsFalse() {
				continue
			}
			if err := a.checkPost(from.tuple, i, e.post, level); err != nil {
				return nil, err
			}
			if a.preempt() || level < a.opts.Contexts || a.opts.KeepLast || a.splitLast(level) {
				succ, err := a.successors(from, i, e, pl)
				if err != nil {
					return nil, err
				}
				next = append(next, succ...)
			} else {
				a.unsplit = true
			}
		}
	}
	return next, nil
}

// free is 1 when the bound counts preemptions, else 0: the level below
// the first item of a level is done when that item is taken, counting
// contexts; counting preemptions, the items of a level make tuples of the
// same level (free switches), so only the level below it is done.
func (a *analysis) free() int {
	if a.preempt() {
		return 1
	}
	return 0
}

// preempt reports whether the bound counts preemptions.
func (a *analysis) preempt() bool { return a.opts.Count == Preemptions }

// postLevel is the context level post* names its mid-states with: the
// number of contexts when counting contexts; counting preemptions, a
// number of its own per post* call (one thread may run several contexts
// at one preemption level, and post* must not mix their summaries).
func (a *analysis) postLevel(level int) int {
	if a.preempt() {
		return a.res.Stats.PostStarCalls + 1
	}
	return level
}

// parts returns what expand runs the other threads from now, as items at
// the level of their successors, and the items it defers: the item's
// tuple at one more context; or, counting preemptions, the tuple itself
// when the switch is paid for or free (the first context), else the part
// of the tuple where the last thread cannot move, at the same level, and
// the rest deferred as a paid item of the next level (none beyond the
// bound, none empty).
//
// A part has the item's parent and class of start globals (its
// configurations are the item's), so that traces walk back through it.
func (a *analysis) parts(it *item) (now, later []*item) {
	if !a.preempt() {
		return []*item{{level: it.level + 1, last: it.last, tuple: it.tuple, parent: it.parent}}, nil
	}
	if it.last < 0 || it.paid {
		return []*item{it}, nil
	}
	m := a.net.M
	v := it.tuple.Views[it.last]
	for _, blocked := range []bool{true, false} {
		level := it.level
		if !blocked {
			level++
		}
		if level > a.opts.Contexts {
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

// postStar tags thread i's view of t with the start global and saturates
// it (line 8).
func (a *analysis) postStar(t split.Tuple, i, level int) (*postEntry, error) {
	a.res.Stats.PostStarCalls++
	key := postKey{t.Views[i], i, t.Domain.ID()}
	n := a.posts.uses[key] - 1 // the uses left after this one
	if n >= 0 {
		if n == 0 {
			delete(a.posts.uses, key)
		} else {
			a.posts.uses[key] = n
		}
	}
	if e := a.posts.results[key]; e != nil {
		a.res.Stats.PostStarShared++
		if n <= 0 {
			delete(a.posts.results, key)
		}
		return e, nil
	}
	tagged := t.Views[i].Tag(t.Domain)
	if !tagged.CanMove() {
		// No rule is enabled anywhere in the view: post* would add
		// nothing (every start global stale), so no saturation.
		e := &postEntry{post: tagged, changed: a.net.M.False()}
		if n > 0 {
			a.posts.results[key] = e
		}
		return e, a.net.M.Err()
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
	e := &postEntry{post: s.Result(), changed: s.Changed()}
	if n > 0 {
		a.posts.results[key] = e
	}
	return e, nil
}

// successors splits thread i's post* result e into new tuples (line 9) and
// returns those the pruning keeps as items (line 10); at the bound they
// only go to OnTuple (KeepLast). from is a part of the item expanded
// (parts), at the level of the successors; pl the level post* named its
// mid-states with (postLevel).
func (a *analysis) successors(from *item, i int, e *postEntry, pl int) ([]*item, error) {
	level := from.level
	p, err := a.splitParts(from.tuple, i, e, pl)
	if err != nil {
		return nil, err
	}
	tuples := a.splitter.Apply(from.tuple, i, p)
	var next []*item
	for _, t := range tuples {
		if err := a.net.M.Err(); err != nil {
			return nil, err // a limit or the deadline among many eager tuples
		}
		if a.drop(&t, level, i) {
			continue
		}
		a.kept(level)
		if level < a.opts.Contexts || a.preempt() {
			nt := &item{level: level, last: i, tuple: t}
			if a.opts.Traces {
				nt.parent = from
			}
			next = append(next, nt)
		}
		if a.opts.OnTuple != nil {
			a.opts.OnTuple(level, t)
		}
	}
	return next, a.net.M.Err()
}

// splitParts returns the parts of post* result e for tuple t (thread i
// active), computed once per result when they do not depend on t's other
// views, else once per relation Alike of those views.
func (a *analysis) splitParts(t split.Tuple, i int, e *postEntry, pl int) (*split.Parts, error) {
	if e.free != nil {
		return e.free, nil
	}
	var alike bdd.Node
	have := false
	get := func() bdd.Node {
		if !have {
			alike, have = a.splitter.Alike(t, i), true
		}
		return alike
	}
	if len(e.parts) > 0 { // the parts of this result need Alike
		if pe, ok := e.parts[get().ID()]; ok {
			return pe.parts, nil
		}
	}
	p, err := a.splitter.Parts(e.post, e.changed, pl, get)
	if err != nil {
		return nil, err
	}
	if !p.NeedsAlike() {
		e.free = p
		return p, nil
	}
	if e.parts == nil {
		e.parts = map[int]partsEntry{}
	}
	e.parts[get().ID()] = partsEntry{get(), p}
	return p, nil
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
	f := Found{Kind: l.Kind, Label: l, Pos: l.Pos, Thread: thread, Proc: l.Proc.Name, Contexts: level, Message: l.Message}
	return a.addFound(f)
}

func (a *analysis) addFound(f Found) error {
	if a.res.AddFound(f, a.opts.OnViolation, a.opts.All) {
		return errStop
	}
	return nil
}

// splitLast reports whether a post* result of the k-th context (level)
// is split and pruned, to tell whether the search has converged
// (Result.Converged): when pruning can tell, and no tuple of the k-th
// context has been kept yet. One kept tuple there says that the
// configurations still grew, and the rest need not be split; when none
// is kept, every result was split and found covered, and the search has
// converged at k-1. So the test is exact and costs, where the
// configurations still grow, about one split.
func (a *analysis) splitLast(level int) bool {
	kept := a.res.Stats.KeptPerLevel
	return a.opts.Prune != PruneNone && (level >= len(kept) || kept[level] == 0)
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

// levelDone records that every tuple of at most level contexts has been
// made and checked (breadth-first order: the first item of a level is
// taken when the level before is done).
func (a *analysis) levelDone(level int) {
	a.res.Complete = level
	a.res.Stats.LevelTime = append(a.res.Stats.LevelTime, time.Since(a.start))
}

// converged returns the level at which the reachable configurations
// stopped growing, or -1: the first level j whose successors were all
// stale or pruned (no tuple kept at j+1), provided the search looked at
// j+1 (within the bound, or the k-th context's results split and pruned).
// Every configuration with j+1 contexts then lies in a tuple kept with at
// most j (package documentation, "Subsumed tuples", the same induction),
// so none appears with more. A start cut off at the thread bound never
// converges (the verdict is Unknown then).
func (a *analysis) converged() int {
	kept := a.res.Stats.KeptPerLevel
	for j := 0; j < a.opts.Contexts; j++ {
		if j+1 < len(kept) && kept[j+1] > 0 {
			continue
		}
		if j+1 == a.opts.Contexts && a.unsplit {
			return -1 // the k-th context's results were not split: cannot tell
		}
		return j
	}
	return -1
}

// drop reports whether a new tuple is left out (Options.Prune); it may
// also restrict the tuple to fewer globals.
func (a *analysis) drop(t *split.Tuple, level, last int) bool {
	if a.sub == nil {
		return false
	}
	drop, shrunk := a.sub.check(t, level, last)
	if drop {
		a.res.Stats.Dropped++
	}
	if shrunk {
		a.res.Stats.Shrunk++
	}
	return drop
}

// newPruner returns the subsumer that implements opts.Prune, nil for
// PruneNone. PruneIdentical is a subsumer that never tests subsumption.
func newPruner(m *bdd.Manager, g bdd.VarSet, threads int, opts Options) *subsumer {
	switch opts.Prune {
	case PruneNone:
		return nil
	case PruneIdentical:
		return newSubsumer(m, g, threads, math.MaxInt)
	}
	s := newSubsumer(m, g, threads, max(opts.SubsumeAfter, 0))
	if opts.Count == Contexts && !opts.Unbounded {
		// The tuples of the last level expanded: package documentation,
		// "The last level".
		s.last = opts.Contexts - 1
	}
	if opts.lastBudget != nil {
		s.lastLimit, s.lastAllowance = opts.lastBudget[0], opts.lastBudget[1]
	}
	return s
}
