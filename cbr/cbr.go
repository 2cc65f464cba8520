package cbr

import (
	"context"
	"errors"
	"fmt"
	"math"
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
	Target   = engine.Target
	Top      = engine.Top
	Value    = engine.Value
	Result   = engine.Result
	Stats    = engine.Stats
	Progress = engine.Progress
	Limits   = engine.Limits
)

const (
	Safe      = engine.Safe
	Violation = engine.Violation
	Unknown   = engine.Unknown
)

// The limits a run can hit (Result.Limit; test with errors.Is).
var (
	ErrNodeLimit   = engine.ErrNodeLimit
	ErrMemoryLimit = engine.ErrMemoryLimit
	ErrThreadBound = engine.ErrThreadBound
	ErrTupleLimit  = engine.ErrTupleLimit
)

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
	// SubsumeAfter tuples are kept, it drops identical tuples only.
	PruneSubsumed Prune = iota
	// PruneIdentical drops a new tuple only when one with the same views
	// and domain was kept with at most as many contexts.
	PruneIdentical
	// PruneNone keeps every tuple: the jMoped paper's counting, which the
	// benchmark harness uses to compare with the paper's tables.
	PruneNone
)

func (p Prune) String() string { return [...]string{"subsumed", "identical", "none"}[p] }

// DefaultSubsumeAfter is the number of kept view tuples after which
// PruneSubsumed starts testing subsumption. Measured on this project's
// models: the bundled Bluetooth example keeps fewer (0.06 s with the
// threshold, 0.11 s testing from the first tuple, where the test saves
// little), while CUBA's Bluetooth3-21 at 10 contexts needs the test (4 s;
// over an hour without it).
const DefaultSubsumeAfter = 500

// DefaultContexts is the bound when Options.Contexts is 0.
const DefaultContexts = 4

// Options configure Analyze. The zero value analyzes DefaultContexts
// contexts with lazy splitting and PruneSubsumed, stopping at the first
// violation: the command line's defaults. The thread bound is the
// network's (pds.Options.MaxThreads).
type Options struct {
	Contexts int // the bound k on contexts (default DefaultContexts)
	// Unbounded deepens the bound until the reachable configurations stop
	// growing (Result.Converged), a violation is found, or a limit stops
	// the run; Contexts is then ignored.
	Unbounded bool
	Split     Strategy // eager or lazy (default lazy)
	All       bool     // explore the whole bound and report every violation site
	Targets   []Target // visible states to reach, besides the error labels
	Prune     Prune    // which covered tuples are left out (default PruneSubsumed)
	// SubsumeAfter is, for PruneSubsumed, the number of kept tuples before
	// the subsumption test starts (identical tuples are dropped until
	// then): 0 means DefaultSubsumeAfter, a negative number from the first
	// tuple.
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
}

// item is a work item (j, i, T) of Algorithm 1: a view tuple reached with
// j contexts, thread i having run last (-1 for none).
type item struct {
	level int
	last  int
	tuple split.Tuple
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
	if opts.Contexts == 0 {
		opts.Contexts = DefaultContexts
	}
	if opts.Unbounded {
		opts.Contexts = math.MaxInt32
	}
	if opts.Contexts < 1 {
		return nil, fmt.Errorf("cbr: context bound %d: need at least 1", opts.Contexts)
	}
	r := &Result{Bound: opts.Contexts, Unit: engine.Contexts, Complete: -1, Converged: -1}
	if !opts.Unbounded {
		r.Stats.TuplesPerLevel = make([]int, opts.Contexts+1)
		r.Stats.KeptPerLevel = make([]int, opts.Contexts+1)
	}
	a := &analysis{ctx: ctx, opts: opts, res: r, found: map[any]bool{}, start: start}
	err := net.M.Run(ctx, bdd.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory}, func() error {
		eng, err := net.WithThreadSlots(net.MaxThreads)
		if err != nil {
			return fmt.Errorf("cbr: %w", err)
		}
		a.net, a.sp = eng, symauto.NewSpace(eng)
		a.splitter = split.New(opts.Split, a.sp)
		a.splitter.MaxTuples = opts.MaxTuples
		return a.run()
	})
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
	switch {
	case len(r.Violations) > 0:
		r.Verdict = Violation
	case r.Limit != nil:
		r.Verdict = Unknown
	default:
		r.Verdict = Safe
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
		for len(r.Stats.TuplesPerLevel) <= r.Bound {
			r.Stats.TuplesPerLevel = append(r.Stats.TuplesPerLevel, 0)
			r.Stats.KeptPerLevel = append(r.Stats.KeptPerLevel, 0)
		}
		if r.Verdict == Safe && r.Converged < 0 {
			r.Verdict = Unknown // cannot happen: unbounded runs end converged or cut off
		}
	}
	if r.Limit != nil {
		r.Reason = reason(r.Limit, a.cutoff, net.MaxThreads)
	}
	return r, nil
}

// reason says a limit in words.
func reason(err error, cutoff *pds.Label, threads int) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "time limit reached"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, ErrNodeLimit):
		return "BDD node limit reached"
	case errors.Is(err, ErrMemoryLimit):
		return "memory limit reached"
	case errors.Is(err, ErrThreadBound):
		return fmt.Sprintf("a start at %s would exceed the thread bound of %d threads", cutoff.Pos, threads)
	case errors.Is(err, ErrTupleLimit):
		return strings.TrimSuffix(strings.TrimPrefix(err.Error(), "split: "), ": "+ErrTupleLimit.Error())
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
	start    time.Time
	unsplit  bool // a changed post* result of the k-th context was not split
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
	a.levelDone(0)
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.level > a.res.Complete {
			a.levelDone(it.level)
		}
		a.res.Stats.ViewTuples++
		a.grow(it.level)
		a.res.Stats.TuplesPerLevel[it.level]++
		next, err := a.expand(it)
		if err != nil {
			return err
		}
		queue = append(queue, next...)
		if a.opts.OnProgress != nil {
			a.opts.OnProgress(Progress{Level: it.level, Tuples: a.res.Stats.ViewTuples, Queued: len(queue),
				PostStar: a.res.Stats.PostStarCalls, Elapsed: time.Since(a.start), Violations: len(a.res.Violations)})
		}
	}
	return a.net.M.Err()
}

// initialItems returns the items of the initial tuples (lines 1-2: one
// for lazy, one per initial global value for eager), after checking them
// for errors and targets.
func (a *analysis) initialItems() ([]item, error) {
	views := make([]*symauto.Auto, len(a.net.Threads))
	for i, t := range a.net.Threads {
		views[i] = a.sp.Init(t)
	}
	a.sub = newPruner(a.net.M, len(views), a.opts)
	tuples, err := a.splitter.Initial(views)
	if err != nil {
		return nil, err
	}
	var queue []item
	for _, t := range tuples {
		if a.drop(&t, 0) {
			continue
		}
		a.kept(0)
		queue = append(queue, item{level: 0, last: -1, tuple: t})
		if a.opts.OnTuple != nil {
			a.opts.OnTuple(0, t)
		}
	}
	for _, it := range queue {
		if err := a.checkTuple(it.tuple, 0); err != nil {
			return nil, err
		}
	}
	return queue, nil
}

// expand runs one more context of every thread but the last one from it
// (lines 6-8), checks each post* result, and returns the successors
// (lines 9-10), none beyond the bound.
func (a *analysis) expand(it item) ([]item, error) {
	var next []item
	level := it.level + 1
	for i := range it.tuple.Views {
		if i == it.last {
			continue
		}
		if err := a.ctx.Err(); err != nil {
			return nil, err
		}
		post, changed, err := a.postStar(it.tuple, i, level)
		if err != nil {
			return nil, err
		}
		if changed.IsFalse() {
			continue
		}
		if err := a.checkPost(it.tuple, i, post, level); err != nil {
			return nil, err
		}
		if level < a.opts.Contexts || a.opts.KeepLast || a.splitLast(level) {
			succ, err := a.successors(it, i, post, changed)
			if err != nil {
				return nil, err
			}
			next = append(next, succ...)
		} else {
			a.unsplit = true
		}
	}
	return next, nil
}

// postStar tags thread i's view of t with the start global and saturates
// it (line 8).
func (a *analysis) postStar(t split.Tuple, i, level int) (*symauto.Auto, bdd.Node, error) {
	s := symauto.NewSaturation(t.Views[i].Tag(t.Domain), level)
	err := s.Run(a.ctx)
	a.res.Stats.PostStarCalls++
	a.res.Stats.PostStarSteps += s.Steps()
	if err == nil {
		// The limits at a point of the run that does not depend on
		// timing, besides every 1024 operations: a short run is checked too.
		err = a.net.M.Check()
	}
	if err != nil {
		return nil, bdd.Node{}, err
	}
	return s.Result(), s.Changed(), nil
}

// successors splits thread i's post* result into new tuples (line 9) and
// returns those the pruning keeps as items (line 10); at the bound they
// only go to OnTuple (KeepLast).
func (a *analysis) successors(it item, i int, post *symauto.Auto, changed bdd.Node) ([]item, error) {
	level := it.level + 1
	tuples, err := a.splitter.Split(it.tuple, i, post, changed, level)
	if err != nil {
		return nil, err
	}
	var next []item
	for _, t := range tuples {
		if a.drop(&t, level) {
			continue
		}
		a.kept(level)
		if level < a.opts.Contexts {
			next = append(next, item{level: level, last: i, tuple: t})
		}
		if a.opts.OnTuple != nil {
			a.opts.OnTuple(level, t)
		}
	}
	return next, a.net.M.Err()
}

// checkPost reports the error labels on top of the active thread's stack
// in post*: every accepted configuration of the tagged result belongs to a
// start global of the tuple's domain, where every other view accepts, so
// it is a reachable global configuration.
func (a *analysis) checkPost(t split.Tuple, active int, post *symauto.Auto, level int) error {
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
	f := Found{Kind: l.Kind, Label: l, Pos: l.Pos, Thread: thread, Proc: l.Proc.Name, Contexts: level, Message: l.Message}
	return a.addFound(f)
}

func (a *analysis) addFound(f Found) error {
	if a.res.AddFound(f, a.opts.OnViolation, a.opts.All) {
		return errStop
	}
	return nil
}

// splitLast reports whether the k-th context's results (level) are split
// and pruned, to tell whether the search has converged (Result.Converged):
// when pruning can tell, and the tuples kept per level have begun to
// shrink (level k-1 kept fewer than level k-2), so that convergence is in
// sight. Splitting the last level costs as much as a level of the search;
// while the levels grow, it would not find convergence anyway.
func (a *analysis) splitLast(level int) bool {
	kept := a.res.Stats.KeptPerLevel
	return a.opts.Prune != PruneNone && level >= 2 && level-1 < len(kept) && kept[level-1] < kept[level-2]
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
func (a *analysis) drop(t *split.Tuple, level int) bool {
	if a.sub == nil {
		return false
	}
	drop, shrunk := a.sub.check(t, level)
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
func newPruner(m *bdd.Manager, threads int, opts Options) *subsumer {
	switch opts.Prune {
	case PruneNone:
		return nil
	case PruneIdentical:
		return newSubsumer(m, threads, math.MaxInt)
	}
	after := opts.SubsumeAfter
	switch {
	case after == 0:
		after = DefaultSubsumeAfter
	case after < 0:
		after = 0
	}
	return newSubsumer(m, threads, after)
}
