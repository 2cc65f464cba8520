package symauto

import (
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

// TestCheckCatches: a label with a copy its transition may not carry is
// reported; the same automaton without it passes.
func TestCheckCatches(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	g := b.Global("g", pds.BoolType(), pds.Init{}, pds.Pos{})
	p := b.Proc("p", nil, pds.Pos{})
	l0 := b.Label(p, "p.0", pds.Pos{})
	b.Thread("t", pds.Call(p))
	b.Step(l0, l0, b.Net().Unchanged(), pds.Pos{})
	net, err := b.Build()
	require.NoError(t, err)
	sp := NewSpace(net)
	a := sp.Init(net.Threads[0])
	require.NoError(t, a.Check())
	tr := Trans{Initial, l0, Final}
	bad := a.clone()
	bad.set(tr, net.M.And(a.Label(tr), net.M.Value(bdd.Ref{Var: g.Var, Copy: GNext}, 1)))
	require.ErrorContains(t, bad.Check(), "p -p.0-> s carries g copy 1")
	bad.set(tr, net.M.And(a.Label(tr), net.M.Value(bdd.Ref{Var: g.Var, Copy: GEntry}, 1)))
	require.ErrorContains(t, bad.Check(), "carries g copy 2", "a bottom frame has no entry values")
}
