package tuples

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/symauto"
)

// Counterexample traces (package documentation, "Traces"; docs/traces.md).

// The engine-neutral trace types, under this package's name.

// traceJob is where a violation was found: in the post* result of thread
// from item it (inPost), or in it's tuple itself (an initial one).
type traceJob struct {
	it     *item
	thread int
	inPost bool
}

// traceFound remembers where the violation with the given key (its label
// or target) was found, when traces are on.
func (a *analysis) traceFound(key any, thread int) {
	if !a.opts.Traces {
		return
	}
	if a.traces == nil {
		a.traces = map[any]traceJob{}
	}
	a.traces[key] = traceJob{it: a.cur, thread: thread, inPost: a.inPost}
}

// traceLevel is the context level the recorded post* of a trace names its
// mid-states with: one no view of the search uses, so that they never mix
// with the view's own (counting preemptions, one level holds many
// contexts).
const traceLevel = math.MaxInt32

// buildTraces gives every violation its trace, or the error that
// prevented it.
func (a *analysis) buildTraces(ctx context.Context) {
	old := a.ctx
	a.ctx = ctx // the grace period's (cbr.Grace)
	defer func() { a.ctx = old }()
	a.res.SetTraces(a.net, func(f cbr.Found) (*cbr.Trace, bool, error) {
		job, ok := a.traces[f.Key()]
		if !ok {
			return nil, false, nil
		}
		tr, err := a.traceOf(f, job)
		if e := a.net.M.Err(); e != nil {
			// A limit stopped the BDD operations: whatever failed
			// failed for that reason.
			err = e
		}
		return tr, true, err
	})
}

// tops returns the condition a violation or target puts on the top of
// thread i.
func tops(f cbr.Found, i int) Top {
	switch {
	case f.Target != nil:
		return targetTop(f.Target, i)
	case i == f.Thread:
		return Top{Label: f.Label}
	}
	return Top{Any: true}
}

// traceOf reconstructs the run of a violation (docs/traces.md): its last
// configuration, in the post* result where it was found or in the tuple
// itself, then one context back at a time, each by a recorded post* of
// the parent item's view, to an initial item.
func (a *analysis) traceOf(f cbr.Found, job traceJob) (*cbr.Trace, error) {
	it := job.it
	stacks := make([][]symauto.Frame, len(it.tuple.Views))
	var contexts []cbr.TraceContext
	var cfg explicit.Config
	if job.inPost {
		c, err := a.lastInPost(f, job, &cfg, stacks)
		if err != nil {
			return nil, err
		}
		contexts = append(contexts, c)
	} else if err := a.lastInTuple(f, it, &cfg, stacks); err != nil {
		return nil, err
	}
	for ; it.parent != nil; it = it.parent {
		c, err := a.contextBack(it, &cfg, stacks)
		if err != nil {
			return nil, err
		}
		contexts = append(contexts, c)
	}
	slices.Reverse(contexts)
	return &cbr.Trace{Initial: cfg, Contexts: maximal(contexts)}, a.net.M.Err()
}

// maximal returns the contexts of a walked-back run as the explicit
// semantics has them: without the contexts in which the thread made no
// step, and with consecutive contexts of one thread joined.
//
// The walk can give an empty context: post* of thread t includes the
// configurations it started from, so an item that t's context made holds
// configurations of its parent where t made no step, and the chain of
// items may leave the walk no other choice (in TestPreemptionTraceEmptyContext
// thread 1 must stay where it starts in context 1, as it has to move in
// context 3). Counting contexts, the walk has none: without it the run
// would use fewer contexts than the violation's fewest (and Trace.Check
// rejects a trace with fewer). Counting preemptions, such a context costs
// nothing when the switch into t was free (the first context, or a switch
// away from a thread that cannot move) and t cannot move where it stands:
// the switch away from t is free too (the item's blocked part,
// preemptLevels.from), so the fewest preemptions do not rule it out. The
// next thread's context from that part is one it also ran from the
// parent, and the search keeps it when the configurations where t did
// move, which the same tuple holds, are more than that one covers (in the
// test, lazy splitting: thread 1 finished).
//
// Dropping a context of thread t empty at configuration c, between
// contexts of threads p and u, leaves the run's steps and configurations
// as they are and uses no more preemptions: the switch from p to u at c
// costs what the one from p to t did (whether p can move at c), and the
// one from t to u is gone (when the first context is the empty one, u's
// becomes the first, free). When u is p, joining p's two contexts removes
// both switches. The walk's run preempts at most as many times as the
// item of the violation has preemptions (a switch the chain made for free
// comes from a blocked part, whose view of its last thread the walk's
// configuration lies in), hence so does this one; no run uses fewer than
// the fewest the search found, so it uses exactly those.
func maximal(contexts []cbr.TraceContext) []cbr.TraceContext {
	var out []cbr.TraceContext
	for _, c := range contexts {
		switch n := len(out); {
		case len(c.Steps) == 0:
		case n > 0 && out[n-1].Thread == c.Thread:
			out[n-1].Steps = append(out[n-1].Steps, c.Steps...)
		default:
			out = append(out, c)
		}
	}
	return out
}

// noWitness is the error of a trace that cannot be reconstructed.
func noWitness(format string, args ...any) error {
	return fmt.Errorf("%w: %s", symauto.ErrNoWitness, fmt.Sprintf(format, args...))
}

// lastInPost chooses the last configuration of a violation found in the
// post* result of thread job.thread from item job.it (docs/traces.md,
// "The last configuration"): a configuration of the recorded post* with
// the violation on top, at a start global where every other thread's
// condition holds (its stack did not move), and a stack of every other
// thread at that start global. It sets cfg and stacks to it and returns
// the last context, walked back to its start (cfg and stacks then hold
// the configuration there).
func (a *analysis) lastInPost(f cbr.Found, job traceJob, cfg *explicit.Config, stacks [][]symauto.Frame) (cbr.TraceContext, error) {
	sp, m := a.sp, a.net.M
	it, act := job.it, job.thread
	s, post, err := a.recorded(it, act)
	if err != nil {
		return cbr.TraceContext{}, err
	}
	cond := m.True()
	if f.Target != nil {
		cond = targetGlobals(a.net, f.Target)
	}
	for i, v := range it.tuple.Views {
		if i != act {
			cond = m.And(cond, sp.CurToStart(topGlobals(v, tops(f, i))))
		}
	}
	path, ok := post.PickPath(cond, symauto.TopCond(tops(f, act)))
	if !ok {
		return cbr.TraceContext{}, noWitness("no configuration of thread %d's post* has the violation", act)
	}
	gs := sp.StartOf(path)
	globals, st := sp.Concrete(path)
	stacks[act] = st
	for i, v := range it.tuple.Views {
		if i == act {
			continue
		}
		p, ok := v.PickPath(sp.StartToCur(gs), symauto.TopCond(tops(f, i)))
		if !ok {
			return cbr.TraceContext{}, noWitness("thread %d has no stack at the start of the last context", i)
		}
		_, stacks[i] = sp.Concrete(p)
	}
	*cfg = configOf(globals, stacks)
	return a.backContext(s, path, act, cfg, stacks)
}

// lastInTuple chooses the last configuration of a violation found in
// item it's tuple itself (an initial one): its globals, then every
// thread's stack there. It sets cfg and stacks to it.
func (a *analysis) lastInTuple(f cbr.Found, it *item, cfg *explicit.Config, stacks [][]symauto.Frame) error {
	sp, m := a.sp, a.net.M
	cond := it.tuple.Domain
	if f.Target != nil {
		cond = m.And(cond, targetGlobals(a.net, f.Target))
	}
	for i, v := range it.tuple.Views {
		cond = m.And(cond, topGlobals(v, tops(f, i)))
	}
	g := m.Pick(cond, sp.CurSet())
	var globals []uint64
	for i, v := range it.tuple.Views {
		p, ok := v.PickPath(g, symauto.TopCond(tops(f, i)))
		if !ok {
			return noWitness("thread %d has no stack in the tuple of the violation", i)
		}
		globals, stacks[i] = sp.Concrete(p)
	}
	*cfg = configOf(globals, stacks)
	return nil
}

// contextBack walks the context that made item it from its parent back
// (docs/traces.md, "One context backwards"): it was made by a context of
// thread t = it.last with a start global of it.tuple.Class. The start
// global is one under which every thread's stack in cfg fits the
// parent's views and cfg lies in the parent's post* of t (at most one,
// by confluence); thread t's steps are found in that post*, recorded.
// It returns the context; cfg and stacks become the configuration at its
// start, which lies in the parent.
func (a *analysis) contextBack(it *item, cfg *explicit.Config, stacks [][]symauto.Frame) (cbr.TraceContext, error) {
	sp, m := a.sp, a.net.M
	t, par := it.last, it.parent
	s, post, err := a.recorded(par, t)
	if err != nil {
		return cbr.TraceContext{}, err
	}
	here := m.Exists(m.And(post.WordGlobals(stacks[t]), sp.GlobalsAre(cfg.Globals)), sp.CurSet())
	starts := m.And(it.tuple.Class, sp.CurToStart(par.tuple.Domain), here)
	for i, v := range par.tuple.Views {
		if i != t {
			starts = m.And(starts, sp.CurToStart(v.WordGlobals(stacks[i])))
		}
	}
	if starts.IsFalse() {
		return cbr.TraceContext{}, noWitness("no start global fits the configuration at level %d", it.level)
	}
	path, err := post.FindPath(m.Pick(starts, sp.StartSet()), cfg.Globals, stacks[t])
	if err != nil {
		return cbr.TraceContext{}, err
	}
	return a.backContext(s, path, t, cfg, stacks)
}

// recorded saturates thread t's view of item it again, recording the
// origins of its labels.
func (a *analysis) recorded(it *item, t int) (*symauto.Saturation, *symauto.Auto, error) {
	s := symauto.NewSaturation(it.tuple.Views[t].Tag(it.tuple.Domain), traceLevel)
	s.Record()
	if err := s.Run(a.ctx); err != nil {
		return nil, nil, err
	}
	return s, s.Result(), nil
}

// backContext walks thread t's context back from path (the configuration
// cfg, whose stacks are stacks) and returns the context's steps; cfg and
// stacks become the configuration at the context's start.
func (a *analysis) backContext(s *symauto.Saturation, path symauto.Path, t int, cfg *explicit.Config, stacks [][]symauto.Frame) (cbr.TraceContext, error) {
	start, steps, err := s.Back(a.ctx, path)
	if err != nil {
		return cbr.TraceContext{}, err
	}
	c := cbr.TraceContext{Thread: t}
	for _, st := range steps {
		g, stack := a.sp.Concrete(st.After)
		stacks[t] = stack
		c.Steps = append(c.Steps, cbr.TraceStep{Rule: st.Rule, After: configOf(g, stacks), Starts: -1})
	}
	g, stack := a.sp.Concrete(start)
	stacks[t] = stack
	*cfg = configOf(g, stacks)
	return c, nil
}

// configOf makes an explicit configuration (copies of the values).
func configOf(globals []uint64, stacks [][]symauto.Frame) explicit.Config {
	c := explicit.Config{Globals: append([]uint64(nil), globals...), Threads: make([][]explicit.Frame, len(stacks))}
	for i, st := range stacks {
		c.Threads[i] = make([]explicit.Frame, len(st))
		for j, f := range st {
			c.Threads[i][j] = explicit.Frame{Label: f.Label, Locals: append([]uint64(nil), f.Locals...)}
		}
	}
	return c
}
