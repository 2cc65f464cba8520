package cbr

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// GraceTime is how long the traces of the violations a run found may
// still be built after the run's context has ended (a time limit, Ctrl-C):
// a run that is cut off keeps what it found.
const GraceTime = time.Second

type hardKey struct{}
type graceKey struct{}

// WithHardStop returns a copy of ctx naming hard as the context whose end
// stops the building of traces at once, even within the grace period
// after ctx ends: the command line cancels ctx at the first Ctrl-C and
// hard at the second. Without it the grace period ends GraceTime after
// ctx does.
func WithHardStop(ctx, hard context.Context) context.Context {
	return context.WithValue(ctx, hardKey{}, hard)
}

// Grace returns the context under which the traces of a run made under
// ctx are built: it ends GraceTime after ctx ends (GraceTime from now
// when ctx has ended already), or when the hard stop attached to ctx
// (WithHardStop) ends, whichever comes first; a context Grace returned is
// returned as it is (no second grace period). The returned function
// releases it.
func Grace(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Value(graceKey{}) != nil {
		return ctx, func() {}
	}
	parent := context.WithoutCancel(ctx)
	if h, ok := ctx.Value(hardKey{}).(context.Context); ok && h != nil {
		parent = h
	}
	g, cancel := context.WithCancel(context.WithValue(parent, graceKey{}, true))
	var mu sync.Mutex
	var timer *time.Timer
	released := false
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !released {
			timer = time.AfterFunc(GraceTime, cancel)
		}
	})
	return g, func() {
		stop()
		mu.Lock()
		released = true
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}

// graceEnded gives the traces that the end of the grace period stopped
// (a TraceErr of context.Canceled from g) the error of the run's own
// context, which says why the run was cut off.
func (r *Result) graceEnded(ctx, g context.Context) {
	if g.Err() == nil || ctx.Err() == nil {
		return
	}
	for i := range r.Violations {
		f := &r.Violations[i]
		if f.Trace == nil && f.TraceErr != nil && errors.Is(f.TraceErr, context.Canceled) && !errors.Is(f.TraceErr, ctx.Err()) {
			f.TraceErr = fmt.Errorf("%w (traces built for %v after the cut-off)", ctx.Err(), GraceTime)
		}
	}
}
