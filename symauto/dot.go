package symauto

import (
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// WriteDOT writes the automaton as it is, in Graphviz's DOT language,
// left to right: a node per state (p, the initial state, with an arrow
// from nowhere; s, the final state, a double circle; each mid-state by
// its name, m(γ,level) or i<depth>), and an edge per transition, in the
// order of Transitions, labelled with its stack symbol (ε for an epsilon
// transition), the number of BDD nodes of its label, and the label's
// relation as pds.Network.FormatFields prints it: its first
// pds.MaxPrintedAssignments assignments, one a line, and when there are
// more, their number. The relation is printed over the copies the transition's
// kind carries (Auto; doc.go, "Automata"), named
//
//	x      a global x, current (G)
//	x@e    x at the entry of the frame the transition reads (Ge)
//	x@l    x at the entry of the callee above (Gl)
//	x@s    x at the start of the context (Gs, on tagged automata only)
//	y      a local y of the symbol's procedure (L)
//	y@e    y at the entry of the frame (Le)
//	f.y@l  a local y of the callee f above, at its entry (Ll)
//	ret    the return register (R)
//
// and only the copies a label depends on are shown. The same automaton
// gives the same bytes. It costs one enumeration of at most
// pds.MaxPrintedAssignments+1 assignments and one count per transition:
// for tools and tests. It returns the writer's error.
func (a *Auto) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph view {\n  rankdir=LR;\n")
	b.WriteString("  node [shape=circle, fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	b.WriteString("  start [shape=none, label=\"\", width=0, height=0];\n")
	for s := State(0); int(s) < a.NumStates(); s++ {
		shape := ""
		if s == Final {
			shape = ", shape=doublecircle"
		}
		fmt.Fprintf(&b, "  q%d [label=%s%s];\n", s, DOTQuote(a.stateString(s)), shape)
	}
	fmt.Fprintf(&b, "  start -> q%d;\n", Initial)
	for _, t := range a.Transitions() {
		sym := "ε"
		if t.Label != nil {
			sym = t.Label.Name
		}
		l := a.labels[t]
		lines := append([]string{fmt.Sprintf("%s  [%d BDD nodes]", sym, a.sp.M.Size(l))}, a.sp.Net.FormatFields(l, a.dotFields(t))...)
		for i, line := range lines {
			lines[i] = DOTEscape(line)
		}
		// \l ends a left-justified line of a label.
		fmt.Fprintf(&b, "  q%d -> q%d [label=\"%s\\l\"];\n", t.From, t.To, strings.Join(lines, `\l`))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotFields are the copies that t's label may carry, named for
// WriteDOT: every copy of the globals a label uses, the locals of t's
// symbol and of the callee above (the label that names the mid-state t
// leaves, or for an epsilon the one it enters), and the return register
// on an epsilon. FormatFields shows those the label depends on.
func (a *Auto) dotFields(t Trans) []pds.Field {
	n := a.sp.Net
	var fs []pds.Field
	for _, c := range []struct {
		copy   int
		suffix string
	}{{GCur, ""}, {GEntry, "@e"}, {GLink, "@l"}, {GStart, "@s"}} {
		for _, g := range n.Globals {
			fs = append(fs, n.GlobalField(g, c.copy, g.Name+c.suffix))
		}
	}
	if t.Label != nil {
		for _, c := range []struct {
			copy   int
			suffix string
		}{{LCur, ""}, {LEntry, "@e"}} {
			for _, l := range t.Label.Proc.Locals {
				fs = append(fs, n.LocalField(l, c.copy, l.Name+c.suffix))
			}
		}
	}
	above := t.From
	if t.Label == nil {
		fs = append(fs, n.RetField("ret"))
		above = t.To
	}
	if above != Initial && above != Final && a.names[above].Label != nil {
		callee := a.names[above].Label.Proc
		for _, l := range callee.Locals {
			fs = append(fs, n.LocalField(l, LLink, callee.Name+"."+l.Name+"@l"))
		}
	}
	return fs
}

// DOTEscape escapes s for a DOT quoted string that Graphviz reads as a
// label or a name: a backslash doubled (Graphviz reads escapes such as
// \n and \l in labels), a quote escaped, a newline as \n, any other
// control character a space. The trace charts of package cbr/tracefmt
// use it too.
func DOTEscape(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < ' ' || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// DOTQuote is s as a DOT quoted string (DOTEscape).
func DOTQuote(s string) string { return `"` + DOTEscape(s) + `"` }
