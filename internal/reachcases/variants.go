package reachcases

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/cbr"
	xengine "github.com/cbreach/cbreach/cbr/explicit"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
)

// Outcome is a variant's answer with the figures tests compare.
type Outcome struct {
	Answer
	Tuples int // work items the engine processed (cbr: Stats.ViewTuples; explicit: configurations reached; the explicit engine: states expanded)
	Raw    any // the engine's own result (*cbr.Result, *explicit.Result, the explicit engine's *Result) for checks beyond the answer
}

// Variant is an engine with its options.
type Variant struct {
	Name string
	Run  func(ctx context.Context, net *pds.Network, k int) (*Outcome, error)
	// AtMost names variants that never process more tuples than this one
	// on the same network and bound, such as the same engine without
	// pruning.
	AtMost []string
	// CBR is the options of a cbr variant (without the bound), for tests
	// that inspect its reachable sets; nil for other engines.
	CBR *cbr.Options
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
	return &Outcome{Answer: NewAnswer(v, sites), Tuples: len(res.Reached), Raw: res}, nil
}

// CBR returns the cbr variant of opts (All set: every violation site is
// reported); AtMost as in Variant.
func CBR(name string, opts cbr.Options, atMost ...string) Variant {
	opts.All = true
	o := opts
	return Variant{Name: name, CBR: &o, AtMost: atMost, Run: func(ctx context.Context, net *pds.Network, k int) (*Outcome, error) {
		opts := o
		opts.Contexts = k
		r, err := cbr.Analyze(ctx, net, opts)
		if err != nil {
			return nil, err
		}
		var sites []string
		for _, x := range r.Violations {
			sites = append(sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
		}
		return &Outcome{Answer: NewAnswer(r.Verdict, sites), Tuples: r.Stats.ViewTuples, Raw: r}, nil
	}}
}

// ExplicitEngine returns the variant of the explicit-state engine (package
// cbr/explicit, All set) with or without its partial-order reduction,
// within the reference's depth limit. Tuples counts its expanded states.
func ExplicitEngine(noPOR bool) Variant {
	name := "explicit-engine"
	if noPOR {
		name += "/no-por"
	}
	return Variant{Name: name, Run: func(ctx context.Context, net *pds.Network, k int) (*Outcome, error) {
		r, err := xengine.Run(ctx, net, xengine.Options{Contexts: k, MaxDepth: ReferenceDepth, All: true, NoPOR: noPOR})
		if err != nil {
			return nil, err
		}
		var sites []string
		for _, x := range r.Violations {
			sites = append(sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
		}
		return &Outcome{Answer: NewAnswer(r.Verdict, sites), Tuples: r.Explicit.States, Raw: r}, nil
	}}
}

// Variants returns every engine variant: the explicit reference first,
// then cbr eager and lazy under each pruning setting (none; identical
// tuples; subsumption from the first tuple, after 4 kept tuples and
// after the default number), then the explicit-state engine with and
// without its reduction.
func Variants() []Variant {
	vs := []Variant{Reference}
	for _, s := range []split.Strategy{split.Eager, split.Lazy} {
		none := fmt.Sprintf("%s/none", s)
		var noneAtMost []string // lazy never processes more tuples than eager
		if s == split.Lazy {
			noneAtMost = []string{fmt.Sprintf("%s/none", split.Eager)}
		}
		vs = append(vs,
			CBR(none, cbr.Options{Split: s, Prune: cbr.PruneNone}, noneAtMost...),
			CBR(fmt.Sprintf("%s/identical", s), cbr.Options{Split: s, Prune: cbr.PruneIdentical}, none),
			CBR(fmt.Sprintf("%s/subsumed", s), cbr.Options{Split: s, Prune: cbr.PruneSubsumed, SubsumeAfter: -1}, none),
			CBR(fmt.Sprintf("%s/subsumed-after-4", s), cbr.Options{Split: s, Prune: cbr.PruneSubsumed, SubsumeAfter: 4}, none),
			CBR(fmt.Sprintf("%s/subsumed-default", s), cbr.Options{Split: s, Prune: cbr.PruneSubsumed}, none),
		)
	}
	return append(vs, ExplicitEngine(false), ExplicitEngine(true))
}
