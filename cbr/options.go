package cbr

import (
	"fmt"
	"math"

	"github.com/cbreach/cbreach/pds"
)

// Options are what every engine takes (the seam's vocabulary): the bound
// and its unit, what to report, the limits and the hooks. The settings of
// one engine (the view-tuple engine's split and pruning, the sequential
// reduction's form, the explicit engine's depth limit and partial-order
// reduction) are carried by the engine value itself.
//
// The zero Options analyse DefaultBound contexts, stop at the first
// violation, build no traces and set no limit: a library does not assume
// it owns the process. The command line differs in two ways: it builds
// traces (they keep every expanded view tuple alive, a memory cost an
// embedding program chooses) and limits the memory to three quarters of
// the machine's.
type Options struct {
	// Bound is the bound in units of Unit: 0 gives DefaultBound, and
	// ZeroBound a bound of 0 (0 preemptions).
	Bound int
	// Unit is what the bound counts: Contexts (the zero value),
	// Preemptions, or Rounds (the sequential reduction, which counts
	// rounds only, and takes the zero value for rounds). An engine
	// refuses a unit it does not count.
	Unit Unit
	// Unbounded deepens the bound until the verdict holds for every bound
	// (the reachable configurations or the visible states stop growing),
	// a violation is found, or a limit stops the run; Bound is then
	// ignored. Only the view-tuple engine deepens.
	Unbounded bool
	// All explores the whole bound and reports every violation site, each
	// with its fewest units; otherwise the run stops at the first.
	All bool
	// Targets are visible states to reach, besides the error labels
	// (CUBA's targets; frontend/cuba makes them).
	Targets []pds.Target
	// Limits bound the BDD nodes and the memory; time and cancellation
	// come with the context.
	Limits
	// Traces gives every violation a trace (Found.Trace), replayed on the
	// explicit semantics before it is returned.
	Traces bool
	// OnProgress, when set, is called as the run goes (each engine says
	// how often); OnViolation with every violation when found.
	OnProgress  func(Progress)
	OnViolation func(Found)
}

// DefaultBound is the bound of the zero Options, in every unit: 4
// contexts, preemptions or rounds. The command line's -k defaults to it
// too, for every engine.
const DefaultBound = 4

// MaxBound is the largest bound an engine takes (Unbounded aside): the
// engines keep figures per unit of the bound, sized by it, and no search
// comes near it.
const MaxBound = 1 << 20

// OptionError is an option an engine cannot use: Option names the field
// ("Bound", "Unit", "Limits", or an engine's setting) and Problem says
// what is wrong, in words a command line can put after its flag's name.
type OptionError struct {
	Engine  string
	Option  string
	Problem string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Engine, e.Option, e.Problem)
}

// Check is the one check of the options every engine makes before it
// runs: the unit is one of units (the engine's, its default first when
// Unit is the zero value), and the bound and the limits are in range. It
// returns the bound to explore, in units of the returned unit: the
// default for 0, 0 for ZeroBound, and math.MaxInt32 when Unbounded; a
// bound past MaxBound is refused.
func (o Options) Check(engine string, units ...Unit) (bound int, unit Unit, err error) {
	unit = o.Unit
	if unit == Contexts && units[0] == Rounds {
		unit = Rounds // the zero unit, for an engine that counts rounds only
	}
	ok := false
	for _, u := range units {
		ok = ok || u == unit
	}
	if !ok {
		return 0, unit, &OptionError{engine, "Unit", fmt.Sprintf("it counts %s, not %s", units[0], unit)}
	}
	bound = o.Bound
	switch {
	case bound == 0:
		bound = DefaultBound
	case bound == ZeroBound && unit == Preemptions:
		bound = 0
	}
	min := 1
	if unit == Preemptions {
		min = 0
	}
	switch {
	case o.Unbounded:
		bound = math.MaxInt32
	case bound < min:
		return 0, unit, &OptionError{engine, "Bound", fmt.Sprintf("need at least %s, got %d", unit.Of(min), max(o.Bound, 0))}
	case bound > MaxBound:
		return 0, unit, &OptionError{engine, "Bound", fmt.Sprintf("need at most %s, got %d", unit.Of(MaxBound), bound)}
	}
	switch {
	case o.MaxNodes < 0:
		return 0, unit, &OptionError{engine, "MaxNodes", fmt.Sprintf("need 0 or more, got %d", o.MaxNodes)}
	case o.MaxMemory < 0:
		return 0, unit, &OptionError{engine, "MaxMemory", fmt.Sprintf("need 0 or more, got %d", o.MaxMemory)}
	}
	return bound, unit, nil
}
