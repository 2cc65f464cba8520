package tracefmt

import (
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Options say how a Printer names things.
type Options struct {
	// Source is the program's text, for the statements of steps; nil
	// shows none.
	Source *Source
	// Unit is what the run's bound counts; it says how contexts began
	// (Switches).
	Unit cbr.Unit
	// CUBAStacks prints stack frames as CUBA's stack symbols (the label's
	// name after its thread's).
	CUBAStacks bool
}

// Printer names the parts of the traces of one run in words: globals,
// stacks, configurations, steps, threads, switches. Its words are those
// of the command line's text traces and of the charts of WriteDOT.
type Printer struct {
	// net is the network the engine ran, which its traces name
	// (cbr.Result.Net): with thread slots for the symbolic engines, the
	// program's own for the explicit one.
	net *pds.Network
	src *Source
	// user is the number of threads the program starts with; higher
	// thread numbers are slots of threads created by a start.
	user int
	unit cbr.Unit
	cuba bool
}

// New returns a Printer for the traces of a run on net, the network the
// engine ran (cbr.Result.Net).
func New(net *pds.Network, o Options) *Printer {
	p := &Printer{net: net, src: o.Source, unit: o.Unit, cuba: o.CUBAStacks}
	for _, th := range net.Threads {
		if !th.Slot {
			p.user++
		}
	}
	return p
}

// Net returns the network the printer names.
func (p *Printer) Net() *pds.Network { return p.net }

// InitBy names the initialisation whose final states are the initial
// configurations (Getafix's init), or "".
func (p *Printer) InitBy() string {
	if ig := p.net.InitGlobals; ig != nil {
		return ig.By
	}
	return ""
}

// Globals writes the visible globals of a configuration,
// "x=1 flag=true", or "(no globals)".
func (p *Printer) Globals(c explicit.Config) string {
	var gs []string
	for i, v := range c.Globals {
		g := p.net.Globals[i]
		if !g.Hidden && !g.Bookkeeping() {
			gs = append(gs, g.Name+"="+g.Type.Format(v))
		}
	}
	if len(gs) == 0 {
		return "(no globals)"
	}
	return strings.Join(gs, " ")
}

// Stack writes one thread's stack, bottom first; "finished" for an empty
// one, "not started" for a thread slot no start has used.
func (p *Printer) Stack(c explicit.Config, th int) string {
	st := c.Threads[th]
	if len(st) == 0 {
		return "finished"
	}
	if p.net.IsDormant(st[0].Label) {
		if proc, locals := p.pending(c, th); proc != nil {
			return "created, not yet run: " + Frame(explicit.Frame{Label: proc.Entry, Locals: locals})
		}
		return "not started"
	}
	fs := make([]string, len(st))
	for i, f := range st {
		fs[i] = Frame(f)
		if p.cuba {
			fs[i] = f.Label.Name[strings.LastIndexByte(f.Label.Name, '.')+1:]
		}
	}
	return strings.Join(fs, " ")
}

// Frame writes procedure.label(locals).
func Frame(f explicit.Frame) string {
	var b strings.Builder
	b.WriteString(f.Label.Name)
	if len(f.Locals) > 0 {
		vs := make([]string, len(f.Locals))
		for i, v := range f.Locals {
			l := f.Label.Proc.Locals[i]
			vs[i] = l.Name + "=" + l.Type.Format(v)
		}
		fmt.Fprintf(&b, "(%s)", strings.Join(vs, ", "))
	}
	return b.String()
}

// pending returns the procedure and arguments of a thread slot that a
// start has given a thread which has not run yet (nil otherwise).
func (p *Printer) pending(c explicit.Config, th int) (*pds.Proc, []uint64) {
	if th < p.user {
		return nil, nil
	}
	return p.net.SlotState(c.Globals, th-p.user)
}

// Config writes a whole configuration, "globals | thread 0: stack | ...";
// thread slots no start has used yet are left out.
func (p *Printer) Config(c explicit.Config) string {
	parts := []string{p.Globals(c)}
	for i := range c.Threads {
		if s := p.Stack(c, i); s != "not started" {
			parts = append(parts, fmt.Sprintf("thread %d: %s", i, s))
		}
	}
	return strings.Join(parts, " | ")
}

// Starters returns, for every thread a start created in the trace, the
// thread that created it and where: "started by thread 0 at f.pds:3:5".
func Starters(tr *cbr.Trace) map[int]string {
	out := map[int]string{}
	for _, c := range tr.Contexts {
		for _, s := range c.Steps {
			if s.Starts >= 0 {
				out[s.Starts] = fmt.Sprintf("started by thread %d at %s", c.Thread, s.Rule.Pos)
			}
		}
	}
	return out
}

// ThreadName says which thread runs a context, "thread 2", and for a
// created thread who created it (who from Starters).
func ThreadName(th int, who map[int]string) string {
	s := fmt.Sprintf("thread %d", th)
	if w, ok := who[th]; ok {
		s += " (" + w + ")"
	}
	return s
}

// Where is a step's source position, "f.pds:3:5", or "-" for a step
// that has none.
func (p *Printer) Where(s cbr.TraceStep) string {
	if s.Rule.Pos.Line == 0 {
		return "-"
	}
	return s.Rule.Pos.String()
}

// What says what a step did: its statement, or what kind of step it was
// ("(the thread starts)", "(return)"), and the thread a start created.
func (p *Printer) What(s cbr.TraceStep) string {
	switch {
	case p.net.IsDormant(s.Rule.From):
		return "(the thread starts)"
	case s.Rule.Kind == pds.Pop:
		if st := p.src.Stmt(s.Rule.Pos); st != "" {
			return st + " (return)"
		}
		return "(return)"
	}
	st := p.src.Stmt(s.Rule.Pos)
	if s.Starts >= 0 {
		st += fmt.Sprintf(" (creates thread %d)", s.Starts)
	}
	return st
}

// Switches says how each context of the trace began, in the words of
// the run's unit: "round 2" counting rounds (the fewest rounds that hold
// the contexts in order: cbr.Trace.Units); counting preemptions,
// "preempting thread 1" or "after thread 1 could not move" (the first
// context ""); counting contexts, "" for every one.
func (p *Printer) Switches(tr *cbr.Trace) []string {
	out := make([]string, len(tr.Contexts))
	switch p.unit {
	case cbr.Rounds:
		round := 0
		for i, c := range tr.Contexts {
			if i == 0 || c.Thread <= tr.Contexts[i-1].Thread {
				round++
			}
			out[i] = fmt.Sprintf("round %d", round)
		}
	case cbr.Preemptions:
		pre, err := tr.Preempting(p.net)
		if err != nil {
			return out
		}
		for i := 1; i < len(pre); i++ {
			if pre[i] {
				out[i] = fmt.Sprintf("preempting thread %d", tr.Contexts[i-1].Thread)
			} else {
				out[i] = fmt.Sprintf("after thread %d could not move", tr.Contexts[i-1].Thread)
			}
		}
	}
	return out
}

// Describe says a violation and its fewest units of the bound u: "assertion
// failed at f.pds:3:5 in thread 0 (procedure main): x == 1, first reached
// with 3 contexts", "target ... first reached within 2 rounds".
func Describe(f cbr.Found, u cbr.Unit) string {
	with := "with"
	if u == cbr.Rounds {
		with = "within"
	}
	if f.Target != nil {
		return fmt.Sprintf("target %s (%s) first reached %s %s", f.Message, f.Pos, with, u.Of(f.Contexts))
	}
	what, msg := "assertion failed", f.Message
	if f.Kind == pds.Bounds {
		what = "index out of range"
		msg = strings.TrimPrefix(msg, what+": ")
	}
	if msg != "" {
		msg = ": " + msg
	}
	return fmt.Sprintf("%s at %s in thread %d (procedure %s)%s, first reached %s %s", what, f.Pos, f.Thread, f.Proc, msg, with, u.Of(f.Contexts))
}
