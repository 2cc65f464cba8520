package cbr

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// Unit is what a bound counts.
type Unit int

const (
	// Contexts counts maximal runs of one thread: k contexts allow k-1
	// switches, and any thread may run first.
	Contexts Unit = iota
	// Preemptions counts preempting switches (CHESS, Musuvathi and Qadeer
	// 2007; Spin's bounded context switching, Holzmann and Florian): a
	// switch away from a thread that could still move. A switch away from
	// a thread that cannot move (every rule at the top of its stack
	// disabled, its stack empty, a dormant thread slot, an error or
	// cutoff label on top) is free, and so is the first context
	// (docs/design.md, "Preemption counting").
	Preemptions
	// Rounds counts rounds of round-robin (package cbr/seq): in each
	// round every thread runs one context, possibly empty, in a fixed
	// order. A schedule of c contexts fits in c rounds, and k rounds of n
	// threads in n*k contexts.
	Rounds
)

// ZeroBound asks an engine for a bound of 0 (its Options' bound field
// uses 0 for the default): with Preemptions, the runs without any
// preempting switch.
const ZeroBound = -1

func (u Unit) String() string { return [...]string{"contexts", "preemptions", "rounds"}[u] }

// Singular is the unit's name for one: "context", "preemption", "round".
func (u Unit) Singular() string { return [...]string{"context", "preemption", "round"}[u] }

// Of writes n units: "1 context", "2 preemptions".
func (u Unit) Of(n int) string { return plural.Count(n, u.Singular()) }

// ParseUnit returns the unit named "contexts" or "preemptions" (what
// --count chooses; rounds come with the seq engine).
func ParseUnit(name string) (Unit, error) {
	switch name {
	case "contexts":
		return Contexts, nil
	case "preemptions":
		return Preemptions, nil
	}
	return Contexts, fmt.Errorf("unknown unit %q (want contexts or preemptions)", name)
}

// Verdict is the answer of an analysis.
type Verdict int

const (
	Safe      Verdict = iota // no violation within the bound
	Violation                // a violation was found
	Unknown                  // a limit cut the search off before a violation was found
)

func (v Verdict) String() string { return [...]string{"safe", "violation", "unknown"}[v] }

// The limits a run can hit. A Result whose search a limit cut off carries
// the error in Result.Limit; test it with errors.Is. A run stopped by its
// context has context.Canceled or context.DeadlineExceeded there. The
// limits every engine meets (LimitWords) read the same there whichever
// engine met them: "cbr: time limit reached" (Result.Finish).
var (
	// ErrNodeLimit: more live BDD nodes were needed than Limits.MaxNodes.
	ErrNodeLimit = bdd.ErrNodeLimit
	// ErrMemoryLimit: the process held more memory than Limits.MaxMemory.
	ErrMemoryLimit = bdd.ErrMemoryLimit
	// ErrThreadBound: a start would have created more threads than the
	// network has room for (pds.Options.MaxThreads).
	ErrThreadBound = errors.New("thread bound reached")
	// ErrTupleLimit: eager splitting would have enumerated more global
	// values from one post* result than Limits.MaxTuples (the view-tuple
	// engine turns package split's refusal into it).
	ErrTupleLimit = errors.New("view tuple limit reached")
)

// IsLimit reports whether err is one of the limits above or a context's
// cancellation or deadline: the run was cut off, not wrong.
func IsLimit(err error) bool {
	return bdd.IsLimit(err) || errors.Is(err, ErrThreadBound) || errors.Is(err, ErrTupleLimit) || errors.Is(err, ErrDepthLimit)
}

// LimitWords says in words a limit every engine meets: "time limit
// reached", "cancelled", "BDD node limit reached", "memory limit
// reached"; "" for another error (an engine says its own limits itself).
func LimitWords(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "time limit reached"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, ErrNodeLimit):
		return "BDD node limit reached"
	case errors.Is(err, ErrMemoryLimit):
		return "memory limit reached"
	}
	return ""
}

// Limits bound the resources of a run; zero values mean no limit. Time
// and cancellation come with the context a run is given.
type Limits struct {
	// MaxNodes bounds the live BDD nodes (bdd.Limits.MaxNodes: counted
	// at points that do not depend on timing, so a run stops at the same
	// point every time).
	MaxNodes int
	// MaxMemory bounds the bytes of memory the process holds
	// (bdd.Limits.MaxMemory: checked on the live heap of Go's last
	// collection, stopping at 7/8 of it or when Go's collector would run
	// almost without pause).
	MaxMemory int64
	// MaxTuples bounds the view tuples eager splitting may create from one
	// post* result (it enumerates the global values; that is its nature).
	MaxTuples int
}

// Found is a violation: an error label on top of a thread's stack in a
// configuration reachable with Contexts units of the bound and no fewer,
// or a reached target.
type Found struct {
	Kind     pds.LabelKind // Assert or Bounds; Normal for a target
	Label    *pds.Label    // nil for a target
	Target   *pds.Target   // nil for an error label
	Pos      pds.Pos
	Thread   int
	Proc     string
	Contexts int // the fewest units of the bound that reach it
	Message  string
	// Trace is a run that reaches it with Contexts units of the bound,
	// replayed on the explicit semantics before it was returned; nil when
	// traces were not asked for or could not be made (TraceErr says why:
	// a limit, or an internal error wrapping ErrBadTrace or
	// symauto.ErrNoWitness).
	Trace    *Trace
	TraceErr error
}

// Progress reports how far a run is.
type Progress struct {
	Level      int // units of the bound of the work being done
	Tuples     int // work items done so far
	Queued     int // work items waiting
	PostStar   int
	Elapsed    time.Duration
	Violations int
}

// Stats are the figures of a run. Every figure but Time, LevelTime and PeakNodes is
// the same in every run of the same input and options.
type Stats struct {
	ViewTuples     int             // work items taken from the worklist to compute their successors (levels 0..k-1): the jMoped paper's figure
	TuplesPerLevel []int           // view tuples by contexts: index j counts items reached with j contexts
	KeptPerLevel   []int           // new view tuples kept (not pruned) by contexts, the last level's included when it was split
	LevelTime      []time.Duration // index j: when every tuple of at most j contexts was made and checked
	PostStarCalls  int             // post* results used; in cbr, PostStarShared of them were computed before
	PostStarShared int             // cbr: post* results of the level found among those computed before (not computed again)
	PostStarSteps  int             // the steps of the post* results computed
	PeakNodes      int             // the largest BDD node table occupancy sampled: varies from run to run with Go's garbage collector
	Time           time.Duration   // the analysis, traces not included
	TraceTime      time.Duration   // building and replaying the traces
	Dropped        int             // new tuples dropped as identical to or covered by kept ones
	Shrunk         int             // new tuples restricted to fewer globals
}

// Result is the outcome of an analysis.
type Result struct {
	Verdict Verdict
	Bound   int // the bound the verdict covers
	// Complete is the largest j such that every schedule with at most j
	// units of the bound was explored (and no violation found with fewer
	// than the first one's), among the schedules with at most
	// ThreadBound threads when that is set: Bound when the search was not
	// cut off, less when a limit cut it off, -1 when nothing was
	// explored.
	Complete int
	// ThreadBound, when not 0, is the thread bound that Complete,
	// Converged and the violations' fewest counts assume: a start beyond
	// the network's thread bound was cut off (the starting thread stops
	// at the start; Limit or Reason says where), so a run that needs more
	// threads was explored only up to that start, and a violation it
	// reaches may need fewer units of the bound than reported, or none
	// may be found. 0 when every count holds whatever the number of
	// threads: no start was cut off.
	ThreadBound int
	// Converged is the level at which the reachable configurations
	// stopped growing, or -1: when it is set, the verdict holds for every
	// bound (every configuration reachable at all is reachable with at
	// most Converged units), with the same thread bound.
	Converged int
	// Visible, when set, says that the reachable visible states (the
	// globals and every thread's top of stack: what errors and targets are
	// made of) stop growing, so that the verdict holds for every bound,
	// although the configurations may grow for ever.
	Visible    *VisibleConvergence
	Unit       Unit    // what the bound counts
	Limit      error   // the limit that cut the search off (nil when none did)
	Reason     string  // Limit, or what else made the verdict Unknown, in words
	Violations []Found // in the order found: by contexts, then label
	Stats      Stats
	// Figures are the engine's own account of the run beside Stats: the
	// settings it ran with and its figures, which the front doors show
	// without knowing the engine (figures.go).
	Figures Figures
	// Net is the network the engine ran, which traces and thread numbers
	// name: the one with thread slots (pds.Network.WithThreadSlots) for
	// the symbolic engines, the program's own for the explicit one; nil
	// when the run stopped before it was made.
	Net *pds.Network
	// VisibleStates, when the engine was asked to count them (the
	// view-tuple engine's PerBound), has at j the number of visible
	// states reachable within j units, j = 0 to Bound.
	VisibleStates []int
}

// VisibleConvergence is the criterion that proved a verdict for every
// bound from the reachable visible states (cbr's documentation, "Visible
// states").
type VisibleConvergence struct {
	// Level is the k at which the reachable visible states stop growing:
	// every visible state reachable at all is reachable within k units.
	Level int
	// Explored is the number of units explored to tell (Level+1).
	Explored int
	// States is the number of reachable visible states.
	States int
	// Generators is the number of visible states a pop can produce (an
	// over-approximation); every one of them is reachable within Level
	// units.
	Generators int
	// Depth is the number of top frames per stack the over-approximation
	// of the generators keeps.
	Depth int
}

// Decide sets the verdict from what the run found, the same rule for
// every engine: Violation when a violation was found (even when a limit
// cut the search off afterwards), else Unknown when a limit cut it off,
// else Safe.
func (r *Result) Decide() {
	switch {
	case len(r.Violations) > 0:
		r.Verdict = Violation
	case r.Limit != nil:
		r.Verdict = Unknown
	default:
		r.Verdict = Safe
	}
}

// AddFound appends a violation, keeping Violations in the order every
// engine reports them (by contexts, then as found), and passes it to
// onViolation when set. It reports whether the search stops now: at the
// first violation unless all were asked for.
func (r *Result) AddFound(f Found, onViolation func(Found), all bool) (stop bool) {
	r.Violations = append(r.Violations, f)
	sort.SliceStable(r.Violations, func(i, j int) bool { return r.Violations[i].Contexts < r.Violations[j].Contexts })
	if onViolation != nil {
		onViolation(f)
	}
	return !all
}

// Contexts returns the fewest units of the bound of the first violation,
// or -1.
func (r *Result) Contexts() int {
	if len(r.Violations) == 0 {
		return -1
	}
	return r.Violations[0].Contexts
}
