package symauto

import (
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// Frame is a concrete stack frame: a label and the values of its
// procedure's locals (by index in Label.Proc.Locals).
type Frame struct {
	Label  *pds.Label
	Locals []uint64
}

// globalsAre returns G == vals (by Global.Index), one cube
// (bdd.Manager.Values): conjoined global after global, each value's bits
// spread over the order, it was quadratic in the globals (a trace of
// 2,000 globals of 32 bits did not finish in a minute).
func (sp *Space) globalsAre(vals []uint64) bdd.Node {
	return sp.M.Values(sp.Net.GlobalRefs(GCur), vals[:len(sp.Net.Globals)])
}

// localsAre returns L == the frame's locals (padding zero).
func (sp *Space) localsAre(f Frame) bdd.Node {
	fr := pds.Frame{Label: f.Label, Locals: make([]pds.Init, len(f.Locals))}
	for i, v := range f.Locals {
		fr.Locals[i] = pds.Init{Value: v}
	}
	return sp.Net.FrameRel(fr, LCur)
}

// Contains reports whether the configuration (globals by Global.Index,
// stack bottom first) is accepted, for any start global. For tests.
func (a *Auto) Contains(globals []uint64, stack []Frame) bool {
	sp, m := a.sp, a.sp.M
	g := sp.globalsAre(globals)
	if len(stack) == 0 {
		return !m.And(a.Label(Trans{Initial, nil, Final}), g).IsFalse()
	}
	// cur holds, per state, the values (Ge, Le [, Gs]) the frames read so
	// far leave for the next frame.
	type item struct {
		q State
		s bdd.Node
	}
	var cur []item
	top := stack[len(stack)-1]
	for _, t := range a.Transitions() {
		if t.From == Initial && t.Label == top.Label {
			x := m.AndExists(a.labels[t], m.And(g, sp.localsAre(top)), sp.gl)
			if !x.IsFalse() {
				cur = append(cur, item{t.To, x})
			}
		}
	}
	for i := len(stack) - 2; i >= 0; i-- {
		f := stack[i]
		var next []item
		for _, it := range cur {
			if it.q == Final {
				continue
			}
			in := m.Rename(m.Exists(it.s, sp.link), sp.renEntryLink())
			for _, t := range a.Transitions() {
				if t.From == it.q && t.Label == f.Label {
					x := m.AndExists(m.And(a.labels[t], in), sp.localsAre(f), m.Union(sp.link, sp.S.L[LCur]))
					if !x.IsFalse() {
						next = append(next, item{t.To, x})
					}
				}
			}
		}
		cur = next
	}
	for _, it := range cur {
		if it.q == Final {
			return true
		}
	}
	return false
}

// renEntryLink renames Ge->Gl, Le->Ll.
func (sp *Space) renEntryLink() *bdd.Renaming {
	return sp.S.Renaming(pds.G(GEntry, GLink), pds.L(LEntry, LLink))
}

// Enumerate calls fn for every accepted configuration with at most
// maxDepth frames, each once, in a deterministic order (start globals are
// projected away). For tests on small models: it enumerates values.
func (a *Auto) Enumerate(maxDepth int, fn func(globals []uint64, stack []Frame)) {
	sp, m := a.sp, a.sp.M
	n := sp.Net
	gvecs := make([]bdd.Vec, len(n.Globals))
	for i, g := range n.Globals {
		gvecs[i] = n.GlobalVec(g, GCur)
	}
	lvecs := func(p *pds.Proc) []bdd.Vec {
		vs := make([]bdd.Vec, len(p.Locals))
		for i, l := range p.Locals {
			vs[i] = n.LocalVec(l, LCur)
		}
		return vs
	}
	seen := map[string]bool{}
	emit := func(g []uint64, stack []Frame) {
		key := fmt.Sprint(g, stackKey(stack))
		if seen[key] {
			return
		}
		seen[key] = true
		st := make([]Frame, len(stack))
		for i, f := range stack {
			st[len(stack)-1-i] = Frame{f.Label, append([]uint64(nil), f.Locals...)}
		}
		fn(append([]uint64(nil), g...), st)
	}
	ts := a.Transitions()
	// walk continues below the frames read so far (top first in frames).
	var walk func(g []uint64, frames []Frame, q State, s bdd.Node)
	walk = func(g []uint64, frames []Frame, q State, s bdd.Node) {
		if q == Final {
			emit(g, frames)
			return
		}
		if len(frames) >= maxDepth {
			return
		}
		in := m.Rename(s, sp.renEntryLink())
		for _, t := range ts {
			if t.From != q || t.Label == nil {
				continue
			}
			x := m.AndExists(a.labels[t], in, sp.link) // over L, Ge, Le
			p := t.Label.Proc
			m.Enumerate(x, lvecs(p), func(vals []uint64) bool {
				f := Frame{t.Label, append([]uint64(nil), vals...)}
				walk(g, append(frames, f), t.To, m.AndExists(x, sp.localsAre(f), sp.S.L[LCur]))
				return true
			})
		}
	}
	for _, t := range ts {
		if t.From != Initial {
			continue
		}
		l := a.labels[t]
		if t.Label == nil {
			if t.To == Final {
				m.Enumerate(m.Exists(l, sp.start), gvecs, func(vals []uint64) bool { emit(vals, nil); return true })
			}
			continue
		}
		p := t.Label.Proc
		fields := append(append([]bdd.Vec(nil), gvecs...), lvecs(p)...)
		m.Enumerate(m.Exists(l, sp.start), fields, func(vals []uint64) bool {
			g := append([]uint64(nil), vals[:len(gvecs)]...)
			f := Frame{t.Label, append([]uint64(nil), vals[len(gvecs):]...)}
			s := m.AndExists(l, m.And(sp.globalsAre(g), sp.localsAre(f)), sp.gl)
			walk(g, []Frame{f}, t.To, s)
			return true
		})
	}
}

func stackKey(frames []Frame) string {
	var b strings.Builder
	for _, f := range frames {
		fmt.Fprintf(&b, "%d%v;", f.Label.ID, f.Locals)
	}
	return b.String()
}

// Dump writes the automaton as text: one line per transition with the
// number of BDD nodes of its label and the globals it admits, in a
// deterministic order.
func (a *Auto) Dump(w io.Writer) error {
	var b strings.Builder
	m := a.sp.M
	for _, t := range a.Transitions() {
		lbl := "ε"
		if t.Label != nil {
			lbl = t.Label.Name
		}
		fmt.Fprintf(&b, "%s -%s-> %s  [%s]\n", a.stateString(t.From), lbl, a.stateString(t.To), plural.Count(m.Size(a.labels[t]), "node"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// GlobalsAre returns G == vals (by Global.Index).
func (sp *Space) GlobalsAre(vals []uint64) bdd.Node { return sp.globalsAre(vals) }
