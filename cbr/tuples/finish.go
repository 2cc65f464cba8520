package tuples

import (
	"context"
	"errors"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/internal/plural"
	"github.com/cbreach/cbreach/pds"
)

// finish makes the cbr.Result of a search that ended with err (nil, errStop
// at the first violation, errVisible when the visible states converged,
// a limit, or an error that makes the run fail): the limit or error, the
// traces, the verdict, how far the search is known complete and, for
// unbounded runs, the bound reached.
func (a *analysis) finish(ctx context.Context, net *pds.Network, err error) (*cbr.Result, error) {
	r, opts := a.res, a.opts
	err = asLimit(err)
	if errors.Is(err, errVisible) {
		r.Visible, err = a.vis.result, nil
	}
	stopped := errors.Is(err, errStop)
	if stopped {
		err = nil
	}
	r.Stats.Time = time.Since(a.start)
	r.Stats.PeakNodes = net.M.PeakNodes()
	var cut error
	if a.cutoff != nil {
		cut = cbr.NewLimit(Name, cbr.ErrThreadBound, "a start at %s would exceed the thread bound of %s", a.cutoff.Pos, plural.Count(net.MaxThreads, "thread"))
	}
	if err := r.Finish(err, cut); err != nil {
		return r, err // never Safe on an error
	}
	// Traces are built after the search, under the same limits.
	if err := r.BuildTraces(ctx, net.M, opts.Limits, opts.Traces, a.buildTraces); err != nil {
		return r, err
	}
	if r.Verdict == cbr.Safe && r.Visible == nil {
		// (Stopped by the visible states, the level after the last one
		// made was never made: it says nothing about the configurations.)
		r.Converged = a.last.converged(r.Stats.KeptPerLevel, opts.Bound)
	}
	if r.Limit == nil && !stopped && !opts.Unbounded {
		// The queue ran empty: every level is done.
		r.Complete = r.Bound
		for len(r.Stats.LevelTime) <= r.Bound {
			r.Stats.LevelTime = append(r.Stats.LevelTime, r.Stats.Time)
		}
	}
	if opts.Unbounded {
		finishUnbounded(r)
	}
	if r.Limit != nil {
		r.Reason += unclosed(r)
	}
	return r, nil
}

// finishUnbounded sets the bound of an unbounded run to how far the
// search went: where it converged, where the visible states did, or the
// last level it made.
func finishUnbounded(r *cbr.Result) {
	if r.Converged >= 0 {
		r.Complete = r.Converged
	}
	r.Bound = max(len(r.Stats.TuplesPerLevel)-1, r.Complete, 0)
	if r.Converged >= 0 {
		r.Bound = r.Converged
	}
	if r.Visible != nil {
		r.Bound = r.Visible.Explored
	}
	for len(r.Stats.TuplesPerLevel) <= r.Bound {
		r.Stats.TuplesPerLevel = append(r.Stats.TuplesPerLevel, 0)
		r.Stats.KeptPerLevel = append(r.Stats.KeptPerLevel, 0)
	}
	if r.Verdict == cbr.Safe && r.Converged < 0 && r.Visible == nil {
		r.Verdict = cbr.Unknown // cannot happen: unbounded runs end converged or cut off
	}
}
