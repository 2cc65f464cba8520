package seq

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/symauto"
)

// Traces of the lazy form (doc.go, "Traces"). A violation found by thread
// jv in round kv is the end of a round-robin run; its trace is rebuilt in
// three parts: the concrete starts and ends of every thread's rounds
// (picked along the cycle of effects the violation's round started
// from), a concrete run of each thread through its rounds (its recorded
// post* of each round walked back, symauto.Saturation.Back), and the
// schedule that interleaves them round by round.

// history is what the lazy form keeps for traces: every thread's
// automaton at the start of every round (before post*) and its effect
// after it. That is the memory traces cost here; the recorded post*s are
// run again when a trace needs them.
type history struct {
	in     [][]*symauto.Auto // [thread][round]
	effect [][]bdd.Node      // [thread][round]: E_j after the round
	where  map[*pds.Label][2]int
}

// tuple is a concrete valuation of starts and ends, as a cube over G.
type tuple = bdd.Node

// traceOf rebuilds the run of violation f in the three parts of doc.go's
// "Traces": where the violation ends (violation), the starts and ends of
// every thread's rounds (chain), each thread's run through its rounds
// (threadRun), and the schedule that interleaves them (schedule).
func (z *lazy) traceOf(ctx context.Context, f cbr.Found) (*cbr.Trace, error) {
	v, err := z.violation(ctx, f)
	if err != nil {
		return nil, err
	}
	if err := z.m.Err(); err != nil {
		// Stopped while finding the violation's valuation, which is then
		// empty: nothing to chain.
		return nil, err
	}
	if len(v.g) < len(z.s.Net.Globals) {
		return nil, noWitness("the violation has no valuation of the globals")
	}
	n := z.s.Threads
	rounds := roundsRun(n, v.jv, v.kv)
	starts, ends := z.chain(v.g, v.jv, v.kv, rounds)
	if err := z.m.Err(); err != nil {
		// A stop (the hard stop, a limit) made the chain's BDDs False:
		// no trace, and not for want of a run.
		return nil, err
	}
	if starts == nil {
		return nil, noWitness("no run of the other threads fits the violation's starts")
	}
	runs := make([][][]symauto.BackStep, n) // [thread][round] steps
	firsts := make([][]symauto.Frame, n)    // initial stacks
	var initial []uint64
	for i := range n {
		var gs []uint64
		runs[i], firsts[i], gs, err = z.threadRun(ctx, i, rounds[i], v, starts[i], ends[i])
		if err != nil {
			return nil, err
		}
		if i == 0 {
			initial = gs
		}
	}
	if err := z.m.Err(); err != nil {
		return nil, err // the runs' BDDs are False after a stop: nothing to schedule
	}
	if initial == nil {
		return nil, noWitness("thread 1 did not run")
	}
	tr := z.schedule(initial, firsts, runs, v.jv, v.kv)
	if err := z.m.Err(); err != nil {
		return nil, err // stopped while reading the steps' values
	}
	if err := ctx.Err(); err != nil && tr == nil {
		return nil, err
	}
	if tr == nil {
		return nil, noWitness("a step of the runs has no values")
	}
	return tr, nil
}

// noWitness is the error of a trace that cannot be rebuilt (an internal
// error: the analysis found the violation).
func noWitness(format string, args ...any) error {
	return fmt.Errorf("%w: %s", symauto.ErrNoWitness, fmt.Sprintf(format, args...))
}

// violationEnd is the last configuration of a violation: thread jv's, in
// round kv (from 0), with the error on top.
type violationEnd struct {
	jv, kv int
	sat    *symauto.Saturation // thread jv's recorded post* of round kv
	last   symauto.Path        // the configuration in sat's result
	g      []uint64            // its globals
}

// violation finds the last configuration of violation f: thread jv with
// the error on top, in its recorded post* of round kv. The copies of
// earlier rounds are frozen, so its globals hold thread jv's starts and
// ends of every round.
func (z *lazy) violation(ctx context.Context, f cbr.Found) (violationEnd, error) {
	s, m := z.s, z.m
	at, ok := z.hist.where[f.Label]
	if !ok {
		return violationEnd{}, noWitness("no round recorded for %s", f.Label.Name)
	}
	v := violationEnd{jv: at[0], kv: at[1]}
	var err error
	if v.sat, err = z.recorded(ctx, v.jv, v.kv); err != nil {
		return violationEnd{}, err
	}
	v.last, ok = v.sat.Result().PickPath(m.True(), symauto.TopCond{Label: s.labels[f.Label]})
	if !ok {
		return violationEnd{}, noWitness("thread %d's round %d has no configuration with %s on top", v.jv, v.kv+1, f.Label.Name)
	}
	v.g, _ = z.sp.Concrete(v.last)
	return v, nil
}

// roundsRun returns the rounds each of n threads has run when thread jv
// reaches the error in round kv (from 0): kv+1 for thread jv and those
// before it, kv for those after it.
func roundsRun(n, jv, kv int) []int {
	rounds := make([]int, n)
	for i := range n {
		rounds[i] = kv
		if i <= jv {
			rounds[i] = kv + 1
		}
	}
	return rounds
}

// threadRun returns thread i's run through its first rounds rounds: the
// steps of each round, its initial stack and, when it ran, its initial
// globals. Its last configuration is thread jv's at the violation, or
// one of its last round's result with the chosen start and end; a thread
// that never ran (one after jv before its first round) has its initial
// configuration and no steps.
func (z *lazy) threadRun(ctx context.Context, i, rounds int, v violationEnd, start, end tuple) ([][]symauto.BackStep, []symauto.Frame, []uint64, error) {
	m := z.m
	r := rounds - 1
	if r < 0 {
		a := z.sp.Init(z.s.Net.Threads[i])
		p, ok := a.PickPath(m.True(), symauto.TopCond{Any: true})
		if !ok {
			return nil, nil, nil, noWitness("thread %d has no initial configuration", i)
		}
		_, first := z.sp.Concrete(p)
		return nil, first, nil, nil
	}
	p, sat := v.last, v.sat
	if i != v.jv {
		var err error
		if sat, err = z.recorded(ctx, i, r); err != nil {
			return nil, nil, nil, err
		}
		var ok bool
		if p, ok = sat.Result().PickPath(m.And(start, end), symauto.TopCond{Any: true}); !ok {
			return nil, nil, nil, noWitness("thread %d has no configuration with the chosen starts and ends after round %d", i, r+1)
		}
	}
	return z.walkBack(ctx, i, r, p, sat)
}

// walkBack walks configuration p of thread i's recorded post* sat of
// round r back to the thread's initial stack, round by round
// (symauto.Saturation.Back): between two rounds only $round differs
// (Reassign), so the path continues from the same configuration in the
// previous round's result. It returns the steps of rounds 0..r, the
// initial stack and the initial globals.
func (z *lazy) walkBack(ctx context.Context, i, r int, p symauto.Path, sat *symauto.Saturation) ([][]symauto.BackStep, []symauto.Frame, []uint64, error) {
	runs := make([][]symauto.BackStep, r+1)
	for ; ; r-- {
		start, steps, err := sat.Back(ctx, p)
		if err != nil {
			return nil, nil, nil, err
		}
		runs[r] = steps
		gs, stack := z.sp.Concrete(start)
		if r == 0 {
			return runs, stack, gs, nil
		}
		z.setRound(gs, r-1)
		if sat, err = z.recorded(ctx, i, r-1); err != nil {
			return nil, nil, nil, err
		}
		if p, err = sat.Result().FindPath(z.m.True(), gs, stack); err != nil {
			return nil, nil, nil, err
		}
	}
}

// setRound sets the $round bits of a valuation of the lazy network's
// globals to r.
func (z *lazy) setRound(gs []uint64, r int) {
	for b, g := range z.s.round.bits {
		gs[g.Index] = uint64(r>>b) & 1
	}
}

// recorded runs thread i's post* of round r again, recording it.
func (z *lazy) recorded(ctx context.Context, i, r int) (*symauto.Saturation, error) {
	sat := symauto.NewSaturation(z.hist.in[i][r], r+1)
	sat.Record()
	if err := sat.Run(ctx); err != nil {
		return nil, err
	}
	return sat, nil
}

// cube returns the cube of the given copies' values in g (a valuation of
// the lazy network's globals): x?r and x@r for r < rounds.
func (z *lazy) cube(g []uint64, copies [][]*pds.Global, rounds int) tuple {
	m, n := z.m, z.s.Net
	c := m.True()
	for i := range copies {
		for r := range rounds {
			x := copies[i][r]
			c = m.And(c, m.Eq(n.GlobalVec(x, pds.GCur), m.ConstVec(g[x.Index], x.Type.Bits)))
		}
	}
	return c
}

// chain picks the starts and ends of every thread's rounds (cubes over
// x? and x@ of its rounds), given thread jv's valuation g at the
// violation, such that they form the round-robin run the violation's
// round started from: thread jv+1 starts where jv ended, ..., thread 1
// starts with the initial globals and then where thread n ended, ...,
// thread jv-1 ends where jv started. It returns nils when no choice fits
// (an internal error).
func (z *lazy) chain(g []uint64, jv, kv int, rounds []int) (starts, ends []tuple) {
	s, m := z.s, z.m
	n := s.Threads
	starts, ends = make([]tuple, n), make([]tuple, n)
	starts[jv], ends[jv] = z.cube(g, s.guess, kv+1), z.cube(g, s.copies, kv)
	// The threads in the order of the cycle, from jv+1 to jv-1, each with
	// the set of its possible starts (over x?) given the choices before.
	order := make([]int, 0, n-1)
	for i := jv + 1; i < jv+n; i++ {
		order = append(order, i%n)
	}
	// into gives the starts of thread next from ends e (over x@) of the
	// thread before it in the cycle: the same tuple, or across the
	// cycle's seam (next the first thread) the initial globals and then e.
	into := func(next int, e bdd.Node) bdd.Node {
		if next != 0 {
			return m.Rename(e, z.endToStart)
		}
		return m.And(m.Rename(m.Rename(e, z.shift), z.nextToStart), z.init1AsStart)
	}
	// back gives the ends of the thread before next (over x@) from starts
	// st (over x?) of thread next: the inverse of into.
	back := func(next int, st bdd.Node) bdd.Node {
		if next != 0 {
			return m.Rename(st, z.startToEnd)
		}
		return m.Rename(m.Exists(st, z.firstStart), z.unshift)
	}
	effect := func(i int) bdd.Node { return z.hist.effect[i][rounds[i]-1] }
	// Threads that have not run yet (round 1, after jv) are not part of
	// it.
	ran := order[:0]
	for _, i := range order {
		if rounds[i] > 0 {
			ran = append(ran, i)
		}
	}
	order = ran
	if len(order) == 0 {
		return starts, ends
	}
	sets := make([]bdd.Node, len(order)) // possible starts of order[k]
	from := ends[jv]
	for k, i := range order {
		sets[k] = into(i, from)
		from = m.Exists(m.And(effect(i), sets[k]), z.startSet)
	}
	// The last thread of the order must end where jv started.
	want := back(jv, starts[jv])
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		x := m.And(effect(i), sets[k], want)
		if x.IsFalse() {
			return nil, nil
		}
		pick := m.Pick(x, z.tupleSet)
		starts[i] = m.Exists(pick, z.endSet)
		ends[i] = m.Exists(pick, z.startSet)
		if k > 0 {
			want = back(i, starts[i])
		}
	}
	return starts, ends
}

// schedule interleaves the threads' runs round by round (empty contexts
// left out, a thread's consecutive contexts joined) into a trace of the
// network with thread slots. It returns nil when a step's values cannot
// be read: a stop (the hard stop, a limit) interrupted the reading.
func (z *lazy) schedule(initial []uint64, firsts [][]symauto.Frame, runs [][][]symauto.BackStep, jv, kv int) *cbr.Trace {
	s := z.s
	n := s.Threads
	orig := map[*pds.Label]*pds.Label{}
	for o, c := range s.labels {
		orig[c] = o
	}
	stack := func(st []symauto.Frame) []explicit.Frame {
		var out []explicit.Frame
		for _, f := range st {
			if o := orig[f.Label]; o != nil {
				out = append(out, explicit.Frame{Label: o, Locals: append([]uint64(nil), f.Locals...)})
			}
		}
		return out
	}
	globals := func(g []uint64, r int) []uint64 {
		out := make([]uint64, len(s.Orig.Globals))
		for i := range out {
			out[i] = g[s.copies[i][r].Index]
		}
		return out
	}
	if len(initial) == 0 {
		return nil
	}
	cur := explicit.Config{Globals: globals(initial, 0), Threads: make([][]explicit.Frame, n)}
	for i := range n {
		cur.Threads[i] = stack(firsts[i])
	}
	tr := &cbr.Trace{Initial: cur}
	for r := 0; r <= kv; r++ {
		for i := range n {
			if r == kv && i > jv {
				break
			}
			if r >= len(runs[i]) || len(runs[i][r]) == 0 {
				continue
			}
			if len(tr.Contexts) == 0 || tr.Contexts[len(tr.Contexts)-1].Thread != i {
				tr.Contexts = append(tr.Contexts, cbr.TraceContext{Thread: i})
			}
			c := &tr.Contexts[len(tr.Contexts)-1]
			for _, st := range runs[i][r] {
				g, fr := z.sp.Concrete(st.After)
				if len(g) == 0 {
					return nil
				}
				next := explicit.Config{Globals: globals(g, r), Threads: append([][]explicit.Frame(nil), cur.Threads...)}
				next.Threads[i] = stack(fr)
				c.Steps = append(c.Steps, cbr.TraceStep{Rule: s.Orig.Rules[st.Rule.Index], After: next, Starts: -1})
				cur = next
			}
		}
	}
	return tr
}
