package cbr

import (
	"context"
	"fmt"
	"math"

	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/symauto"
)

// Counterexample traces (package documentation, "Traces"; docs/traces.md).

// The engine-neutral trace types, under this package's name.
type (
	Trace        = engine.Trace
	TraceContext = engine.Context
	TraceStep    = engine.Step
)

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
	a.ctx = ctx // the grace period's (engine.Grace)
	defer func() { a.ctx = old }()
	a.res.SetTraces(a.net, func(f Found) (*Trace, bool, error) {
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
func tops(f Found, i int) Top {
	switch {
	case f.Target != nil:
		return targetTop(f.Target, i)
	case i == f.Thread:
		return Top{Label: f.Label}
	}
	return Top{Any: true}
}

// traceOf reconstructs the run of a violation (docs/traces.md): a
// configuration with the error on top in the post* result where it was
// found, then one context back at a time, each by a recorded post* of the
// parent item's view, to an initial item.
func (a *analysis) traceOf(f Found, job traceJob) (*Trace, error) {
	sp, m := a.sp, a.net.M
	it := job.it
	var contexts []engine.Context
	var cfg explicit.Config
	stacks := make([][]symauto.Frame, len(it.tuple.Views))
	fail := func(format string, args ...any) (*Trace, error) {
		return nil, fmt.Errorf("%w: %s", symauto.ErrNoWitness, fmt.Sprintf(format, args...))
	}
	if job.inPost {
		// The last configuration, in the post* result of the thread
		// that reached it: every other thread's condition holds at the
		// start global (its stack did not move).
		act := job.thread
		s, post, err := a.recorded(it, act)
		if err != nil {
			return nil, err
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
			return fail("no configuration of thread %d's post* has the violation", act)
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
				return fail("thread %d has no stack at the start of the last context", i)
			}
			_, stacks[i] = sp.Concrete(p)
		}
		cfg = configOf(globals, stacks)
		c, err := a.backContext(s, path, act, &cfg, stacks)
		if err != nil {
			return nil, err
		}
		contexts = append(contexts, c)
	} else {
		// Found in the tuple itself: choose its globals, then stacks.
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
				return fail("thread %d has no stack in the tuple of the violation", i)
			}
			globals, stacks[i] = sp.Concrete(p)
		}
		cfg = configOf(globals, stacks)
	}
	for ; it.parent != nil; it = it.parent {
		// it was made by a context of thread t from its parent, with a
		// start global of it.tuple.Class: find one under which every
		// thread's stack fits, the configuration lies in the parent's
		// post*, and walk that context back.
		t, par := it.last, it.parent
		s, post, err := a.recorded(par, t)
		if err != nil {
			return nil, err
		}
		here := m.Exists(m.And(post.WordGlobals(stacks[t]), sp.GlobalsAre(cfg.Globals)), sp.CurSet())
		starts := m.And(it.tuple.Class, sp.CurToStart(par.tuple.Domain), here)
		for i, v := range par.tuple.Views {
			if i != t {
				starts = m.And(starts, sp.CurToStart(v.WordGlobals(stacks[i])))
			}
		}
		if starts.IsFalse() {
			return fail("no start global fits the configuration at level %d", it.level)
		}
		path, err := post.FindPath(m.Pick(starts, sp.StartSet()), cfg.Globals, stacks[t])
		if err != nil {
			return nil, err
		}
		c, err := a.backContext(s, path, t, &cfg, stacks)
		if err != nil {
			return nil, err
		}
		contexts = append(contexts, c)
	}
	for i, j := 0, len(contexts)-1; i < j; i, j = i+1, j-1 {
		contexts[i], contexts[j] = contexts[j], contexts[i]
	}
	return &Trace{Initial: cfg, Contexts: contexts}, m.Err()
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
func (a *analysis) backContext(s *symauto.Saturation, path symauto.Path, t int, cfg *explicit.Config, stacks [][]symauto.Frame) (engine.Context, error) {
	start, steps, err := s.Back(a.ctx, path)
	if err != nil {
		return engine.Context{}, err
	}
	c := engine.Context{Thread: t}
	for _, st := range steps {
		g, stack := a.sp.Concrete(st.After)
		stacks[t] = stack
		c.Steps = append(c.Steps, engine.Step{Rule: st.Rule, After: configOf(g, stacks), Starts: -1})
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
