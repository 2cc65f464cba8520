package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/auto"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
	"github.com/cbreach/cbreach/split"
	"github.com/spf13/pflag"
)

// The engines come from the table of package cbr/engines: --engine names
// one, and the flags of its settings apply to it alone. What is shown
// per engine (its line of figures, its progress line, its figures in
// JSON, its --print-rules) is the table shows below, keyed by name.

// engineFlags are the flags that choose an engine or apply to the
// explicit one only.
type engineFlags struct {
	name      string
	maxDepth  int
	noPOR     bool
	selfCheck bool
}

func init() {
	longFlags = append(longFlags, "engine", "max-depth", "no-por", "self-check")
}

func addEngineFlags(fs *pflag.FlagSet, e *engineFlags) {
	fs.StringVar(&e.name, "engine", tuples.Name, "analysis `ENGINE`: cbr (symbolic, view tuples), seq (symbolic, sequential reduction: -k counts rounds of round-robin) or explicit (explicit states, for small models)")
	fs.IntVar(&e.maxDepth, "max-depth", states.DefaultMaxDepth, "explicit engine: explore stacks of at most `N` frames (deeper calls give UNKNOWN)")
	fs.BoolVar(&e.noPOR, "no-por", false, "explicit engine: turn the partial-order reduction off")
	fs.BoolVar(&e.selfCheck, "self-check", false, fmt.Sprintf("run cbr eager, cbr lazy, explicit (and seq up to %s) and compare verdicts, fewest contexts, violation sites, coverage and traces (exit 4 when they disagree)", cbr.Rounds.Of(seqMaxRounds)))
}

// settingFlags maps the flags that apply to some engines only to the
// setting of the table (engines.Entry.Settings) that they give.
var settingFlags = []struct{ flag, setting string }{
	{"split", "split"},
	{"prune", "prune"},
	{"no-dedup", "prune"},
	{"max-tuples", "max-tuples"},
	{"reach-tops", "per-bound"},
	{"per-bound", "per-bound"},
	{"max-depth", "max-depth"},
	{"no-por", "no-por"},
}

// checkEngine looks --engine up and checks that every flag given applies
// to it.
func checkEngine(c *config, fs *pflag.FlagSet) error {
	entry, err := engines.Lookup(c.engine.name)
	if err != nil {
		return fmt.Errorf("--engine: %v", err)
	}
	c.entry = entry
	if c.engine.selfCheck {
		for _, f := range []string{"engine", "split", "json", "dot", "reach-tops", "per-bound", "unbounded", "print-rules"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s does not go with --self-check, which runs every engine", f)
			}
		}
		return nil
	}
	for _, f := range settingFlags {
		if fs.Changed(f.flag) && !entry.Takes(f.setting) {
			return fmt.Errorf("--%s applies to --engine %s only, not to --engine %s", f.flag, engines.Or(engines.Taking(f.setting)), entry.Name)
		}
	}
	switch {
	case fs.Changed("unbounded") && !entry.Unbounded:
		return fmt.Errorf("--unbounded applies to --engine %s only, not to --engine %s", tuples.Name, entry.Name)
	case entry.Units[0] == cbr.Rounds && c.count != "contexts":
		return fmt.Errorf("--count: --engine %s counts rounds, not %s", entry.Name, c.count)
	case c.engine.maxDepth < 1:
		return fmt.Errorf("--max-depth: need at least 1 frame, got %d", c.engine.maxDepth)
	}
	return nil
}

// shows are what the command shows of each engine.
type shows struct {
	summary  func(b *strings.Builder, c *config, r *cbr.Result) // its line of figures, and the --stats lines
	progress func(p cbr.Progress, u cbr.Unit) string
	stats    func(out *schema.Output, c *config, r *cbr.Result) // its figures in JSON
	print    func(ctx context.Context, w io.Writer, net *pds.Network, c *config) error
}

// show returns what is shown of the chosen engine.
func (c *config) show() shows { return engineShows[c.entry.Name] }

var engineShows = map[string]shows{
	tuples.Name: {summary: tupleSummary, progress: tupleProgress, stats: tupleStats, print: printNet},
	seq.Name:    {summary: seqSummary, progress: seqProgress, stats: seqStats, print: printSeq},
	states.Name: {summary: explicitSummary, progress: explicitProgress, stats: explicitStats, print: printNet},
}

// auto's result is shown as the engine that answered shows its own
// (auto.Own), after a line naming it; a result without the portfolio's
// figures (nothing was analysed) as the symbolic engine's.
func init() {
	answered := func(r *cbr.Result) (string, *cbr.Result) {
		if st := auto.Figures(r); st != nil {
			return st.Answered, auto.Own(r)
		}
		return tuples.Name, r
	}
	engineShows[auto.Name] = shows{
		summary: func(b *strings.Builder, c *config, r *cbr.Result) {
			name, own := answered(r)
			if st := auto.Figures(r); st != nil {
				fmt.Fprintf(b, "portfolio: %s answered", name)
				for _, run := range st.Runs {
					switch {
					case run.Engine == name:
					case run.Stopped:
						fmt.Fprintf(b, "; %s was stopped", run.Engine)
					case run.Verdict == cbr.Unknown:
						fmt.Fprintf(b, "; %s: unknown (%s)", run.Engine, run.Reason)
					default:
						fmt.Fprintf(b, "; %s: %s", run.Engine, run.Verdict)
					}
				}
				b.WriteString("\n")
			}
			engineShows[name].summary(b, c, own)
		},
		progress: func(p cbr.Progress, u cbr.Unit) string {
			return fmt.Sprintf("%s, %d done, %d queued, %.1fs", u.Of(p.Level), p.Tuples, p.Queued, p.Elapsed.Seconds())
		},
		stats: func(out *schema.Output, c *config, r *cbr.Result) {
			name, own := answered(r)
			out.Answered = name
			engineShows[name].stats(out, c, own)
		},
		print: printNet,
	}
}

func printNet(_ context.Context, w io.Writer, net *pds.Network, _ *config) error { return net.Print(w) }

// levels is the number of levels whose items were expanded: 0 to k-1
// contexts, or 0 to k preemptions.
func levels(r *cbr.Result) int {
	if r.Unit == cbr.Preemptions {
		return r.Bound + 1
	}
	return r.Bound
}

func tupleSummary(b *strings.Builder, c *config, r *cbr.Result) {
	st := r.Stats
	fmt.Fprintf(b, "%s splitting: %s, %s, %.3fs\n", c.strategy, plural.Count(st.ViewTuples, "view tuple"), plural.Count(st.PostStarCalls, "post* call"), st.Time.Seconds())
	if c.stats {
		fmt.Fprintf(b, "view tuples by %s: %v\ncovered tuples dropped: %d, restricted: %d\npost* calls answered by a result of the same level: %d\npost* steps: %d\npeak BDD node table occupancy: %d (varies from run to run)\n",
			r.Unit, st.TuplesPerLevel[:levels(r)], st.Dropped, st.Shrunk, st.PostStarShared, st.PostStarSteps, st.PeakNodes)
	}
}

func tupleProgress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %s done, %d queued, %s, %.1fs", u.Of(p.Level), plural.Count(p.Tuples, "view tuple"), p.Queued, plural.Count(p.PostStar, "post* call"), p.Elapsed.Seconds())
}

func tupleStats(out *schema.Output, c *config, r *cbr.Result) {
	n := r.Stats.ViewTuples
	out.Split, out.Prune, out.ViewTuples = c.strategy.String(), c.prune, &n
	if c.noDedup {
		out.Prune = "none"
	}
	out.Stats.Tuples = &schema.TupleStats{PostStarCalls: r.Stats.PostStarCalls, PostStarShared: r.Stats.PostStarShared,
		TuplesPerLevel: r.Stats.TuplesPerLevel[:levels(r)], Dropped: r.Stats.Dropped, Restricted: r.Stats.Shrunk}
}

func seqSummary(b *strings.Builder, c *config, r *cbr.Result) {
	st := seq.Figures(r)
	if st == nil { // nothing was analysed
		st = &seq.Stats{}
	}
	fmt.Fprintf(b, "sequential reduction (%s): %s, %s, %s, %.3fs\n", c.split, plural.Count(st.Threads, "thread"), plural.Count(st.Rules, "rule"), plural.Count(r.Stats.PostStarSteps, "post* step"), r.Stats.Time.Seconds())
	if c.stats {
		fmt.Fprintf(b, "build: %.3fs, post*: %.3fs\nlabels: %d, bits of globals: %d, nodes of the rules: %d\npeak BDD node table occupancy: %d (varies from run to run)\n",
			st.BuildTime.Seconds(), st.PostTime.Seconds(), st.Labels, st.GlobalBits, st.Nodes, r.Stats.PeakNodes)
	}
}

func seqProgress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %s, %.1fs", u.Of(p.Level), plural.Count(p.Tuples, "post* step"), p.Elapsed.Seconds())
}

func seqStats(out *schema.Output, c *config, r *cbr.Result) {
	out.Split = c.split
	if st := seq.Figures(r); st != nil {
		out.Stats.Seq = &schema.SeqStats{Threads: st.Threads, Rules: st.Rules, Labels: st.Labels, GlobalBits: st.GlobalBits, RuleNodes: st.Nodes}
	}
}

// printSeq prints the sequential network of -k rounds.
func printSeq(ctx context.Context, w io.Writer, net *pds.Network, c *config) error {
	slotted, err := net.WithThreadSlots(net.MaxThreads)
	if err != nil {
		return err
	}
	build := seq.Build
	if c.strategy == split.Lazy {
		build = seq.BuildLazy
	}
	s, err := build(ctx, slotted, c.contexts, bdd.Config{Limits: bdd.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory}})
	if err != nil {
		return err
	}
	return s.Net.Print(w)
}

// por reports whether the explicit engine's reduction was on.
func por(c *config, r *cbr.Result) bool { return !c.engine.noPOR && r.Unit != cbr.Preemptions }

func explicitSummary(b *strings.Builder, c *config, r *cbr.Result) {
	st := states.Figures(r)
	if st == nil { // nothing was analysed
		st = &states.Stats{}
	}
	on := map[bool]string{true: "on", false: "off"}[por(c, r)]
	fmt.Fprintf(b, "explicit search: %s, %s, %s, %.3fs\n", plural.Count(st.States, "state"), plural.Count(st.Transitions, "transition"), plural.Count(st.Configs, "configuration"), r.Stats.Time.Seconds())
	if c.stats {
		fmt.Fprintf(b, "configurations first reached by %s: %v\nstates expanded by %s: %v\n", r.Unit, st.ConfigsPerLevel, r.Unit, st.StatesPerLevel)
		fmt.Fprintf(b, "partial-order reduction: %s, %s left out\nstates expanded again (fewer contexts or another last thread): %d\n", on, plural.Count(st.Reduced, "switch"), st.Revisits)
		fmt.Fprintf(b, "stored states: about %s\ndeepest stack: %s\n", plural.Count(st.StoredBytes, "byte"), plural.Count(st.Deepest, "frame"))
	}
}

func explicitProgress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %s done, %d queued, %.1fs", u.Of(p.Level), plural.Count(p.Tuples, "state"), p.Queued, p.Elapsed.Seconds())
}

func explicitStats(out *schema.Output, c *config, r *cbr.Result) {
	st := states.Figures(r)
	if st == nil {
		return
	}
	n := st.States
	out.States = &n
	out.Stats.Explicit = &schema.ExplicitStats{Transitions: st.Transitions, Configs: st.Configs, ConfigsPerLevel: st.ConfigsPerLevel,
		StatesPerLevel: st.StatesPerLevel, POR: por(c, r), Reduced: st.Reduced, Revisits: st.Revisits, StoredBytes: st.StoredBytes, Deepest: st.Deepest}
}
