package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cbreach/cbreach/cbr"
)

// --dot FILE writes the trace of the first violation (with --all, of
// every violation) as a Graphviz message-sequence chart (cbr/tracefmt's
// Printer.WriteDOT), each violation's chart a digraph of its own in the
// order of the report; "-" writes to standard output, and the report
// then goes to standard error. The file is created before the input is
// read, so a path that cannot be written is a usage error (exit 2) at
// once. A run with no chart to draw (no violation, none with a trace, or
// nothing analysed) writes an empty digraph with a comment that says
// why, and a note on standard error: the file always holds this run's
// answer, never a chart of an earlier one.

func init() {
	longFlags = append(longFlags, "dot")
}

// dotStdout is the --dot argument that writes to standard output.
const dotStdout = "-"

// checkDot checks what --dot goes with: an analysis that builds traces.
func (c *config) checkDot(dotGiven bool) error {
	switch {
	case !dotGiven:
		return nil
	case c.dot == "":
		return fmt.Errorf("--dot: need a file name (or %s for standard output)", dotStdout)
	case c.trace.off:
		return errors.New("--dot draws a violation's trace: it does not go with --no-trace")
	case c.printRules:
		return errors.New("--dot draws the trace of an analysis: it does not go with --print-rules")
	case c.dot == dotStdout && c.json:
		return fmt.Errorf("--dot %s and --json both write to standard output: give --dot a file", dotStdout)
	}
	return nil
}

// dotFile is where --dot writes.
type dotFile struct {
	w     io.Writer
	close func() error
	name  string // the file's name, or "standard output"
}

// openDot opens the file of --dot (nil when there is none).
func (c *config) openDot(stdout io.Writer) (*dotFile, error) {
	switch c.dot {
	case "":
		return nil, nil
	case dotStdout:
		return &dotFile{w: stdout, close: func() error { return nil }, name: "standard output"}, nil
	}
	f, err := os.Create(c.dot)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("--dot: cannot write %s: %v", c.dot, err)
	}
	return &dotFile{w: f, close: f.Close, name: c.dot}, nil
}

// finish writes the charts of a run (r nil when nothing was analysed)
// after its report, and returns the exit status: the run's, code, or 2
// when the file cannot be written.
func (d *dotFile) finish(stderr io.Writer, in *input, c *config, r *cbr.Result, code int) int {
	why, err := writeDot(d.w, in, c, r)
	if cerr := d.close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "cbreach: --dot: cannot write %s: %v\n", d.name, err)
		return exitUsage
	}
	if why != "" {
		fmt.Fprintf(stderr, "cbreach: --dot: %s; %s holds an empty graph\n", why, d.name)
	}
	return code
}

// writeDot writes the charts of a run to w; when there is none to draw,
// an empty digraph, and it returns why.
func writeDot(w io.Writer, in *input, c *config, r *cbr.Result) (why string, err error) {
	var b strings.Builder
	charts := 0
	if r != nil {
		tr := newTracer(in, r)
		for i, v := range r.Violations {
			if i > 0 && !c.all {
				break
			}
			switch {
			case v.Trace != nil && tr != nil:
				if err := tr.WriteDOT(&b, fmt.Sprintf("violation %d", i+1), v); err != nil {
					return "", err
				}
				charts++
			case v.TraceErr != nil && cbr.IsLimit(v.TraceErr):
				fmt.Fprintf(&b, "// violation %d has no trace: %s while building it\n", i+1, limitWords(v.TraceErr))
			default:
				fmt.Fprintf(&b, "// violation %d has no trace\n", i+1)
			}
		}
	}
	if charts == 0 {
		switch {
		case r == nil:
			why = "nothing was analysed"
		case len(r.Violations) > 0:
			why = "no violation has a trace"
		case r.Verdict == cbr.Unknown:
			why = "no violation (the verdict is unknown: " + r.Reason + ")"
		default:
			why = "no violation"
		}
		fmt.Fprintf(&b, "// cbreach: %s, so there is no chart\ndigraph \"no violation\" {\n}\n", why)
	}
	_, err = io.WriteString(w, b.String())
	return why, err
}

// checkAndDraw runs check and, with --dot, writes the charts of its
// violations after the report: the chart file is opened first, so that a
// path that cannot be written is a usage error before any work.
func (c *config) checkAndDraw(ctx context.Context, stdout, stderr io.Writer, opts cbr.Options, tty bool) int {
	dot, err := c.openDot(stdout)
	if err != nil {
		return c.fail(stdout, stderr, exitUsage, err.Error())
	}
	if dot == nil {
		code, _, _ := c.check(ctx, stdout, stderr, opts, tty)
		return code
	}
	report := stdout
	if c.dot == dotStdout {
		report = stderr // the chart takes standard output, the report goes to standard error
	}
	code, in, res := c.check(ctx, report, stderr, opts, tty)
	return dot.finish(stderr, in, c, res, code)
}
