package pds

import (
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
)

// field is a named view of some bits of one copy, for printing.
type field struct {
	name string
	vec  bdd.Vec
	typ  Type
	refs []bdd.Ref
}

// MaxPrintedAssignments bounds how many assignments a printed relation lists.
const MaxPrintedAssignments = 16

func (n *Network) globalField(g *Global, c int) field {
	name := g.Name
	if c == GNext {
		name += "'"
	}
	return field{name: name, vec: n.GlobalVec(g, c), typ: g.Type, refs: []bdd.Ref{{Var: g.Var, Copy: c}}}
}

func (n *Network) localField(l *Local, c int) field {
	name := l.Name
	switch c {
	case LNext:
		name = l.Proc.Name + "." + l.Name + "'"
	case LSaved:
		name = l.Proc.Name + "." + l.Name + "''"
	}
	var refs []bdd.Ref
	for i := 0; i < l.Type.Bits; i++ {
		refs = append(refs, bdd.Ref{Var: n.LocalBits[l.Block[i]], Copy: c})
	}
	return field{name: name, vec: n.LocalVec(l, c), typ: l.Type, refs: refs}
}

// FormatRelation renders a relation readably and deterministically: first
// the variables it keeps unchanged are factored out (and not printed), then
// the remaining constraint is listed as assignments of the variables it
// mentions, at most MaxPrintedAssignments of them. cur and next are the
// procedures whose locals copy LCur and LNext/LSaved belong to (nil when the
// relation has none).
func (n *Network) FormatRelation(rel bdd.Node, cur, next, saved *Proc, ret bool) string {
	m := n.M
	var pending []field
	var pairs [][2]field
	for _, g := range n.Globals {
		pairs = append(pairs, [2]field{n.globalField(g, GCur), n.globalField(g, GNext)})
	}
	if cur != nil && next == cur {
		for _, l := range cur.Locals {
			pairs = append(pairs, [2]field{n.localField(l, LCur), n.localField(l, LNext)})
		}
	}
	if cur != nil && saved == cur {
		for _, l := range cur.Locals {
			pairs = append(pairs, [2]field{n.localField(l, LCur), n.localField(l, LSaved)})
		}
	}
	factored := map[string]bool{}
	for _, pr := range pairs {
		eq := m.Eq(pr[0].vec, pr[1].vec)
		q := m.Exists(rel, m.Set(pr[1].refs...))
		if m.And(q, eq).Equal(rel) {
			rel = q
			factored[pr[1].name] = true
		}
	}
	add := func(f field) {
		if factored[f.name] {
			return
		}
		pending = append(pending, f)
	}
	for _, g := range n.Globals {
		add(n.globalField(g, GCur))
	}
	if cur != nil {
		for _, l := range cur.Locals {
			add(n.localField(l, LCur))
		}
	}
	if ret {
		pending = append(pending, field{name: "ret", vec: n.M.Vec(bdd.Ref{Var: n.RetVar}), typ: IntType(n.RetBits), refs: []bdd.Ref{{Var: n.RetVar}}})
	}
	for _, g := range n.Globals {
		add(n.globalField(g, GNext))
	}
	if next != nil {
		for _, l := range next.Locals {
			add(n.localField(l, LNext))
		}
	}
	if saved != nil {
		for _, l := range saved.Locals {
			add(n.localField(l, LSaved))
		}
	}
	// Keep only the fields the residual relation depends on.
	support := map[bdd.Ref]bool{}
	for _, r := range m.Support(rel) {
		support[r] = true
	}
	var fs []field
	for _, f := range pending {
		for _, r := range f.refs {
			if support[r] {
				fs = append(fs, f)
				break
			}
		}
	}
	switch {
	case rel.IsFalse():
		return "false"
	case len(fs) == 0:
		return "true"
	}
	vecs := make([]bdd.Vec, len(fs))
	for i, f := range fs {
		vecs[i] = f.vec
	}
	var alts []string
	m.Enumerate(rel, vecs, func(vals []uint64) bool {
		parts := make([]string, len(fs))
		for i, f := range fs {
			parts[i] = f.name + "=" + f.typ.Format(vals[i])
		}
		alts = append(alts, strings.Join(parts, " "))
		return len(alts) <= MaxPrintedAssignments
	})
	s := strings.Join(alts[:min(len(alts), MaxPrintedAssignments)], " | ")
	if len(alts) > MaxPrintedAssignments {
		// Counted, not enumerated: a relation over many copies of the
		// globals (the sequential networks of package cbr/seq) has far
		// too many assignments to list one at a time.
		var refs []bdd.Ref
		for _, f := range fs {
			refs = append(refs, f.refs...)
		}
		s += fmt.Sprintf(" | ... (%s assignments)", m.SatCount(rel, refs...))
	}
	return s
}

// Print writes the network in a deterministic, readable form: globals,
// procedures with their locals and labels, rules with their relations
// (unchanged variables omitted), threads. Usable for golden files.
func (n *Network) Print(w io.Writer) error {
	var b strings.Builder
	for _, g := range n.Globals {
		init := "?"
		if v := n.InitOf(g); !v.Any {
			init = g.Type.Format(v.Value)
		}
		hidden := ""
		if g.Hidden {
			hidden = " (hidden)"
		}
		fmt.Fprintf(&b, "global %s %s = %s%s\n", g.Type, g.Name, init, hidden)
	}
	if ig := n.InitGlobals; ig != nil {
		by := ""
		if ig.By != "" {
			by = " (after " + ig.By + ")"
		}
		fmt.Fprintf(&b, "initial globals%s: %s\n", by, n.FormatRelation(ig.Rel, nil, nil, nil, false))
	}
	for _, p := range n.Procs {
		res := ""
		if p.Result != nil {
			res = " : " + p.Result.String()
		}
		fmt.Fprintf(&b, "proc %s%s\n", p.Name, res)
		for _, l := range p.Locals {
			kind := "local"
			if l.Param {
				kind = "param"
			}
			fmt.Fprintf(&b, "  %s %s %s\n", kind, l.Type, l.Name)
		}
		for _, l := range p.Labels {
			extra := ""
			if l == p.Entry {
				extra += " entry"
			}
			if l.Kind != Normal {
				extra += " " + l.Kind.String()
				if l.Message != "" {
					extra += fmt.Sprintf(" %q", l.Message)
				}
			}
			fmt.Fprintf(&b, "  label %s @%s%s\n", l.Name, l.Pos, extra)
			if l.Recv != nil {
				fmt.Fprintf(&b, "    receive: %s\n", n.FormatRelation(*l.Recv, p, p, nil, true))
			}
		}
	}
	for _, r := range n.Rules {
		switch r.Kind {
		case Step:
			fmt.Fprintf(&b, "rule %d step %s -> %s @%s\n    %s\n", r.Index, r.From, r.To, r.Pos, n.FormatRelation(r.Rel, r.From.Proc, r.To.Proc, nil, false))
		case Push:
			fmt.Fprintf(&b, "rule %d push %s -> %s %s @%s\n    %s\n", r.Index, r.From, r.To, r.Ret, r.Pos, n.FormatRelation(r.Rel, r.From.Proc, r.To.Proc, r.Ret.Proc, false))
		case Pop:
			fmt.Fprintf(&b, "rule %d pop %s @%s\n    %s\n", r.Index, r.From, r.Pos, n.FormatRelation(r.Rel, r.From.Proc, nil, nil, true))
		case Fork:
			fmt.Fprintf(&b, "rule %d fork %s -> %s start %s @%s\n    %s\n", r.Index, r.From, r.To, r.Child.Name, r.Pos, n.FormatRelation(r.Rel, r.From.Proc, r.To.Proc, r.Child, false))
		}
	}
	for _, t := range n.Threads {
		fmt.Fprintf(&b, "thread %s:", t.Name)
		for _, f := range t.Stack {
			fmt.Fprintf(&b, " %s", f.Label)
			if len(f.Locals) > 0 {
				vals := make([]string, len(f.Locals))
				for i, v := range f.Locals {
					if v.Any {
						vals[i] = "?"
					} else {
						vals[i] = f.Label.Proc.Locals[i].Type.Format(v.Value)
					}
				}
				fmt.Fprintf(&b, "(%s)", strings.Join(vals, ","))
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
