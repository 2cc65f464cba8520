package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/pds"
)

// The seq engine (package cbr/seq): -k counts rounds of round-robin, and
// every message says so. Its report is its own (reportSeq), so that the
// view-tuple engine's output stays as it is.

// checkSeq checks the flags that the seq engine takes differently.
func checkSeq(c *config, opts *cbr.Options, targets bool) error {
	switch {
	case c.unbounded || c.perBound:
		return fmt.Errorf("--engine seq takes a bound of rounds: no --unbounded or --per-bound")
	case targets:
		return fmt.Errorf("--engine seq checks error labels only, not CUBA targets: use --engine cbr or explicit")
	}
	return nil
}

// runSeq runs the seq engine with the options of the command.
func runSeq(ctx context.Context, net *pds.Network, c *config, opts cbr.Options) (*cbr.Result, error) {
	so := seq.Options{Rounds: opts.Contexts, All: opts.All, Lazy: c.split == "lazy", Traces: opts.Traces, Limits: cbr.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory},
		OnProgress: opts.OnProgress}
	r, err := seq.Analyze(ctx, net, so)
	if r == nil {
		return nil, err
	}
	c.engine.seqStats = &r.Seq
	return &r.Result, err
}

// printSeq prints the sequential network of -k rounds.
func printSeq(ctx context.Context, w io.Writer, net *pds.Network, c *config) error {
	slotted, err := net.WithThreadSlots(net.MaxThreads)
	if err != nil {
		return err
	}
	build := seq.Build
	if c.split == "lazy" {
		build = seq.BuildLazy
	}
	s, err := build(ctx, slotted, c.contexts, bdd.Config{Limits: limitsOf(c)})
	if err != nil {
		return err
	}
	return s.Net.Print(w)
}

// seqProgress is the progress line of the seq engine.
func seqProgress(w io.Writer) func(cbr.Progress) {
	return throttled(w, func(p cbr.Progress) string {
		return fmt.Sprintf("%s, %d post* steps, %.1fs", plural(p.Level, "round"), p.Tuples, p.Elapsed.Seconds())
	})
}

// reportSeq writes the seq engine's result, in text or JSON.
func reportSeq(w io.Writer, in *input, c *config, r *cbr.Result) {
	if c.json {
		writeSeqJSON(w, in, c, r)
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
			fmt.Fprintf(&b, "VIOLATION %s\n", strings.Replace(describe(v, engine.Rounds), "first reached with ", "first reached within ", 1))
			tr.write(&b, c, v)
		}
	case r.Complete < 0:
		fmt.Fprintf(&b, "UNKNOWN: %s; nothing was explored (bound %s)\n", r.Reason, plural(r.Bound, "round"))
	case r.Verdict == cbr.Unknown && r.Complete < 1:
		fmt.Fprintf(&b, "UNKNOWN: %s (bound %s)\n", r.Reason, plural(r.Bound, "round"))
	case r.Verdict == cbr.Unknown:
		fmt.Fprintf(&b, "UNKNOWN: %s; complete up to %s: no violation is reachable within %s (bound %s)\n",
			r.Reason, plural(r.Complete, "round"), plural(r.Complete, "round"), plural(r.Bound, "round"))
	default:
		fmt.Fprintf(&b, "SAFE within %s: no violation is reachable within %s of round-robin\n", plural(r.Bound, "round"), plural(r.Bound, "round"))
	}
	if !c.quiet {
		b.WriteString(threadsLine(in))
		st := c.engine.seqStats
		if st == nil {
			st = &seq.Stats{}
		}
		fmt.Fprintf(&b, "sequential reduction (%s): %s, %d rules, %d post* steps, %.3fs\n", c.split, plural(st.Threads, "thread"), st.Rules, r.Stats.PostStarSteps, r.Stats.Time.Seconds())
		if c.stats {
			fmt.Fprintf(&b, "build: %.3fs, post*: %.3fs\nlabels: %d, bits of globals: %d, nodes of the rules: %d\npeak BDD node table occupancy: %d (varies from run to run)\n",
				st.BuildTime.Seconds(), st.PostTime.Seconds(), st.Labels, st.GlobalBits, st.Nodes, r.Stats.PeakNodes)
		}
	}
	io.WriteString(w, b.String())
}

type jsonSeqViolation struct {
	Kind    string     `json:"kind"`
	Pos     string     `json:"pos"`
	Thread  int        `json:"thread"`
	Proc    string     `json:"proc"`
	Rounds  int        `json:"rounds"`
	Message string     `json:"message,omitempty"`
	Trace   *jsonTrace `json:"trace,omitempty"`
	// TraceNote says why a violation has no trace.
	TraceNote string `json:"traceError,omitempty"`
}

type jsonSeq struct {
	Version    string             `json:"version"`
	Engine     string             `json:"engine"`
	Unit       string             `json:"unit"`
	Verdict    string             `json:"verdict"`
	Reason     string             `json:"reason,omitempty"`
	Bound      int                `json:"bound"`
	Complete   int                `json:"complete"`
	Split      string             `json:"split"`
	Rounds     *int               `json:"rounds"`
	Violations []jsonSeqViolation `json:"violations"`
	Seq        struct {
		Threads       int     `json:"threads"`
		Rules         int     `json:"rules"`
		Labels        int     `json:"labels"`
		GlobalBits    int     `json:"globalBits"`
		RuleNodes     int     `json:"ruleNodes"`
		PostStarSteps int     `json:"postStarSteps"`
		TimeSeconds   float64 `json:"timeSeconds"`         // the whole run, construction included
		PeakNodes     *int    `json:"peakNodes,omitempty"` // with --stats: varies from run to run
		Kernel        string  `json:"kernel"`
	} `json:"stats"`
	Threads *jsonThreads `json:"threads,omitempty"`
}

func writeSeqJSON(w io.Writer, in *input, c *config, r *cbr.Result) {
	out := jsonSeq{Version: version, Engine: seq.Name, Unit: engine.Rounds.String(), Verdict: r.Verdict.String(), Reason: r.Reason,
		Bound: r.Bound, Complete: r.Complete, Split: c.split, Violations: []jsonSeqViolation{}, Threads: threadsJSON(in)}
	if n := r.Contexts(); n >= 0 {
		out.Rounds = &n
	}
	tr := newTracer(in, c, r.Unit)
	for _, v := range r.Violations {
		jv := jsonSeqViolation{Kind: v.Kind.String(), Pos: v.Pos.String(), Thread: v.Thread, Proc: v.Proc, Rounds: v.Contexts, Message: v.Message}
		if v.Trace != nil {
			jv.Trace = tr.json(v.Trace)
		}
		if v.TraceErr != nil {
			jv.TraceNote = v.TraceErr.Error()
		}
		out.Violations = append(out.Violations, jv)
	}
	if st := c.engine.seqStats; st != nil {
		out.Seq.Threads, out.Seq.Rules, out.Seq.Labels, out.Seq.GlobalBits, out.Seq.RuleNodes = st.Threads, st.Rules, st.Labels, st.GlobalBits, st.Nodes
	}
	out.Seq.PostStarSteps, out.Seq.TimeSeconds, out.Seq.Kernel = r.Stats.PostStarSteps, r.Stats.Time.Seconds(), bdd.Kernel
	if c.stats {
		out.Seq.PeakNodes = &r.Stats.PeakNodes
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
