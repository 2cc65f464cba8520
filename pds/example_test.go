package pds_test

import (
	"fmt"
	"os"

	"github.com/cbreach/cbreach/pds"
)

// Two threads share a 2-bit counter x. Thread 0 runs inc, which adds one
// to x; thread 1 runs check, which fails an assertion when x == 2.
func Example() {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 0}, pds.Pos{})

	inc := b.Proc("inc", nil, pds.Pos{})
	i0 := b.Label(inc, "inc.0", pds.Pos{})
	i1 := b.Label(inc, "inc.1", pds.Pos{})

	check := b.Proc("check", nil, pds.Pos{})
	c0 := b.Label(check, "check.0", pds.Pos{})
	c1 := b.Label(check, "check.1", pds.Pos{})
	bad := b.ErrorLabel(check, "check.err", pds.Assert, "x != 2", pds.Pos{})

	b.Thread("t0", pds.Call(inc))
	b.Thread("t1", pds.Call(check))

	n, m := b.Net(), b.Manager()
	xv, xn := n.GlobalVec(x, pds.GCur), n.GlobalVec(x, pds.GNext)
	two := m.ConstVec(2, 2)
	// inc.0 -> inc.0: x' = x + 1 (it may loop); inc.0 -> inc.1 and return.
	b.Step(i0, i0, m.And(m.Assign(xn, m.Add(xv, m.ConstVec(1, 2))), n.Unchanged(x)), pds.Pos{})
	b.Step(i0, i1, n.Unchanged(), pds.Pos{})
	b.Pop(i1, n.Unchanged(), pds.Pos{})
	// check.0 -> check.err if x == 2, else -> check.1.
	b.Step(c0, bad, m.And(m.Eq(xv, two), n.Unchanged()), pds.Pos{})
	b.Step(c0, c1, m.And(m.Ne(xv, two), n.Unchanged()), pds.Pos{})
	b.Pop(c1, n.Unchanged(), pds.Pos{})

	net, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	net.Print(os.Stdout)
	// Output:
	// global int<2> x = 0
	// proc inc
	//   label inc.0 @- entry
	//   label inc.1 @-
	// proc check
	//   label check.0 @- entry
	//   label check.1 @-
	//   label check.err @- assert "x != 2"
	// rule 0 step inc.0 -> inc.0 @-
	//     x=0 x'=1 | x=1 x'=2 | x=2 x'=3 | x=3 x'=0
	// rule 1 step inc.0 -> inc.1 @-
	//     true
	// rule 2 pop inc.1 @-
	//     true
	// rule 3 step check.0 -> check.err @-
	//     x=2
	// rule 4 step check.0 -> check.1 @-
	//     x=0 | x=1 | x=3
	// rule 5 pop check.1 @-
	//     true
	// thread t0: inc.0
	// thread t1: check.0
}

// An initialisation that no per-global initial value describes: x and y
// start with x < y (after some set-up that ran before the threads, say),
// and one thread is left.
func ExampleNetwork_WithInitial() {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 0}, pds.Pos{})
	y := b.Global("y", pds.IntType(2), pds.Init{Any: true}, pds.Pos{})
	p := b.Proc("p", nil, pds.Pos{})
	p0 := b.Label(p, "p.0", pds.Pos{})
	b.Thread("t0", pds.Call(p))
	b.Thread("t1", pds.Call(p))
	n, m := b.Net(), b.Manager()
	b.Pop(p0, n.Unchanged(), pds.Pos{})
	net, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	lt := m.Lt(net.GlobalVec(x, pds.GCur), net.GlobalVec(y, pds.GCur))
	init, err := net.WithInitial(&pds.InitGlobals{Rel: lt, By: "setup"}, net.Threads[:1])
	if err != nil {
		fmt.Println(err)
		return
	}
	init.Print(os.Stdout)
	// Output:
	// global int<2> x = ?
	// global int<2> y = ?
	// initial globals (after setup): x=0 y=1 | x=0 y=2 | x=0 y=3 | x=1 y=2 | x=1 y=3 | x=2 y=3
	// proc p
	//   label p.0 @- entry
	// rule 0 pop p.0 @-
	//     true
	// thread t0: p.0
}
