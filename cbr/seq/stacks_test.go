package seq_test

import (
	"context"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

// stacksNet has initial stacks of every shape the switch rules load: a
// thread of one frame, a thread of two frames (CUBA's initial stacks)
// whose bottom frame asserts after the top one returns, and a thread with
// an empty stack. Each of the first two adds one to x; the second's
// bottom frame fails when x == want.
func stacksNet(t *testing.T, want uint64, empty bool) *pds.Network {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{}, pds.Pos{})
	p := b.Proc("p", nil, pds.Pos{})
	q := b.Proc("q", nil, pds.Pos{})
	n := b.Local(q, "n", pds.IntType(1), pds.Pos{})
	p0, p1 := b.Label(p, "p0", pds.Pos{}), b.Label(p, "p1", pds.Pos{})
	q0 := b.Label(q, "q0", pds.Pos{})
	qerr := b.ErrorLabel(q, "q.err", pds.Assert, "x == want", pds.Pos{Line: 1})
	b.Thread("one", pds.Call(p))
	b.Thread("two", pds.Frame{Label: q0, Locals: []pds.Init{{Value: 1}}}, pds.Call(p))
	if empty {
		b.Thread("none")
	}
	m := b.Manager()
	net := b.Net()
	xv, xn := net.GlobalVec(x, pds.GCur), net.GlobalVec(x, pds.GNext)
	b.Step(p0, p1, m.And(m.Eq(xn, m.Add(xv, m.ConstVec(1, 2))), net.Unchanged(x)), pds.Pos{})
	b.Pop(p1, m.And(net.Unchanged(), m.Value(bdd.Ref{Var: net.RetVar}, 0)), pds.Pos{})
	guard := m.And(m.Eq(xv, m.ConstVec(want, 2)), m.Eq(net.LocalVec(n, pds.LCur), m.ConstVec(1, 1)))
	b.Step(q0, qerr, m.And(guard, net.Unchanged(), net.LocalsUnchanged(q, pds.LNext)), pds.Pos{})
	built, err := b.Build()
	require.NoError(t, err)
	return built
}

// TestInitialStacks: both forms agree with the round-robin reference on
// networks whose threads start with two frames or none.
func TestInitialStacks(t *testing.T) {
	for _, want := range []uint64{1, 2, 3} {
		for _, empty := range []bool{false, true} {
			net := stacksNet(t, want, empty)
			for K := 1; K <= 2; K++ {
				ref := roundRobin(t, net, K, 8)
				for _, f := range forms {
					res, err := seq.Engine{Eager: !f.lazy}.Analyze(context.Background(), net, cbr.Options{Bound: K, All: true})
					require.NoError(t, err)
					require.Equal(t, ref.list(), engineSites(res), "x == %d, empty thread %v, K %d, %s", want, empty, K, f.name)
					require.Equal(t, ref.verdict(), res.Verdict)
					if want <= 2 {
						require.Equal(t, cbr.Violation, res.Verdict, "x == %d must be reachable (%s)", want, f.name)
					}
				}
			}
		}
	}
}
