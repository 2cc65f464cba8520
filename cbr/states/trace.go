package states

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/cbr"
)

// Traces: with Options.Traces every queued state remembers the state it
// was queued from (the last one that improved its count, so following the
// links gives a run with the state's fewest contexts), and a violation
// the state it was found in. After the search the links are followed back
// to an initial state; each step's rule is the first rule that makes it
// (pds/explicit's Stepper.Rules); cbr.Trace.Check replays the result.

// state identifies a stored state.
type state struct {
	key     string
	last    int
	reduced bool
}

// parent is where a state was queued from: the state and the thread that
// made the step.
type parent struct {
	from   state
	thread int
}

// traceQueued links a newly queued state to the state being expanded.
func (a *search) traceQueued(key string, last int, reduced bool) {
	if !a.opts.Traces || a.cur == nil {
		return
	}
	if a.parents == nil {
		a.parents = map[state]parent{}
	}
	a.parents[state{key, last, reduced}] = parent{from: *a.cur, thread: last}
}

// traceFound remembers the state a violation (its label or target) was
// found in.
func (a *search) traceFound(key any) {
	if !a.opts.Traces || a.cur == nil {
		return
	}
	if a.where == nil {
		a.where = map[any]state{}
	}
	a.where[key] = *a.cur
}

// buildTraces gives every violation its trace, or the reason it has none.
func (a *search) buildTraces(context.Context) {
	a.res.SetTraces(a.net, func(f cbr.Found) (*cbr.Trace, bool, error) {
		s, ok := a.where[f.Key()]
		if !ok {
			return nil, false, nil
		}
		tr, err := a.traceOf(s)
		if e := a.net.M.Err(); e != nil {
			err = e // a limit stopped the BDD operations
		}
		return tr, true, err
	})
}

// traceOf follows the links back from s to an initial state and names
// each step's rule.
func (a *search) traceOf(s state) (*cbr.Trace, error) {
	chain := []state{s}
	var threads []int
	for {
		p, ok := a.parents[chain[len(chain)-1]]
		if !ok {
			break
		}
		if len(chain) > len(a.parents)+1 {
			return nil, fmt.Errorf("explicit: the links of the trace form a cycle")
		}
		chain = append(chain, p.from)
		threads = append(threads, p.thread)
	}
	tr := &cbr.Trace{Initial: decode(a.net, chain[len(chain)-1].key)}
	cur := tr.Initial
	for i := len(chain) - 2; i >= 0; i-- {
		t := threads[i]
		succ, rules, err := a.step.Rules(cur, t)
		if err != nil {
			return nil, err
		}
		var step *cbr.TraceStep
		for j, d := range succ {
			if encode(d) == chain[i].key {
				step = &cbr.TraceStep{Rule: rules[j], After: d, Starts: -1}
				break
			}
		}
		if step == nil {
			return nil, fmt.Errorf("%w: thread %d has no step to a linked state", cbr.ErrBadTrace, t)
		}
		if n := len(tr.Contexts); n == 0 || tr.Contexts[n-1].Thread != t {
			tr.Contexts = append(tr.Contexts, cbr.TraceContext{Thread: t})
		}
		c := &tr.Contexts[len(tr.Contexts)-1]
		c.Steps = append(c.Steps, *step)
		cur = step.After
	}
	return tr, nil
}
