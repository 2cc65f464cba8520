package tuples_test

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// A lost update, compiled from the input language and analysed with the
// defaults (lazy splitting, pruning of covered tuples), then with fewer
// contexts than the bug needs.
func ExampleEngine_Analyze() {
	src := `
int<2> counter;
int<2> done;
proc worker() {
  int<2> tmp;
  tmp = counter;
  counter = tmp + 1;
  atomic { done = done + 1; }
}
proc check() {
  assume(done == 2);
  assert(counter == 2);
}
start worker();
start worker();
start check();
`
	net, err := frontend.Compile("lost.pds", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []int{3, 4} {
		res, err := tuples.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: k})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("k=%d: %s", k, res.Verdict)
		for _, v := range res.Violations {
			fmt.Printf(" at %s in thread %d (%s), first reached with %d contexts", v.Pos, v.Thread, v.Message, v.Contexts)
		}
		fmt.Println()
	}
	// Output:
	// k=3: safe
	// k=4: violation at lost.pds:12:3 in thread 2 (assert(counter == 2)), first reached with 4 contexts
}

// A network built with the builder API: thread 0 adds one to a 2-bit
// counter any number of times, thread 1 fails when it sees 2. Eager
// splitting, the whole bound, every violation.
func ExampleEngine_Analyze_builder() {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 0}, pds.Pos{})
	inc := b.Proc("inc", nil, pds.Pos{})
	i0 := b.Label(inc, "inc.0", pds.Pos{})
	check := b.Proc("check", nil, pds.Pos{})
	c0 := b.Label(check, "check.0", pds.Pos{})
	bad := b.ErrorLabel(check, "check.err", pds.Assert, "x != 2", pds.Pos{File: "model", Line: 7})
	b.Thread("t0", pds.Call(inc))
	b.Thread("t1", pds.Call(check))
	n, m := b.Net(), b.Manager()
	xv, xn := n.GlobalVec(x, pds.GCur), n.GlobalVec(x, pds.GNext)
	b.Step(i0, i0, m.And(m.Assign(xn, m.Add(xv, m.ConstVec(1, 2))), n.Unchanged(x)), pds.Pos{})
	b.Step(c0, bad, m.And(m.Eq(xv, m.ConstVec(2, 2)), n.Unchanged()), pds.Pos{})
	net, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tuples.Engine{Split: split.Eager}.Analyze(context.Background(), net, cbr.Options{Bound: 3, All: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, res.Contexts(), res.Violations[0].Pos, res.Violations[0].Message)
	// Output:
	// violation 2 model:7 x != 2
}
