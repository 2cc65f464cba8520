package states

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/pds/plural"
)

// Name is the engine's name on the command line.
const Name = "explicit"

// DefaultMaxDepth is the stack depth limit when Engine.MaxDepth is 0.
const DefaultMaxDepth = 64

// Engine is the explicit-state engine with its settings. The zero value
// explores stacks of at most DefaultMaxDepth frames with the reduction
// on. Its bound counts contexts or preemptions (counting preemptions
// turns the reduction off); the thread bound is the network's
// (pds.Options.MaxThreads).
type Engine struct {
	MaxDepth int // the stack depth limit (default DefaultMaxDepth)
	// NoPOR turns the partial-order reduction off (package
	// documentation, "Partial-order reduction"): every thread may be
	// switched to after every step.
	NoPOR bool
	// MaxStateBytes bounds an estimate of the bytes of the stored states
	// and queues, the same in every run (0: the options' MaxMemory; no
	// bound without either); reaching it gives cbr.ErrMemoryLimit.
	MaxStateBytes int64
	// OnConfig, when set, is called with every configuration when it is
	// first expanded, with the fewest contexts that reach it. With the
	// reduction off these are all the configurations reachable within
	// the bound (for tests and tools).
	OnConfig func(contexts int, c explicit.Config)
}

// options are the engine's settings with the common options, the bound
// checked: what the search reads.
type options struct {
	Engine
	cbr.Options
}

// ProgressEvery is the number of expanded states between two calls of
// Options.OnProgress.
const ProgressEvery = 1024

// Stats are the figures of this engine. They are the same in every run
// of the same input and options.
type Stats struct {
	States          int   // states (configuration, last thread, reduced) expanded
	StatesPerLevel  []int // states expanded by contexts, 0..k
	Configs         int   // distinct configurations expanded
	ConfigsPerLevel []int // configurations first reached with j contexts, 0..k: the coverage of each bound
	Transitions     int   // successors computed
	Revisits        int   // states expanded again, reached with fewer contexts, or with as many by another last thread
	Reduced         int   // switches the reduction left out (states from which only the last thread ran)
	StoredBytes     int64 // the estimated bytes of the stored states at the end
	Deepest         int   // the deepest stack met
}

// Result is an cbr.Result with this engine's figures. In the
// cbr.Stats, ViewTuples counts the expanded states and TuplesPerLevel
// the configurations first reached with j contexts.
type Result struct {
	cbr.Result
	Explicit Stats
}

// Analyze computes context-bounded reachability of net within opts.Bound
// contexts by a search over concrete configurations (package
// documentation): breadth by bound, the states reached with j contexts
// all expanded before any reached with j+1, so that the first violation
// found has the fewest contexts.
//
// Limits (ctx's deadline or cancellation, opts.Limits, the network's
// thread bound, the depth limit) give a Result with Verdict Unknown and
// the limit in Result.Limit, or Violation when one was found before.
// Analyze returns an error only for options it cannot use (an
// cbr.OptionError: a bound above 254, a depth limit below 1, no
// unbounded search), with a nil Result. The Result's Figures hold its Stats (Figures).
func (e Engine) Analyze(ctx context.Context, net *pds.Network, o cbr.Options) (*cbr.Result, error) {
	r, err := e.run(ctx, net, o)
	if r == nil {
		return nil, err
	}
	r.Result.Figures = e.Figures(&r.Result, &r.Explicit)
	return &r.Result, err
}

func (e Engine) run(ctx context.Context, net *pds.Network, o cbr.Options) (*Result, error) {
	start := time.Now()
	if o.Unbounded {
		return nil, &cbr.OptionError{Engine: Name, Option: "Unbounded", Problem: "it explores a bound; deepening is the view-tuple engine's"}
	}
	k, unit, err := o.Check(Name, cbr.Contexts, cbr.Preemptions)
	if err != nil {
		return nil, err
	}
	o.Bound, o.Unit = k, unit
	opts := options{Engine: e, Options: o}
	if unit == cbr.Preemptions {
		opts.NoPOR = true // the reduction is argued for contexts only
	}
	if k >= unseen {
		return nil, &cbr.OptionError{Engine: Name, Option: "Bound", Problem: fmt.Sprintf("need at most %s, got %d", unit.Of(unseen-1), k)}
	}
	if opts.MaxDepth == 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxStateBytes == 0 {
		opts.MaxStateBytes = o.MaxMemory
	}
	if opts.MaxDepth < 1 {
		return nil, &cbr.OptionError{Engine: Name, Option: "MaxDepth", Problem: fmt.Sprintf("need at least 1 frame, got %d", opts.MaxDepth)}
	}
	r := &Result{Result: cbr.Result{Bound: k, Unit: unit, Complete: -1, Converged: -1, Net: net}}
	r.Explicit.StatesPerLevel = make([]int, k+1)
	r.Explicit.ConfigsPerLevel = make([]int, k+1)
	a := &search{ctx: ctx, net: net, opts: opts, k: k, res: r, found: map[any]bool{}, seen: map[string][]uint8{},
		buckets: make([][]item, k+1), start: start, cutLevel: -1}
	err = net.M.Run(ctx, bdd.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory}, func() error {
		a.step = explicit.NewStepper(net, net.MaxThreads, opts.MaxDepth)
		if !opts.NoPOR {
			a.classify()
		}
		return a.run()
	})
	stopped := errors.Is(err, errStop)
	if stopped {
		err = nil
	}
	if err := r.BuildTraces(ctx, net.M, opts.Limits, opts.Traces, a.buildTraces); err != nil {
		return r, err
	}
	start = start.Add(r.Stats.TraceTime) // Stats.Time is the search's
	r.Explicit.StoredBytes = a.bytes
	r.Stats.ViewTuples = r.Explicit.States
	r.Stats.TuplesPerLevel = r.Explicit.ConfigsPerLevel
	r.Stats.Time = time.Since(start)
	var cut error
	switch {
	case a.cutoff != nil:
		cut = cbr.ThreadLimit(Name, a.cutoff.Pos, net.MaxThreads)
	case a.capped:
		cut = &cbr.LimitError{Err: cbr.ErrDepthLimit,
			Msg:   fmt.Sprintf("explicit: a call would make a stack deeper than %s: %v", plural.Count(opts.MaxDepth, "frame"), cbr.ErrDepthLimit),
			Words: fmt.Sprintf("stack depth limit of %s reached: deeper calls were not explored", plural.Count(opts.MaxDepth, "frame"))}
	}
	if err := r.Finish(err, cut); err != nil {
		return r, err
	}
	if r.Limit != nil {
		r.Reason = a.reason(r.Limit)
	}
	// Complete: the buckets done, but not one where a push met the depth
	// limit (schedules with that many contexts were left out). A start
	// cut off at the thread bound leaves out the runs with more threads
	// only: r.ThreadBound qualifies the coverage.
	r.Complete = a.done
	if a.cutLevel >= 0 {
		r.Complete = min(r.Complete, a.cutLevel-1)
	}
	if err == nil && !stopped && r.Limit == nil && r.Verdict == cbr.Safe && opts.NoPOR {
		r.Converged = a.converged()
	}
	return r, nil
}

// converged returns, when some bucket within the bound stayed empty (so
// every later one did: the searched graph is exhausted for any bound),
// the largest number of contexts with which a configuration was first
// reached; otherwise -1. Only without the reduction: the searched graph
// then holds every reachable configuration, as cbr.Result.Converged
// promises (with the reduction it holds every violation and target, but
// not every configuration, nor each with its fewest contexts).
func (a *search) converged() int {
	st := &a.res.Explicit
	empty := false
	for _, n := range st.StatesPerLevel {
		empty = empty || n == 0
	}
	if !empty {
		return -1
	}
	last := 0
	for j, n := range st.ConfigsPerLevel {
		if n > 0 {
			last = j
		}
	}
	return last
}

// reason says a limit in words; one met while the initial
// configurations were enumerated says how far that went.
func (a *search) reason(err error) string {
	w := a.limitWords(err)
	if !a.initialsDone && a.initials > 0 {
		w += fmt.Sprintf(" while enumerating the initial configurations (%d of %s)", a.initials, explicit.FormatCount(explicit.InitialCount(a.net)))
	}
	return w
}

func (a *search) limitWords(err error) string {
	switch {
	case errors.As(err, new(*initialError)):
		var e *initialError
		errors.As(err, &e)
		return e.words()
	case errors.Is(err, errStates):
		return fmt.Sprintf("memory limit reached (the stored states would take more than %s)", plural.Count(a.opts.MaxStateBytes, "byte"))
	}
	return cbr.Reason(err)
}

var (
	// errStop ends a run at the first violation.
	errStop = errors.New("explicit: stop at first violation")
	// errStates is the memory limit on the stored states.
	errStates = fmt.Errorf("explicit: stored states: %w", cbr.ErrMemoryLimit)
)

// item is a queued state: a configuration (by its key), the thread that
// ran last (-1 for none), and whether the reduction lets only that thread
// run on (reduced).
type item struct {
	key     string
	last    int
	reduced bool
}

// Estimated bytes of a stored configuration beyond its key and record
// (map entry, string and slice headers) and of a queued item.
const (
	entryBytes = 80
	itemBytes  = 40
)

// unseen marks a record slot never reached.
const unseen = 0xFF

type search struct {
	ctx   context.Context
	net   *pds.Network
	opts  options
	k     int
	step  *explicit.Stepper
	res   *Result
	found map[any]bool // labels and targets already reported
	start time.Time

	// seen maps a configuration's key to its record: byte 0 the contexts
	// it was first expanded with, then for each last thread l (-1 first)
	// two bytes, the fewest contexts it was queued with unreduced and
	// reduced (unseen: never).
	seen    map[string][]uint8
	buckets [][]item // by contexts
	bytes   int64
	queuedN int // states queued, for poll
	// initials counts the initial configurations enumerated so far,
	// initialsDone says they all were.
	initials     int
	initialsDone bool
	cutoff       *pds.Label
	capped       bool
	// done is the last bucket expanded to the end (-1: none); cutLevel
	// the first bucket where a push met the depth limit (-1: none).
	done     int
	cutLevel int

	por *reduction // nil without the reduction

	// With Options.Traces: the state being expanded, the state each
	// queued one came from, and the state each violation was found in.
	cur     *state
	parents map[state]parent
	where   map[any]state
}

// slot returns the index in a record of last thread l, reduced or not.
func slot(l int, reduced bool) int {
	i := 1 + 2*(l+1)
	if reduced {
		i++
	}
	return i
}

// queue records that state (key, last, reduced) is reached with j
// contexts, and queues it unless Spin's rule says it was reached as well
// before: with at most j contexts by the same last thread, unreduced (or,
// for a reduced state, either way).
func (a *search) queue(j int, key string, threads, last int, reduced bool) error {
	rec, ok := a.seen[key]
	if !ok {
		rec = make([]uint8, 1+2*(threads+1))
		for i := range rec {
			rec[i] = unseen
		}
		a.seen[key] = rec
		a.bytes += int64(len(key) + len(rec) + entryBytes)
	}
	p, r := rec[slot(last, false)], rec[slot(last, true)]
	if int(p) <= j || reduced && int(r) <= j {
		return nil
	}
	if p != unseen || r != unseen {
		a.res.Explicit.Revisits++
	}
	rec[slot(last, reduced)] = uint8(j)
	a.buckets[j] = append(a.buckets[j], item{key, last, reduced})
	a.traceQueued(key, last, reduced)
	a.bytes += itemBytes
	if a.opts.MaxStateBytes > 0 && a.bytes > a.opts.MaxStateBytes {
		return errStates
	}
	if a.queuedN++; a.queuedN%pollEvery == 0 {
		return a.poll()
	}
	return nil
}

// run is the search: iterative context bounding (CHESS) over the states,
// bucket j holding the states reached with j contexts. A step by the last
// thread stays in the bucket; a step by another thread goes to the next.
// Within a bucket the states are taken last in, first out (depth first,
// as Spin).
func (a *search) run() error {
	a.done = -1
	if err := a.initial(); err != nil {
		return err
	}
	for j := 0; j <= a.k; j++ {
		if j > 0 {
			a.done = j - 1
			a.res.Stats.LevelTime = append(a.res.Stats.LevelTime, time.Since(a.start))
		}
		if err := a.ctx.Err(); err != nil {
			return err
		}
		for len(a.buckets[j]) > 0 {
			b := a.buckets[j]
			it := b[len(b)-1]
			a.buckets[j] = b[:len(b)-1]
			a.bytes -= itemBytes
			if err := a.expand(j, it); err != nil {
				return err
			}
		}
		a.buckets[j] = nil
	}
	a.done = a.k
	a.res.Stats.LevelTime = append(a.res.Stats.LevelTime, time.Since(a.start))
	return a.net.M.Err()
}

// initial queues the initial configurations, one at a time, under the
// limits from the first one. When the stored states of the initial
// configurations alone would pass the bound on the stored bytes (or, with
// none, the memory limit), it says so before enumerating any: every
// initial configuration is queued before any is expanded, and each takes
// at least the bytes of the first one (all open values 0, the shortest
// key).
func (a *search) initial() error {
	budget := a.opts.MaxStateBytes
	if budget <= 0 {
		budget = a.opts.MaxMemory
	}
	if budget > 0 {
		count := explicit.InitialCount(a.net)
		var first explicit.Config
		explicit.EachInitial(a.net, func(c explicit.Config) bool {
			first = c
			return false
		})
		each := int64(len(encode(first)) + 1 + 2*(len(first.Threads)+1) + entryBytes + itemBytes)
		if need := new(big.Int).Mul(count, big.NewInt(each)); need.Cmp(big.NewInt(budget)) > 0 {
			return &initialError{count: count, each: each, budget: budget}
		}
	}
	var err error
	explicit.EachInitial(a.net, func(c explicit.Config) bool {
		if a.initials++; a.initials%pollEvery == 0 {
			if err = a.poll(); err != nil {
				return false
			}
		}
		err = a.queue(0, encode(c), len(c.Threads), -1, false)
		return err == nil
	})
	if err == nil {
		a.initialsDone = true
	}
	return err
}

// pollEvery is the number of queued states between two checks of the
// time and memory limits (each state expanded checks the time too).
const pollEvery = 256

// poll checks the context and the memory limit. The stored states are
// not BDD operations, which check the limits themselves, and the rule
// solutions are remembered: a search may run long without any.
func (a *search) poll() error {
	if err := a.ctx.Err(); err != nil {
		return err
	}
	return a.net.M.Check()
}

// initialError is the memory limit met by the initial configurations
// alone, before any is enumerated.
type initialError struct {
	count        *big.Int
	each, budget int64
}

func (e *initialError) Error() string {
	return fmt.Sprintf("explicit: %s: %v", e.words(), cbr.ErrMemoryLimit)
}

func (e *initialError) words() string {
	return fmt.Sprintf("%s initial configurations: more than the memory limit allows (at least %s each, %s in all)",
		explicit.FormatCount(e.count), plural.Count(e.each, "byte"), bytesWords(e.budget))
}

func (e *initialError) Unwrap() error { return cbr.ErrMemoryLimit }

// bytesWords says a number of bytes in MiB when it is at least one.
func bytesWords(b int64) string {
	if b >= 1<<20 {
		return fmt.Sprintf("%d MiB", b>>20)
	}
	return plural.Count(b, "byte")
}

// expand checks a state's configuration when first met and queues its
// successors.
func (a *search) expand(j int, it item) error {
	rec := a.seen[it.key]
	p, r := int(rec[slot(it.last, false)]), int(rec[slot(it.last, true)])
	if p < j || it.reduced && (p <= j || r < j) {
		return nil // the state was queued again with fewer contexts, or unreduced
	}
	st := &a.res.Explicit
	st.States++
	st.StatesPerLevel[j]++
	// The time at every state (one may take long: its successors copy
	// every thread), the memory as often as the queue grows.
	if err := a.ctx.Err(); err != nil {
		return err
	}
	if st.States%pollEvery == 0 {
		if err := a.poll(); err != nil {
			return err
		}
	}
	if a.opts.OnProgress != nil && st.States%ProgressEvery == 0 {
		a.opts.OnProgress(cbr.Progress{Level: j, Tuples: st.States, Queued: a.queued(), Elapsed: time.Since(a.start), Violations: len(a.res.Violations)})
	}
	c := decode(a.net, it.key)
	if a.opts.Traces {
		a.cur = &state{it.key, it.last, it.reduced}
	}
	// switchCost is what a step by another thread adds: 1 with contexts;
	// with preemptions 0 when the last thread cannot move in c (or none
	// ran yet), else 1.
	switchCost := 1
	if a.opts.Unit == cbr.Preemptions {
		switchCost = 0
		if it.last >= 0 {
			en, err := a.step.Enabled(c, it.last)
			if err != nil {
				return err
			}
			if en {
				switchCost = 1
			}
		}
	}
	if rec[0] == unseen {
		rec[0] = uint8(j)
		st.Configs++
		st.ConfigsPerLevel[j]++
		for _, s := range c.Threads {
			st.Deepest = max(st.Deepest, len(s))
		}
		if a.opts.OnConfig != nil {
			a.opts.OnConfig(j, c)
		}
		if err := a.check(c, it.last, j); err != nil {
			return err
		}
	}
	for t := range c.Threads {
		nj := j
		if t != it.last {
			nj = j + switchCost
		}
		if nj > a.k || len(c.Threads[t]) == 0 {
			continue
		}
		if it.reduced && t != it.last {
			st.Reduced++
			continue
		}
		succ, cut, capped, err := a.step.Shared(c, t)
		if err != nil {
			return err
		}
		if capped && !a.capped {
			a.capped = true
			a.cut(j)
		}
		_ = cut // the cutoff label is met on top of a stack, in check
		st.Transitions += len(succ)
		local := a.por != nil && a.por.local(c, t)
		for _, d := range succ {
			reduced := local && a.por.invisible(d, t)
			if err := a.queue(nj, encode(d), len(d.Threads), t, reduced); err != nil {
				return err
			}
		}
	}
	return nil
}

// cut records that schedules with j contexts were left out.
func (a *search) cut(j int) {
	if a.cutLevel < 0 || j < a.cutLevel {
		a.cutLevel = j
	}
}

func (a *search) queued() int {
	n := 0
	for _, b := range a.buckets {
		n += len(b)
	}
	return n
}

// check reports the error labels on top of the stacks of c, the targets
// c satisfies, and notes a cutoff label (a start beyond the thread bound).
func (a *search) check(c explicit.Config, last, j int) error {
	for t, s := range c.Threads {
		if len(s) == 0 {
			continue
		}
		l := s[len(s)-1].Label
		switch {
		case l.Kind == pds.Cutoff:
			if a.cutoff == nil {
				a.cutoff = l
			}
		case l.Kind.IsError() && !a.found[l]:
			a.found[l] = true
			a.traceFound(l)
			f := cbr.Found{Kind: l.Kind, Label: l, Pos: l.Pos, Thread: t, Proc: l.Proc.Name, Contexts: j, Message: l.Message}
			if err := a.addFound(f); err != nil {
				return err
			}
		}
	}
	for i := range a.opts.Targets {
		tg := &a.opts.Targets[i]
		if a.found[tg] || !c.Satisfies(tg) {
			continue
		}
		a.found[tg] = true
		a.traceFound(tg)
		if err := a.addFound(cbr.Found{Kind: pds.Normal, Target: tg, Pos: tg.Pos, Thread: last, Contexts: j, Message: tg.Name}); err != nil {
			return err
		}
	}
	return nil
}

func (a *search) addFound(f cbr.Found) error {
	if a.res.AddFound(f, a.opts.OnViolation, a.opts.All) {
		return errStop
	}
	return nil
}
