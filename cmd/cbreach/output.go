package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// limitsOf is the part of the limits that holds while compiling.
func limitsOf(c *config) bdd.Limits { return bdd.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory} }

// plural writes "1 context", "2 contexts".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// units writes "1 context", "2 preemptions": n units of the bound.
func units(n int, u cbr.Unit) string { return u.Of(n) }

// levels is the number of levels whose items were expanded: 0 to k-1
// contexts, or 0 to k preemptions.
func levels(r *cbr.Result) int {
	if r.Unit == cbr.Preemptions {
		return r.Bound + 1
	}
	return r.Bound
}

// limitWords says a limit in words.
func limitWords(err error) string {
	if w := engine.LimitWords(err); w != "" {
		return w
	}
	return "cancelled"
}

// noTarget reports whether the run checked nothing: a CUBA system without
// a target has no error labels either.
func noTarget(in *input) bool { return in.cuba && len(in.targets) == 0 }

func report(w io.Writer, in *input, c *config, s split.Strategy, r *cbr.Result, counts []int) {
	if c.json {
		writeJSON(w, in, c, s, r, counts)
		return
	}
	var b strings.Builder
	switch {
	case r.Verdict == cbr.Violation:
		tr := newTracer(in, c, r.Unit)
		for i, v := range r.Violations {
			if i > 0 && !c.all {
				break
			}
			fmt.Fprintf(&b, "VIOLATION %s\n", describe(v, r.Unit))
			tr.write(&b, c, v)
		}
		if c.all && r.Limit != nil {
			// The violations stand; the list may not be whole.
			why := r.Reason
			if why == "" {
				why = limitWords(r.Limit)
			}
			fmt.Fprintf(&b, "(%s: complete up to %s; violation sites that need more %s may be missing)\n",
				why, units(r.Complete, r.Unit), r.Unit)
		}
	case r.Verdict == cbr.Unknown && r.Complete < 0 && r.Stats.ViewTuples > 0:
		fmt.Fprintf(&b, "UNKNOWN: %s; no bound was explored completely (bound %s)\n", r.Reason, bound(c, r))
	case r.Verdict == cbr.Unknown && r.Complete < 0:
		fmt.Fprintf(&b, "UNKNOWN: %s; nothing was explored (bound %s)\n", r.Reason, bound(c, r))
	case r.Verdict == cbr.Unknown:
		fmt.Fprintf(&b, "UNKNOWN: %s; complete up to %s: no violation is reachable with at most %s (bound %s)\n",
			r.Reason, units(r.Complete, r.Unit), units(r.Complete, r.Unit), bound(c, r))
	case r.Converged >= 0 && !noTarget(in):
		what := "no violation is reachable"
		if in.cuba {
			what = "the target is not reachable"
		}
		fmt.Fprintf(&b, "SAFE for any number of %s: %s; the reachable configurations stop growing at %s (explored up to %s)\n",
			r.Unit, what, units(r.Converged, r.Unit), units(r.Bound, r.Unit))
	case r.Visible != nil && !noTarget(in):
		fmt.Fprintf(&b, "SAFE for any number of %s: %s; %s\n", r.Unit, map[bool]string{false: "no violation is reachable", true: "the target is not reachable"}[in.cuba], visibleWords(r.Visible, r.Unit))
	case noTarget(in) && r.Visible != nil:
		fmt.Fprintf(&b, "NO TARGET: %s has no target, so nothing was checked; %s\n", in.file, visibleWords(r.Visible, r.Unit))
	case noTarget(in) && counts != nil:
		fmt.Fprintf(&b, "NO TARGET: %s has no target, so nothing was checked; the reachable visible states follow\n", in.file)
	case noTarget(in) && r.Converged >= 0:
		fmt.Fprintf(&b, "NO TARGET: %s has no target, so nothing was checked; the reachable configurations stop growing at %s\n", in.file, units(r.Converged, r.Unit))
	case in.cuba:
		fmt.Fprintf(&b, "SAFE within %s: the target is not reachable with at most %s\n", units(r.Bound, r.Unit), units(r.Bound, r.Unit))
	default:
		fmt.Fprintf(&b, "SAFE within %s: no violation is reachable with at most %s\n", units(r.Bound, r.Unit), units(r.Bound, r.Unit))
	}
	for j, n := range counts {
		fmt.Fprintf(&b, "within %s: %d visible states, %d new view tuples%s\n", units(j, r.Unit), n, at(r.Stats.KeptPerLevel, j), levelTime(r, j))
	}
	if !c.quiet {
		b.WriteString(threadsLine(in))
	}
	if !c.quiet && c.engine.name == "explicit" {
		explicitSummary(&b, c, r)
	} else if !c.quiet {
		st := r.Stats
		fmt.Fprintf(&b, "%s splitting: %d view tuples, %d post* calls, %.3fs\n", s, st.ViewTuples, st.PostStarCalls, st.Time.Seconds())
		if c.stats {
			fmt.Fprintf(&b, "view tuples by %s: %v\ncovered tuples dropped: %d, restricted: %d\npost* calls answered by a result of the same level: %d\npost* steps: %d\npeak BDD node table occupancy: %d (varies from run to run)\n",
				r.Unit, st.TuplesPerLevel[:levels(r)], st.Dropped, st.Shrunk, st.PostStarShared, st.PostStarSteps, st.PeakNodes)
		}
	}
	io.WriteString(w, b.String())
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

// jsonThreads is the thread bound in JSON.
type jsonThreads struct {
	Max       int    `json:"max"`                 // threads the analysis had room for, initial and started
	Source    string `json:"source"`              // "program", "max-threads" (given) or "default" (of --max-threads)
	Program   *int   `json:"program,omitempty"`   // the most threads the program can have; absent when unbounded
	Unbounded bool   `json:"unbounded,omitempty"` // the program can start unboundedly many threads
}

func threadsJSON(in *input) *jsonThreads {
	if in == nil || in.net == nil {
		return nil
	}
	n := in.net
	t := &jsonThreads{Max: n.MaxThreads, Source: map[pds.ThreadSource]string{pds.ThreadsFromProgram: "program", pds.ThreadsFromOption: "max-threads", pds.ThreadsDefault: "default"}[n.ThreadSource]}
	if n.ProgramThreads == pds.Unbounded {
		t.Unbounded = true
	} else {
		p := n.ProgramThreads
		t.Program = &p
	}
	return t
}

// bound says the bound of a run.
func bound(c *config, r *cbr.Result) string {
	if c.unbounded {
		return "none, deepened to " + units(r.Bound, r.Unit)
	}
	return units(r.Bound, r.Unit)
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

func describe(v cbr.Found, u cbr.Unit) string {
	if v.Target != nil {
		return fmt.Sprintf("target %s (%s) first reached with %s", v.Message, v.Pos, units(v.Contexts, u))
	}
	what, msg := "assertion failed", v.Message
	if v.Kind == pds.Bounds {
		what = "index out of range"
		msg = strings.TrimPrefix(msg, what+": ")
	}
	if msg != "" {
		msg = ": " + msg
	}
	return fmt.Sprintf("%s at %s in thread %d (procedure %s)%s, first reached with %s", what, v.Pos, v.Thread, v.Proc, msg, units(v.Contexts, u))
}

type jsonViolation struct {
	Kind      string     `json:"kind"`
	Pos       string     `json:"pos"`
	Thread    int        `json:"thread"`
	Proc      string     `json:"proc"`
	Contexts  int        `json:"contexts"`
	Message   string     `json:"message,omitempty"`
	Trace     *jsonTrace `json:"trace,omitempty"`
	TraceNote string     `json:"traceError,omitempty"`
}

type jsonStats struct {
	TimeSeconds    float64 `json:"timeSeconds"`
	PostStarCalls  int     `json:"postStarCalls"`
	PostStarShared int     `json:"postStarShared"` // of the calls, those answered by a result computed before
	PostStarSteps  int     `json:"postStarSteps"`
	TuplesPerLevel []int   `json:"tuplesPerLevel"`
	Dropped        int     `json:"dropped"`
	Restricted     int     `json:"restricted"`
	PeakNodes      *int    `json:"peakNodes,omitempty"` // with --stats: varies from run to run
	Kernel         string  `json:"kernel"`
}

type jsonBound struct {
	Contexts      int     `json:"contexts"`
	VisibleStates int     `json:"visibleStates"`
	NewViewTuples int     `json:"newViewTuples"`
	Seconds       float64 `json:"seconds"`
}

type jsonResult struct {
	Version    string          `json:"version"`
	Verdict    string          `json:"verdict"`
	Reason     string          `json:"reason,omitempty"`
	Bound      int             `json:"bound"`
	Count      string          `json:"count,omitempty"` // "preemptions" when the bound counts them (contexts otherwise)
	Unbounded  bool            `json:"unbounded,omitempty"`
	Complete   int             `json:"complete"`
	Converged  *int            `json:"converged"`
	Visible    *jsonVisible    `json:"visibleConverged,omitempty"` // the visible states' criterion, when it proved the verdict
	Split      string          `json:"split,omitempty"`
	Prune      string          `json:"prune,omitempty"`
	Contexts   *int            `json:"contexts"`
	ViewTuples int             `json:"viewTuples"`
	Violations []jsonViolation `json:"violations"`
	PerBound   []jsonBound     `json:"perBound,omitempty"`
	Engine     string          `json:"engine,omitempty"`   // set for the explicit engine only
	Explicit   *jsonExplicit   `json:"explicit,omitempty"` // the explicit engine's figures
	Stats      jsonStats       `json:"stats"`
	Threads    *jsonThreads    `json:"threads,omitempty"`
}

func writeJSON(w io.Writer, in *input, c *config, s split.Strategy, r *cbr.Result, counts []int) {
	verdict := r.Verdict.String()
	if r.Verdict == cbr.Safe && noTarget(in) {
		verdict = "no-target"
	}
	prune := c.prune
	if c.noDedup {
		prune = "none"
	}
	out := jsonResult{Version: version, Verdict: verdict, Reason: r.Reason, Bound: r.Bound, Unbounded: c.unbounded, Complete: r.Complete,
		Split: s.String(), Prune: prune, ViewTuples: r.Stats.ViewTuples, Violations: []jsonViolation{},
		Stats: jsonStats{TimeSeconds: r.Stats.Time.Seconds(), PostStarCalls: r.Stats.PostStarCalls, PostStarShared: r.Stats.PostStarShared, PostStarSteps: r.Stats.PostStarSteps,
			TuplesPerLevel: r.Stats.TuplesPerLevel[:levels(r)], Dropped: r.Stats.Dropped, Restricted: r.Stats.Shrunk, Kernel: bdd.Kernel}}
	if r.Unit == cbr.Preemptions {
		out.Count = r.Unit.String()
	}
	out.Threads = threadsJSON(in)
	if out.Explicit = explicitJSON(c); out.Explicit != nil {
		out.Engine, out.Split, out.Prune = c.engine.name, "", ""
	}
	if c.stats {
		out.Stats.PeakNodes = &r.Stats.PeakNodes
	}
	if n := r.Contexts(); n >= 0 {
		out.Contexts = &n
	}
	if r.Converged >= 0 {
		out.Converged = &r.Converged
	}
	out.Visible = visibleJSON(r.Visible, r.Unit)
	for j, n := range counts {
		jb := jsonBound{Contexts: j, VisibleStates: n, NewViewTuples: at(r.Stats.KeptPerLevel, j)}
		if j < len(r.Stats.LevelTime) {
			jb.Seconds = r.Stats.LevelTime[j].Seconds()
		}
		out.PerBound = append(out.PerBound, jb)
	}
	tr := newTracer(in, c, r.Unit)
	for _, v := range r.Violations {
		kind := v.Kind.String()
		if v.Target != nil {
			kind = "target"
		}
		jv := jsonViolation{Kind: kind, Pos: v.Pos.String(), Thread: v.Thread, Proc: v.Proc, Contexts: v.Contexts, Message: v.Message}
		if v.Trace != nil {
			jv.Trace = tr.json(v.Trace)
		}
		if v.TraceErr != nil {
			jv.TraceNote = v.TraceErr.Error()
		}
		out.Violations = append(out.Violations, jv)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}
