package seq

import (
	"context"
	"fmt"
	"io"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// How the engine describes itself to the front doors (package
// cbr/engines): its settings by name, its figures, and the network it
// analyses, for --print-rules.

// Settings are the settings the engine takes from a front door.
var Settings = []cbr.Setting{
	{Name: "split", Kind: cbr.Choice, Default: "lazy", Choices: []string{"eager", "lazy"},
		Usage: "the sequential reduction's form"},
}

// New makes the engine from a front door's settings.
func New(s cbr.Settings) (Engine, error) {
	form, err := Settings[0].Value(s)
	return Engine{Eager: form == "eager"}, err
}

// Progress is the line of a progress report.
func Progress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %s, %.1fs", u.Of(p.Level), plural.Count(p.Tuples, "post* step"), p.Elapsed.Seconds())
}

// Print prints the sequential network of the given rounds that the
// engine analyses for net.
func (e Engine) Print(ctx context.Context, w io.Writer, net *pds.Network, rounds int, lim bdd.Limits) error {
	slotted, err := net.WithThreadSlots(net.MaxThreads)
	if err != nil {
		return err
	}
	build := BuildLazy
	if e.Eager {
		build = Build
	}
	s, err := build(ctx, slotted, rounds, bdd.Config{Limits: lim})
	if err != nil {
		return err
	}
	return s.Net.Print(w)
}

// form is the name of the engine's form.
func (e Engine) form() string {
	if e.Eager {
		return "eager"
	}
	return "lazy"
}

// Figures returns the figures of a run of e that gave r (st nil: a run
// that analysed nothing, a limit while compiling).
func (e Engine) Figures(r *cbr.Result, st *Stats) cbr.Figures { return figures{e, r, st} }

// Figures returns the figures of a result of this engine (nil for another
// engine's).
func Figures(r *cbr.Result) *Stats {
	f, _ := r.Figures.(figures)
	return f.st
}

type figures struct {
	e  Engine
	r  *cbr.Result
	st *Stats // nil when nothing was analysed
}

// stats are f's Stats, zero when nothing was analysed.
func (f figures) stats() *Stats {
	if f.st == nil {
		return &Stats{}
	}
	return f.st
}

func (f figures) Settings() []cbr.Named { return []cbr.Named{{Name: "split", Value: f.e.form()}} }

func (f figures) Summary() string {
	st := f.stats()
	return fmt.Sprintf("sequential reduction (%s): %s, %s, %s", f.e.form(), plural.Count(st.Threads, "thread"),
		plural.Count(st.Rules, "rule"), plural.Count(f.r.Stats.PostStarSteps, "post* step"))
}

func (f figures) Details() []string {
	st := f.stats()
	return []string{
		fmt.Sprintf("build: %.3fs, post*: %.3fs", st.BuildTime.Seconds(), st.PostTime.Seconds()),
		fmt.Sprintf("labels: %d, bits of globals: %d, nodes of the rules: %d", st.Labels, st.GlobalBits, st.Nodes),
		fmt.Sprintf("peak BDD node table occupancy: %d (varies from run to run)", f.r.Stats.PeakNodes),
	}
}

func (f figures) Work() cbr.Named { return cbr.Named{} }

// JSONStats are the engine's figures in the JSON output (docs/json.md).
type JSONStats struct {
	Threads    int `json:"threads"`
	Rules      int `json:"rules"`
	Labels     int `json:"labels"`
	GlobalBits int `json:"globalBits"`
	RuleNodes  int `json:"ruleNodes"`
}

func (f figures) Stats() (string, any) {
	st := f.st
	if st == nil {
		return "seq", nil
	}
	return "seq", &JSONStats{Threads: st.Threads, Rules: st.Rules, Labels: st.Labels, GlobalBits: st.GlobalBits, RuleNodes: st.Nodes}
}
