package tracefmt_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"os/exec"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/frontend"
)

// escapes is a program whose first statement, shown to the end of its
// line, holds every character that DOT or HTML-like labels treat
// specially.
const escapes = `int<2> x;
bool b;

proc p() {
  if (x < 2 && !b) { x = x + 1; } // "quoted" \back\slash {braces} <tag> & 'apos' \n \l [x] |y|
  assert(x > 2);
}

start p();
`

// violation analyses src with the explicit engine and returns the
// printer of its traces and its first violation, which has a trace.
func violation(t *testing.T, name, src string) (*tracefmt.Printer, cbr.Found) {
	t.Helper()
	net, err := frontend.Compile(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := states.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 2, Traces: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != cbr.Violation || res.Violations[0].Trace == nil {
		t.Fatalf("got %v without a trace, want a violation with one", res.Verdict)
	}
	run := res.Net
	if run == nil {
		run = net
	}
	// The statements keep their trailing comment, which holds every
	// character DOT escapes: read as CUBA's syntax ("#" comments), a
	// .pds line keeps its "//" comment.
	return tracefmt.New(run, tracefmt.Options{Source: tracefmt.NewSource(name, []byte(src), tracefmt.LangCUBA), Unit: res.Unit}), res.Violations[0]
}

// TestWriteDOTText: the chart shows every step's position and statement
// as the text traces say them, escaped, and the same trace gives the
// same bytes; Graphviz, when present, renders it and shows the
// statements character for character.
func TestWriteDOTText(t *testing.T) {
	p, f := violation(t, "esc.pds", escapes)
	var out, again bytes.Buffer
	if err := p.WriteDOT(&out, "esc \"chart\"", f); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteDOT(&again, "esc \"chart\"", f); err != nil {
		t.Fatal(err)
	}
	if out.String() != again.String() {
		t.Fatal("two charts of one trace differ")
	}
	dot := out.String()
	first := f.Trace.Contexts[0].Steps[0]
	if got, want := p.What(first), `if (x < 2 && !b) { x = x + 1; } // "quoted" \back\slash {braces} <tag> & 'apos' \n \l [x] |y|`; got != want {
		t.Fatalf("the first step: got %q want %q", got, want)
	}
	for _, want := range []string{
		`digraph "esc \"chart\"" {`,
		`if (x &lt; 2 &amp;&amp; !b) { x = x + 1; } // &quot;quoted&quot; \back\slash {braces} &lt;tag&gt; &amp; &#39;apos&#39; \n \l [x] |y|`,
		`esc.pds:5:3`,
		`then x=1 b=false`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("the chart lacks %q:\n%s", want, dot)
		}
	}

	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not on PATH: the chart was not rendered")
	}
	cmd := exec.Command(bin, "-Tsvg")
	cmd.Stdin = strings.NewReader(dot)
	var svg, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &svg, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dot -Tsvg: %v\n%s", err, stderr.String())
	}
	texts := svgTexts(t, svg.Bytes())
	for _, s := range f.Trace.Contexts[0].Steps {
		if !texts[p.What(s)] || !texts[p.Where(s)] {
			t.Errorf("the rendering does not show %q at %q; its texts: %v", p.What(s), p.Where(s), texts)
		}
	}
}

// svgTexts returns the texts of an SVG document's text elements.
func svgTexts(t *testing.T, svg []byte) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = false
	in := false
	var cur strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "text" {
				in = true
				cur.Reset()
			}
		case xml.CharData:
			if in {
				cur.Write(e)
			}
		case xml.EndElement:
			if e.Name.Local == "text" {
				in = false
				out[cur.String()] = true
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no text in the SVG:\n%s", svg)
	}
	return out
}

// TestWriteDOTNoTrace: a violation without a trace is an error, not an
// empty chart.
func TestWriteDOTNoTrace(t *testing.T) {
	p, f := violation(t, "esc.pds", escapes)
	f.Trace = nil
	var out bytes.Buffer
	if err := p.WriteDOT(&out, "x", f); err == nil || out.Len() > 0 {
		t.Fatalf("got %v and %d bytes, want an error and nothing written", err, out.Len())
	}
}
