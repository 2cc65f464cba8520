package auto

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Name is the engine's name on the command line and in the table of
// engines.
const Name = "auto"

// Engine is the portfolio of the view-tuple engine (package cbr/tuples,
// lazy splitting, subsumed tuples left out: its zero value) and the
// explicit-state engine (package cbr/states). The zero value runs both
// with their defaults. Its bound counts contexts or preemptions, as both
// engines' do; it does not deepen the bound (the explicit engine
// explores a bound).
type Engine struct {
	// MaxDepth is the explicit engine's stack depth limit
	// (states.Engine.MaxDepth; 0: its default). A run that meets it is
	// not conclusive and leaves the answer to the symbolic engine.
	MaxDepth int
	// MaxStateBytes bounds the explicit engine's estimate of its stored
	// states (states.Engine.MaxStateBytes; 0: none). The command line
	// gives it the memory limit, as it gives the explicit engine.
	MaxStateBytes int64

	// For tests: noCancel lets both engines run to their end (the
	// choice when both finish); hold, when 1 + an engine's index, holds
	// that engine back until the other has returned or the portfolio
	// stops it, so that the other answers first.
	noCancel bool
	hold     int
}

// Stats are the portfolio's figures, the Figures of its results: which
// engine answered, that engine's own figures, and how each run ended.
type Stats struct {
	// Answered is the engine whose result the portfolio returned:
	// tuples.Name ("cbr") or states.Name ("explicit").
	Answered string
	// Figures are that engine's own figures, as its own run would have
	// them in cbr.Result.Figures (nil when nothing was analysed).
	Figures cbr.Figures
	// Runs says how each engine's run ended, the symbolic engine's
	// first.
	Runs [2]Run
	// CopyTime is the time taken to copy the network into the explicit
	// engine's BDD manager, before either engine started.
	CopyTime time.Duration
}

// Run is how one engine's run of the portfolio ended.
type Run struct {
	Engine   string
	Verdict  cbr.Verdict
	Complete int    // cbr.Result.Complete
	Reason   string // cbr.Result.Reason: why it was not conclusive, if it was not
	// Stopped says that the portfolio stopped the run while it was
	// under way, the other engine having answered: its Verdict is then
	// Unknown, its Reason "cancelled", unless it had reached its verdict
	// and was building its traces.
	Stopped bool
	Time    time.Duration // from the start of the portfolio to the run's end
}

// Figures returns the portfolio's figures of a result of this engine (nil
// for another engine's).
func Figures(r *cbr.Result) *Stats {
	st, _ := r.Figures.(*Stats)
	return st
}

// Own returns a copy of r, a result of this engine, with the figures of
// the engine that answered in place of the portfolio's, as that engine's
// own run would have returned it (states.Figures then reads it); r itself
// for another engine's result.
func Own(r *cbr.Result) *cbr.Result {
	st := Figures(r)
	if st == nil {
		return r
	}
	own := *r
	own.Figures = st.Figures
	return &own
}

// The engines of the portfolio, by index: the symbolic one first (it
// answers when both do).
const (
	symbolic = iota
	explicitEngine
)

var names = [2]string{tuples.Name, states.Name}

// outcome is one engine's run.
type outcome struct {
	res *cbr.Result
	err error
	// stopped says that the portfolio stopped the run while it was
	// under way (the other engine having answered): its result may be
	// cut short, traces included, even when it reached its verdict.
	stopped bool
	end     time.Duration
}

// conclusive reports whether o answered: Safe or Violation, no limit
// having cut the search (so the whole bound was explored, or up to the
// first violation, which then has its fewest units), with every number
// of threads (no start cut off at the thread bound).
func (o outcome) conclusive() bool {
	return o.err == nil && o.res != nil && o.res.Verdict != cbr.Unknown && o.res.Limit == nil
}

// failed reports whether o ended in an error: options the engine cannot
// use (no result) or an internal error.
func (o outcome) failed() bool {
	return o.err != nil && (o.res == nil || !cbr.IsLimit(o.err))
}

// Analyze runs the symbolic and the explicit engine on net at the same
// time, on two goroutines, and returns the first conclusive answer
// (Safe, or Violation, with no limit having cut the search: the engines
// are exact, so the verdict, every violation's fewest units and the
// coverage are the same whichever answers; package documentation),
// after stopping the other engine. When neither is conclusive, it
// returns the result that found a violation, else the one that covered
// more of the bound (Result.Complete), the symbolic one on ties, with the
// other's reason added when it differs. When both engines answered
// before either was stopped, the symbolic engine's answer is returned.
//
// The explicit engine runs on a copy of net in a BDD manager of its own
// (pds.Network.CopyTo), made before either starts: a manager is not safe
// for concurrent use. Its results are returned as results on net (its
// labels, rules, targets and Net). The limits apply to the portfolio:
// ctx to both engines; MaxMemory to both, each checking the process's
// memory; MaxNodes is shared, the symbolic engine's manager getting
// three quarters and the explicit engine's the rest (splitNodes). A
// cancelled ctx stops both; Analyze returns when both have stopped, so
// that net's manager is free again.
//
// Options.OnProgress receives the symbolic engine's progress, and the
// explicit engine's once the symbolic one has ended; OnViolation
// receives each violation site once, from the engine that found it
// first. Both are called from the engines' goroutines, one call at a
// time.
//
// Analyze returns an error and no result for options it cannot use (a
// cbr.OptionError, its own or either engine's), and an error with the
// result of the engine that failed for an internal error of either
// engine. The result's Figures are *Stats.
func (e Engine) Analyze(ctx context.Context, net *pds.Network, o cbr.Options) (*cbr.Result, error) {
	start := time.Now()
	if o.Unbounded {
		return nil, &cbr.OptionError{Engine: Name, Option: "Unbounded", Problem: "it explores a bound; deepening is the view-tuple engine's"}
	}
	k, unit, err := o.Check(Name, cbr.Contexts, cbr.Preemptions)
	if err != nil {
		return nil, err
	}
	p := &portfolio{net: net, opts: o, start: start, seen: map[any]bool{}}
	symNodes, expNodes := splitNodes(o.MaxNodes)

	// The explicit engine's copy, before either engine runs (Translate
	// reads net's node table).
	var outs [2]outcome
	cp, copyErr := copyNet(ctx, net, bdd.Limits{MaxNodes: expNodes, MaxMemory: o.MaxMemory})
	p.copyTime = time.Since(start)
	if copyErr != nil {
		r := &cbr.Result{Bound: k, Unit: unit, Complete: -1, Converged: -1}
		err := r.Finish(copyErr, nil)
		outs[explicitEngine] = outcome{res: r, err: err, end: p.copyTime}
	} else {
		p.copy = cp
		p.targets = copyTargets(cp, o.Targets)
	}

	return p.answer(p.race(ctx, e, symNodes, expNodes, outs))
}

// race runs both engines, each on its goroutine (the explicit one only
// when its copy of the network was made; otherwise outs holds its
// outcome), stops the other when one answers (conclusive) or fails,
// unless it has returned already, and returns both outcomes once both
// have returned.
func (p *portfolio) race(ctx context.Context, e Engine, symNodes, expNodes int, outs [2]outcome) [2]outcome {
	o := p.opts
	var runs [2]engineRun
	runs[symbolic] = engineRun{
		run: func(ctx context.Context) (*cbr.Result, error) {
			so := p.hooks(o, symbolic)
			so.MaxNodes = symNodes
			return tuples.Engine{}.Analyze(ctx, p.net, so)
		},
	}
	if cp := p.copy; cp != nil {
		runs[explicitEngine] = engineRun{
			run: func(ctx context.Context) (*cbr.Result, error) {
				eo := p.hooks(o, explicitEngine)
				eo.MaxNodes = expNodes
				eo.Targets = p.targets
				return states.Engine{MaxDepth: e.MaxDepth, MaxStateBytes: e.MaxStateBytes}.Analyze(ctx, cp, eo)
			},
		}
	}
	done := make(chan int, 2)
	var returned [2]bool
	// handled[i] is closed once engine i returned and the other was
	// stopped if need be (for tests that hold an engine back).
	handled := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	running := 0
	for i := range runs {
		if runs[i].run == nil {
			close(handled[i])
			continue
		}
		running++
		var engCtx context.Context
		engCtx, runs[i].stop, runs[i].release = stoppable(ctx)
		run := runs[i].run
		go func() {
			if e.hold == 1+i {
				select {
				case <-handled[1-i]:
				case <-engCtx.Done():
				}
			}
			res, err := run(engCtx)
			p.mu.Lock()
			outs[i].res, outs[i].err, outs[i].end = res, err, time.Since(p.start)
			returned[i] = true
			if i == symbolic {
				p.symbolicDone = true
			}
			p.mu.Unlock()
			done <- i
		}()
	}
	for ; running > 0; running-- {
		i := <-done
		p.mu.Lock()
		out := outs[i]
		var stop []func()
		if (out.conclusive() || out.failed()) && !e.noCancel {
			// Stop the other engine, unless it has returned already (its
			// result is then whole: both finished).
			for j := range runs {
				if j != i && runs[j].stop != nil && !returned[j] && !outs[j].stopped {
					outs[j].stopped = true
					stop = append(stop, runs[j].stop)
				}
			}
		}
		p.mu.Unlock()
		for _, f := range stop {
			f()
		}
		close(handled[i])
	}
	for i := range runs {
		if runs[i].release != nil {
			runs[i].release()
		}
	}
	return outs
}

// engineRun is one engine's goroutine: how to run it, and how to stop it
// and release its context.
type engineRun struct {
	run           func(ctx context.Context) (*cbr.Result, error)
	stop, release func()
}

// stoppable returns a context for one engine's run under ctx, a function
// that stops it (the run, and at once the building of its traces, which
// would otherwise go on for up to cbr.GraceTime: cbr.WithHardStop), and
// one that releases it. The traces of a run that ctx cut off get their
// grace period as in a run of the engine alone, and ctx's own hard stop
// ends it.
func stoppable(ctx context.Context) (run context.Context, stop, release func()) {
	run, cancelRun := context.WithCancel(ctx)
	grace, releaseGrace := cbr.Grace(ctx)
	hard, cancelHard := context.WithCancel(grace)
	stop = func() {
		cancelRun()
		cancelHard()
	}
	return cbr.WithHardStop(run, hard), stop, func() {
		stop()
		releaseGrace()
	}
}

// splitNodes splits a limit on the live BDD nodes (0: none) between the
// two engines' managers, so that together they hold at most that many:
// three quarters to the symbolic engine, whose node table holds every
// automaton, a quarter (at least one node) to the explicit engine's,
// which holds the copy of the network's relations and the rule solutions
// it remembers. (A limit of one node gives each one.)
func splitNodes(limit int) (sym, exp int) {
	if limit <= 0 {
		return 0, 0
	}
	exp = max(limit/4, 1)
	return max(limit-exp, 1), exp
}

// copyNet copies net into a manager of its own, under lim and ctx.
func copyNet(ctx context.Context, net *pds.Network, lim bdd.Limits) (*pds.Network, error) {
	m, err := bdd.New(net.M.L, bdd.Config{})
	if err != nil {
		return nil, fmt.Errorf("auto: %w", err)
	}
	var cp *pds.Network
	err = m.Run(ctx, lim, func() (err error) {
		cp, err = net.CopyTo(m)
		return err
	})
	if err != nil {
		return nil, err
	}
	return cp, nil
}

// copyTargets returns the targets with the labels of the copy cp.
func copyTargets(cp *pds.Network, targets []pds.Target) []pds.Target {
	out := make([]pds.Target, len(targets))
	for i, t := range targets {
		out[i] = t
		out[i].Tops = make([]pds.Top, len(t.Tops))
		for j, top := range t.Tops {
			if top.Label != nil {
				top.Label = cp.Labels[top.Label.ID]
			}
			out[i].Tops[j] = top
		}
	}
	return out
}

// portfolio is one run of Analyze: the network and its copy, the options,
// and the state of the hooks.
type portfolio struct {
	net, copy *pds.Network
	opts      cbr.Options
	targets   []pds.Target // opts.Targets on the copy
	start     time.Time
	copyTime  time.Duration

	mu           sync.Mutex
	symbolicDone bool
	seen         map[any]bool // violation sites passed to OnViolation
}

// hooks returns o with its hooks made safe for two engines: one call at
// a time, the progress of the symbolic engine (of the explicit one once
// the symbolic one has ended), each violation site once, on net.
func (p *portfolio) hooks(o cbr.Options, engine int) cbr.Options {
	if f := o.OnProgress; f != nil {
		o.OnProgress = func(pr cbr.Progress) {
			p.mu.Lock()
			defer p.mu.Unlock()
			if engine == symbolic || p.symbolicDone {
				f(pr)
			}
		}
	}
	if f := o.OnViolation; f != nil {
		o.OnViolation = func(v cbr.Found) {
			if engine == explicitEngine {
				p.back(&v)
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			if k := v.Key(); !p.seen[k] {
				p.seen[k] = true
				f(v)
			}
		}
	}
	return o
}

// answer returns the result of the portfolio from both outcomes
// (choose), as a result on net with the portfolio's figures.
func (p *portfolio) answer(outs [2]outcome) (*cbr.Result, error) {
	i := choose(outs)
	out := outs[i]
	if out.res == nil {
		return nil, out.err
	}
	r := out.res
	if i == explicitEngine && p.copy != nil {
		p.backResult(r)
	}
	st := &Stats{Answered: names[i], Figures: r.Figures, CopyTime: p.copyTime}
	for j, o := range outs {
		run := Run{Engine: names[j], Verdict: cbr.Unknown, Complete: -1, Stopped: o.stopped, Time: o.end}
		if o.res != nil {
			run.Verdict, run.Complete, run.Reason = o.res.Verdict, o.res.Complete, o.res.Reason
		} else if o.err != nil {
			run.Reason = o.err.Error()
		}
		st.Runs[j] = run
	}
	r.Figures = st
	if !out.conclusive() && out.err == nil {
		other := outs[1-i]
		if other.res != nil && other.res.Reason != "" && other.res.Reason != r.Reason {
			r.Reason += "; " + names[1-i] + ": " + other.res.Reason
		}
	}
	r.Stats.Time = time.Since(p.start) - r.Stats.TraceTime
	return r, out.err
}

// choose returns the index of the outcome the portfolio returns: an
// engine's failure first (options it cannot use, then an internal
// error: never hidden behind the other's answer); else a conclusive
// answer, one that was not stopped first (a stopped run that reached its
// verdict may have lost its traces), the symbolic engine's when both
// are; else the one that found a violation, then the one that covered
// more of the bound, the symbolic engine's on ties.
func choose(outs [2]outcome) int {
	for i, o := range outs {
		if o.err != nil && o.res == nil {
			return i
		}
	}
	for i, o := range outs {
		if o.failed() {
			return i
		}
	}
	for i, o := range outs {
		if o.conclusive() && !o.stopped {
			return i
		}
	}
	for i, o := range outs {
		if o.conclusive() {
			return i
		}
	}
	if better(outs[explicitEngine], outs[symbolic]) {
		return explicitEngine
	}
	return symbolic
}

// better reports whether o is a better answer than b, neither being
// conclusive: it found a violation and b did not, or as much and it
// covered more of the bound.
func better(o, b outcome) bool {
	switch {
	case b.res == nil:
		return o.res != nil
	case o.res == nil:
		return false
	}
	ov, bv := o.res.Verdict == cbr.Violation, b.res.Verdict == cbr.Violation
	if ov != bv {
		return ov
	}
	return o.res.Complete > b.res.Complete
}

// back makes a violation found on the copy one on net.
func (p *portfolio) back(f *cbr.Found) {
	if f.Label != nil {
		f.Label = p.net.Labels[f.Label.ID]
	}
	if f.Target != nil {
		for i := range p.targets {
			if f.Target == &p.targets[i] {
				f.Target = &p.opts.Targets[i]
				break
			}
		}
	}
	if f.Trace != nil {
		f.Trace = p.backTrace(f.Trace)
	}
}

// backResult makes a result of the explicit engine on the copy one on
// net: its violations, their traces and Net.
func (p *portfolio) backResult(r *cbr.Result) {
	if r.Net != nil {
		r.Net = p.net
	}
	for i := range r.Violations {
		p.back(&r.Violations[i])
	}
}

func (p *portfolio) backTrace(t *cbr.Trace) *cbr.Trace {
	out := &cbr.Trace{Initial: p.backConfig(t.Initial), Contexts: make([]cbr.TraceContext, len(t.Contexts))}
	for i, c := range t.Contexts {
		steps := make([]cbr.TraceStep, len(c.Steps))
		for j, s := range c.Steps {
			steps[j] = cbr.TraceStep{Rule: p.net.Rules[s.Rule.Index], After: p.backConfig(s.After), Starts: s.Starts}
		}
		out.Contexts[i] = cbr.TraceContext{Thread: c.Thread, Steps: steps}
	}
	return out
}

func (p *portfolio) backConfig(c explicit.Config) explicit.Config {
	out := explicit.Config{Globals: c.Globals, Threads: make([][]explicit.Frame, len(c.Threads))}
	for t, st := range c.Threads {
		fs := make([]explicit.Frame, len(st))
		for i, f := range st {
			fs[i] = explicit.Frame{Label: p.net.Labels[f.Label.ID], Locals: f.Locals}
		}
		out.Threads[t] = fs
	}
	return out
}
