package tuples

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cbreach/cbreach/cbr"
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
	switch {
	case err != nil && cbr.IsLimit(err):
		r.Limit = err
	case err != nil:
		r.Verdict, r.Reason = cbr.Unknown, err.Error() // never cbr.Safe on an error
		return r, err
	case a.cutoff != nil:
		r.Limit = fmt.Errorf("cbr: a start at %s would exceed the thread bound of %d threads: %w", a.cutoff.Pos, net.MaxThreads, cbr.ErrThreadBound)
	}
	// Traces are built after the search, under the same limits.
	if err := r.BuildTraces(ctx, net.M, opts.Limits, opts.Traces, a.buildTraces); err != nil {
		return r, err
	}
	r.Decide()
	if r.Verdict == cbr.Safe && r.Visible == nil {
		// (Stopped by the visible states, the level after the last one
		// made was never made: it says nothing about the configurations.)
		r.Converged = a.last.converged(r.Stats.KeptPerLevel, opts.Contexts)
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
		r.Reason = reason(r.Limit, a.cutoff, net.MaxThreads) + unclosed(r)
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

// reason says a limit in words.
func reason(err error, cutoff *pds.Label, threads int) string {
	switch {
	case errors.Is(err, cbr.ErrThreadBound):
		return fmt.Sprintf("a start at %s would exceed the thread bound of %d threads", cutoff.Pos, threads)
	case errors.Is(err, cbr.ErrTupleLimit):
		return strings.TrimSuffix(strings.TrimPrefix(err.Error(), "split: "), ": "+cbr.ErrTupleLimit.Error())
	}
	if w := cbr.LimitWords(err); w != "" {
		return w
	}
	return err.Error()
}
