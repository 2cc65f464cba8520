package main

import (
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Counterexample traces on the command line: a compact schedule after
// every VIOLATION line by default (one line per context), every step with
// --trace, none with --no-trace; in JSON, the whole trace.

// traceFlags are the flags of traces.
type traceFlags struct {
	full bool // --trace
	off  bool // --no-trace
}

func init() {
	longFlags = append(longFlags, "trace", "no-trace")
}

// tracer prints the traces of one run, in the words of package
// cbr/tracefmt.
type tracer struct {
	*tracefmt.Printer
	// net is the network the engine ran, which its traces name
	// (cbr.Result.Net): with thread slots for the symbolic engines, the
	// program's own for the explicit one.
	net  *pds.Network
	unit cbr.Unit
}

func newTracer(in *input, r *cbr.Result) *tracer {
	if in == nil || in.net == nil || r == nil {
		return nil // nothing was compiled, so there are no traces
	}
	run := r.Net
	if run == nil {
		run = in.net
	}
	return &tracer{Printer: tracefmt.New(run, tracefmt.Options{Source: in.src, Unit: r.Unit, CUBAStacks: in.lang == tracefmt.LangCUBA}), net: run, unit: r.Unit}
}

// write writes the trace of violation v (or why it has none) as the
// flags ask.
func (t *tracer) write(b *strings.Builder, c *config, v cbr.Found) {
	switch {
	case c.quiet:
	case v.Trace != nil && c.trace.full:
		t.full(b, v.Trace)
	case v.Trace != nil:
		t.compact(b, v.Trace)
	case v.TraceErr != nil && cbr.IsLimit(v.TraceErr):
		fmt.Fprintf(b, "  (no trace: %s while building it)\n", limitWords(v.TraceErr))
	case v.TraceErr != nil:
		fmt.Fprintf(b, "  (no trace: internal error)\n")
	}
}

// compact writes the schedule: one line per context with the thread, the
// procedures it ran in, the source lines of its steps and the globals at
// the switch.
func (t *tracer) compact(b *strings.Builder, tr *cbr.Trace) {
	who := tracefmt.Starters(tr)
	if by := t.InitBy(); by != "" {
		fmt.Fprintf(b, "  initialisation by %s (before context 1): %s\n", by, t.Globals(tr.Initial))
	} else {
		fmt.Fprintf(b, "  initially: %s\n", t.Globals(tr.Initial))
	}
	cur := tr.Initial
	switches := t.Switches(tr)
	for i, c := range tr.Contexts {
		var procs []string
		var lines []int
		for _, s := range c.Steps {
			if s.Rule.Pos.Line > 0 {
				lines = append(lines, s.Rule.Pos.Line)
			}
			if p := s.Rule.From.Proc; !t.net.IsDormant(s.Rule.From) && !contains(procs, p.Name) {
				procs = append(procs, p.Name)
			}
		}
		end := cur
		if len(c.Steps) > 0 {
			end = c.Steps[len(c.Steps)-1].After
		}
		fmt.Fprintf(b, "  context %d: %s%s in %s, %s; then %s\n", i+1, tracefmt.ThreadName(c.Thread, who), t.inline(switches[i]),
			strings.Join(procs, ", "), lineList(lines), t.Globals(end))
		cur = end
	}
}

// inline puts the words of a switch (tracefmt.Printer.Switches) after the
// thread's name: " (round 2)", ", preempting thread 1,".
func (t *tracer) inline(words string) string {
	switch {
	case words == "":
		return ""
	case t.unit == cbr.Rounds:
		return " (" + words + ")"
	}
	return ", " + words + ","
}

// full writes every step: position, statement, the globals and the
// running thread's stack after it.
func (t *tracer) full(b *strings.Builder, tr *cbr.Trace) {
	who := tracefmt.Starters(tr)
	if by := t.InitBy(); by != "" {
		fmt.Fprintf(b, "  initial configuration, after the initialisation by %s (before context 1): %s\n", by, t.Config(tr.Initial))
	} else {
		fmt.Fprintf(b, "  initial configuration: %s\n", t.Config(tr.Initial))
	}
	sw := t.Switches(tr)
	for i, c := range tr.Contexts {
		round := ""
		if t.unit == cbr.Rounds {
			round = t.inline(sw[i])
		}
		fmt.Fprintf(b, "  context %d: %s%s\n", i+1, tracefmt.ThreadName(c.Thread, who), round)
		for _, s := range c.Steps {
			fmt.Fprintf(b, "    %s  %s\n", t.Where(s), t.What(s))
			fmt.Fprintf(b, "        %s | thread %d: %s\n", t.Globals(s.After), c.Thread, t.Stack(s.After, c.Thread))
		}
	}
}

// lineList writes "lines 3-5, 9" for the lines in order of execution,
// consecutive runs merged.
func lineList(lines []int) string {
	if len(lines) == 0 {
		return "no source lines"
	}
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 || j+1 < len(lines) && lines[j+1] == lines[j] {
			j++
		}
		if lines[i] == lines[j] {
			parts = append(parts, fmt.Sprint(lines[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		}
		i = j + 1
	}
	word := "lines"
	if len(parts) == 1 && !strings.Contains(parts[0], "-") {
		word = "line"
	}
	return word + " " + strings.Join(parts, ", ")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// value is a value as the source declares it: bool, number or enum name.
func value(t pds.Type, v uint64) any {
	switch t.Kind {
	case pds.Bool:
		return v != 0
	case pds.Enum:
		return t.Format(v)
	}
	return v
}

// globalsJSON gives the visible globals by name; the elements of an array
// (globals named a[0], a[1], ...) become one list.
func (t *tracer) globalsJSON(c explicit.Config) map[string]any {
	out := map[string]any{}
	arrays := map[string][]any{}
	for i, v := range c.Globals {
		g := t.net.Globals[i]
		if g.Hidden || g.Bookkeeping() {
			continue
		}
		if base, ok := arrayBase(g.Name); ok {
			arrays[base] = append(arrays[base], value(g.Type, v))
			continue
		}
		out[g.Name] = value(g.Type, v)
	}
	for k, v := range arrays {
		out[k] = v
	}
	return out
}

// arrayBase returns "a" for "a[3]".
func arrayBase(name string) (string, bool) {
	i := strings.IndexByte(name, '[')
	if i <= 0 || !strings.HasSuffix(name, "]") {
		return "", false
	}
	return name[:i], true
}

func (t *tracer) stackJSON(c explicit.Config, th int) []schema.Frame {
	st := c.Threads[th]
	out := []schema.Frame{}
	if len(st) > 0 && t.net.IsDormant(st[0].Label) {
		return out
	}
	for _, f := range st {
		jf := schema.Frame{Proc: f.Label.Proc.Name, Label: f.Label.Name}
		if len(f.Locals) > 0 {
			jf.Locals = map[string]any{}
			arrays := map[string][]any{}
			for i, v := range f.Locals {
				l := f.Label.Proc.Locals[i]
				if base, ok := arrayBase(l.Name); ok {
					arrays[base] = append(arrays[base], value(l.Type, v))
					continue
				}
				jf.Locals[l.Name] = value(l.Type, v)
			}
			for k, v := range arrays {
				jf.Locals[k] = v
			}
		}
		out = append(out, jf)
	}
	return out
}

func (t *tracer) state(c explicit.Config, th int) string {
	st := c.Threads[th]
	switch {
	case len(st) == 0:
		return "finished"
	case t.net.IsDormant(st[0].Label):
		return "not started"
	}
	return "running"
}

func (t *tracer) json(tr *cbr.Trace) *schema.Trace {
	who := tracefmt.Starters(tr)
	out := &schema.Trace{InitialisedBy: t.InitBy(), Initial: schema.Config{Globals: t.globalsJSON(tr.Initial)}, Contexts: []schema.Context{}}
	for i := range tr.Initial.Threads {
		if t.state(tr.Initial, i) == "not started" {
			continue
		}
		out.Initial.Threads = append(out.Initial.Threads, schema.Thread{Thread: i, State: t.state(tr.Initial, i), Stack: t.stackJSON(tr.Initial, i)})
	}
	for _, c := range tr.Contexts {
		jc := schema.Context{Thread: c.Thread, StartedBy: who[c.Thread], Steps: []schema.Step{}}
		for _, s := range c.Steps {
			js := schema.Step{Kind: s.Rule.Kind.String(), Stmt: t.What(s), Globals: t.globalsJSON(s.After), Stack: t.stackJSON(s.After, c.Thread)}
			if s.Rule.Pos.Line > 0 {
				js.Pos = s.Rule.Pos.String()
			}
			if s.Starts >= 0 {
				js.Starts = &s.Starts
			}
			jc.Steps = append(jc.Steps, js)
		}
		out.Contexts = append(out.Contexts, jc)
	}
	return out
}
