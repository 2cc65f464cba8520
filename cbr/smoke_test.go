package cbr_test

import (
	"context"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

func counterNet(t *testing.T) *pds.Network {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 0}, pds.Pos{})
	inc := b.Proc("inc", nil, pds.Pos{})
	i0 := b.Label(inc, "inc.0", pds.Pos{})
	i1 := b.Label(inc, "inc.1", pds.Pos{})
	check := b.Proc("check", nil, pds.Pos{})
	c0 := b.Label(check, "check.0", pds.Pos{})
	c1 := b.Label(check, "check.1", pds.Pos{})
	bad := b.ErrorLabel(check, "check.err", pds.Assert, "x != 2", pds.Pos{File: "f", Line: 3, Col: 1})
	b.Thread("t0", pds.Call(inc))
	b.Thread("t1", pds.Call(check))
	n, m := b.Net(), b.Manager()
	xv, xn := n.GlobalVec(x, pds.GCur), n.GlobalVec(x, pds.GNext)
	two := m.ConstVec(2, 2)
	b.Step(i0, i0, m.And(m.Assign(xn, m.Add(xv, m.ConstVec(1, 2))), n.Unchanged(x)), pds.Pos{})
	b.Step(i0, i1, n.Unchanged(), pds.Pos{})
	b.Pop(i1, n.Unchanged(), pds.Pos{})
	b.Step(c0, bad, m.And(m.Eq(xv, two), n.Unchanged()), pds.Pos{})
	b.Step(c0, c1, m.And(m.Ne(xv, two), n.Unchanged()), pds.Pos{})
	b.Pop(c1, n.Unchanged(), pds.Pos{})
	net, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func TestSmoke(t *testing.T) {
	for _, s := range []split.Strategy{split.Eager, split.Lazy} {
		for k := 1; k <= 3; k++ {
			net := counterNet(t)
			r, err := cbr.Analyze(context.Background(), net, cbr.Options{Contexts: k, Split: s, All: true, Prune: cbr.PruneNone})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s k=%d: %s contexts=%d tuples=%d perlevel=%v", s, k, r.Verdict, r.Contexts(), r.Stats.ViewTuples, r.Stats.TuplesPerLevel)
			want := cbr.Safe
			if k >= 2 {
				want = cbr.Violation
			}
			if r.Verdict != want {
				t.Errorf("%s k=%d: got %s want %s", s, k, r.Verdict, want)
			}
		}
	}
}
