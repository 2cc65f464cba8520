package pds

import (
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
)

// Field is a variable of a relation, named for printing: a global or a
// local in one of its copies, or the return register
// (GlobalField, LocalField, RetField; FormatFields).
type Field struct {
	Name string
	Type Type
	vec  bdd.Vec
	refs []bdd.Ref
}

// MaxPrintedAssignments bounds how many assignments a printed relation lists.
const MaxPrintedAssignments = 16

// GlobalField is global g in copy c, printed as name.
func (n *Network) GlobalField(g *Global, c int, name string) Field {
	return Field{Name: name, vec: n.GlobalVec(g, c), Type: g.Type, refs: []bdd.Ref{{Var: g.Var, Copy: c}}}
}

// LocalField is local l in copy c of the local block, printed as name.
func (n *Network) LocalField(l *Local, c int, name string) Field {
	var refs []bdd.Ref
	for i := 0; i < l.Type.Bits; i++ {
		refs = append(refs, bdd.Ref{Var: n.LocalBits[l.Block[i]], Copy: c})
	}
	return Field{Name: name, vec: n.LocalVec(l, c), Type: l.Type, refs: refs}
}

// RetField is the return register, as wide as the widest result type,
// printed as name.
func (n *Network) RetField(name string) Field {
	return Field{Name: name, vec: n.M.Vec(bdd.Ref{Var: n.RetVar}), Type: IntType(n.RetBits), refs: []bdd.Ref{{Var: n.RetVar}}}
}

func (n *Network) globalField(g *Global, c int) Field {
	name := g.Name
	if c == GNext {
		name += "'"
	}
	return n.GlobalField(g, c, name)
}

func (n *Network) localField(l *Local, c int) Field {
	name := l.Name
	switch c {
	case LNext:
		name = l.Proc.Name + "." + l.Name + "'"
	case LSaved:
		name = l.Proc.Name + "." + l.Name + "''"
	}
	return n.LocalField(l, c, name)
}

// FormatRelation renders a relation readably and deterministically: first
// the variables it keeps unchanged are factored out (and not printed), then
// the remaining constraint is listed as assignments of the variables it
// mentions, at most MaxPrintedAssignments of them. cur and next are the
// procedures whose locals copy LCur and LNext/LSaved belong to (nil when the
// relation has none).
func (n *Network) FormatRelation(rel bdd.Node, cur, next, saved *Proc, ret bool) string {
	m := n.M
	var pending []Field
	var pairs [][2]Field
	for _, g := range n.Globals {
		pairs = append(pairs, [2]Field{n.globalField(g, GCur), n.globalField(g, GNext)})
	}
	if cur != nil && next == cur {
		for _, l := range cur.Locals {
			pairs = append(pairs, [2]Field{n.localField(l, LCur), n.localField(l, LNext)})
		}
	}
	if cur != nil && saved == cur {
		for _, l := range cur.Locals {
			pairs = append(pairs, [2]Field{n.localField(l, LCur), n.localField(l, LSaved)})
		}
	}
	factored := map[string]bool{}
	for _, pr := range pairs {
		eq := m.Eq(pr[0].vec, pr[1].vec)
		q := m.Exists(rel, m.Set(pr[1].refs...))
		if m.And(q, eq).Equal(rel) {
			rel = q
			factored[pr[1].Name] = true
		}
	}
	add := func(f Field) {
		if factored[f.Name] {
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
		pending = append(pending, n.RetField("ret"))
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
	return strings.Join(n.FormatFields(rel, pending), " | ")
}

// FormatFields lists the assignments of a relation to those of the
// fields its support mentions (the others, and every variable that is
// not a field, projected away), in ascending order of the fields' values,
// as "x=1 y=true": at most MaxPrintedAssignments of them, and then one
// more line, "... (N assignments)", with their exact number (counted, not
// enumerated). A false relation is the one line "false"; one that
// mentions none of the fields, "true". FormatRelation and the automata's
// DOT (package symauto) print relations with it.
func (n *Network) FormatFields(rel bdd.Node, fields []Field) []string {
	m := n.M
	// Keep only the fields the relation depends on.
	support := map[bdd.Ref]bool{}
	for _, r := range m.Support(rel) {
		support[r] = true
	}
	var fs []Field
	for _, f := range fields {
		for _, r := range f.refs {
			if support[r] {
				fs = append(fs, f)
				break
			}
		}
	}
	switch {
	case rel.IsFalse():
		return []string{"false"}
	case len(fs) == 0:
		return []string{"true"}
	}
	vecs := make([]bdd.Vec, len(fs))
	for i, f := range fs {
		vecs[i] = f.vec
	}
	var alts []string
	m.Enumerate(rel, vecs, func(vals []uint64) bool {
		parts := make([]string, len(fs))
		for i, f := range fs {
			parts[i] = f.Name + "=" + f.Type.Format(vals[i])
		}
		alts = append(alts, strings.Join(parts, " "))
		return len(alts) <= MaxPrintedAssignments
	})
	if len(alts) <= MaxPrintedAssignments {
		return alts
	}
	// Counted, not enumerated: a relation over many copies of the
	// globals (the sequential networks of package cbr/seq) has far too
	// many assignments to list one at a time.
	var refs []bdd.Ref
	for _, f := range fs {
		refs = append(refs, f.refs...)
	}
	return append(alts[:MaxPrintedAssignments], fmt.Sprintf("... (%s assignments)", m.SatCount(rel, refs...)))
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
