package auto

import (
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/cbr"
)

// How the portfolio describes itself to the front doors (package
// cbr/engines): its figures are those of the engine that answered, with
// a line that names it and says how the other's run ended.

// Progress is the line of a progress report, from whichever engine
// reports (the symbolic one, then the explicit one once it has ended):
// items done, queued.
func Progress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %d done, %d queued, %.1fs", u.Of(p.Level), p.Tuples, p.Queued, p.Elapsed.Seconds())
}

// Settings are the answering engine's, and "answered", its name.
func (st *Stats) Settings() []cbr.Named {
	if st.Figures == nil {
		return nil
	}
	return append([]cbr.Named{{Name: "answered", Value: st.Answered}}, st.Figures.Settings()...)
}

// Summary says which engine answered and how the other's run ended,
// then gives the answering engine's summary.
func (st *Stats) Summary() string {
	if st.Figures == nil {
		return "portfolio: nothing was analysed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "portfolio: %s answered", st.Answered)
	for _, run := range st.Runs {
		switch {
		case run.Engine == st.Answered:
		case run.Stopped:
			fmt.Fprintf(&b, "; %s was stopped", run.Engine)
		case run.Verdict == cbr.Unknown:
			fmt.Fprintf(&b, "; %s: unknown (%s)", run.Engine, run.Reason)
		default:
			fmt.Fprintf(&b, "; %s: %s", run.Engine, run.Verdict)
		}
	}
	return b.String() + "\n" + st.Figures.Summary()
}

func (st *Stats) Details() []string {
	if st.Figures == nil {
		return nil
	}
	return append(st.Figures.Details(), fmt.Sprintf("network copied for the explicit engine in %.3fs", st.CopyTime.Seconds()))
}

func (st *Stats) Work() cbr.Named {
	if st.Figures == nil {
		return cbr.Named{}
	}
	return st.Figures.Work()
}

func (st *Stats) Stats() (string, any) {
	if st.Figures == nil {
		return "", nil
	}
	return st.Figures.Stats()
}
