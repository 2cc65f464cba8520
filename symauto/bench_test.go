package symauto_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
)

// bigNetwork builds a program-like network of procs procedures with about
// rulesPer rules each: two 8-bit globals (16 bits), two 8-bit locals per
// procedure (16 bits); g1 and f0's parameter start with any value. Procedure f0 calls the others in turn, passing a
// local and receiving a result; every procedure mostly computes on its
// locals under guards on them, and bumps a global now and then.
func bigNetwork(tb testing.TB, procs, rulesPer int) *pds.Network {
	r := rand.New(rand.NewPCG(1, 2))
	b := pds.NewBuilder(pds.Options{})
	g0 := b.Global("g0", pds.IntType(8), pds.Init{Value: 0}, pds.Pos{})
	g1 := b.Global("g1", pds.IntType(8), pds.Init{Any: true}, pds.Pos{})
	res := pds.IntType(8)
	type proc struct {
		p      *pds.Proc
		a, c   *pds.Local
		labels []*pds.Label
	}
	ps := make([]proc, procs)
	for i := range ps {
		p := b.Proc(fmt.Sprintf("f%d", i), &res, pds.Pos{})
		ps[i] = proc{p: p, a: b.Param(p, "a", pds.IntType(8), pds.Pos{}), c: b.Local(p, "c", pds.IntType(8), pds.Pos{})}
		for j := 0; j <= rulesPer; j++ {
			ps[i].labels = append(ps[i].labels, b.Label(p, fmt.Sprintf("f%d.%d", i, j), pds.Pos{}))
		}
	}
	b.Thread("main", pds.Frame{Label: ps[0].p.Entry, Locals: []pds.Init{{Any: true}, {Value: 0}}})
	n, m := b.Net(), b.Manager()
	k := func(v uint64) bdd.Vec { return m.ConstVec(v, 8) }
	callee := 1
	for i, x := range ps {
		gv0, gv1 := n.GlobalVec(g0, pds.GCur), n.GlobalVec(g1, pds.GCur)
		a, c := n.LocalVec(x.a, pds.LCur), n.LocalVec(x.c, pds.LCur)
		keepAC := n.LocalsUnchanged(x.p, pds.LNext)
		for j := 0; j+1 < len(x.labels); j++ {
			from, to := x.labels[j], x.labels[j+1]
			switch {
			case i == 0 && j%10 == 9 && callee < procs: // main calls the next procedure
				y := ps[callee]
				callee++
				rel := m.And(n.Unchanged(), m.Assign(n.LocalVec(y.a, pds.LNext), c),
					m.Eq(n.LocalVec(y.c, pds.LNext), k(0)), n.LocalsUnchanged(x.p, pds.LSaved))
				b.Push(from, y.p.Entry, to, rel, pds.Pos{})
				b.SetRecv(to, m.And(n.Unchanged(), n.LocalsUnchanged(x.p, pds.LNext, x.c), m.Assign(n.LocalVec(x.c, pds.LNext), n.RetVec(8))))
			case j%7 == 6: // g0 = g0 + 1
				b.Step(from, to, m.And(m.Assign(n.GlobalVec(g0, pds.GNext), m.Add(gv0, k(1))), n.Unchanged(g0), keepAC), pds.Pos{})
			case j%11 == 10: // g1 = c
				b.Step(from, to, m.And(m.Assign(n.GlobalVec(g1, pds.GNext), c), n.Unchanged(g1), keepAC), pds.Pos{})
			default: // if (c < K) c = c + k; else a = c + g1;
				guard := m.Lt(c, k(r.Uint64N(256)))
				up1 := m.And(guard, n.Unchanged(), n.LocalsUnchanged(x.p, pds.LNext, x.c), m.Assign(n.LocalVec(x.c, pds.LNext), m.Add(c, k(1+r.Uint64N(7)))))
				up2 := m.And(m.Not(guard), n.Unchanged(), n.LocalsUnchanged(x.p, pds.LNext, x.a), m.Assign(n.LocalVec(x.a, pds.LNext), m.Add(c, gv1)))
				b.Step(from, to, m.Or(up1, up2), pds.Pos{})
			}
			if j%20 == 19 { // a loop: back 15 labels while c < 100, with a = g1
				back := m.And(m.Lt(c, k(100)), n.Unchanged(), n.LocalsUnchanged(x.p, pds.LNext, x.a), m.Assign(n.LocalVec(x.a, pds.LNext), gv1))
				b.Step(from, x.labels[j-15], back, pds.Pos{})
			}
		}
		last := x.labels[len(x.labels)-1]
		b.Pop(last, m.And(n.Unchanged(), m.Assign(n.RetVec(8), m.Add(c, a))), pds.Pos{})
	}
	net, err := b.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return net
}

// BenchmarkPostStar10k: post* of a network of about 10^4 rules with 16
// global and 16 local bits.
func BenchmarkPostStar10k(b *testing.B) {
	net := bigNetwork(b, 50, 200)
	sp := symauto.NewSpace(net)
	init := sp.Init(net.Threads[0])
	b.ReportMetric(float64(len(net.Rules)), "rules")
	for b.Loop() {
		a, _, err := symauto.PostStar(b.Context(), init, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(a.Len()), "transitions")
	}
	b.ReportMetric(float64(net.M.PeakNodes()), "peak-nodes")
}
