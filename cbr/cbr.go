package cbr

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// Verdict is the answer of an analysis.
type Verdict int

const (
	Safe      Verdict = iota // no violation within the bound
	Violation                // a violation was found
	Unknown                  // a limit cut the search off before a violation was found
)

func (v Verdict) String() string { return [...]string{"safe", "violation", "unknown"}[v] }

// Options configure Analyze. The zero value analyzes 4 contexts with lazy
// splitting, stopping at the first violation.
type Options struct {
	Contexts   int            // the bound k on contexts (default 4)
	Split      split.Strategy // eager or lazy (default lazy)
	MaxThreads int            // thread bound for dynamic thread creation (default: the network's)
	All        bool           // explore the whole bound and report every violation site
	MaxNodes   int            // BDD node limit; 0 means none (reaching it gives Unknown)
	Targets    []Target       // visible states to reach, besides the error labels

	// OnProgress, when set, is called after every view tuple's successors
	// have been computed.
	OnProgress func(Progress)
	// OnViolation, when set, is called with every violation when found.
	OnViolation func(Found)
	// OnTuple, when set, is called with every view tuple the analysis
	// creates (the initial ones at level 0, then every split result) and
	// the number of contexts that reached it. For tests and tools that
	// inspect the reachable sets.
	OnTuple func(level int, t split.Tuple)
	// Dedup drops a new view tuple when one with the same views (the same
	// automata up to the numbering of their states and context levels) was
	// already queued at the same or a lower number of contexts, whatever
	// thread ran last (DESIGN.md, "Identical tuples"). It is exact and
	// saves most of the work on models whose tuples recur, but it changes
	// the view-tuple counts the paper's tables report.
	Dedup bool
	// Subsume drops a new view tuple whose configurations all belong to
	// tuples already kept at the same or a lower number of contexts (one
	// kept tuple per global value), and restricts it to the other globals
	// when that holds at some of them (package documentation, "Subsumed
	// tuples"). It is exact, covers what Dedup drops, and is what makes
	// models whose tuples overlap heavily converge (CUBA's Bluetooth3-21:
	// 1,886 instead of hundreds of thousands of tuples at 10 contexts);
	// like Dedup it changes the view-tuple counts.
	Subsume bool
	// SubsumeAfter delays Subsume's test until that many tuples are kept
	// (identical ones are dropped until then, as by Dedup): on models whose
	// tuples do not pile up, the test costs more than it saves. 0 tests
	// from the first tuple.
	SubsumeAfter int
	// KeepLast splits the post* results of the k-th context too and hands
	// them to OnTuple (they are never processed further), so that OnTuple
	// sees the whole reachable set within the bound.
	KeepLast bool
}

// Progress reports how far an analysis is.
type Progress struct {
	Level      int // contexts of the tuple being processed
	Tuples     int // view tuples processed so far
	Queued     int // tuples waiting
	PostStar   int
	Elapsed    time.Duration
	Violations int
}

// Found is one violation: an error label on top of a thread's stack in a
// configuration reachable with Contexts contexts and no fewer, or a
// reached target.
type Found struct {
	Kind     pds.LabelKind // Assert or Bounds; Normal for a target
	Label    *pds.Label    // nil for a target
	Target   *Target       // nil for an error label
	Pos      pds.Pos
	Thread   int
	Proc     string
	Contexts int
	Message  string
}

// Stats are the figures of a run.
type Stats struct {
	ViewTuples     int   // work items taken from the worklist to compute their successors (levels 0..k-1): the paper's figure
	TuplesPerLevel []int // view tuples by contexts: index j counts items reached with j contexts
	PostStarCalls  int
	PostStarSteps  int
	PeakNodes      int
	Time           time.Duration
	Dropped        int // new tuples dropped as identical to earlier ones (Options.Dedup) or subsumed by them (Options.Subsume)
	Shrunk         int // new tuples restricted to fewer globals (Options.Subsume)
}

// Result is the outcome of Analyze.
type Result struct {
	Verdict    Verdict
	Bound      int     // the context bound the verdict covers
	Reason     string  // for Unknown: the limit that cut the search off
	Violations []Found // in the order found: by contexts, then label
	Stats      Stats
}

// Contexts returns the fewest contexts of the first violation, or -1.
func (r *Result) Contexts() int {
	if len(r.Violations) == 0 {
		return -1
	}
	return r.Violations[0].Contexts
}

// item is a work item (j, i, T): a view tuple reached with j contexts,
// thread i having run last (-1 for none).
type item struct {
	level int
	last  int
	tuple split.Tuple
}

// Analyze computes context-bounded reachability of net within
// opts.Contexts contexts (DESIGN.md, "The worklist driver"; the paper's
// Algorithm 1): items are processed breadth first by their number of
// contexts, so the first violation found uses the fewest contexts. For each
// item with j < k and each thread i' other than the last one, post* of
// i”s view tagged with the start global is computed and split into new
// items; the post* results of the k-th context are checked for errors but
// not split.
//
// Analyze returns an error only for a network it cannot analyze (an
// invalid thread bound); limits (cancellation, BDD nodes) give a Result
// with Verdict Unknown, or Violation when one was found before.
func Analyze(ctx context.Context, net *pds.Network, opts Options) (*Result, error) {
	start := time.Now()
	if opts.Contexts == 0 {
		opts.Contexts = 4
	}
	if opts.Contexts < 1 {
		return nil, fmt.Errorf("cbr: context bound %d: need at least 1", opts.Contexts)
	}
	if opts.MaxThreads == 0 {
		opts.MaxThreads = net.MaxThreads
	}
	eng, err := net.WithThreadSlots(opts.MaxThreads)
	if err != nil {
		return nil, fmt.Errorf("cbr: %w", err)
	}
	if opts.MaxNodes > 0 {
		net.M.SetMaxNodes(opts.MaxNodes)
		defer net.M.SetMaxNodes(0)
	}
	a := &analysis{
		ctx:   ctx,
		net:   eng,
		opts:  opts,
		sp:    symauto.NewSpace(eng),
		found: map[any]bool{},
		res:   &Result{Bound: opts.Contexts, Stats: Stats{TuplesPerLevel: make([]int, opts.Contexts+1)}},
		start: start,
	}
	a.splitter = split.New(opts.Split, a.sp)
	err = a.run()
	r := a.res
	r.Stats.Time = time.Since(start)
	r.Stats.PeakNodes = net.M.PeakNodes()
	switch {
	case len(r.Violations) > 0:
		r.Verdict = Violation
	case err != nil:
		r.Verdict = Unknown
		r.Reason = reason(err)
	case a.cutoff != nil:
		r.Verdict = Unknown
		r.Reason = fmt.Sprintf("a start at %s would exceed the thread bound of %d threads", a.cutoff.Pos, opts.MaxThreads)
	default:
		r.Verdict = Safe
	}
	if err != nil && !isLimit(err) {
		return r, err
	}
	return r, nil
}

func isLimit(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, bdd.ErrNodeLimit) || errors.Is(err, errStop)
}

func reason(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "time limit reached"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, bdd.ErrNodeLimit):
		return "BDD node limit reached"
	}
	return err.Error()
}

// errStop ends a run at the first violation.
var errStop = errors.New("cbr: stop at first violation")

type analysis struct {
	ctx      context.Context
	net      *pds.Network
	opts     Options
	sp       *symauto.Space
	splitter *split.Splitter
	res      *Result
	found    map[any]bool // labels and targets already reported
	cutoff   *pds.Label
	sub      *subsumer
	start    time.Time
}

func (a *analysis) run() error {
	views := make([]*symauto.Auto, len(a.net.Threads))
	for i, t := range a.net.Threads {
		views[i] = a.sp.Init(t)
	}
	switch {
	case a.opts.Subsume:
		a.sub = newSubsumer(a.net.M, len(views), a.opts.SubsumeAfter)
	case a.opts.Dedup:
		// Identical tuples only: a subsumer that never tests subsumption.
		a.sub = newSubsumer(a.net.M, len(views), math.MaxInt)
	}
	var queue []item
	for _, t := range a.splitter.Initial(views) {
		if a.drop(&t, 0) {
			continue
		}
		queue = append(queue, item{level: 0, last: -1, tuple: t})
		if a.opts.OnTuple != nil {
			a.opts.OnTuple(0, t)
		}
	}
	// Level 0: errors and targets in the initial configuration.
	for _, it := range queue {
		if err := a.checkTuple(it.tuple, 0); err != nil {
			return err
		}
	}
	k := a.opts.Contexts
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		a.res.Stats.ViewTuples++
		a.res.Stats.TuplesPerLevel[it.level]++
		for i := range it.tuple.Views {
			if i == it.last {
				continue
			}
			if err := a.ctx.Err(); err != nil {
				return err
			}
			post, changed, steps, err := a.postStar(it.tuple, i, it.level+1)
			if err != nil {
				return err
			}
			a.res.Stats.PostStarCalls++
			a.res.Stats.PostStarSteps += steps
			if changed.IsFalse() {
				continue
			}
			if err := a.checkPost(it.tuple, i, post, it.level+1); err != nil {
				return err
			}
			if it.level+1 < k || a.opts.KeepLast {
				for _, t := range a.splitter.Split(it.tuple, i, post, changed, it.level+1) {
					if a.drop(&t, it.level+1) {
						continue
					}
					if it.level+1 < k {
						queue = append(queue, item{level: it.level + 1, last: i, tuple: t})
					}
					if a.opts.OnTuple != nil {
						a.opts.OnTuple(it.level+1, t)
					}
				}
				if err := a.net.M.Err(); err != nil {
					return err
				}
			}
		}
		if a.opts.OnProgress != nil {
			a.opts.OnProgress(Progress{Level: it.level, Tuples: a.res.Stats.ViewTuples, Queued: len(queue),
				PostStar: a.res.Stats.PostStarCalls, Elapsed: time.Since(a.start), Violations: len(a.res.Violations)})
		}
	}
	return a.net.M.Err()
}

func (a *analysis) postStar(t split.Tuple, i, level int) (*symauto.Auto, bdd.Node, int, error) {
	tagged := t.Views[i].Tag(t.Domain)
	s := symauto.NewSaturation(tagged, level)
	for !s.Done() {
		s.Step()
		if s.Steps()&63 == 0 {
			if err := a.ctx.Err(); err != nil {
				return nil, bdd.Node{}, 0, err
			}
			if err := a.net.M.Err(); err != nil {
				return nil, bdd.Node{}, 0, err
			}
		}
	}
	if err := a.net.M.Err(); err != nil {
		return nil, bdd.Node{}, 0, err
	}
	return s.Result(), s.Changed(), s.Steps(), nil
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
	a.res.Violations = append(a.res.Violations, f)
	sort.SliceStable(a.res.Violations, func(i, j int) bool { return a.res.Violations[i].Contexts < a.res.Violations[j].Contexts })
	if a.opts.OnViolation != nil {
		a.opts.OnViolation(f)
	}
	if !a.opts.All {
		return errStop
	}
	return nil
}

// drop reports whether a new tuple is left out (Options.Dedup and
// Subsume); Subsume may also restrict it to fewer globals.
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
