package tuples

import (
	"fmt"
	"strconv"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds/plural"
	"github.com/cbreach/cbreach/split"
)

// How the engine describes itself to the front doors (package
// cbr/engines): its settings by name, and its figures.

// Settings are the settings the engine takes from a front door.
var Settings = []cbr.Setting{
	{Name: "split", Kind: cbr.Choice, Default: "lazy", Choices: []string{"eager", "lazy"},
		Usage: "view tuple splitting"},
	{Name: "prune", Kind: cbr.Choice, Default: "subsumed", Choices: []string{"subsumed", "identical", "none"},
		Usage:   "leave out new view tuples covered by kept ones, `MODE` subsumed, identical or none (exact in every mode)",
		Aliases: []cbr.Alias{{Flag: "no-dedup", Value: "none", Usage: "same as --prune none: the jMoped paper's counting of view tuples (slower)"}}},
	{Name: "max-tuples", Kind: cbr.Whole, Default: strconv.Itoa(DefaultMaxTuples), Want: "a whole number of view tuples (0: no limit)",
		Usage: "eager splitting: refuse a split into more than `N` view tuples; 0 means no limit"},
	{Name: "per-bound", Kind: cbr.Switch, Default: "false",
		Usage:   "explore the whole bound and report, per number of contexts, the new view tuples, the reachable visible states (globals and stack tops) and the time",
		Aliases: []cbr.Alias{{Flag: "reach-tops", Value: "true", Usage: "same as --per-bound"}}},
}

// New makes the engine from a front door's settings.
func New(s cbr.Settings) (Engine, error) {
	var e Engine
	vals := make([]string, len(Settings))
	for i, set := range Settings {
		v, err := set.Value(s)
		if err != nil {
			return e, err
		}
		vals[i] = v
	}
	e.Split, _ = split.Parse(vals[0])
	e.Prune = map[string]Prune{"subsumed": PruneSubsumed, "identical": PruneIdentical, "none": PruneNone}[vals[1]]
	if _, given := s["max-tuples"]; given {
		// 0 means no limit here; the engine's 0 means the options' limit.
		if e.SplitLimit, _ = strconv.Atoi(vals[2]); e.SplitLimit == 0 {
			e.SplitLimit = NoTupleLimit
		}
	}
	e.PerBound = vals[3] == "true"
	return e, nil
}

// Progress is the line of a progress report.
func Progress(p cbr.Progress, u cbr.Unit) string {
	return fmt.Sprintf("%s, %s done, %d queued, %s, %.1fs", u.Of(p.Level), plural.Count(p.Tuples, "view tuple"), p.Queued, plural.Count(p.PostStar, "post* call"), p.Elapsed.Seconds())
}

// Figures returns the figures of a run of e that gave r: also of a run
// that analysed nothing (a limit while compiling).
func (e Engine) Figures(r *cbr.Result) cbr.Figures { return figures{e, r} }

// figures are a run's: the view tuples and post* calls of r.Stats.
type figures struct {
	e Engine
	r *cbr.Result
}

func (f figures) Settings() []cbr.Named {
	return []cbr.Named{{Name: "split", Value: f.e.Split.String()}, {Name: "prune", Value: f.e.Prune.String()}}
}

func (f figures) Summary() string {
	st := f.r.Stats
	return fmt.Sprintf("%s splitting: %s, %s", f.e.Split, plural.Count(st.ViewTuples, "view tuple"), plural.Count(st.PostStarCalls, "post* call"))
}

func (f figures) Details() []string {
	st := f.r.Stats
	return []string{
		fmt.Sprintf("view tuples by %s: %v", f.r.Unit, f.perLevel()),
		fmt.Sprintf("covered tuples dropped: %d, restricted: %d", st.Dropped, st.Shrunk),
		fmt.Sprintf("post* calls answered by a result of the same level: %d", st.PostStarShared),
		fmt.Sprintf("post* steps: %d", st.PostStarSteps),
		fmt.Sprintf("peak BDD node table occupancy: %d (varies from run to run)", st.PeakNodes),
	}
}

// perLevel is the view tuples by level, for the levels whose tuples
// were expanded: 0 to k-1 contexts, or 0 to k preemptions.
func (f figures) perLevel() []int {
	n := f.r.Bound
	if f.r.Unit == cbr.Preemptions {
		n++
	}
	return f.r.Stats.TuplesPerLevel[:min(n, len(f.r.Stats.TuplesPerLevel))]
}

func (f figures) Work() cbr.Named { return cbr.Named{Name: "viewTuples", Value: f.r.Stats.ViewTuples} }

// Stats are the engine's figures in the JSON output (docs/json.md).
type Stats struct {
	PostStarCalls  int   `json:"postStarCalls"`
	PostStarShared int   `json:"postStarShared"` // of the calls, those answered by a result computed before
	TuplesPerLevel []int `json:"tuplesPerLevel"`
	Dropped        int   `json:"dropped"`
	Restricted     int   `json:"restricted"`
}

func (f figures) Stats() (string, any) {
	st := f.r.Stats
	return "tuples", &Stats{PostStarCalls: st.PostStarCalls, PostStarShared: st.PostStarShared,
		TuplesPerLevel: f.perLevel(), Dropped: st.Dropped, Restricted: st.Shrunk}
}
