package schema

import "encoding/json"

// Version is the version of the schema: the "schema" key of every object.
const Version = 2

// Output is the result of one run.
type Output struct {
	Schema  int    `json:"schema"`  // required: Version
	Version string `json:"version"` // required: cbreach's version
	Engine  string `json:"engine"`  // required: cbr, seq, explicit or auto
	// Answered (auto) is the engine whose answer this is, cbr or
	// explicit: the figures below are that engine's.
	Answered string `json:"answered,omitempty"`
	Split    string `json:"split,omitempty"` // cbr: the splitting; seq: the reduction's form
	Prune    string `json:"prune,omitempty"` // cbr: covered tuples left out
	// Settings are the engine's further settings that its figures name
	// (cbr.Figures.Settings), those without a field of their own.
	Settings map[string]any `json:"settings,omitempty"`
	// Verdict is required: safe, violation, unknown, or no-target (a CUBA
	// system without a target: nothing was checked).
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"` // why unknown, or what cut an --all run short
	// Unit (required) is what the bound counts: contexts, preemptions or
	// rounds; Bound (required) the bound given, or reached when Unbounded.
	Unit      string `json:"unit"`
	Bound     int    `json:"bound"`
	Unbounded bool   `json:"unbounded,omitempty"`
	// Complete (required): every run with at most this many units was
	// explored; -1 when nothing was.
	Complete int `json:"complete"`
	// CompleteThreads, when present, is the thread bound that Complete
	// and every fewest count assume: a start beyond it was cut off, so
	// the runs with more threads were explored only up to that start
	// (a violation they reach may need fewer units, or be missed).
	// Absent when the counts hold whatever the number of threads.
	CompleteThreads *int `json:"completeThreads,omitempty"`
	// Fewest (required, null when there is no violation): the fewest
	// units of the bound of a violation.
	Fewest *int `json:"fewest"`
	// Convergence, when set, is the criterion that proved the verdict for
	// every bound.
	Convergence *Convergence `json:"convergence,omitempty"`
	// Threads is the thread bound the analysis used, for a program that
	// starts threads.
	Threads    *Threads    `json:"threads,omitempty"`
	Violations []Violation `json:"violations"` // required, [] when none
	// PerBound (cbr with --per-bound): per number of contexts, the
	// reachable visible states.
	PerBound []PerBound `json:"perBound,omitempty"`
	// ViewTuples (cbr) and States (explicit) are the work done: view
	// tuples taken from the worklist, states expanded.
	ViewTuples *int  `json:"viewTuples,omitempty"`
	States     *int  `json:"states,omitempty"`
	Stats      Stats `json:"stats"` // required
}

// Convergence is the criterion that proved a verdict for every bound:
// "configurations" (the reachable configurations stop growing at Level)
// or "visible-states" (the reachable visible states stop growing at
// Level, and every visible state a return can produce is reachable by
// then; cbr's documentation, "Visible states").
type Convergence struct {
	Criterion     string `json:"criterion"`
	Level         int    `json:"level"`
	Explored      int    `json:"explored"`
	VisibleStates int    `json:"visibleStates,omitempty"`
	Generators    int    `json:"generators,omitempty"`
	Depth         int    `json:"depth,omitempty"`
	Words         string `json:"words"` // the criterion in words
}

// Threads is the thread bound of a program that starts threads.
type Threads struct {
	Max       int    `json:"max"`                 // threads the analysis had room for, initial and started
	Source    string `json:"source"`              // "program", "max-threads" (given) or "default" (of --max-threads)
	Program   *int   `json:"program,omitempty"`   // the most threads the program can have; absent when unbounded
	Unbounded bool   `json:"unbounded,omitempty"` // the program can start unboundedly many threads
}

// Violation is one violation site with its fewest units of the bound.
type Violation struct {
	Kind       string `json:"kind"` // assert, bounds, division by zero (C programs), or target
	Pos        string `json:"pos"`
	Thread     int    `json:"thread"`
	Proc       string `json:"proc"`
	Fewest     int    `json:"fewest"`
	Message    string `json:"message,omitempty"`
	Trace      *Trace `json:"trace,omitempty"`
	TraceError string `json:"traceError,omitempty"` // why there is no trace
}

// PerBound is what --per-bound reports for one number of contexts.
type PerBound struct {
	Contexts      int     `json:"contexts"`
	VisibleStates int     `json:"visibleStates"`
	NewViewTuples int     `json:"newViewTuples"`
	Seconds       float64 `json:"seconds"`
}

// Stats are the figures of a run: the common ones, and the engine's own
// under its key (cbr.Figures.Stats: "tuples" for cbr, "seq",
// "explicit"), with the engine's own field names.
type Stats struct {
	TimeSeconds   float64 `json:"timeSeconds"`
	PostStarSteps int     `json:"postStarSteps"`
	PeakNodes     *int    `json:"peakNodes,omitempty"` // with --stats: varies from run to run
	Kernel        string  `json:"kernel"`
	// Engine is the key of the engine's figures and EngineStats their
	// value, written last; reading JSON fills Engines instead, with
	// every key that is not a common one.
	Engine      string                     `json:"-"`
	EngineStats any                        `json:"-"`
	Engines     map[string]json.RawMessage `json:"-"`
}

// Error is what --json prints on standard output when the run fails
// before a result, whatever the failure: usage (an unknown flag or a bad
// value, even one before --json on the command line; no input file),
// bad input, an internal error. The message goes to standard error too,
// there after "cbreach: ", and the exit status is the same.
type Error struct {
	Schema  int    `json:"schema"`  // required: Version
	Version string `json:"version"` // required
	Error   string `json:"error"`   // required: the message, without "cbreach: "
	Exit    int    `json:"exit"`    // required: the exit status, 2 or 4
}

// A trace in JSON: the initial configuration, then every context with
// its steps.

type Trace struct {
	InitialisedBy string    `json:"initialisedBy,omitempty"` // Getafix's init, run before context 1
	Initial       Config    `json:"initial"`
	Contexts      []Context `json:"contexts"`
}

type Context struct {
	Thread    int    `json:"thread"`
	StartedBy string `json:"startedBy,omitempty"`
	Steps     []Step `json:"steps"`
}

type Step struct {
	Pos     string         `json:"pos,omitempty"`
	Stmt    string         `json:"stmt,omitempty"`
	Kind    string         `json:"kind"`
	Starts  *int           `json:"starts,omitempty"`
	Globals map[string]any `json:"globals"`
	Stack   []Frame        `json:"stack"`
}

type Config struct {
	Globals map[string]any `json:"globals"`
	Threads []Thread       `json:"threads,omitempty"`
}

type Thread struct {
	Thread int     `json:"thread"`
	State  string  `json:"state"` // running, finished, not started
	Stack  []Frame `json:"stack,omitempty"`
}

type Frame struct {
	Proc   string         `json:"proc"`
	Label  string         `json:"label"`
	Locals map[string]any `json:"locals,omitempty"`
}
