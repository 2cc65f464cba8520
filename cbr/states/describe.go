package states

import (
	"fmt"
	"strconv"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds/plural"
)

// How the engine describes itself to the front doors (package
// cbr/engines): its settings by name, and its figures.

// Settings are the settings the engine takes from a front door.
var Settings = []cbr.Setting{
	{Name: "max-depth", Kind: cbr.Whole, Default: strconv.Itoa(DefaultMaxDepth), Want: "a whole number of stack frames",
		Usage: "explicit engine: explore stacks of at most `N` frames (deeper calls give UNKNOWN)"},
	{Name: "no-por", Kind: cbr.Switch, Default: "false",
		Usage: "explicit engine: turn the partial-order reduction off"},
}

// New makes the engine from a front door's settings.
func New(s cbr.Settings) (Engine, error) {
	depth, err := Settings[0].Value(s)
	if err != nil {
		return Engine{}, err
	}
	noPOR, err := Settings[1].Value(s)
	if err != nil {
		return Engine{}, err
	}
	e := Engine{NoPOR: noPOR == "true"}
	e.MaxDepth, _ = strconv.Atoi(depth)
	if e.MaxDepth < 1 {
		return e, &cbr.SettingError{Setting: "max-depth", Value: depth, Want: "at least 1 frame"}
	}
	return e, nil
}

// Progress is the line of a progress report.
func Progress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %s done, %d queued, %.1fs", u.Of(p.Level), plural.Count(p.Tuples, "state"), p.Queued, p.Elapsed.Seconds())
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

func (f figures) stats() *Stats {
	if f.st == nil {
		return &Stats{}
	}
	return f.st
}

// por reports whether the reduction was on: not when counting
// preemptions.
func (f figures) por() bool { return !f.e.NoPOR && f.r.Unit != cbr.Preemptions }

func (f figures) Settings() []cbr.Named { return nil }

func (f figures) Summary() string {
	st := f.stats()
	return fmt.Sprintf("explicit search: %s, %s, %s", plural.Count(st.States, "state"), plural.Count(st.Transitions, "transition"), plural.Count(st.Configs, "configuration"))
}

func (f figures) Details() []string {
	st, u := f.stats(), f.r.Unit
	on := map[bool]string{true: "on", false: "off"}[f.por()]
	return []string{
		fmt.Sprintf("configurations first reached by %s: %v", u, st.ConfigsPerLevel),
		fmt.Sprintf("states expanded by %s: %v", u, st.StatesPerLevel),
		fmt.Sprintf("partial-order reduction: %s, %s left out", on, plural.Count(st.Reduced, "switch")),
		fmt.Sprintf("states expanded again (fewer contexts or another last thread): %d", st.Revisits),
		fmt.Sprintf("stored states: about %s", plural.Count(st.StoredBytes, "byte")),
		fmt.Sprintf("deepest stack: %s", plural.Count(st.Deepest, "frame")),
	}
}

func (f figures) Work() cbr.Named {
	if f.st == nil {
		return cbr.Named{}
	}
	return cbr.Named{Name: "states", Value: f.st.States}
}

// JSONStats are the engine's figures in the JSON output (docs/json.md).
type JSONStats struct {
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

func (f figures) Stats() (string, any) {
	st := f.st
	if st == nil {
		return "explicit", nil
	}
	return "explicit", &JSONStats{Transitions: st.Transitions, Configs: st.Configs, ConfigsPerLevel: st.ConfigsPerLevel,
		StatesPerLevel: st.StatesPerLevel, POR: f.por(), Reduced: st.Reduced, Revisits: st.Revisits, StoredBytes: st.StoredBytes, Deepest: st.Deepest}
}
