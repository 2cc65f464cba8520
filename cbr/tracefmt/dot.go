package tracefmt

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/symauto"
)

// The chart of a trace in Graphviz's DOT language (docs/traces.md,
// "Drawing a trace"). Its node names are fixed words and numbers, so only
// labels need escaping: HTML-like labels for the boxes (htmlText), quoted
// strings for the rest (quoted).

// dotWrap is the width, in characters, at which the globals and the
// stacks of a chart break into lines.
const dotWrap = 72

// WriteDOT writes the trace of violation f (f.Trace) as a
// message-sequence chart: one digraph, named name, that Graphviz's dot
// lays out top to bottom, time running down. Each thread of the trace
// has a lane, a cluster headed by the thread's name and initial stack
// that runs to the bottom of the chart; each context is a box in its
// thread's lane that lists its steps (position and statement, as Where
// and What say them) and the globals after it. Arrows go from a note
// with the initial globals to the first context, from each context to
// the next (labelled with how the next began when the unit of the bound
// says so, Switches) and from the last context to the violation, a red
// box with its description (Describe) at the bottom of its thread's
// lane (outside the lanes for a CUBA target). The lanes are given in
// thread order; dot may place them otherwise to spare arrows from
// crossing lanes.
//
// The node names are "init", "t<thread>" (a lane's head), "c<context>"
// (from 1), "violation" and "e<thread>" (a lane's invisible end); the
// lanes are the clusters "cluster_t<thread>". A trace of no context (an
// initial configuration with the error) has lanes with their heads only.
// The same trace gives the same bytes. WriteDOT returns an error when f
// has no trace, or the writer's.
func (p *Printer) WriteDOT(w io.Writer, name string, f cbr.Found) error {
	tr := f.Trace
	if tr == nil {
		return errors.New("tracefmt: the violation has no trace")
	}
	var b strings.Builder
	who := Starters(tr)
	fmt.Fprintf(&b, "// %s\n", strings.Join(strings.Fields(strings.ToValidUTF8(Describe(f, p.unit), "\uFFFD")), " "))
	fmt.Fprintf(&b, "digraph %s {\n", symauto.DOTQuote(name))
	b.WriteString("  graph [newrank=true, nodesep=0.3, ranksep=0.35, fontname=\"Helvetica\"];\n")
	b.WriteString("  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")

	initial := "initially"
	if by := p.InitBy(); by != "" {
		initial = "initialisation by " + by + " (before context 1)"
	}
	lines := append([]string{initial + ":"}, wrap(p.Globals(tr.Initial), dotWrap)...)
	fmt.Fprintf(&b, "  init [shape=note, label=<%s>];\n", htmlLines(lines, leftBreak)+leftBreak)

	// The lanes, each with its head, its contexts, the violation when it
	// is its thread's, and its end, top to bottom.
	lanes := p.lanes(tr, f)
	inLane := f.Target == nil && slices.Contains(lanes, f.Thread)
	column := map[int][]string{}
	for _, th := range lanes {
		fmt.Fprintf(&b, "  subgraph cluster_t%d {\n", th)
		b.WriteString("    graph [style=\"rounded,filled\", color=\"#c8c8c8\", fillcolor=\"#f6f6f6\", label=\"\"];\n")
		head := []string{"<b>" + htmlText(fmt.Sprintf("thread %d", th)) + "</b>"}
		if w, ok := who[th]; ok {
			head = append(head, htmlText(w))
		}
		if th < len(tr.Initial.Threads) {
			if st := p.Stack(tr.Initial, th); st != "not started" {
				head = append(head, "<font point-size=\"9\">"+htmlLines(wrap(st, dotWrap), "<br/>")+"</font>")
			}
		}
		fmt.Fprintf(&b, "    t%d [style=filled, fillcolor=\"#dde6f0\", color=\"#8096b0\", label=<%s>];\n", th, strings.Join(head, "<br/>"))
		col := []string{fmt.Sprintf("t%d", th)}
		for i, c := range tr.Contexts {
			if c.Thread == th {
				fmt.Fprintf(&b, "    c%d [style=filled, fillcolor=white, label=<%s>];\n", i+1, p.box(i, c, tr))
				col = append(col, fmt.Sprintf("c%d", i+1))
			}
		}
		if inLane && th == f.Thread {
			fmt.Fprintf(&b, "    violation [%s];\n", violationAttrs(f, p.unit))
			col = append(col, "violation")
		}
		fmt.Fprintf(&b, "    e%d [shape=point, style=invis, width=0, height=0];\n", th)
		column[th] = append(col, fmt.Sprintf("e%d", th))
		b.WriteString("  }\n")
	}
	if !inLane {
		fmt.Fprintf(&b, "  violation [%s];\n", violationAttrs(f, p.unit))
	}

	// The heads in one row after the initial note, the ends in another.
	heads, ends := []string{"init"}, []string{}
	for _, th := range lanes {
		heads = append(heads, fmt.Sprintf("t%d", th))
		ends = append(ends, fmt.Sprintf("e%d", th))
	}
	fmt.Fprintf(&b, "  { rank=same; %s; }\n", strings.Join(heads, "; "))
	if len(ends) > 0 {
		fmt.Fprintf(&b, "  { rank=same; %s; }\n", strings.Join(ends, "; "))
	}
	if len(heads) > 1 {
		fmt.Fprintf(&b, "  %s [style=invis];\n", strings.Join(heads, " -> "))
	}

	// The run: from the initial configuration through each switch to the
	// violation.
	switches := p.Switches(tr)
	prev := "init"
	for i := range tr.Contexts {
		attrs := "color=\"#3060a0\", penwidth=1.5"
		if i == 0 {
			attrs = "color=\"#3060a0\", style=dashed"
		}
		if switches[i] != "" {
			attrs += ", label=" + symauto.DOTQuote(" "+switches[i])
		}
		fmt.Fprintf(&b, "  %s -> c%d [%s];\n", prev, i+1, attrs)
		prev = fmt.Sprintf("c%d", i+1)
	}
	fmt.Fprintf(&b, "  %s -> violation [color=\"#c00000\", penwidth=2];\n", prev)

	// Invisible edges keep each lane's nodes in one column, in time order.
	for _, th := range lanes {
		col := column[th]
		for k := 0; k+1 < len(col); k++ {
			if col[k] == prev && col[k+1] == "violation" {
				continue // the run's last arrow holds them already
			}
			fmt.Fprintf(&b, "  %s -> %s [style=invis, weight=10];\n", col[k], col[k+1])
		}
	}
	if !inLane && len(ends) > 0 {
		fmt.Fprintf(&b, "  violation -> %s [style=invis];\n", ends[0])
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// lanes returns the threads that get a lane, in order: those that run a
// context, those the initial configuration shows (every thread but the
// slots no start has used yet) and the violation's.
func (p *Printer) lanes(tr *cbr.Trace, f cbr.Found) []int {
	seen := map[int]bool{}
	for th := range tr.Initial.Threads {
		if p.Stack(tr.Initial, th) != "not started" {
			seen[th] = true
		}
	}
	for _, c := range tr.Contexts {
		seen[c.Thread] = true
	}
	if f.Target == nil && f.Thread >= 0 {
		seen[f.Thread] = true
	}
	var out []int
	for th := range seen {
		out = append(out, th)
	}
	slices.Sort(out)
	return out
}

// box is the HTML-like label of context i: its number and thread, its
// steps, and the globals after it, one row a line of the DOT text.
func (p *Printer) box(i int, c cbr.TraceContext, tr *cbr.Trace) string {
	var b strings.Builder
	b.WriteString("\n      <table border=\"0\" cellborder=\"0\" cellspacing=\"0\" cellpadding=\"1\">")
	fmt.Fprintf(&b, "\n      <tr><td align=\"left\" colspan=\"2\"><b>context %d</b>: %s</td></tr>", i+1, htmlText(fmt.Sprintf("thread %d", c.Thread)))
	for _, s := range c.Steps {
		fmt.Fprintf(&b, "\n      <tr><td align=\"left\"><font color=\"#606060\">%s</font></td><td align=\"left\"><font face=\"Courier\">%s</font></td></tr>",
			htmlText(p.Where(s)), htmlText(p.What(s)))
	}
	after := tr.Initial
	if len(c.Steps) > 0 {
		after = c.Steps[len(c.Steps)-1].After
	}
	fmt.Fprintf(&b, "\n      <hr/><tr><td align=\"left\" balign=\"left\" colspan=\"2\">then %s</td></tr>", htmlLines(wrap(p.Globals(after), dotWrap-5), "<br/>"))
	b.WriteString("\n      </table>")
	return b.String()
}

// violationAttrs are the attributes of the violation's node.
func violationAttrs(f cbr.Found, u cbr.Unit) string {
	return fmt.Sprintf("style=\"filled,bold\", color=\"#c00000\", fillcolor=\"#fde0e0\", label=<<b>VIOLATION</b><br/>%s>",
		htmlLines(wrap(Describe(f, u), dotWrap), "<br/>"))
}

// wrap breaks s at spaces into lines of at most width characters (a
// longer word stays whole on its own line).
func wrap(s string, width int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = word
		case len(cur)+1+len(word) <= width:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	return append(lines, cur)
}

// leftBreak ends a left-aligned line of an HTML-like label.
const leftBreak = `<br align="left"/>`

// htmlLines is the lines as the text of an HTML-like label, joined by
// the line break br.
func htmlLines(lines []string, br string) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = htmlText(l)
	}
	return strings.Join(parts, br)
}

// htmlText escapes s for the text of an HTML-like label: the XML
// entities for & < > " ', a line break for a newline, and a space for
// any other control character (which Graphviz cannot show); invalid
// UTF-8 becomes U+FFFD.
func htmlText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '\n':
			b.WriteString(leftBreak)
		case r < ' ' || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
