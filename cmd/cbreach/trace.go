package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/cbr"
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

// source holds the input's lines, to show the statement of a step.
type source struct {
	file  string
	lines []string
	lang  lang // how comments are written
}

// lang is the comment syntax of an input.
type lang int

const (
	langPDS  lang = iota // "//" to the end of the line, "/* ... */"
	langBP               // as .pds; an identifier in braces ("{x//y}") is kept whole
	langCUBA             // "#" to the end of the line
)

func newSource(file string, src []byte, l lang) *source {
	return &source{file: file, lines: strings.Split(string(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))), "\n"), lang: l}
}

// stmt returns the source text at a position of the input: the line from
// the position's column, its comments left out, trimmed; "" when the
// position is elsewhere.
func (s *source) stmt(p pds.Pos) string {
	if s == nil || p.File != s.file || p.Line < 1 || p.Line > len(s.lines) {
		return ""
	}
	line := s.lines[p.Line-1]
	if p.Col >= 1 && p.Col <= len(line) {
		line = line[p.Col-1:]
	}
	line = strings.TrimSpace(s.uncomment(line))
	// A simple statement ends at its semicolon; a compound one (if,
	// while, atomic) is shown to the end of the line.
	for _, kw := range []string{"if", "while", "atomic", "else"} {
		if strings.HasPrefix(line, kw) {
			return line
		}
	}
	if i := strings.IndexByte(line, ';'); i >= 0 {
		line = line[:i+1]
	}
	return line
}

// uncomment returns a line of the input (or its end) without its
// comments: a line comment to the end of the line, a block comment (to
// the end of the line when it does not close on it) with the blanks
// around it made one. Neither input language has strings; a Boolean
// program's identifier in braces may hold "//" or "/*" and is kept.
func (s *source) uncomment(line string) string {
	if s.lang == langCUBA {
		line, _, _ = strings.Cut(line, "#")
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		rest := line[i:]
		switch {
		case s.lang == langBP && rest[0] == '{':
			n := strings.IndexByte(rest, '}') + 1
			if n == 0 {
				n = len(rest)
			}
			b.WriteString(rest[:n])
			i += n
		case strings.HasPrefix(rest, "//"):
			return b.String()
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				return b.String()
			}
			before := strings.TrimRight(b.String(), " \t")
			after := strings.TrimLeft(rest[2+end+2:], " \t")
			b.Reset()
			b.WriteString(before)
			if before != "" && after != "" && !strings.ContainsAny(after[:1], ";,)") {
				b.WriteByte(' ')
			}
			i = len(line) - len(after)
		default:
			b.WriteByte(rest[0])
			i++
		}
	}
	return b.String()
}

// tracer prints the traces of one run.
type tracer struct {
	// net is the network the engine ran, which its traces name
	// (cbr.Result.Net): with thread slots for the symbolic engines, the
	// program's own for the explicit one.
	net *pds.Network
	src *source
	// user is the number of threads the program starts with; higher
	// thread numbers are slots of threads created by a start.
	user int
	cuba bool // print stacks as CUBA's stack symbols
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
	t := &tracer{net: run, src: in.src, cuba: in.cuba, unit: r.Unit}
	for _, th := range run.Threads {
		if !th.Slot {
			t.user++
		}
	}
	return t
}

// initBy names the initialisation whose final states are the initial
// configurations (Getafix's init), or "".
func (t *tracer) initBy() string {
	if ig := t.net.InitGlobals; ig != nil {
		return ig.By
	}
	return ""
}

// globals prints the visible globals of a configuration.
func (t *tracer) globals(c explicit.Config) string {
	var gs []string
	for i, v := range c.Globals {
		g := t.net.Globals[i]
		if !g.Hidden {
			gs = append(gs, g.Name+"="+g.Type.Format(v))
		}
	}
	if len(gs) == 0 {
		return "(no globals)"
	}
	return strings.Join(gs, " ")
}

// stack prints one thread's stack, bottom first; a thread slot not yet
// started is "not started".
func (t *tracer) stack(c explicit.Config, th int) string {
	st := c.Threads[th]
	if len(st) == 0 {
		return "finished"
	}
	if t.net.IsDormant(st[0].Label) {
		if p, locals := t.pending(c, th); p != nil {
			return "created, not yet run: " + frame(explicit.Frame{Label: p.Entry, Locals: locals})
		}
		return "not started"
	}
	fs := make([]string, len(st))
	for i, f := range st {
		fs[i] = frame(f)
		if t.cuba {
			// CUBA's stack symbols: the label's name after its thread's.
			fs[i] = f.Label.Name[strings.LastIndexByte(f.Label.Name, '.')+1:]
		}
	}
	return strings.Join(fs, " ")
}

// frame prints procedure.label(locals).
func frame(f explicit.Frame) string {
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
func (t *tracer) pending(c explicit.Config, th int) (*pds.Proc, []uint64) {
	if th < t.user {
		return nil, nil
	}
	return t.net.SlotState(c.Globals, th-t.user)
}

// config prints a whole configuration; thread slots no start has used
// yet are left out.
func (t *tracer) config(c explicit.Config) string {
	parts := []string{t.globals(c)}
	for i := range c.Threads {
		if s := t.stack(c, i); s != "not started" {
			parts = append(parts, fmt.Sprintf("thread %d: %s", i, s))
		}
	}
	return strings.Join(parts, " | ")
}

// starters returns, for every thread a start created in the trace, the
// thread that created it and where.
func starters(tr *cbr.Trace) map[int]string {
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

// threadName says which thread runs a context, and for a created thread
// who created it.
func threadName(th int, who map[int]string) string {
	s := fmt.Sprintf("thread %d", th)
	if w, ok := who[th]; ok {
		s += " (" + w + ")"
	}
	return s
}

// compact writes the schedule: one line per context with the thread, the
// procedures it ran in, the source lines of its steps and the globals at
// the switch.
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

func (t *tracer) compact(b *strings.Builder, tr *cbr.Trace) {
	who := starters(tr)
	if by := t.initBy(); by != "" {
		fmt.Fprintf(b, "  initialisation by %s (before context 1): %s\n", by, t.globals(tr.Initial))
	} else {
		fmt.Fprintf(b, "  initially: %s\n", t.globals(tr.Initial))
	}
	cur := tr.Initial
	switches := t.switches(tr)
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
		fmt.Fprintf(b, "  context %d: %s%s in %s, %s; then %s\n", i+1, threadName(c.Thread, who), switches[i],
			strings.Join(procs, ", "), lineList(lines), t.globals(end))
		cur = end
	}
}

// switches says, counting preemptions, how each context began: by
// preempting the thread before it or after it could not move.
func (t *tracer) switches(tr *cbr.Trace) []string {
	out := make([]string, len(tr.Contexts))
	if t.unit == cbr.Rounds {
		// The round of round-robin each context runs in (the fewest
		// rounds that hold the contexts in order: cbr.Trace.Units).
		round := 0
		for i, c := range tr.Contexts {
			if i == 0 || c.Thread <= tr.Contexts[i-1].Thread {
				round++
			}
			out[i] = fmt.Sprintf(" (round %d)", round)
		}
		return out
	}
	if t.unit != cbr.Preemptions {
		return out
	}
	p, err := tr.Preempting(t.net)
	if err != nil {
		return out
	}
	for i := 1; i < len(p); i++ {
		if p[i] {
			out[i] = fmt.Sprintf(", preempting thread %d,", tr.Contexts[i-1].Thread)
		} else {
			out[i] = fmt.Sprintf(", after thread %d could not move,", tr.Contexts[i-1].Thread)
		}
	}
	return out
}

// full writes every step: position, statement, the globals and the
// running thread's stack after it.
func (t *tracer) full(b *strings.Builder, tr *cbr.Trace) {
	who := starters(tr)
	if by := t.initBy(); by != "" {
		fmt.Fprintf(b, "  initial configuration, after the initialisation by %s (before context 1): %s\n", by, t.config(tr.Initial))
	} else {
		fmt.Fprintf(b, "  initial configuration: %s\n", t.config(tr.Initial))
	}
	sw := t.switches(tr)
	for i, c := range tr.Contexts {
		round := ""
		if t.unit == cbr.Rounds {
			round = sw[i]
		}
		fmt.Fprintf(b, "  context %d: %s%s\n", i+1, threadName(c.Thread, who), round)
		for _, s := range c.Steps {
			fmt.Fprintf(b, "    %s  %s\n", t.where(s), t.what(s))
			fmt.Fprintf(b, "        %s | thread %d: %s\n", t.globals(s.After), c.Thread, t.stack(s.After, c.Thread))
		}
	}
}

// where is a step's source position.
func (t *tracer) where(s cbr.TraceStep) string {
	if s.Rule.Pos.Line == 0 {
		return "-"
	}
	return s.Rule.Pos.String()
}

// what says what a step did: its statement, or what kind of step it was.
func (t *tracer) what(s cbr.TraceStep) string {
	switch {
	case t.net.IsDormant(s.Rule.From):
		return "(the thread starts)"
	case s.Rule.Kind == pds.Pop:
		if st := t.src.stmt(s.Rule.Pos); st != "" {
			return st + " (return)"
		}
		return "(return)"
	}
	st := t.src.stmt(s.Rule.Pos)
	if s.Starts >= 0 {
		st += fmt.Sprintf(" (creates thread %d)", s.Starts)
	}
	return st
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
		if g.Hidden {
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
	who := starters(tr)
	out := &schema.Trace{InitialisedBy: t.initBy(), Initial: schema.Config{Globals: t.globalsJSON(tr.Initial)}, Contexts: []schema.Context{}}
	for i := range tr.Initial.Threads {
		if t.state(tr.Initial, i) == "not started" {
			continue
		}
		out.Initial.Threads = append(out.Initial.Threads, schema.Thread{Thread: i, State: t.state(tr.Initial, i), Stack: t.stackJSON(tr.Initial, i)})
	}
	for _, c := range tr.Contexts {
		jc := schema.Context{Thread: c.Thread, StartedBy: who[c.Thread], Steps: []schema.Step{}}
		for _, s := range c.Steps {
			js := schema.Step{Kind: s.Rule.Kind.String(), Stmt: t.what(s), Globals: t.globalsJSON(s.After), Stack: t.stackJSON(s.After, c.Thread)}
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
