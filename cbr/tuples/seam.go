package tuples

import (
	"context"
	"errors"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// Name is the engine's name on the command line and in the table of
// engines.
const Name = "cbr"

// DefaultMaxTuples is the view tuples eager splitting may create from one
// post* result when cbr.Limits.MaxTuples is 0; NoTupleLimit (any negative
// value) sets no limit.
const (
	DefaultMaxTuples = 1 << 16
	NoTupleLimit     = -1
)

// Engine is the view-tuple engine (the jMoped paper's Algorithm 1) with
// its settings. The zero value splits lazily and leaves out subsumed
// tuples. Its bound counts contexts or preemptions; it is the one engine
// that deepens the bound itself (cbr.Options.Unbounded).
type Engine struct {
	Split split.Strategy // eager or lazy (default lazy)
	Prune Prune          // which covered tuples are left out (default PruneSubsumed)
	// SubsumeAfter is, for PruneSubsumed, the number of kept tuples before
	// the subsumption test starts (identical tuples are dropped until
	// then); 0 (the default) or less: from the first tuple.
	SubsumeAfter int
	// PerBound explores the whole bound and counts, for every j up to
	// it, the visible states reachable within j contexts
	// (cbr.Result.VisibleStates; package documentation, "Visible states").
	PerBound bool
	// SplitLimit, when not 0, replaces cbr.Limits.MaxTuples: the view
	// tuples eager splitting may create from one post* result
	// (NoTupleLimit: none). (Not named MaxTuples: options embeds both
	// the Engine and cbr.Options, and would read this one.)
	SplitLimit int
	// OnTuple, when set, is called with every view tuple the analysis
	// keeps (the initial ones at level 0, then every split result) and
	// the number of contexts that reached it. For tests and tools that
	// inspect the reachable sets.
	OnTuple func(level int, t split.Tuple)
	// KeepLast splits the post* results of the k-th context too and hands
	// them to OnTuple (they are never processed further), so that OnTuple
	// sees the whole reachable set within the bound.
	KeepLast bool

	// lastBudget, when set, replaces the budget of the last level's tests
	// (limit per test, allowance; package documentation, "The last
	// level"): for tests, which exhaust it on small programs.
	lastBudget *[2]int
	// noShare computes every post* call, for tests that compare with
	// the shared results.
	noShare bool
}

// Analyze computes context-bounded reachability of net within o.Bound
// contexts (or preemptions) with the engine's settings: the package
// documentation and docs/design.md, "The worklist driver". cbr.Limits (the
// context's deadline or cancellation, o.Limits, the network's thread
// bound) give a cbr.Result with cbr.Verdict cbr.Unknown and the limit in
// cbr.Result.Limit, or cbr.Violation when one was found before; the network is
// left as it was and can be analysed again. Analyze returns an error and
// no cbr.Result for options it cannot use (a cbr.OptionError), and an error
// with a cbr.Result for an internal error.
func (e Engine) Analyze(ctx context.Context, net *pds.Network, o cbr.Options) (*cbr.Result, error) {
	if e.PerBound {
		counts, r, err := e.VisibleStates(ctx, net, o)
		if r != nil {
			r.VisibleStates = counts
		}
		return r, err
	}
	opts, err := e.options(o)
	if err != nil {
		return nil, err
	}
	r, err := analyze(ctx, net, opts)
	if r != nil {
		r.Figures = e.Figures(r)
	}
	return r, err
}

// options checks o (cbr.Options.Check, the engine's own rules) and joins
// it with the engine's settings.
func (e Engine) options(o cbr.Options) (options, error) {
	bound, unit, err := o.Check(Name, cbr.Contexts, cbr.Preemptions)
	if err != nil {
		return options{}, err
	}
	if unit == cbr.Preemptions && e.Prune == PruneNone {
		// Every expansion makes successors (stale ones too: another last
		// thread), so without pruning a level never closes.
		return options{}, &cbr.OptionError{Engine: Name, Option: "Prune",
			Problem: "counting preemptions needs pruning (identical or subsumed tuples; without, free switches repeat view tuples without end)"}
	}
	if e.SplitLimit != 0 {
		o.MaxTuples = e.SplitLimit
	}
	switch {
	case o.MaxTuples == 0:
		o.MaxTuples = DefaultMaxTuples
	case o.MaxTuples < 0:
		o.MaxTuples = 0
	}
	o.Bound, o.Unit = bound, unit
	return options{Engine: e, Options: o}, nil
}

// VisibleStates explores the whole bound and counts, for every j up to
// it, the visible states reachable within j units (what PerBound puts in
// cbr.Result.VisibleStates).
func (e Engine) VisibleStates(ctx context.Context, net *pds.Network, o cbr.Options) ([]int, *cbr.Result, error) {
	opts, err := e.options(o)
	if err != nil {
		return nil, nil, err
	}
	counts, r, err := visibleStates(ctx, net, opts)
	if r != nil {
		r.Figures = e.Figures(r)
	}
	return counts, r, err
}

// asLimit returns err with package split's refusal of an eager split
// (split.ErrTupleLimit) made the vocabulary's limit: the same text, and
// its words without the package's prefix.
func asLimit(err error) error {
	if !errors.Is(err, split.ErrTupleLimit) || errors.Is(err, cbr.ErrTupleLimit) {
		return err
	}
	words := strings.TrimSuffix(strings.TrimPrefix(err.Error(), "split: "), ": "+split.ErrTupleLimit.Error())
	return &cbr.LimitError{Err: cbr.ErrTupleLimit, Msg: err.Error(), Words: words}
}
