package engines

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/auto"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// Engine analyses a network with the options every engine takes; its own
// settings are carried by the value.
type Engine interface {
	Analyze(ctx context.Context, net *pds.Network, opts cbr.Options) (*cbr.Result, error)
}

// Settings are the settings of the engines, for making one from a
// command line or a task file: each engine reads its own (Entry.Settings
// names them) and ignores the others.
type Settings struct {
	Split split.Strategy // "split": cbr's splitting; seq's form (split.Lazy, the zero value: the lazy form)
	Prune tuples.Prune   // "prune": cbr's covered tuples left out
	// PerBound ("per-bound"): cbr explores the whole bound and counts the
	// reachable visible states within each number of contexts.
	PerBound bool
	MaxDepth int  // "max-depth": explicit's stack depth limit (0: its default)
	NoPOR    bool // "no-por": explicit without its partial-order reduction
	// MaxBytes is explicit's bound on its stored states (0: none), in
	// the explicit engine and in auto's; the command line gives it the
	// memory limit (--max-memory), which every engine takes, so it names
	// no setting of its own.
	MaxBytes int64
}

// Entry is one engine of the table.
type Entry struct {
	Name string // as --engine and task files name it
	Doc  string // one line
	// Units are the units its bound counts, its default first.
	Units []cbr.Unit
	// Settings names the settings it takes, as the command line's flags
	// name them; Unbounded says whether it deepens the bound itself
	// (cbr.Options.Unbounded) and Targets whether it checks targets.
	Settings  []string
	Unbounded bool
	Targets   bool
	// New makes the engine with the settings.
	New func(Settings) Engine
}

// Takes reports whether the engine takes the named setting.
func (e Entry) Takes(setting string) bool { return slices.Contains(e.Settings, setting) }

// Counts reports whether the engine's bound can count u.
func (e Entry) Counts(u cbr.Unit) bool { return slices.Contains(e.Units, u) }

// All is the table, in the order the command line lists the engines.
var All = []Entry{
	{Name: tuples.Name, Doc: "symbolic, view tuples (the jMoped paper's algorithm)",
		Units: []cbr.Unit{cbr.Contexts, cbr.Preemptions}, Settings: []string{"split", "prune", "max-tuples", "per-bound"}, Unbounded: true, Targets: true,
		New: func(s Settings) Engine { return tuples.Engine{Split: s.Split, Prune: s.Prune, PerBound: s.PerBound} }},
	{Name: seq.Name, Doc: "symbolic, sequential reduction (Lal and Reps): the bound counts rounds of round-robin",
		Units: []cbr.Unit{cbr.Rounds}, Settings: []string{"split"},
		New: func(s Settings) Engine { return seq.Engine{Eager: s.Split == split.Eager} }},
	{Name: states.Name, Doc: "explicit states, for small models",
		Units: []cbr.Unit{cbr.Contexts, cbr.Preemptions}, Settings: []string{"max-depth", "no-por"}, Targets: true,
		New: func(s Settings) Engine {
			return states.Engine{MaxDepth: s.MaxDepth, NoPOR: s.NoPOR, MaxStateBytes: s.MaxBytes}
		}},
	{Name: auto.Name, Doc: "cbr (lazy) and explicit side by side: the first conclusive answer",
		Units: []cbr.Unit{cbr.Contexts, cbr.Preemptions}, Targets: true,
		New: func(s Settings) Engine { return auto.Engine{MaxStateBytes: s.MaxBytes} }},
}

// Names lists the engines' names: "cbr, seq, explicit or auto".
func Names() string {
	var names []string
	for _, e := range All {
		names = append(names, e.Name)
	}
	return Or(names)
}

// Taking lists the engines that take a setting, in the table's order.
func Taking(setting string) []string {
	var names []string
	for _, e := range All {
		if e.Takes(setting) {
			names = append(names, e.Name)
		}
	}
	return names
}

// Counting lists the engines whose bound can count u, in the table's
// order.
func Counting(u cbr.Unit) []string {
	var names []string
	for _, e := range All {
		if e.Counts(u) {
			names = append(names, e.Name)
		}
	}
	return names
}

// Or joins names for a message: "cbr", "cbr or seq", "cbr, seq or
// explicit".
func Or(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Lookup returns the engine named name.
func Lookup(name string) (Entry, error) {
	for _, e := range All {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("want %s, got %q", Names(), name)
}
