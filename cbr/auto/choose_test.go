package auto

import (
	"errors"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/stretchr/testify/require"
)

// result returns a result with a verdict, its coverage of a bound of 4
// and the limit (with its reason) that cut it, if any.
func result(v cbr.Verdict, complete int, limit error, reason string) *cbr.Result {
	return &cbr.Result{Verdict: v, Bound: 4, Complete: complete, Converged: -1, Limit: limit, Reason: reason}
}

// TestChoose: the rule that picks the outcome the portfolio returns.
func TestChoose(t *testing.T) {
	safe := outcome{res: result(cbr.Safe, 4, nil, "")}
	violation := outcome{res: result(cbr.Violation, 3, nil, "")}
	depth := outcome{res: result(cbr.Unknown, 1, cbr.ErrDepthLimit, "stack depth limit")}
	timeUp := outcome{res: result(cbr.Unknown, 2, errors.New("time"), "time limit reached")}
	timeUp1 := outcome{res: result(cbr.Unknown, 1, errors.New("time"), "time limit reached")}
	cutViolation := outcome{res: result(cbr.Violation, 0, cbr.ErrDepthLimit, "stack depth limit")}
	stopped := safe
	stopped.stopped = true
	optionErr := outcome{err: &cbr.OptionError{Engine: "explicit", Option: "Bound", Problem: "too large"}}
	internal := outcome{res: result(cbr.Unknown, 0, nil, "boom"), err: errors.New("boom")}
	for _, tc := range []struct {
		name     string
		sym, exp outcome
		want     int
	}{
		{"both conclusive: the symbolic answer", safe, safe, symbolic},
		{"the conclusive one", depth, violation, explicitEngine},
		{"the conclusive one, symbolic", safe, depth, symbolic},
		{"conclusive, not stopped, before one stopped while building its traces", stopped, safe, explicitEngine},
		{"neither: more coverage", timeUp1, timeUp, explicitEngine},
		{"neither: more coverage, symbolic", timeUp, depth, symbolic},
		{"neither: ties go to the symbolic engine", timeUp1, depth, symbolic},
		{"neither: a violation found before more coverage", timeUp, cutViolation, explicitEngine},
		{"an option error first", safe, optionErr, explicitEngine},
		{"an internal error before an answer", internal, safe, symbolic},
	} {
		require.Equal(t, tc.want, choose([2]outcome{tc.sym, tc.exp}), tc.name)
	}
}

// TestReason: when neither engine is conclusive, the reason of the
// result returned is its own with the other engine's added when it
// differs; a conclusive answer keeps its own.
func TestReason(t *testing.T) {
	p := &portfolio{}
	for _, tc := range []struct {
		sym, exp *cbr.Result
		want     string
	}{
		{result(cbr.Unknown, 2, errors.New("time"), "time limit reached"), result(cbr.Unknown, 1, cbr.ErrDepthLimit, "stack depth limit"),
			"time limit reached; explicit: stack depth limit"},
		{result(cbr.Unknown, 2, errors.New("time"), "time limit reached"), result(cbr.Unknown, 1, errors.New("time"), "time limit reached"),
			"time limit reached"},
		{result(cbr.Unknown, 0, errors.New("time"), "time limit reached"), result(cbr.Unknown, 1, cbr.ErrDepthLimit, "stack depth limit"),
			"stack depth limit; cbr: time limit reached"},
		{result(cbr.Safe, 4, nil, ""), result(cbr.Unknown, 1, cbr.ErrDepthLimit, "stack depth limit"), ""},
	} {
		r, err := p.answer([2]outcome{{res: tc.sym}, {res: tc.exp}})
		require.NoError(t, err)
		require.Equal(t, tc.want, r.Reason)
	}
}

// TestSplitNodes: a node limit is split between the two node tables so
// that together they hold no more, each getting at least one node.
func TestSplitNodes(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 4, 7, 1000, 1 << 22} {
		sym, exp := splitNodes(n)
		switch n {
		case 0:
			require.Zero(t, sym+exp)
		case 1:
			require.Equal(t, [2]int{1, 1}, [2]int{sym, exp})
		default:
			require.Equal(t, n, sym+exp, n)
			require.Positive(t, exp, n)
			require.GreaterOrEqual(t, sym, exp, n)
			require.Equal(t, max(n/4, 1), exp, n)
		}
	}
}
