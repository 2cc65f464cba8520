package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/pds"
	"github.com/spf13/pflag"
)

// The engines: cbr (symbolic, the jMoped paper's algorithm), seq
// (symbolic, Lal and Reps' reduction to one sequential pushdown network;
// -k counts rounds; seq.go) and explicit (explicit states, for small
// models). Which flags apply to which engine
// is the table engineOf; README.md shows it to users.

// engineFlags are the flags that choose an engine or apply to the
// explicit one only.
type engineFlags struct {
	name      string
	maxDepth  int
	noPOR     bool
	selfCheck bool

	stats      *states.Stats // the explicit engine's figures, after its run
	seqStats   *seq.Stats    // the seq engine's figures, after its run
	splitGiven bool          // --split was given
}

func init() {
	longFlags = append(longFlags, "engine", "max-depth", "no-por", "self-check")
}

func addEngineFlags(fs *pflag.FlagSet, e *engineFlags) {
	fs.StringVar(&e.name, "engine", "cbr", "analysis `ENGINE`: cbr (symbolic, view tuples), seq (symbolic, sequential reduction: -k counts rounds of round-robin) or explicit (explicit states, for small models)")
	fs.IntVar(&e.maxDepth, "max-depth", states.DefaultMaxDepth, "explicit engine: explore stacks of at most `N` frames (deeper calls give UNKNOWN)")
	fs.BoolVar(&e.noPOR, "no-por", false, "explicit engine: turn the partial-order reduction off")
	fs.BoolVar(&e.selfCheck, "self-check", false, fmt.Sprintf("run cbr eager, cbr lazy, explicit (and seq up to %d rounds) and compare verdicts, fewest contexts, violation sites and traces (exit 4 when they disagree)", seqMaxRounds))
}

// engineOf names the one engine a flag applies to; flags not listed apply
// to both. A flag given for the other engine is a usage error.
var engineOf = []struct{ flag, engine string }{
	{"split", "cbr"},
	{"prune", "cbr"},
	{"no-dedup", "cbr"},
	{"max-tuples", "cbr"},
	{"reach-tops", "cbr"},
	{"per-bound", "cbr"},
	{"unbounded", "cbr"},
	{"max-depth", "explicit"},
	{"no-por", "explicit"},
}

// checkEngine checks --engine and that every flag given applies to it.
func checkEngine(c *config, fs *pflag.FlagSet) error {
	e := &c.engine
	if e.name != "cbr" && e.name != states.Name && e.name != seq.Name {
		return fmt.Errorf("--engine: want cbr, seq or explicit, got %q", e.name)
	}
	e.splitGiven = fs.Changed("split")
	if e.selfCheck {
		for _, f := range []string{"engine", "split", "json", "reach-tops", "per-bound", "unbounded", "print-rules"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s does not go with --self-check, which runs every engine", f)
			}
		}
		return nil
	}
	for _, f := range engineOf {
		if f.flag == "split" && e.name == seq.Name {
			continue // its eager or lazy form (checkSeq)
		}
		if fs.Changed(f.flag) && f.engine != e.name {
			return fmt.Errorf("--%s applies to --engine %s only, not to --engine %s", f.flag, f.engine, e.name)
		}
	}
	if e.name == seq.Name && c.unit != cbr.Contexts {
		return fmt.Errorf("--count: --engine seq counts rounds, not %s", c.unit)
	}
	if e.maxDepth < 1 {
		return fmt.Errorf("--max-depth: need at least 1 frame, got %d", e.maxDepth)
	}
	return nil
}

// runExplicit runs the explicit engine with the options of the command.
func runExplicit(ctx context.Context, net *pds.Network, c *config, opts cbr.Options) (*cbr.Result, error) {
	xo := states.Options{Contexts: opts.Contexts, Count: opts.Count, MaxDepth: c.engine.maxDepth, All: opts.All, Targets: opts.Targets,
		NoPOR: c.engine.noPOR, MaxStateBytes: opts.MaxMemory, Limits: cbr.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory}, OnProgress: opts.OnProgress,
		Traces: opts.Traces}
	r, err := states.Run(ctx, net, xo)
	if r == nil {
		return nil, err
	}
	c.engine.stats = &r.Explicit
	return &r.Result, err
}

// explicitProgress is the progress line of the explicit engine.
func explicitProgress(w io.Writer, u cbr.Unit) func(cbr.Progress) {
	return throttled(w, func(p cbr.Progress) string {
		return fmt.Sprintf("%s, %d states done, %d queued, %.1fs", units(p.Level, u), p.Tuples, p.Queued, p.Elapsed.Seconds())
	})
}

// explicitSummary writes the figures of an explicit run: one line, and
// more with --stats.
func explicitSummary(b *strings.Builder, c *config, r *cbr.Result) {
	st := c.engine.stats
	if st == nil { // nothing was analysed
		st = &states.Stats{}
	}
	por := "on"
	if c.engine.noPOR || r.Unit == cbr.Preemptions {
		por = "off"
	}
	fmt.Fprintf(b, "explicit search: %d states, %d transitions, %d configurations, %.3fs\n", st.States, st.Transitions, st.Configs, r.Stats.Time.Seconds())
	if c.stats {
		fmt.Fprintf(b, "configurations first reached by %s: %v\nstates expanded by %s: %v\n", r.Unit, st.ConfigsPerLevel, r.Unit, st.StatesPerLevel)
		fmt.Fprintf(b, "partial-order reduction: %s, %d switches left out\nstates expanded again (fewer contexts or another last thread): %d\n", por, st.Reduced, st.Revisits)
		fmt.Fprintf(b, "stored states: about %d bytes\ndeepest stack: %s\n", st.StoredBytes, plural(st.Deepest, "frame"))
	}
}

type jsonExplicit struct {
	States          int   `json:"states"`
	Transitions     int   `json:"transitions"`
	Configs         int   `json:"configurations"`
	ConfigsPerLevel []int `json:"configurationsPerLevel"`
	StatesPerLevel  []int `json:"statesPerLevel"`
	POR             bool  `json:"por"`
	Reduced         int   `json:"reduced"`
	Revisits        int   `json:"revisits"`
	StoredBytes     int64 `json:"storedBytes"`
	Deepest         int   `json:"deepest"`
}

func explicitJSON(c *config) *jsonExplicit {
	st := c.engine.stats
	if st == nil {
		return nil
	}
	return &jsonExplicit{States: st.States, Transitions: st.Transitions, Configs: st.Configs, ConfigsPerLevel: st.ConfigsPerLevel,
		StatesPerLevel: st.StatesPerLevel, POR: !c.engine.noPOR && c.unit != cbr.Preemptions, Reduced: st.Reduced, Revisits: st.Revisits, StoredBytes: st.StoredBytes, Deepest: st.Deepest}
}
