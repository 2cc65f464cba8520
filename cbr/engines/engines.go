package engines

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/auto"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
)

// Engine analyses a network with the options every engine takes; its own
// settings are carried by the value.
type Engine interface {
	Analyze(ctx context.Context, net *pds.Network, opts cbr.Options) (*cbr.Result, error)
}

// Settings are the values of the engines' settings by name, as a front
// door gives them (the command line's flags, a task's options): each
// engine reads its own (Entry.Settings describes them) and ignores the
// others.
type Settings = cbr.Settings

// Entry is one engine of the table: everything a front door needs to
// offer it, run it and show its results.
type Entry struct {
	Name string // as --engine and task files name it
	Doc  string // one line
	// Units are the units its bound counts, its default first.
	Units []cbr.Unit
	// Settings are the settings it takes, by the names of the command
	// line's flags; Unbounded says whether it deepens the bound itself
	// (cbr.Options.Unbounded) and Targets whether it checks targets.
	Settings  []cbr.Setting
	Unbounded bool
	Targets   bool
	// Sample is a bundled model, relative to the module's root, that
	// shows the engine at work: TestEveryEngineAndReader runs every row.
	Sample string
	// New makes the engine with the settings; a value it refuses gives
	// a *cbr.SettingError.
	New func(Settings) (Engine, error)
	// Progress is the line of a progress report.
	Progress func(cbr.Progress, cbr.Unit) string
	// Figures are the figures of a run that analysed nothing (a limit
	// reached while the input was read), for a result made by the
	// front door (Unanalysed).
	Figures func(Settings, *cbr.Result) cbr.Figures
	// Print, when set, prints the network the engine analyses within
	// bound, for --print-rules; otherwise that is the program's.
	Print func(ctx context.Context, w io.Writer, net *pds.Network, s Settings, bound int, lim bdd.Limits) error
}

// Takes reports whether the engine takes the named setting.
func (e Entry) Takes(setting string) bool { return e.Setting(setting) != nil }

// Setting returns the engine's setting of that name, nil if none.
func (e Entry) Setting(name string) *cbr.Setting {
	for i := range e.Settings {
		if e.Settings[i].Name == name {
			return &e.Settings[i]
		}
	}
	return nil
}

// MustNew is New for settings written in code: it panics when New
// refuses them.
func (e Entry) MustNew(s Settings) Engine {
	eng, err := e.New(s)
	if err != nil {
		panic(fmt.Sprintf("engines: %s: %v", e.Name, err))
	}
	return eng
}

// Counts reports whether the engine's bound can count u.
func (e Entry) Counts(u cbr.Unit) bool { return slices.Contains(e.Units, u) }

// Unanalysed is the result of a run that stopped before the analysis
// began, for the reason err (a limit while the input was read): Unknown,
// nothing explored, the figures of no work.
func (e Entry) Unanalysed(s Settings, bound int, unit cbr.Unit, reason string, err error) *cbr.Result {
	r := &cbr.Result{Verdict: cbr.Unknown, Bound: bound, Unit: unit, Complete: -1, Converged: -1, Limit: err,
		Reason: reason, Stats: cbr.Stats{TuplesPerLevel: make([]int, bound+1)}}
	r.Figures = e.Figures(s, r)
	return r
}

// All is the table, in the order the command line lists the engines.
var All = []Entry{
	{Name: tuples.Name, Doc: "symbolic, view tuples (the jMoped paper's algorithm)",
		Units: []cbr.Unit{cbr.Contexts, cbr.Preemptions}, Settings: tuples.Settings, Unbounded: true, Targets: true,
		Sample: "examples/bluetooth.pds",
		New:    func(s Settings) (Engine, error) { return tuples.New(s) }, Progress: tuples.Progress,
		Figures: func(s Settings, r *cbr.Result) cbr.Figures {
			e, _ := tuples.New(s)
			return e.Figures(r)
		}},
	{Name: seq.Name, Doc: "symbolic, sequential reduction (Lal and Reps): the bound counts rounds of round-robin",
		Units: []cbr.Unit{cbr.Rounds}, Settings: seq.Settings, Sample: "examples/lostupdate.pds",
		New: func(s Settings) (Engine, error) { return seq.New(s) }, Progress: seq.Progress,
		Figures: func(s Settings, r *cbr.Result) cbr.Figures {
			e, _ := seq.New(s)
			return e.Figures(r, nil)
		},
		Print: func(ctx context.Context, w io.Writer, net *pds.Network, s Settings, bound int, lim bdd.Limits) error {
			e, err := seq.New(s)
			if err != nil {
				return err
			}
			return e.Print(ctx, w, net, bound, lim)
		}},
	{Name: states.Name, Doc: "explicit states, for small models",
		Units: []cbr.Unit{cbr.Contexts, cbr.Preemptions}, Settings: states.Settings, Targets: true,
		Sample: "examples/recursion.pds",
		New:    func(s Settings) (Engine, error) { return states.New(s) }, Progress: states.Progress,
		Figures: func(s Settings, r *cbr.Result) cbr.Figures {
			e, _ := states.New(s)
			return e.Figures(r, nil)
		}},
	{Name: auto.Name, Doc: "cbr (lazy) and explicit side by side: the first conclusive answer",
		Units: []cbr.Unit{cbr.Contexts, cbr.Preemptions}, Targets: true, Sample: "examples/lostupdate.pds",
		New: func(s Settings) (Engine, error) { return auto.Engine{}, nil }, Progress: auto.Progress,
		Figures: func(s Settings, r *cbr.Result) cbr.Figures { return &auto.Stats{} }},
}

// Names lists the engines' names: "cbr, seq or explicit".
func Names() string {
	var names []string
	for _, e := range All {
		names = append(names, e.Name)
	}
	return Or(names)
}

// Where lists the engines for which keep holds, in the table's order.
func Where(keep func(Entry) bool) []string {
	var names []string
	for _, e := range All {
		if keep(e) {
			names = append(names, e.Name)
		}
	}
	return names
}

// Taking lists the engines that take a setting, in the table's order.
func Taking(setting string) []string {
	return Where(func(e Entry) bool { return e.Takes(setting) })
}

// Counting lists the engines whose bound can count u, in the table's
// order.
func Counting(u cbr.Unit) []string {
	return Where(func(e Entry) bool { return e.Counts(u) })
}

// Or joins names for a message: "cbr", "cbr or seq", "cbr, seq or
// explicit".
func Or(names []string) string { return cbr.Or(names) }

// Lookup returns the engine named name.
func Lookup(name string) (Entry, error) {
	for _, e := range All {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("want %s, got %q", Names(), name)
}
