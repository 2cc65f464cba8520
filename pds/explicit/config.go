package explicit

import (
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// Frame is one concrete stack frame: a label and the values of its
// procedure's locals, indexed like Label.Proc.Locals.
type Frame struct {
	Label  *pds.Label
	Locals []uint64
}

// Config is a concrete global configuration: the values of all globals
// (indexed by pds.Global.Index, hidden globals included) and one stack per
// thread, bottom first, top last. An empty stack is a finished thread.
//
// Configs are values: the functions of this package never modify a Config
// they are given and never share slices between the Configs they return.
type Config struct {
	Globals []uint64
	Threads [][]Frame
}

// Key returns a canonical string for c: two configurations of the same
// network have the same key exactly when they are equal. Labels appear by
// their ID, values in decimal: "g0,1|t3:0,1 5:2|t" for globals (0, 1), a
// thread with frames (label 3, locals 0, 1) below (label 5, locals 2) and a
// finished thread.
func (c Config) Key() string {
	var b strings.Builder
	b.WriteString("g")
	for i, v := range c.Globals {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, v)
	}
	for _, stack := range c.Threads {
		b.WriteString("|t")
		for i, f := range stack {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%d:", f.Label.ID)
			for j, v := range f.Locals {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprint(&b, v)
			}
		}
	}
	return b.String()
}

// Format returns c readably, for messages and test failures:
//
//	g=1 b=true | T0: main.L3(x=2) f.L1(y=0) | T1: -
//
// Hidden globals (thread slots) are shown only when they are not zero; a
// finished thread is "-".
func (c Config) Format(n *pds.Network) string {
	var parts []string
	var gs []string
	for i, v := range c.Globals {
		g := n.Globals[i]
		if g.Hidden && v == 0 {
			continue
		}
		gs = append(gs, g.Name+"="+g.Type.Format(v))
	}
	if len(gs) > 0 {
		parts = append(parts, strings.Join(gs, " "))
	}
	for t, stack := range c.Threads {
		var fs []string
		for _, f := range stack {
			fs = append(fs, formatFrame(f))
		}
		if len(fs) == 0 {
			fs = []string{"-"}
		}
		parts = append(parts, fmt.Sprintf("T%d: %s", t, strings.Join(fs, " ")))
	}
	return strings.Join(parts, " | ")
}

func formatFrame(f Frame) string {
	if len(f.Locals) == 0 {
		return f.Label.Name
	}
	vs := make([]string, len(f.Locals))
	for i, v := range f.Locals {
		l := f.Label.Proc.Locals[i]
		vs[i] = l.Name + "=" + l.Type.Format(v)
	}
	return f.Label.Name + "(" + strings.Join(vs, ",") + ")"
}

// clone returns a deep copy of c, in three allocations besides the
// stack headers (frames and locals of all threads in one array each,
// every slice capped at its length, so that an append to one never
// writes into another): a successor of a configuration of many threads
// copies them all.
func (c Config) clone() Config {
	frames, locals := 0, 0
	for _, stack := range c.Threads {
		frames += len(stack)
		for _, f := range stack {
			locals += len(f.Locals)
		}
	}
	fs := make([]Frame, frames)
	ls := make([]uint64, locals)
	d := Config{Globals: append([]uint64(nil), c.Globals...), Threads: make([][]Frame, len(c.Threads))}
	for t, stack := range c.Threads {
		s := fs[:len(stack):len(stack)]
		fs = fs[len(stack):]
		for i, f := range stack {
			l := ls[:len(f.Locals):len(f.Locals)]
			ls = ls[len(f.Locals):]
			copy(l, f.Locals)
			s[i] = Frame{Label: f.Label, Locals: l}
		}
		d.Threads[t] = s
	}
	return d
}
