package reachcases

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/auto"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
)

// Outcome is a variant's answer with the figures tests compare.
type Outcome struct {
	Answer
	Tuples int // work items the engine processed (cbr: Stats.ViewTuples; explicit: configurations reached; the explicit engine: states expanded)
	Raw    any // the engine's own result (*cbr.Result, *explicit.Result) for checks beyond the answer; the explicit reference's error past its cap on configurations (see NoAnswer)
}

// Variant is an engine with its options.
type Variant struct {
	Name string
	Run  func(ctx context.Context, net *pds.Network, k int) (*Outcome, error)
	// AtMost names variants that never process more tuples than this one
	// on the same network and bound, such as the same engine without
	// pruning.
	AtMost []string
	// CBR is the view-tuple engine of a cbr variant, for tests that
	// inspect its reachable sets; nil for other engines.
	CBR *tuples.Engine
	// Reference marks the explicit reference semantics, whose answer is
	// the expectation of a case without Want.
	Reference bool
}

// The explicit reference's limits: no case has recursion, so the depth
// cap is never met (tests check Result.DepthCapped).
const (
	ReferenceDepth   = 8
	ReferenceConfigs = 200000
)

// Reference is the explicit reference variant.
var Reference = Variant{Name: "explicit", Reference: true, Run: runExplicit}

func runExplicit(_ context.Context, net *pds.Network, k int) (*Outcome, error) {
	res, err := explicit.Explore(net, explicit.Options{Contexts: k, MaxDepth: ReferenceDepth, MaxConfigs: ReferenceConfigs})
	if errors.Is(err, explicit.ErrTooManyConfigs) {
		// Beyond its cap: no answer (NoAnswer returns the error).
		return &Outcome{Answer: NewAnswer(cbr.Unknown, nil), Raw: err}, nil
	}
	if err != nil {
		return nil, err
	}
	var sites []string
	for _, x := range res.Violations {
		sites = append(sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
	}
	v := cbr.Safe
	switch {
	case len(sites) > 0:
		v = cbr.Violation
	case res.CutOff:
		v = cbr.Unknown
	}
	a := NewAnswer(v, sites)
	if res.CutOff {
		a.Threads = net.MaxThreads
	}
	return &Outcome{Answer: a, Tuples: len(res.Reached), Raw: res}, nil
}

// ErrBudget is the cause of the cancellation of a run that exceeded its
// TupleBudget.
var ErrBudget = errors.New("reachcases: the run exceeded its budget of view tuples")

type budgetKey struct{}

type budget struct {
	tuples int
	cancel context.CancelCauseFunc
}

// TupleBudget returns ctx with a budget for the cbr variants run with it:
// a run is cancelled (context.Canceled, with cause ErrBudget) once the
// view tuples it has processed and those waiting in its worklist reach
// the given number, an eager split into more tuples than that is refused
// (cbr.ErrTupleLimit), and its live BDD nodes are capped at BudgetNodes
// (cbr.ErrNodeLimit). Unlike a time limit, the budget stops a run at the
// same point on every machine, so a test can leave out the cases too
// large for it deterministically.
//
// The budget counts the waiting tuples because they are what grows: each
// holds automata of its own (the split part of its active thread,
// rebased), Go objects outside the BDD node table that BudgetNodes does
// not see. Eager splitting without pruning on open data queues one tuple
// per value of the globals a post* result reaches: on drawn seed
// 261508707 with 8 open bits, within 3 contexts, 520 per tuple processed
// (840,641 waiting, 1.5 GiB of heap, after 1,500 processed), so a budget
// of processed tuples alone (20,000) let the heap grow past 6 GiB. A run
// that reports every violation (cbr.Options.All, which the variants set)
// processes every waiting tuple later unless pruning drops it as
// covered, so the count stops the runs that would pass the budget, and
// perhaps some that pruning would have kept within it: an earlier stop
// is no answer (NoAnswer), which the tests allow only where they say so.
// The count is checked after each tuple processed, whose successors
// number at most the threads times the limit of one split.
func TupleBudget(ctx context.Context, tuples int) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	return context.WithValue(ctx, budgetKey{}, &budget{tuples, cancel}), func() { cancel(nil) }
}

// NoAnswer returns the limit that stopped o's run before it answered, or
// nil when it answered: a time, memory or BDD node limit, a tuple limit or
// TupleBudget, the depth limit, or the explicit reference's cap on
// configurations (ReferenceConfigs). An UNKNOWN for such a limit is no
// answer: a test never counts it as agreement with another UNKNOWN. The
// thread bound is not such a limit: it is part of the network
// (pds.Network.MaxThreads), every engine meets it on the same runs, and
// its UNKNOWN comes with the violation sites found within the bound,
// which the tests compare like any answer's.
func NoAnswer(o *Outcome) error {
	switch r := o.Raw.(type) {
	case error:
		return r
	case *cbr.Result:
		if r.Limit != nil && !errors.Is(r.Limit, cbr.ErrThreadBound) {
			return r.Limit
		}
	}
	return nil
}

// BudgetNodes caps the live BDD nodes of a run under a TupleBudget (a
// deterministic limit). The automata of the tuples a run makes are Go
// objects outside the node table, which the TupleBudget's count of
// tuples bounds instead.
const BudgetNodes = 1 << 22

// CBR returns the variant of the view-tuple engine e counting unit, with
// every violation site and its checked trace; AtMost as in Variant.
func CBR(name string, e tuples.Engine, unit cbr.Unit, atMost ...string) Variant {
	return Variant{Name: name, CBR: &e, AtMost: atMost, Run: func(ctx context.Context, net *pds.Network, k int) (*Outcome, error) {
		return runEngine(ctx, name, e, net, k, unit)
	}}
}

// ExplicitEngine returns the variant of the explicit-state engine (package
// cbr/states, All set, Traces set and checked) with or without its partial-order reduction,
// within the reference's depth limit. Tuples counts its expanded states.
func ExplicitEngine(noPOR bool) Variant {
	name := "explicit-engine"
	if noPOR {
		name += "/no-por"
	}
	return Variant{Name: name, Run: func(ctx context.Context, net *pds.Network, k int) (*Outcome, error) {
		return runEngine(ctx, name, states.Engine{MaxDepth: ReferenceDepth, NoPOR: noPOR}, net, k, cbr.Contexts)
	}}
}

// Auto returns the variant of the portfolio (package cbr/auto: cbr lazy
// and the explicit-state engine side by side, the first conclusive
// answer) counting unit, with every violation site and its checked
// trace, the explicit engine within the reference's depth limit. Either
// engine may answer, so Tuples counts the view tuples or the states of
// whichever did.
func Auto(unit cbr.Unit) Variant {
	name := auto.Name
	if unit != cbr.Contexts {
		name += "/" + unit.String()
	}
	return Variant{Name: name, Run: func(ctx context.Context, net *pds.Network, k int) (*Outcome, error) {
		return runEngine(ctx, name, auto.Engine{MaxDepth: ReferenceDepth}, net, k, unit)
	}}
}

// runEngine runs an engine of the table within k units, with every
// violation site and its trace, checks the traces, and counts its work:
// view tuples, or the explicit engine's expanded states.
func runEngine(ctx context.Context, name string, e engines.Engine, net *pds.Network, k int, unit cbr.Unit) (*Outcome, error) {
	if k == 0 {
		k = cbr.ZeroBound
	}
	opts := cbr.Options{Bound: k, Unit: unit, All: true, Traces: true}
	if b, ok := ctx.Value(budgetKey{}).(*budget); ok {
		// One eager split beyond the budget is refused before it
		// enumerates (cbr.ErrTupleLimit), rather than cancelled after.
		opts.Limits.MaxTuples = b.tuples
		opts.Limits.MaxNodes = BudgetNodes
		opts.OnProgress = func(p cbr.Progress) {
			if p.Tuples+p.Queued >= b.tuples {
				b.cancel(ErrBudget)
			}
		}
	}
	r, err := e.Analyze(ctx, net, opts)
	if err != nil {
		return nil, err
	}
	var sites []string
	for _, x := range r.Violations {
		sites = append(sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
		if r.Limit != nil && cbr.IsLimit(x.TraceErr) {
			continue // the run was cut off, and so was its trace
		}
		if err := CheckTrace(x, unit, r.Net); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	work := r.Stats.ViewTuples
	if st := states.Figures(r); st != nil {
		work = st.States
	}
	a := NewAnswer(r.Verdict, sites)
	a.Threads = r.ThreadBound
	o := &Outcome{Answer: a, Tuples: work, Raw: r}
	if NoAnswer(o) == nil && r.Complete != max(k, 0) {
		// Answered (no limit but the thread bound): every run within
		// the bound was explored, with at most a.Threads threads.
		return nil, fmt.Errorf("%s: complete up to %d, want the bound %d (%s)", name, r.Complete, max(k, 0), r.Reason)
	}
	return o, nil
}

// Variants returns every engine variant: the explicit reference first,
// then cbr eager and lazy under each pruning setting (none; identical
// tuples; subsumption from the first tuple, the default, and after 4
// kept tuples), then the explicit-state engine with and without its
// reduction, then the portfolio of cbr lazy and the explicit engine
// (auto). Lazy processes no more view tuples than eager without pruning
// and in the default mode.
func Variants() []Variant {
	vs := []Variant{Reference}
	for _, s := range []split.Strategy{split.Eager, split.Lazy} {
		none := fmt.Sprintf("%s/none", s)
		var noneAtMost []string // lazy never processes more tuples than eager
		if s == split.Lazy {
			noneAtMost = []string{fmt.Sprintf("%s/none", split.Eager)}
		}
		subsumedAtMost := []string{none}
		if s == split.Lazy {
			// The default mode: lazy keeps no more tuples than eager.
			subsumedAtMost = append(subsumedAtMost, fmt.Sprintf("%s/subsumed", split.Eager))
		}
		vs = append(vs,
			CBR(none, tuples.Engine{Split: s, Prune: tuples.PruneNone}, cbr.Contexts, noneAtMost...),
			CBR(fmt.Sprintf("%s/identical", s), tuples.Engine{Split: s, Prune: tuples.PruneIdentical}, cbr.Contexts, none),
			CBR(fmt.Sprintf("%s/subsumed", s), tuples.Engine{Split: s}, cbr.Contexts, subsumedAtMost...), // the defaults
			CBR(fmt.Sprintf("%s/subsumed-after-4", s), tuples.Engine{Split: s, Prune: tuples.PruneSubsumed, SubsumeAfter: 4}, cbr.Contexts, none),
		)
	}
	return append(vs, ExplicitEngine(false), ExplicitEngine(true), Auto(cbr.Contexts))
}

// CheckTrace checks that a violation came with its trace (the engine
// replayed it on the explicit semantics, with as many units of the bound,
// contexts or preemptions, as the violation's fewest, and no empty
// context: cbr.Trace.Check) and checks it once more on n, the network
// the engine ran.
func CheckTrace(f cbr.Found, unit cbr.Unit, n *pds.Network) error {
	if f.TraceErr != nil {
		return fmt.Errorf("the trace of %s: %w", f.Label.Name, f.TraceErr)
	}
	if f.Trace == nil {
		return fmt.Errorf("%s has no trace", f.Label.Name)
	}
	return f.Trace.Check(n, f, unit)
}

// ExplicitPreemptions is the explicit-state engine counting preemptions
// (its reduction is off then), within the reference's depth limit: the
// reference of the preemption variants. Its result is Unknown with
// cbr.ErrDepthLimit in Limit when a call met the limit.
var ExplicitPreemptions = Variant{Name: "explicit-engine/preemptions", Reference: true, Run: func(ctx context.Context, net *pds.Network, k int) (*Outcome, error) {
	return runEngine(ctx, "explicit-engine/preemptions", states.Engine{MaxDepth: ReferenceDepth}, net, k, cbr.Preemptions)
}}

// PreemptionVariants returns the variants counting preemptions: the
// explicit-state engine (the reference) first, then cbr eager and lazy
// with subsumption from the first tuple (the default), lazy subsuming
// after 4 kept tuples, and lazy with identical tuples pruned. Not without
// pruning: a cycle of free switches (threads handing over by blocking)
// makes new tuples at one level for ever then; and identical pruning,
// which keeps many more tuples, only lazy (eager is the slowest).
func PreemptionVariants() []Variant {
	vs := []Variant{ExplicitPreemptions}
	for _, s := range []split.Strategy{split.Eager, split.Lazy} {
		vs = append(vs, CBR(fmt.Sprintf("%s/subsumed", s), tuples.Engine{Split: s}, cbr.Preemptions))
	}
	return append(vs,
		CBR("lazy/subsumed-after-4", tuples.Engine{Split: split.Lazy, SubsumeAfter: 4}, cbr.Preemptions),
		CBR("lazy/identical", tuples.Engine{Split: split.Lazy, Prune: tuples.PruneIdentical}, cbr.Preemptions))
}

// The sizes of the preemption differential test's random campaign, as
// RandomSeeds's (counting preemptions costs more: free switches chain).
const (
	EverydayPreemptionSeeds = 8
	LongPreemptionSeeds     = 80
	RotatingPreemptionSeeds = 30
)

// PreemptionSeeds returns the seeds of the preemption differential test
// for the tier that runs.
func PreemptionSeeds(t testing.TB) []uint64 {
	t.Helper()
	return tier.Seeds(t, EverydayPreemptionSeeds, LongPreemptionSeeds, RotatingPreemptionSeeds)
}
