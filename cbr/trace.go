package cbr

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cbreach/cbreach/bdd"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/pds/plural"
)

// Trace is the evidence of a violation: a concrete run from an initial
// configuration to one with the error on top (or the target reached),
// context by context. Its configurations are those of the network the
// engine ran: for the symbolic engine the one with thread slots
// (pds.Network.WithThreadSlots), where a thread that a start created sits
// in its slot, dormant until its first step wakes it; for the explicit
// engine the network itself, where a start adds a thread to the
// configuration. Engines check every trace with Check before they return
// it.
type Trace struct {
	Initial  explicit.Config
	Contexts []TraceContext
}

// TraceContext is one maximal run of one thread.
type TraceContext struct {
	Thread int
	Steps  []TraceStep
}

// TraceStep is one rule applied by the context's thread, and the configuration
// after it.
type TraceStep struct {
	Rule  *pds.Rule
	After explicit.Config
	// Starts is the thread this step created (a start), or -1.
	Starts int
}

// Configs returns the configurations of the run in order, the initial
// one first.
func (t *Trace) Configs() []explicit.Config {
	out := []explicit.Config{t.Initial}
	for _, c := range t.Contexts {
		for _, s := range c.Steps {
			out = append(out, s.After)
		}
	}
	return out
}

// Last returns the last configuration of the run.
func (t *Trace) Last() explicit.Config {
	for i := len(t.Contexts) - 1; i >= 0; i-- {
		if s := t.Contexts[i].Steps; len(s) > 0 {
			return s[len(s)-1].After
		}
	}
	return t.Initial
}

// Preempting reports, for each context of the trace, whether the switch
// into it was a preemption: a switch away from a thread that could still
// move at that point (pds/explicit's Stepper.Enabled on n, the network the
// engine ran); the first context never is. Preemptions counts them.
func (t *Trace) Preempting(n *pds.Network) ([]bool, error) {
	stepper := explicit.NewStepper(n, max(n.MaxThreads, len(t.Initial.Threads)), 0)
	out := make([]bool, len(t.Contexts))
	cur := t.Initial
	for i, c := range t.Contexts {
		if i > 0 {
			en, err := stepper.Enabled(cur, t.Contexts[i-1].Thread)
			if err != nil {
				return nil, err
			}
			out[i] = en
		}
		if len(c.Steps) > 0 {
			cur = c.Steps[len(c.Steps)-1].After
		}
	}
	return out, nil
}

// Preemptions returns the number of preempting switches of the trace
// (Preempting).
func (t *Trace) Preemptions(n *pds.Network) (int, error) {
	p, err := t.Preempting(n)
	count := 0
	for _, b := range p {
		if b {
			count++
		}
	}
	return count, err
}

// Units returns the number of units of the bound the trace uses:
// contexts, preempting switches (Preemptions) on n, the network the
// engine ran, or rounds of round-robin (Rounds): the fewest rounds whose
// schedules hold the trace's contexts in order, one more at every
// context whose thread does not come after the previous one's.
func (t *Trace) Units(n *pds.Network, u Unit) (int, error) {
	switch u {
	case Preemptions:
		return t.Preemptions(n)
	case Rounds:
		rounds := 0
		for i, c := range t.Contexts {
			if i == 0 || c.Thread <= t.Contexts[i-1].Thread {
				rounds++
			}
		}
		return rounds, nil
	}
	return len(t.Contexts), nil
}

// SetTraces gives every violation of r without one its trace: build makes it (false
// when the engine has none for that violation), Check replays it on n.
// A trace that cannot be made or fails its replay is left out and the
// error kept in Found.TraceErr; a limit reached while building ends the
// work, every trace not yet built getting the limit as its error.
func (r *Result) SetTraces(n *pds.Network, build func(f Found) (*Trace, bool, error)) {
	for i := range r.Violations {
		f := &r.Violations[i]
		if f.Trace != nil {
			continue // made with the violation (InitialErrors)
		}
		tr, ok, err := build(*f)
		if !ok {
			continue
		}
		if err == nil {
			err = tr.Check(n, *f, r.Unit)
		}
		if err == nil {
			f.Trace = tr
			continue
		}
		f.TraceErr = err
		if IsLimit(err) {
			for j := i + 1; j < len(r.Violations); j++ {
				r.Violations[j].TraceErr = err
			}
			return
		}
	}
}

// BuildTraces runs build, which gives the violations of r their traces
// (SetTraces), on manager m under the run's limits, when traces were
// asked for and there are violations, and records its time in
// Stats.TraceTime. It runs under Grace(ctx), which build receives: a run
// cut off by its context still builds the traces of what it found, for
// up to GraceTime. A limit reached meanwhile is each unbuilt trace's
// TraceErr already (SetTraces); any other failure is returned, with the
// verdict decided (the violations stand: never the zero verdict Safe).
func (r *Result) BuildTraces(ctx context.Context, m *bdd.Manager, lim Limits, on bool, build func(context.Context)) error {
	if !on || len(r.Violations) == 0 {
		return nil
	}
	t := time.Now()
	g, release := Grace(ctx)
	defer release()
	err := m.Run(g, bdd.Limits{MaxNodes: lim.MaxNodes, MaxMemory: lim.MaxMemory}, func() error {
		build(g)
		return nil
	})
	r.graceEnded(ctx, g)
	r.Stats.TraceTime = time.Since(t)
	if err != nil && !IsLimit(err) {
		r.Decide()
		return err
	}
	return nil
}

// Key returns what identifies a violation within one run (its error
// label, or its target), for engines that remember where each was found.
func (f Found) Key() any {
	if f.Target != nil {
		return f.Target
	}
	return f.Label
}

// ErrBadTrace is wrapped by the errors of Check: a trace the reference
// semantics does not confirm, which is an internal error of the engine
// that made it.
var ErrBadTrace = errors.New("the trace does not replay")

// Check replays the trace on the explicit reference semantics of n (the
// network with thread slots the engine ran) and the finding f, whose
// fewest units of the bound are counted in unit: the first configuration
// must be initial, every step a successor by its thread made by the rule
// it names (which reads the thread's top), consecutive contexts run
// different threads and none is empty, the last configuration must have
// f's error label on top of f's thread (or satisfy f's target), and the
// trace must use f.Contexts units. It also fills in TraceStep.Starts.
func (t *Trace) Check(n *pds.Network, f Found, unit Unit) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadTrace, fmt.Sprintf(format, args...))
	}
	if err := isInitial(n, t.Initial); err != nil {
		return bad("the first configuration is not initial: %v", err)
	}
	depth := 1
	for _, c := range t.Configs() {
		for _, st := range c.Threads {
			depth = max(depth, len(st)+1)
		}
	}
	stepper := explicit.NewStepper(n, max(n.MaxThreads, len(t.Initial.Threads)), depth)
	cur := t.Initial
	for i, c := range t.Contexts {
		if c.Thread < 0 || c.Thread >= len(cur.Threads) {
			return bad("context %d runs thread %d of %d", i+1, c.Thread, len(cur.Threads))
		}
		if i > 0 && t.Contexts[i-1].Thread == c.Thread {
			return bad("contexts %d and %d run the same thread", i, i+1)
		}
		if len(c.Steps) == 0 {
			return bad("context %d is empty", i+1)
		}
		for j := range c.Steps {
			s := &c.Steps[j]
			st := cur.Threads[c.Thread]
			if len(st) == 0 || st[len(st)-1].Label != s.Rule.From {
				return bad("context %d, step %d: rule %d does not read thread %d's top", i+1, j+1, s.Rule.Index, c.Thread)
			}
			ok, err := stepper.Allows(cur, c.Thread, s.Rule, s.After)
			if err != nil {
				return err
			}
			if !ok {
				return bad("context %d, step %d: thread %d cannot go from %s to %s by rule %d", i+1, j+1, c.Thread, cur.Format(n), s.After.Format(n), s.Rule.Index)
			}
			s.Starts = started(n, cur, s.After)
			cur = s.After
		}
	}
	switch {
	case f.Target != nil:
		if !cur.Satisfies(f.Target) {
			return bad("the last configuration %s is not the target %s", cur.Format(n), f.Target.Name)
		}
	case f.Thread < 0 || f.Thread >= len(cur.Threads):
		return bad("the violation names thread %d of %d", f.Thread, len(cur.Threads))
	default:
		st := cur.Threads[f.Thread]
		if len(st) == 0 || st[len(st)-1].Label != f.Label {
			return bad("the last configuration %s does not have %s on top of thread %d", cur.Format(n), f.Label.Name, f.Thread)
		}
	}
	units, err := t.Units(n, unit)
	if err != nil {
		return err
	}
	if units != f.Contexts {
		return bad("the trace uses %s, the violation's fewest are %d", unit.Of(units), f.Contexts)
	}
	return nil
}

// isInitial checks c against the network's initial configurations: every
// global and local its initial value (any value where the initial value
// is "?"), every stack the thread's initial one.
func isInitial(n *pds.Network, c explicit.Config) error {
	if len(c.Globals) != len(n.Globals) || len(c.Threads) != len(n.Threads) {
		return fmt.Errorf("%s and %s, want %d and %d", plural.Count(len(c.Globals), "global"), plural.Count(len(c.Threads), "thread"), len(n.Globals), len(n.Threads))
	}
	for i, g := range n.Globals {
		if init := n.InitOf(g); !init.Any && c.Globals[i] != init.Value {
			return fmt.Errorf("%s = %d, initially %d", g.Name, c.Globals[i], init.Value)
		}
	}
	if ig := n.InitGlobals; ig != nil {
		m := n.M
		at := ig.Rel
		for i, g := range n.Globals {
			at = m.And(at, m.Value(bdd.Ref{Var: g.Var, Copy: pds.GCur}, c.Globals[i]))
		}
		if at.IsFalse() {
			return fmt.Errorf("the globals are not among the initial ones (%s)", initBy(ig))
		}
	}
	for ti, th := range n.Threads {
		st := c.Threads[ti]
		if len(st) != len(th.Stack) {
			return fmt.Errorf("thread %d has %s, initially %d", ti, plural.Count(len(st), "frame"), len(th.Stack))
		}
		for k, f := range th.Stack {
			if st[k].Label != f.Label || len(st[k].Locals) != len(f.Locals) {
				return fmt.Errorf("thread %d, frame %d: %s, initially %s", ti, k, st[k].Label.Name, f.Label.Name)
			}
			for j, init := range f.Locals {
				if !init.Any && st[k].Locals[j] != init.Value {
					return fmt.Errorf("thread %d, frame %d: local %d = %d, initially %d", ti, k, j, st[k].Locals[j], init.Value)
				}
			}
		}
	}
	return nil
}

// started returns the thread a step created by a start, or -1: a thread
// added to the configuration (a network with fork rules), or the thread
// slot whose pending procedure the step set (one with thread slots).
func started(n *pds.Network, before, after explicit.Config) int {
	if len(after.Threads) > len(before.Threads) {
		return len(before.Threads)
	}
	if !n.HasForks() {
		return -1
	}
	slot := 0
	for ti, th := range n.Threads {
		if !th.Slot {
			continue
		}
		p0, _ := n.SlotState(before.Globals, slot)
		p1, _ := n.SlotState(after.Globals, slot)
		if p0 == nil && p1 != nil {
			return ti
		}
		slot++
	}
	return -1
}

// initBy names what computed an initial relation of the globals.
func initBy(ig *pds.InitGlobals) string {
	if ig.By == "" {
		return "the initial relation"
	}
	return "after " + ig.By
}

// InitialErrors returns the violations that an initial configuration of n
// shows: an error label on top of an initial stack (Getafix's init failing
// before any thread starts, package frontend/bp), each reached with 0
// units of the bound, in thread order, each label once. Each has a trace
// of no context, whose configuration is an initial one (the first
// valuation of InitRel in enumeration order, locals whose initial value is
// "any" at 0), replayed as every trace is. None when n has no initial
// configuration. Engines whose search does not see an initial
// configuration's errors with 0 units (the sequential reduction) report
// these.
func InitialErrors(n *pds.Network, unit Unit) []Found {
	var fs []Found
	seen := map[*pds.Label]bool{}
	for ti, t := range n.Threads {
		if len(t.Stack) == 0 {
			continue
		}
		l := t.Stack[len(t.Stack)-1].Label
		if !l.Kind.IsError() || seen[l] {
			continue
		}
		seen[l] = true
		fs = append(fs, Found{Kind: l.Kind, Label: l, Pos: l.Pos, Thread: ti, Proc: l.Proc.Name, Message: l.Message})
	}
	if len(fs) == 0 {
		return nil
	}
	c, ok := anInitial(n)
	if !ok {
		return nil
	}
	for i := range fs {
		tr := &Trace{Initial: c}
		if err := tr.Check(n, fs[i], unit); err != nil {
			fs[i].TraceErr = err
			continue
		}
		fs[i].Trace = tr
	}
	return fs
}

// anInitial returns an initial configuration of n: the first valuation of
// the globals in InitRel, every local of an initial frame its value or 0.
func anInitial(n *pds.Network) (explicit.Config, bool) {
	vecs := make([]bdd.Vec, len(n.Globals))
	for i, g := range n.Globals {
		vecs[i] = n.GlobalVec(g, pds.GCur)
	}
	var gs []uint64
	n.M.Enumerate(n.InitRel(pds.GCur), vecs, func(vals []uint64) bool {
		gs = append([]uint64(nil), vals...)
		return false
	})
	if gs == nil {
		return explicit.Config{}, false
	}
	c := explicit.Config{Globals: gs, Threads: make([][]explicit.Frame, len(n.Threads))}
	for ti, t := range n.Threads {
		for _, f := range t.Stack {
			ls := make([]uint64, len(f.Locals))
			for j, v := range f.Locals {
				if !v.Any {
					ls[j] = v.Value
				}
			}
			c.Threads[ti] = append(c.Threads[ti], explicit.Frame{Label: f.Label, Locals: ls})
		}
	}
	return c, true
}
