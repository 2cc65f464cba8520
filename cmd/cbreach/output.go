package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// units writes "1 context", "2 preemptions": n units of the bound.
func units(n int, u cbr.Unit) string { return u.Of(n) }

// noTarget reports whether the run checked nothing: a CUBA system without
// a target has no error labels either.
func noTarget(in *input) bool { return in.targetFile() != nil && len(in.targets) == 0 }

// report writes the result of any engine, in text or JSON.
func report(w io.Writer, in *input, c *config, r *cbr.Result) {
	if c.json {
		writeJSON(w, in, c, r)
		return
	}
	var b strings.Builder
	verdict(&b, in, c, r)
	for j, n := range r.VisibleStates {
		fmt.Fprintf(&b, "within %s: %s, %s%s\n", units(j, r.Unit), plural.Count(n, "visible state"), plural.Count(at(r.Stats.KeptPerLevel, j), "new view tuple"), levelTime(r, j))
	}
	if !c.quiet {
		b.WriteString(threadsLine(in))
		summary(&b, c, r)
	}
	io.WriteString(w, b.String())
}

// verdict writes the verdict line, and the violations with their traces.
// Rounds are said as the round-robin bound they are: "within 2 rounds".
func verdict(b *strings.Builder, in *input, c *config, r *cbr.Result) {
	rounds := r.Unit == cbr.Rounds
	atMost := "with at most"
	if rounds {
		atMost = "within"
	}
	target := map[bool]string{false: "no violation is reachable", true: "the target is not reachable"}[in.targetFile() != nil]
	switch {
	case r.Verdict == cbr.Violation:
		tr := newTracer(in, r)
		for i, v := range r.Violations {
			if i > 0 && !c.all {
				break
			}
			fmt.Fprintf(b, "VIOLATION %s%s\n", tracefmt.Describe(v, r.Unit), inRuns(r))
			tr.write(b, c, v)
		}
		if c.all && r.Limit != nil {
			// The violations stand; the list may not be whole.
			why := r.Reason
			if why == "" {
				why = cbr.Reason(r.Limit)
			}
			more := r.Unit.String()
			if r.ThreadBound > 0 {
				more += " or threads"
			}
			fmt.Fprintf(b, "(%s: complete up to %s%s; violation sites that need more %s may be missing)\n",
				why, units(r.Complete, r.Unit), inRuns(r), more)
		}
	case r.Verdict == cbr.Unknown && r.Complete < 0 && r.Stats.ViewTuples > 0:
		fmt.Fprintf(b, "UNKNOWN: %s; no bound was explored completely (%s)\n", r.Reason, boundWords(c, r))
	case r.Verdict == cbr.Unknown && r.Complete < 0:
		fmt.Fprintf(b, "UNKNOWN: %s; nothing was explored (%s)\n", r.Reason, boundWords(c, r))
	case r.Verdict == cbr.Unknown && rounds && r.Complete < 1:
		fmt.Fprintf(b, "UNKNOWN: %s (%s)\n", r.Reason, boundWords(c, r))
	case r.Verdict == cbr.Unknown:
		fmt.Fprintf(b, "UNKNOWN: %s; complete up to %s: no violation is reachable %s %s%s (%s)\n",
			r.Reason, units(r.Complete, r.Unit), atMost, units(r.Complete, r.Unit), inRuns(r), boundWords(c, r))
	case r.Converged >= 0 && !noTarget(in):
		fmt.Fprintf(b, "SAFE for any number of %s: %s; the reachable configurations stop growing at %s (explored up to %s)\n",
			r.Unit, target, units(r.Converged, r.Unit), units(r.Bound, r.Unit))
	case r.Visible != nil && !noTarget(in):
		fmt.Fprintf(b, "SAFE for any number of %s: %s; %s\n", r.Unit, target, visibleWords(r.Visible, r.Unit))
	case noTarget(in) && r.Visible != nil:
		fmt.Fprintf(b, "NO TARGET: %s has no target, so nothing was checked; %s\n", in.file, visibleWords(r.Visible, r.Unit))
	case noTarget(in) && r.VisibleStates != nil:
		fmt.Fprintf(b, "NO TARGET: %s has no target, so nothing was checked; the reachable visible states follow\n", in.file)
	case noTarget(in) && r.Converged >= 0:
		fmt.Fprintf(b, "NO TARGET: %s has no target, so nothing was checked; the reachable configurations stop growing at %s\n", in.file, units(r.Converged, r.Unit))
	case rounds:
		fmt.Fprintf(b, "SAFE within %s: %s within %s of round-robin\n", units(r.Bound, r.Unit), target, units(r.Bound, r.Unit))
	default:
		fmt.Fprintf(b, "SAFE within %s: %s with at most %s\n", units(r.Bound, r.Unit), target, units(r.Bound, r.Unit))
	}
}

// inRuns qualifies a count by the thread bound it assumes, when a start
// was cut off there (cbr.Result.ThreadBound): " in runs with at most 8
// threads"; "" when the count holds whatever the number of threads.
func inRuns(r *cbr.Result) string {
	if r.ThreadBound == 0 {
		return ""
	}
	return " in runs with at most " + plural.Count(r.ThreadBound, "thread")
}

// threadsLine says, for a program that starts threads, how many threads
// the analysis had room for and where the number came from: the program
// (every start it can make), or the thread bound of --max-threads, given
// or by default, for a program that can start more.
func threadsLine(in *input) string {
	if in == nil || in.net == nil || !in.net.HasForks() {
		return ""
	}
	n := in.net
	switch {
	case n.ThreadSource == pds.ThreadsFromProgram:
		return fmt.Sprintf("threads: %d, all the program can have (counted from its starts)\n", n.MaxThreads)
	case n.ProgramThreads != pds.Unbounded:
		return fmt.Sprintf("threads: at most %d (--max-threads; the program can have %d)\n", n.MaxThreads, n.ProgramThreads)
	case n.ThreadSource == pds.ThreadsFromOption:
		return fmt.Sprintf("threads: at most %d (--max-threads; the program can start unboundedly many)\n", n.MaxThreads)
	}
	return fmt.Sprintf("threads: at most %d (the default of --max-threads; the program can start unboundedly many)\n", n.MaxThreads)
}

func threadsJSON(in *input) *schema.Threads {
	if in == nil || in.net == nil {
		return nil
	}
	n := in.net
	t := &schema.Threads{Max: n.MaxThreads, Source: map[pds.ThreadSource]string{pds.ThreadsFromProgram: "program", pds.ThreadsFromOption: "max-threads", pds.ThreadsDefault: "default"}[n.ThreadSource]}
	if n.ProgramThreads == pds.Unbounded {
		t.Unbounded = true
	} else {
		p := n.ProgramThreads
		t.Program = &p
	}
	return t
}

// boundWords says the bound of a run, for the parenthesis after an
// UNKNOWN verdict: "bound 5 contexts", or for --unbounded, which gives
// none, how far the run deepened it, when it explored anything.
func boundWords(c *config, r *cbr.Result) string {
	switch {
	case !c.unbounded:
		return "bound " + units(r.Bound, r.Unit)
	case r.Complete < 0 && r.Stats.ViewTuples == 0:
		return "no bound given"
	}
	return "no bound given; deepened to " + units(r.Bound, r.Unit)
}

// at returns xs[j], or 0 beyond its end.
func at(xs []int, j int) int {
	if j < len(xs) {
		return xs[j]
	}
	return 0
}

// levelTime says when level j was complete, when it was.
func levelTime(r *cbr.Result, j int) string {
	if j < len(r.Stats.LevelTime) {
		return fmt.Sprintf(", complete at %.3fs", r.Stats.LevelTime[j].Seconds())
	}
	return ""
}

// writeJSON writes the result of any engine as one schema.Output.
func writeJSON(w io.Writer, in *input, c *config, r *cbr.Result) {
	verdict := r.Verdict.String()
	if r.Verdict == cbr.Safe && noTarget(in) {
		verdict = "no-target"
	}
	out := schema.Output{Schema: schema.Version, Version: version, Engine: c.entry.Name, Verdict: verdict, Reason: r.Reason,
		Unit: r.Unit.String(), Bound: r.Bound, Unbounded: c.unbounded, Complete: r.Complete, Violations: []schema.Violation{},
		Threads: threadsJSON(in), Stats: schema.Stats{TimeSeconds: r.Stats.Time.Seconds(), PostStarSteps: r.Stats.PostStarSteps, Kernel: bdd.Kernel}}
	figuresJSON(&out, r)
	if c.stats {
		out.Stats.PeakNodes = &r.Stats.PeakNodes
	}
	if n := r.Contexts(); n >= 0 {
		out.Fewest = &n
	}
	if r.ThreadBound > 0 {
		out.CompleteThreads = &r.ThreadBound
	}
	switch v := r.Visible; {
	case r.Converged >= 0:
		out.Convergence = &schema.Convergence{Criterion: "configurations", Level: r.Converged, Explored: r.Bound,
			Words: "the reachable configurations stop growing at " + units(r.Converged, r.Unit)}
	case v != nil:
		out.Convergence = &schema.Convergence{Criterion: "visible-states", Level: v.Level, Explored: v.Explored, VisibleStates: v.States,
			Generators: v.Generators, Depth: v.Depth, Words: visibleWords(v, r.Unit)}
	}
	for j, n := range r.VisibleStates {
		jb := schema.PerBound{Contexts: j, VisibleStates: n, NewViewTuples: at(r.Stats.KeptPerLevel, j)}
		if j < len(r.Stats.LevelTime) {
			jb.Seconds = r.Stats.LevelTime[j].Seconds()
		}
		out.PerBound = append(out.PerBound, jb)
	}
	tr := newTracer(in, r)
	for _, v := range r.Violations {
		kind := v.Kind.String()
		if v.Target != nil {
			kind = "target"
		}
		jv := schema.Violation{Kind: kind, Pos: v.Pos.String(), Thread: v.Thread, Proc: v.Proc, Fewest: v.Contexts, Message: v.Message}
		if v.Trace != nil {
			jv.Trace = tr.json(v.Trace)
		}
		if v.TraceErr != nil {
			jv.TraceError = v.TraceErr.Error()
		}
		out.Violations = append(out.Violations, jv)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}

// limitWords says a limit in words.
func limitWords(err error) string {
	if w := cbr.LimitWords(err); w != "" {
		return w
	}
	return "cancelled"
}
