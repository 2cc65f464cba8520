package cbr

import (
	"context"
	"errors"

	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// Name is the engine's name on the command line.
const Name = "cbr"

// DefaultMaxTuples is the view tuples eager splitting may create from one
// post* result when Limits.MaxTuples is 0; NoTupleLimit (any negative
// value) sets no limit.
const (
	DefaultMaxTuples = 1 << 16
	NoTupleLimit     = -1
)

// Engine is the view-tuple engine (the jMoped paper's Algorithm 1) with
// its settings. The zero value splits lazily and leaves out subsumed
// tuples. Its bound counts contexts or preemptions.
type Engine struct {
	Split Strategy // eager or lazy (default lazy)
	Prune Prune    // which covered tuples are left out (default PruneSubsumed)
	// SubsumeAfter is, for PruneSubsumed, the number of kept tuples before
	// the subsumption test starts (identical tuples are dropped until
	// then); 0 (the default) or less: from the first tuple.
	SubsumeAfter int
	// PerBound explores the whole bound and counts, for every j up to
	// it, the visible states reachable within j contexts
	// (Result.VisibleStates; package documentation, "Visible states").
	PerBound bool
	// OnTuple, when set, is called with every view tuple the analysis
	// keeps (the initial ones at level 0, then every split result) and
	// the number of contexts that reached it. For tests and tools that
	// inspect the reachable sets.
	OnTuple func(level int, t split.Tuple)
	// KeepLast splits the post* results of the k-th context too and hands
	// them to OnTuple (they are never processed further), so that OnTuple
	// sees the whole reachable set within the bound.
	KeepLast bool
}

// Analyze computes context-bounded reachability of net with the engine's
// settings (see the package function Analyze).
func (e Engine) Analyze(ctx context.Context, net *pds.Network, o engine.Options) (*engine.Result, error) {
	switch {
	case o.MaxTuples == 0:
		o.MaxTuples = DefaultMaxTuples
	case o.MaxTuples < 0:
		o.MaxTuples = 0
	}
	opts := Options{Contexts: o.Bound, Count: o.Unit, Unbounded: o.Unbounded, Split: e.Split, All: o.All, Targets: o.Targets, Prune: e.Prune,
		SubsumeAfter: e.SubsumeAfter, Limits: o.Limits, OnProgress: o.OnProgress, OnViolation: o.OnViolation, OnTuple: e.OnTuple, KeepLast: e.KeepLast, Traces: o.Traces}
	if e.PerBound {
		counts, r, err := VisibleStates(ctx, net, opts)
		if r != nil {
			r.VisibleStates = counts
		}
		return r, err
	}
	return Analyze(ctx, net, opts)
}

// tupleLimit is package split's refusal of an eager split (split.ErrTupleLimit)
// as the vocabulary's limit: the same text, and errors.Is knows both
// sentinels.
type tupleLimit struct{ error }

func (e tupleLimit) Unwrap() error        { return e.error }
func (e tupleLimit) Is(target error) bool { return target == engine.ErrTupleLimit }

// asLimit returns err, split's refusal made the vocabulary's limit.
func asLimit(err error) error {
	if errors.Is(err, split.ErrTupleLimit) && !errors.Is(err, engine.ErrTupleLimit) {
		return tupleLimit{err}
	}
	return err
}
