package explicit_test

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// counterNet: a 3-bit counter x; thread T0 runs a0 -(x+1)-> a1 -(x+1)-> a2,
// thread T1 runs b0 -(x*2)-> b1. The two operations do not commute, so the
// reachable set depends on the order and the number of contexts.
func counterNet(t testing.TB) *pds.Network {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(3), pds.Init{Value: 0}, noPos)
	inc := b.Proc("inc", nil, noPos)
	a0, a1, a2 := b.Label(inc, "a0", noPos), b.Label(inc, "a1", noPos), b.Label(inc, "a2", noPos)
	dbl := b.Proc("dbl", nil, noPos)
	b0, b1 := b.Label(dbl, "b0", noPos), b.Label(dbl, "b1", noPos)
	b.Thread("T0", pds.Call(inc))
	b.Thread("T1", pds.Call(dbl))
	r := relOf(b)
	xv := r.g(x, pds.GCur)
	b.Step(a0, a1, r.setG(x, r.m.Add(xv, r.c(1, 3))), noPos)
	b.Step(a1, a2, r.setG(x, r.m.Add(xv, r.c(1, 3))), noPos)
	b.Step(b0, b1, r.setG(x, r.m.Add(xv, xv)), noPos)
	return mustBuild(t, b)
}

func TestCounter(t *testing.T) {
	n := counterNet(t)
	all := map[string]int{
		"x=0 | T0: a0 | T1: b0": 0,
		"x=1 | T0: a1 | T1: b0": 1, // T0 alone
		"x=2 | T0: a2 | T1: b0": 1,
		"x=0 | T0: a0 | T1: b1": 1, // T1 alone: 0*2
		"x=2 | T0: a1 | T1: b1": 2, // T0 once, then T1
		"x=4 | T0: a2 | T1: b1": 2, // T0 twice, then T1
		"x=1 | T0: a1 | T1: b1": 2, // T1, then T0 once
		"x=2 | T0: a2 | T1: b1": 2, // T1, then T0 twice
		"x=3 | T0: a2 | T1: b1": 3, // T0, T1, T0
	}
	for k := 1; k <= 4; k++ {
		want := map[string]int{}
		for c, j := range all {
			if j <= k {
				want[c] = j
			}
		}
		res := explore(t, n, explicit.Options{Contexts: k})
		requireReached(t, n, res, want)
		require.False(t, res.CutOff)
		require.False(t, res.DepthCapped)
		require.Empty(t, res.Violations)
	}
}

// The running example of the paper's Section 2.4 (reachcases.Paper):
// post*<=2 from (g,a,a) is exactly C0.
func TestPaperExample(t *testing.T) {
	n, err := reachcases.Paper()
	require.NoError(t, err)
	require.NoError(t, n.Validate())

	res := explore(t, n, explicit.Options{Contexts: 2})
	requireReached(t, n, res, map[string]int{
		"G=g | T0: a | T1: a":   0,
		"G=g' | T0: b | T1: a":  1,
		"G=g'' | T0: a | T1: a": 1,
		"G=g'' | T0: b | T1: b": 2,
	})
	// More contexts add nothing here.
	require.Equal(t, formatted(n, res), formatted(n, explore(t, n, explicit.Options{Contexts: 5})))
}

// recNet: main calls rec, which calls itself any number of times or stops.
//
//	main: m0: call rec, return to m1;  m1: return
//	rec:  r0: call rec, return to r1;  r0 -> r2;  r2: return;  r1: return
func recNet(t testing.TB) *pds.Network {
	b := pds.NewBuilder(pds.Options{})
	main := b.Proc("main", nil, noPos)
	m0, m1 := b.Label(main, "m0", noPos), b.Label(main, "m1", noPos)
	rec := b.Proc("rec", nil, noPos)
	r0, r1, r2 := b.Label(rec, "r0", noPos), b.Label(rec, "r1", noPos), b.Label(rec, "r2", noPos)
	b.Thread("T0", pds.Call(main))
	n := b.Net()
	b.Push(m0, r0, m1, n.Unchanged(), noPos)
	b.Pop(m1, n.Unchanged(), noPos)
	b.Push(r0, r0, r1, n.Unchanged(), noPos)
	b.Step(r0, r2, n.Unchanged(), noPos)
	b.Pop(r2, n.Unchanged(), noPos)
	b.Pop(r1, n.Unchanged(), noPos)
	return mustBuild(t, b)
}

func TestRecursionDepthCap(t *testing.T) {
	n := recNet(t)
	res := explore(t, n, explicit.Options{Contexts: 1, MaxDepth: 3})
	requireReached(t, n, res, map[string]int{
		"T0: m0":       0,
		"T0: m1 r0":    1,
		"T0: m1 r2":    1,
		"T0: m1 r1 r0": 1,
		"T0: m1 r1 r2": 1,
		"T0: m1 r1":    1,
		"T0: m1":       1,
		"T0: -":        1,
	})
	require.True(t, res.DepthCapped)

	for _, depth := range []int{2, 4, 7} {
		res := explore(t, n, explicit.Options{Contexts: 1, MaxDepth: depth})
		// Stacks m1 r1^i r0 and m1 r1^i r2 for i <= depth-2, m1 r1^i for
		// 1 <= i <= depth-2, and m0, m1, the empty stack.
		require.Len(t, res.Reached, 3*depth-1, "depth %d", depth)
		deepest := 0
		for _, r := range res.Reached {
			deepest = max(deepest, len(r.Config.Threads[0]))
		}
		require.Equal(t, depth, deepest, "depth %d", depth)
		require.True(t, res.DepthCapped)
	}
	// The default cap is 16.
	res = explore(t, n, explicit.Options{Contexts: 1})
	require.Len(t, res.Reached, 3*explicit.DefaultMaxDepth-1)
}

func TestNoCapWithoutDeepPush(t *testing.T) {
	// A call that fits under the cap does not set DepthCapped, and neither
	// does a push whose relation is false in every reached state.
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.BoolType(), pds.Init{Value: 0}, noPos)
	main := b.Proc("main", nil, noPos)
	m0, m1 := b.Label(main, "m0", noPos), b.Label(main, "m1", noPos)
	f := b.Proc("f", nil, noPos)
	f0, f1 := b.Label(f, "f0", noPos), b.Label(f, "f1", noPos)
	b.Thread("T0", pds.Call(main))
	r := relOf(b)
	b.Push(m0, f0, m1, r.n.Unchanged(), noPos)
	b.Push(f0, f0, f1, r.m.And(r.n.Unchanged(), r.m.Eq(r.g(x, pds.GCur), r.c(1, 1))), noPos) // never: x stays 0
	b.Pop(f0, r.n.Unchanged(), noPos)
	n := mustBuild(t, b)
	res := explore(t, n, explicit.Options{Contexts: 1, MaxDepth: 2})
	require.False(t, res.DepthCapped)
	requireReached(t, n, res, map[string]int{
		"x=false | T0: m0":    0,
		"x=false | T0: m1 f0": 1,
		"x=false | T0: m1":    1,
	})
}

// A call saves the caller's locals from the copy L″ of the push relation
// (here x″ = x+1, deliberately not x) and a return restores them.
func TestPushSavesLocals(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	main := b.Proc("main", nil, noPos)
	x := b.Local(main, "x", pds.IntType(2), noPos)
	L0, L1, L2, L3 := b.Label(main, "L0", noPos), b.Label(main, "L1", noPos), b.Label(main, "L2", noPos), b.Label(main, "L3", noPos)
	bad := b.ErrorLabel(main, "ERR", pds.Assert, "x == 3", noPos)
	f := b.Proc("f", nil, noPos)
	a := b.Param(f, "a", pds.IntType(2), noPos)
	F0, F1 := b.Label(f, "F0", noPos), b.Label(f, "F1", noPos)
	b.Thread("T0", pds.Call(main))
	r := relOf(b)
	xv := r.l(x, pds.LCur)
	b.Step(L0, L1, r.m.And(r.n.Unchanged(), r.setL(x, r.c(2, 2))), noPos)
	b.Push(L1, F0, L2, r.m.And(r.n.Unchanged(),
		r.m.Eq(r.l(a, pds.LNext), xv),
		r.m.Eq(r.l(x, pds.LSaved), r.m.Add(xv, r.c(1, 2)))), noPos)
	b.Step(F0, F1, r.m.And(r.n.Unchanged(), r.setL(a, r.c(0, 2))), noPos)
	b.Pop(F1, r.n.Unchanged(), noPos)
	b.Step(L2, L3, r.m.And(r.same(main), r.m.Eq(xv, r.c(3, 2))), noPos)
	b.Step(L2, bad, r.m.And(r.same(main), r.m.Ne(xv, r.c(3, 2))), noPos)
	n := mustBuild(t, b)

	res := explore(t, n, explicit.Options{Contexts: 1})
	requireReached(t, n, res, map[string]int{
		"T0: L0(x=0)":         0,
		"T0: L1(x=2)":         1,
		"T0: L2(x=3) F0(a=2)": 1,
		"T0: L2(x=3) F1(a=0)": 1,
		"T0: L2(x=3)":         1,
		"T0: L3(x=3)":         1,
	})
	require.Empty(t, res.Violations)

	// f has no result: the register is free in its pop relation, yet the
	// return has a single successor.
	c := explicit.Config{Threads: [][]explicit.Frame{{{Label: L2, Locals: []uint64{3}}, {Label: F1, Locals: []uint64{0}}}}}
	succ, cut, capped := explicit.Successors(n, c, 0, 0, 0)
	require.False(t, cut)
	require.False(t, capped)
	require.Len(t, succ, 1)
	require.Equal(t, "T0: L2(x=3)", succ[0].Format(n))
}

// Return values reach the caller through the receive relation of the
// return point: into a local at L1, into a global at L2. The return also
// counts calls in a global, which the receive relation must see updated.
func TestReturnValues(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	g := b.Global("g", pds.IntType(2), pds.Init{Value: 0}, noPos)
	calls := b.Global("calls", pds.IntType(2), pds.Init{Value: 0}, noPos)
	res2 := pds.IntType(2)
	f := b.Proc("f", &res2, noPos)
	a := b.Param(f, "a", pds.IntType(2), noPos)
	F0 := b.Label(f, "F0", noPos)
	main := b.Proc("main", nil, noPos)
	x := b.Local(main, "x", pds.IntType(2), noPos)
	L0, L1, L2 := b.Label(main, "L0", noPos), b.Label(main, "L1", noPos), b.Label(main, "L2", noPos)
	b.Thread("T0", pds.Call(main))
	r := relOf(b)
	n := r.n
	ret := n.RetVec(2)
	xv := r.l(x, pds.LCur)
	keepX := r.m.Eq(r.l(x, pds.LSaved), xv)
	// calls++; return a + 1
	b.Pop(F0, r.m.And(r.setG(calls, r.m.Add(r.g(calls, pds.GCur), r.c(1, 2))), r.m.Eq(ret, r.m.Add(r.l(a, pds.LCur), r.c(1, 2)))), noPos)
	// L0: x = f(1)
	b.Push(L0, F0, L1, r.m.And(n.Unchanged(), r.m.Eq(r.l(a, pds.LNext), r.c(1, 2)), keepX), noPos)
	b.SetRecv(L1, r.m.And(n.Unchanged(), r.m.Assign(r.l(x, pds.LNext), ret)))
	// L1: g = f(x)
	b.Push(L1, F0, L2, r.m.And(n.Unchanged(), r.m.Eq(r.l(a, pds.LNext), xv), keepX), noPos)
	b.SetRecv(L2, r.m.And(r.setG(g, ret), n.LocalsUnchanged(main, pds.LNext)))
	net := mustBuild(t, b)

	res := explore(t, net, explicit.Options{Contexts: 1})
	requireReached(t, net, res, map[string]int{
		"g=0 calls=0 | T0: L0(x=0)":         0,
		"g=0 calls=0 | T0: L1(x=0) F0(a=1)": 1,
		"g=0 calls=1 | T0: L1(x=2)":         1,
		"g=0 calls=1 | T0: L2(x=2) F0(a=2)": 1,
		"g=3 calls=2 | T0: L2(x=2)":         1,
	})
}

// forkNet: main forks child(1), then child(2); a child writes its argument
// into g.
func forkNet(t testing.TB) (*pds.Network, []*pds.Rule) {
	b := pds.NewBuilder(pds.Options{MaxThreads: 3})
	g := b.Global("g", pds.IntType(2), pds.Init{Value: 0}, noPos)
	main := b.Proc("main", nil, noPos)
	m0, m1, m2 := b.Label(main, "m0", noPos), b.Label(main, "m1", noPos), b.Label(main, "m2", noPos)
	child := b.Proc("child", nil, noPos)
	a := b.Param(child, "a", pds.IntType(2), noPos)
	c0, c1 := b.Label(child, "c0", noPos), b.Label(child, "c1", noPos)
	b.Spawnable(child)
	b.Thread("T0", pds.Call(main))
	r := relOf(b)
	f1 := b.Fork(m0, m1, child, r.m.And(r.n.Unchanged(), r.m.Eq(r.l(a, pds.LSaved), r.c(1, 2))), noPos)
	f2 := b.Fork(m1, m2, child, r.m.And(r.n.Unchanged(), r.m.Eq(r.l(a, pds.LSaved), r.c(2, 2))), noPos)
	b.Step(c0, c1, r.m.And(r.setG(g, r.l(a, pds.LCur)), r.n.LocalsUnchanged(child, pds.LNext)), noPos)
	return mustBuild(t, b), []*pds.Rule{f1, f2}
}

func TestFork(t *testing.T) {
	n, forks := forkNet(t)
	res := explore(t, n, explicit.Options{Contexts: 3})
	require.False(t, res.CutOff)
	requireReached(t, n, res, map[string]int{
		"g=0 | T0: m0":                             0,
		"g=0 | T0: m1 | T1: c0(a=1)":               1,
		"g=0 | T0: m2 | T1: c0(a=1) | T2: c0(a=2)": 1,
		"g=1 | T0: m1 | T1: c1(a=1)":               2,
		"g=1 | T0: m2 | T1: c1(a=1) | T2: c0(a=2)": 2,
		"g=2 | T0: m2 | T1: c0(a=1) | T2: c1(a=2)": 2,
		"g=2 | T0: m2 | T1: c1(a=1) | T2: c1(a=2)": 3,
		"g=1 | T0: m2 | T1: c1(a=1) | T2: c1(a=2)": 3,
	})

	// With two threads at most, the second fork is cut off.
	cut := n.CutoffLabel(forks[1]).Name
	require.Equal(t, pds.Cutoff, n.CutoffLabel(forks[1]).Kind)
	res = explore(t, n, explicit.Options{Contexts: 2, MaxThreads: 2})
	require.True(t, res.CutOff)
	requireReached(t, n, res, map[string]int{
		"g=0 | T0: m0":                        0,
		"g=0 | T0: m1 | T1: c0(a=1)":          1,
		"g=0 | T0: " + cut + " | T1: c0(a=1)": 1,
		"g=1 | T0: m1 | T1: c1(a=1)":          2,
		"g=1 | T0: " + cut + " | T1: c1(a=1)": 2,
	})
	require.Empty(t, res.Violations, "a cutoff label is not a violation")

	// One thread at most: the first fork is cut off already.
	res = explore(t, n, explicit.Options{Contexts: 1, MaxThreads: 1})
	require.True(t, res.CutOff)
	requireReached(t, n, res, map[string]int{
		"g=0 | T0: m0": 0,
		"g=0 | T0: " + n.CutoffLabel(forks[0]).Name: 1,
	})
}

// checkNet is pds/example_test.go's network: T0 increments x any number of
// times, T1 fails an assertion when it sees x == 2.
func checkNet(t testing.TB) *pds.Network {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 0}, noPos)
	inc := b.Proc("inc", nil, noPos)
	i0, i1 := b.Label(inc, "inc.0", noPos), b.Label(inc, "inc.1", noPos)
	check := b.Proc("check", nil, noPos)
	c0, c1 := b.Label(check, "check.0", noPos), b.Label(check, "check.1", noPos)
	bad := b.ErrorLabel(check, "check.err", pds.Assert, "x != 2", noPos)
	b.Thread("t0", pds.Call(inc))
	b.Thread("t1", pds.Call(check))
	r := relOf(b)
	xv, two := r.g(x, pds.GCur), r.c(2, 2)
	b.Step(i0, i0, r.setG(x, r.m.Add(xv, r.c(1, 2))), noPos)
	b.Step(i0, i1, r.n.Unchanged(), noPos)
	b.Pop(i1, r.n.Unchanged(), noPos)
	b.Step(c0, bad, r.m.And(r.m.Eq(xv, two), r.n.Unchanged()), noPos)
	b.Step(c0, c1, r.m.And(r.m.Ne(xv, two), r.n.Unchanged()), noPos)
	b.Pop(c1, r.n.Unchanged(), noPos)
	return mustBuild(t, b)
}

func TestAssertionFewestContexts(t *testing.T) {
	n := checkNet(t)
	res := explore(t, n, explicit.Options{Contexts: 1})
	require.Empty(t, res.Violations, "each thread alone cannot fail")

	for k := 2; k <= 4; k++ {
		res = explore(t, n, explicit.Options{Contexts: k})
		require.Len(t, res.Violations, 1)
		v := res.Violations[0]
		require.Equal(t, "check.err", v.Label.Name)
		require.Equal(t, 1, v.Thread)
		require.Equal(t, 2, v.Contexts)
		// Of the configurations with 2 contexts, the one with the smallest
		// key: T0 still at inc.0 (label 0).
		require.Equal(t, "x=2 | T0: inc.0 | T1: check.err", v.Config.Format(n))
	}
}

func TestViolationTies(t *testing.T) {
	// Both threads run check with x = 2 and reach check.err in their first
	// context: thread 0 is reported. A third thread starts on another error
	// label, reached with 0 contexts, so it comes first.
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 2}, noPos)
	check := b.Proc("check", nil, noPos)
	c0, c1 := b.Label(check, "check.0", noPos), b.Label(check, "check.1", noPos)
	bad := b.ErrorLabel(check, "check.err", pds.Assert, "x != 2", noPos)
	oob := b.ErrorLabel(check, "check.oob", pds.Bounds, "index", noPos)
	b.Thread("t0", pds.Call(check))
	b.Thread("t1", pds.Call(check))
	b.Thread("t2", pds.Frame{Label: oob})
	r := relOf(b)
	xv, two := r.g(x, pds.GCur), r.c(2, 2)
	b.Step(c0, bad, r.m.And(r.m.Eq(xv, two), r.n.Unchanged()), noPos)
	b.Step(c0, c1, r.m.And(r.m.Ne(xv, two), r.n.Unchanged()), noPos)
	n := mustBuild(t, b)

	res := explore(t, n, explicit.Options{Contexts: 3})
	require.Len(t, res.Violations, 2)
	require.Equal(t, "check.oob", res.Violations[0].Label.Name)
	require.Equal(t, 0, res.Violations[0].Contexts)
	require.Equal(t, 2, res.Violations[0].Thread)
	require.Equal(t, "check.err", res.Violations[1].Label.Name)
	require.Equal(t, 1, res.Violations[1].Contexts)
	require.Equal(t, 0, res.Violations[1].Thread)
	require.Equal(t, "x=2 | T0: check.err | T1: check.0 | T2: check.oob", res.Violations[1].Config.Format(n))
}

func TestInitialAny(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	b.Global("e", pds.EnumType("color", "red", "green", "blue"), pds.Init{Any: true}, noPos)
	b.Global("b", pds.BoolType(), pds.Init{Any: true}, noPos)
	b.Global("c", pds.IntType(2), pds.Init{Value: 3}, noPos)
	main := b.Proc("main", nil, noPos)
	b.Local(main, "x", pds.IntType(2), noPos)
	b.Local(main, "y", pds.BoolType(), noPos)
	b.Label(main, "m0", noPos)
	b.Thread("T0", pds.Frame{Label: main.Entry, Locals: []pds.Init{{Any: true}, {Value: 1}}})
	n := mustBuild(t, b)

	inits := explicit.Initial(n)
	require.Len(t, inits, 3*2*4) // enum: 3 valid values of 4 codes
	seen := map[string]bool{}
	for _, c := range inits {
		require.Less(t, c.Globals[0], uint64(3))
		require.Equal(t, uint64(3), c.Globals[2])
		require.Equal(t, uint64(1), c.Threads[0][0].Locals[1])
		seen[c.Key()] = true
	}
	require.Len(t, seen, len(inits))
	require.Equal(t, "e=red b=false c=3 | T0: m0(x=0,y=true)", inits[0].Format(n))
	require.Equal(t, "e=blue b=true c=3 | T0: m0(x=3,y=true)", inits[len(inits)-1].Format(n))

	res := explore(t, n, explicit.Options{Contexts: 1})
	require.Len(t, res.Reached, len(inits))
	for _, r := range res.Reached {
		require.Equal(t, 0, r.Contexts)
	}
}

func TestKeyAndFormat(t *testing.T) {
	n, _ := forkNet(t)
	main, child := n.Procs[0], n.Procs[1]
	c := explicit.Config{
		Globals: make([]uint64, len(n.Globals)),
		Threads: [][]explicit.Frame{{{Label: main.Labels[1]}}, {{Label: child.Labels[0], Locals: []uint64{2}}}, {}},
	}
	c.Globals[0] = 3
	require.Equal(t, "g=3 | T0: m1 | T1: c0(a=2) | T2: -", c.Format(n))
	d := explicit.Config{Globals: append([]uint64(nil), c.Globals...), Threads: [][]explicit.Frame{c.Threads[0], c.Threads[1]}}
	require.NotEqual(t, c.Key(), d.Key(), "a finished thread differs from no thread")
	d.Threads = append(d.Threads, nil)
	require.Equal(t, c.Key(), d.Key(), "nil and empty stacks are the same")
	d.Threads[1] = []explicit.Frame{{Label: child.Labels[0], Locals: []uint64{1}}}
	require.NotEqual(t, c.Key(), d.Key())
	// A hidden global shows when it is not zero.
	var hidden *pds.Global
	for _, g := range n.Globals {
		if g.Hidden {
			hidden = g
			break
		}
	}
	require.NotNil(t, hidden)
	c.Globals[hidden.Index] = 1
	require.Contains(t, c.Format(n), hidden.Name+"=1")
}

func TestSuccessorsDeterministic(t *testing.T) {
	n := checkNet(t)
	c := explicit.Initial(n)[0]
	a, _, _ := explicit.Successors(n, c, 0, 0, 0)
	b, _, _ := explicit.Successors(n, c, 0, 0, 0)
	require.Len(t, a, 2) // inc.0 -> inc.0 with x+1, inc.0 -> inc.1
	for i := range a {
		require.Equal(t, a[i].Key(), b[i].Key())
	}
	require.Equal(t, "x=1 | T0: inc.0 | T1: check.0", a[0].Format(n))
	require.Equal(t, "x=0 | T0: inc.1 | T1: check.0", a[1].Format(n))
	// The input is not modified.
	require.Equal(t, "x=0 | T0: inc.0 | T1: check.0", c.Format(n))
	// Popping the last frame finishes the thread; a finished thread has no
	// successors.
	s, _, _ := explicit.Successors(n, a[1], 0, 0, 0)
	require.Len(t, s, 1)
	require.Equal(t, "x=0 | T0: - | T1: check.0", s[0].Format(n))
	s, _, _ = explicit.Successors(n, s[0], 0, 0, 0)
	require.Empty(t, s)
	require.Panics(t, func() { explicit.Successors(n, c, 2, 0, 0) })
}

func TestExploreErrors(t *testing.T) {
	n := counterNet(t)
	_, err := explicit.Explore(n, explicit.Options{Contexts: 0})
	require.ErrorContains(t, err, "context")
	_, err = explicit.Explore(n, explicit.Options{Contexts: 3, MaxConfigs: 4})
	require.ErrorContains(t, err, "more than 4 configurations")
	_, err = explicit.Explore(n, explicit.Options{Contexts: 3, MaxConfigs: 9})
	require.NoError(t, err)
}

func TestReturnFromBottomFrame(t *testing.T) {
	// Returning from the bottom frame finishes the thread; the pop's
	// effect on the globals stays, and the other thread runs on.
	b := pds.NewBuilder(pds.Options{})
	g := b.Global("g", pds.IntType(2), pds.Init{Value: 0}, noPos)
	main := b.Proc("main", nil, noPos)
	m0 := b.Label(main, "m0", noPos)
	other := b.Proc("other", nil, noPos)
	o0, o1 := b.Label(other, "o0", noPos), b.Label(other, "o1", noPos)
	b.Thread("T0", pds.Call(main))
	b.Thread("T1", pds.Call(other))
	r := relOf(b)
	b.Pop(m0, r.setG(g, r.c(2, 2)), noPos)
	b.Step(o0, o1, r.setG(g, r.m.Add(r.g(g, pds.GCur), r.c(1, 2))), noPos)
	n := mustBuild(t, b)
	res := explore(t, n, explicit.Options{Contexts: 2})
	requireReached(t, n, res, map[string]int{
		"g=0 | T0: m0 | T1: o0": 0,
		"g=2 | T0: - | T1: o0":  1,
		"g=1 | T0: m0 | T1: o1": 1,
		"g=3 | T0: - | T1: o1":  2,
		"g=2 | T0: - | T1: o1":  2,
	})
}

// TestInitialLarge: the initial configurations of open data too large to
// list are counted exactly and enumerated one at a time; Explore refuses
// them before enumerating when they are more than MaxConfigs, and gives
// the same answer as before when they are not.
func TestInitialLarge(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	b.Global("x", pds.IntType(32), pds.Init{Any: true}, noPos)
	b.Global("y", pds.IntType(32), pds.Init{Any: true}, noPos)
	b.Global("e", pds.EnumType("color", "red", "green", "blue"), pds.Init{Any: true}, noPos)
	main := b.Proc("main", nil, noPos)
	b.Local(main, "z", pds.IntType(2), noPos)
	b.Label(main, "m0", noPos)
	b.Thread("T0", pds.Frame{Label: main.Entry, Locals: []pds.Init{{Any: true}}})
	n := mustBuild(t, b)

	count := explicit.InitialCount(n)
	want := new(big.Int).Lsh(big.NewInt(3*4), 64)
	require.Equal(t, want.String(), count.String())
	require.Equal(t, "221360928884514619392 (about 2^67.6)", explicit.FormatCount(count))
	require.Equal(t, "2^22", explicit.FormatCount(big.NewInt(1<<22)))
	require.Equal(t, "1000", explicit.FormatCount(big.NewInt(1000)))

	// The first ones, in the order of Initial: the last choice fastest.
	var got []string
	explicit.EachInitial(n, func(c explicit.Config) bool {
		got = append(got, c.Format(n))
		return len(got) < 5
	})
	require.Equal(t, []string{
		"x=0 y=0 e=red | T0: m0(z=0)", "x=0 y=0 e=red | T0: m0(z=1)", "x=0 y=0 e=red | T0: m0(z=2)", "x=0 y=0 e=red | T0: m0(z=3)",
		"x=0 y=0 e=green | T0: m0(z=0)",
	}, got)

	_, err := explicit.Explore(n, explicit.Options{Contexts: 1, MaxConfigs: 1000})
	require.ErrorContains(t, err, "more than 1000 configurations within 1 context: 221360928884514619392 (about 2^67.6) initial configurations")
}

// TestInitialWide: 64-bit open values count 2^64 each and the odometer
// wraps without overflow; a network of few choices is listed whole.
func TestInitialWide(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	b.Global("w", pds.IntType(64), pds.Init{Any: true}, noPos)
	main := b.Proc("main", nil, noPos)
	b.Label(main, "m0", noPos)
	b.Thread("T0", pds.Frame{Label: main.Entry})
	n := mustBuild(t, b)
	require.Equal(t, "2^64", explicit.FormatCount(explicit.InitialCount(n)))
	var vals []uint64
	explicit.EachInitial(n, func(c explicit.Config) bool {
		vals = append(vals, c.Globals[0])
		return len(vals) < 3
	})
	require.Equal(t, []uint64{0, 1, 2}, vals)
}
