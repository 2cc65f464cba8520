package explicit_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// The symbolic engine runs n.WithThreadSlots(max), where forks are steps on
// hidden globals and dormant slot threads; the explicit semantics runs
// forks natively. These tests check that both give the same reachable
// configurations with the same fewest contexts, after projection.

// projectNative drops the hidden globals (which must be zero: native forks
// never touch them).
func projectNative(t testing.TB, n *pds.Network, c explicit.Config) explicit.Config {
	t.Helper()
	d := explicit.Config{Threads: c.Threads}
	for i, v := range c.Globals {
		if n.Globals[i].Hidden {
			require.Zero(t, v, "hidden global %s in a native configuration", n.Globals[i].Name)
			continue
		}
		d.Globals = append(d.Globals, v)
	}
	return d
}

// projectSlots maps a configuration of the slotted network x to the native
// one: hidden globals dropped; a slot thread whose stack is its dormant
// label alone is absent when its slot holds no pending thread, and a thread
// at (child entry, the locals the slot holds) when it does. Absent threads
// must come last (slots fill in order), and a running slot thread must have
// cleared its slot.
func projectSlots(t testing.TB, x *pds.Network, initial int, c explicit.Config) explicit.Config {
	t.Helper()
	d := explicit.Config{}
	for i, v := range c.Globals {
		if !x.Globals[i].Hidden {
			d.Globals = append(d.Globals, v)
		}
	}
	absent := false
	for ti, stack := range c.Threads {
		if ti < initial {
			d.Threads = append(d.Threads, stack)
			continue
		}
		if len(stack) == 1 && x.IsDormant(stack[0].Label) {
			p, locals := x.SlotState(c.Globals, ti-initial)
			if p == nil {
				absent = true
				continue
			}
			require.False(t, absent, "slot %d pending after an absent slot", ti-initial)
			d.Threads = append(d.Threads, []explicit.Frame{{Label: p.Entry, Locals: locals}})
			continue
		}
		for _, f := range stack {
			require.False(t, x.IsDormant(f.Label), "dormant label inside a stack")
		}
		// A woken slot has read and cleared its hidden globals.
		p, _ := x.SlotState(c.Globals, ti-initial)
		require.Nil(t, p, "slot %d runs but still holds a pending thread", ti-initial)
		require.False(t, absent, "slot %d running after an absent slot", ti-initial)
		d.Threads = append(d.Threads, stack)
	}
	return d
}

type summary struct {
	reached    map[string]int    // projected key -> fewest contexts
	formats    map[string]string // projected key -> readable form
	violations []string
	capped     bool
	cutoff     bool // a cutoff label was reached
}

func summarize(n *pds.Network, res *explicit.Result, project func(explicit.Config) explicit.Config) summary {
	s := summary{reached: map[string]int{}, formats: map[string]string{}, capped: res.DepthCapped}
	for _, r := range res.Reached {
		c := project(r.Config)
		k := c.Key()
		if j, ok := s.reached[k]; !ok || r.Contexts < j {
			s.reached[k] = r.Contexts
		}
		s.formats[k] = c.Format(n)
		for _, stack := range r.Config.Threads {
			if len(stack) > 0 && stack[len(stack)-1].Label.Kind == pds.Cutoff {
				s.cutoff = true
			}
		}
	}
	for _, v := range res.Violations {
		s.violations = append(s.violations, fmt.Sprintf("%s thread %d contexts %d", v.Label.Name, v.Thread, v.Contexts))
	}
	return s
}

// diffSummaries describes how two summaries differ ("" if they agree).
func diffSummaries(a, b summary, an, bn string) string {
	var out []string
	var keys []string
	for k := range a.reached {
		keys = append(keys, k)
	}
	for k := range b.reached {
		if _, ok := a.reached[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		ja, oka := a.reached[k]
		jb, okb := b.reached[k]
		switch {
		case !oka:
			out = append(out, fmt.Sprintf("only %s: %s @%d", bn, b.formats[k], jb))
		case !okb:
			out = append(out, fmt.Sprintf("only %s: %s @%d", an, a.formats[k], ja))
		case ja != jb:
			out = append(out, fmt.Sprintf("contexts differ: %s: %s %d, %s %d", a.formats[k], an, ja, bn, jb))
		}
		if len(out) > 20 {
			out = append(out, "...")
			break
		}
	}
	if strings.Join(a.violations, ";") != strings.Join(b.violations, ";") {
		out = append(out, fmt.Sprintf("violations: %s %v, %s %v", an, a.violations, bn, b.violations))
	}
	if a.capped != b.capped {
		out = append(out, fmt.Sprintf("depth capped: %s %v, %s %v", an, a.capped, bn, b.capped))
	}
	if a.cutoff != b.cutoff {
		out = append(out, fmt.Sprintf("cutoff reached: %s %v, %s %v", an, a.cutoff, bn, b.cutoff))
	}
	return strings.Join(out, "\n")
}

// crossCheck explores n natively and n.WithThreadSlots(maxThreads) and
// returns how they differ after projection ("" if they agree).
func crossCheck(t testing.TB, n *pds.Network, k, maxThreads, maxDepth int) string {
	t.Helper()
	d, ok := crossCheckBudget(t, n, k, maxThreads, maxDepth, 200000)
	require.True(t, ok, "too many configurations")
	return d
}

// crossCheckBudget is crossCheck with a bound on the configurations of the
// native exploration (the slotted one may have three times as many); ok is
// false when the bound was exceeded and nothing was compared.
func crossCheckBudget(t testing.TB, n *pds.Network, k, maxThreads, maxDepth, budget int) (diff string, ok bool) {
	t.Helper()
	x, err := n.WithThreadSlots(maxThreads)
	require.NoError(t, err)
	require.NoError(t, x.Validate(), "the slotted network must validate")
	for _, r := range x.Rules {
		require.NotEqual(t, pds.Fork, r.Kind, "slotted network still forks")
	}
	opts := explicit.Options{Contexts: k, MaxThreads: maxThreads, MaxDepth: maxDepth, MaxConfigs: budget}
	native, err := explicit.Explore(n, opts)
	if err != nil {
		require.ErrorContains(t, err, "more than")
		return "", false
	}
	opts.MaxConfigs = 3 * budget
	slotted, err := explicit.Explore(x, opts)
	require.NoError(t, err)
	require.False(t, slotted.CutOff, "the slotted network has no forks")
	sn := summarize(n, native, func(c explicit.Config) explicit.Config { return projectNative(t, n, c) })
	sx := summarize(n, slotted, func(c explicit.Config) explicit.Config { return projectSlots(t, x, len(n.Threads), c) })
	if native.CutOff != sn.cutoff {
		return fmt.Sprintf("native CutOff %v but cutoff label reached %v", native.CutOff, sn.cutoff), true
	}
	return diffSummaries(sn, sx, "native", "slots"), true
}

// Fork networks built by hand, each with the thread bounds to try.
type forkCase struct {
	name    string
	build   func(testing.TB) *pds.Network
	threads []int
}

var forkCases = []forkCase{
	{"two forks", func(t testing.TB) *pds.Network { n, _ := forkNet(t); return n }, []int{1, 2, 3}},
	{"forking children", forkingChildren, []int{1, 2, 3, 4}},
	{"fork in callee", forkInCallee, []int{2, 3}},
	{"two parents race", twoParents, []int{2, 3, 4}},
}

func TestSlotsAgreeWithNativeForks(t *testing.T) {
	for _, tc := range forkCases {
		n := tc.build(t)
		for _, max := range tc.threads {
			for k := 1; k <= 4; k++ {
				t.Run(fmt.Sprintf("%s/threads=%d/k=%d", tc.name, max, k), func(t *testing.T) {
					if d := crossCheck(t, n, k, max, 4); d != "" {
						t.Fatalf("native forks and thread slots disagree:\n%s", d)
					}
				})
			}
		}
	}
}

// forkingChildren: every thread (main and children) forks a child with
// argument flag+1 (mod 4) and then sets the global to its argument or
// asserts it is not 2.
func forkingChildren(t testing.TB) *pds.Network {
	b := pds.NewBuilder(pds.Options{MaxThreads: 4})
	g := b.Global("g", pds.IntType(2), pds.Init{Value: 0}, noPos)
	w := b.Proc("w", nil, noPos)
	a := b.Param(w, "a", pds.IntType(2), noPos)
	w0, w1, w2 := b.Label(w, "w0", noPos), b.Label(w, "w1", noPos), b.Label(w, "w2", noPos)
	bad := b.ErrorLabel(w, "w.err", pds.Assert, "g != 2", noPos)
	b.Spawnable(w)
	b.Thread("T0", pds.Call(w, 0))
	r := relOf(b)
	av, gv := r.l(a, pds.LCur), r.g(g, pds.GCur)
	b.Fork(w0, w1, w, r.m.And(r.same(w), r.m.Eq(r.l(a, pds.LSaved), r.m.Add(av, r.c(1, 2)))), noPos)
	b.Step(w1, w2, r.m.And(r.setG(g, av), r.n.LocalsUnchanged(w, pds.LNext)), noPos)
	b.Step(w2, bad, r.m.And(r.same(w), r.m.Eq(gv, r.c(2, 2))), noPos)
	b.Pop(w2, r.m.And(r.n.Unchanged(), r.m.Ne(gv, r.c(2, 2))), noPos)
	return mustBuild(t, b)
}

// forkInCallee: main calls f(x) with x any; f forks a child with arguments
// taken from its own locals (two of them, so the slot carries several
// bits), the child calls back into f... and the child writes the global.
func forkInCallee(t testing.TB) *pds.Network {
	b := pds.NewBuilder(pds.Options{MaxThreads: 3})
	g := b.Global("g", pds.IntType(2), pds.Init{Any: true}, noPos)
	flag := b.Global("flag", pds.BoolType(), pds.Init{Value: 0}, noPos)
	main := b.Proc("main", nil, noPos)
	x := b.Local(main, "x", pds.BoolType(), noPos)
	m0, m1 := b.Label(main, "m0", noPos), b.Label(main, "m1", noPos)
	f := b.Proc("f", nil, noPos)
	p := b.Param(f, "p", pds.BoolType(), noPos)
	q := b.Local(f, "q", pds.IntType(2), noPos)
	f0, f1, f2 := b.Label(f, "f0", noPos), b.Label(f, "f1", noPos), b.Label(f, "f2", noPos)
	c := b.Proc("c", nil, noPos)
	u := b.Param(c, "u", pds.BoolType(), noPos)
	v := b.Param(c, "v", pds.IntType(2), noPos)
	c0, c1 := b.Label(c, "c0", noPos), b.Label(c, "c1", noPos)
	b.Spawnable(c)
	b.Thread("T0", pds.Frame{Label: m0, Locals: []pds.Init{{Any: true}}})
	r := relOf(b)
	n := r.n
	// m0: f(x), x kept; m1: return
	b.Push(m0, f0, m1, r.m.And(n.Unchanged(), r.m.Eq(r.l(p, pds.LNext), r.l(x, pds.LCur)),
		r.m.Eq(r.l(q, pds.LNext), r.c(0, 2)), r.m.Eq(r.l(x, pds.LSaved), r.l(x, pds.LCur))), noPos)
	b.Pop(m1, n.Unchanged(), noPos)
	// f0: q = g; f1: start c(p, q), flag = true; f2: return
	b.Step(f0, f1, r.m.And(n.Unchanged(), r.setL(q, r.g(g, pds.GCur))), noPos)
	b.Fork(f1, f2, c, r.m.And(r.setG(flag, r.c(1, 1)), n.LocalsUnchanged(f, pds.LNext),
		r.m.Eq(r.l(u, pds.LSaved), r.l(p, pds.LCur)), r.m.Eq(r.l(v, pds.LSaved), r.l(q, pds.LCur))), noPos)
	b.Pop(f2, n.Unchanged(), noPos)
	// c0: if u then g = v + 1 else g = v; c1: call f(u) again (recursion
	// through threads), returning to c1... bounded by the thread bound.
	b.Step(c0, c1, r.m.And(r.setG(g, r.m.IteVec(r.m.Eq(r.l(u, pds.LCur), r.c(1, 1)), r.m.Add(r.l(v, pds.LCur), r.c(1, 2)), r.l(v, pds.LCur))),
		n.LocalsUnchanged(c, pds.LNext)), noPos)
	b.Push(c1, f0, c0, r.m.And(n.Unchanged(), r.m.Eq(r.l(p, pds.LNext), r.l(u, pds.LCur)), r.m.Eq(r.l(q, pds.LNext), r.c(0, 2)),
		r.m.Eq(r.l(u, pds.LSaved), r.l(u, pds.LCur)), r.m.Eq(r.l(v, pds.LSaved), r.l(v, pds.LCur))), noPos)
	return mustBuild(t, b)
}

// twoParents: two initial threads each fork one child that reads the
// global; the slots are taken in the order of the forks.
func twoParents(t testing.TB) *pds.Network {
	b := pds.NewBuilder(pds.Options{MaxThreads: 4})
	g := b.Global("g", pds.EnumType("who", "none", "A", "B"), pds.Init{Value: 0}, noPos)
	par := b.Proc("par", nil, noPos)
	id := b.Param(par, "id", pds.IntType(2), noPos)
	p0, p1 := b.Label(par, "p0", noPos), b.Label(par, "p1", noPos)
	ch := b.Proc("ch", nil, noPos)
	from := b.Param(ch, "from", pds.IntType(2), noPos)
	seen := b.Local(ch, "seen", pds.IntType(2), noPos)
	h0, h1 := b.Label(ch, "h0", noPos), b.Label(ch, "h1", noPos)
	bad := b.ErrorLabel(ch, "h.err", pds.Assert, "seen != from", noPos)
	b.Spawnable(ch)
	b.Thread("A", pds.Call(par, 1))
	b.Thread("B", pds.Call(par, 2))
	r := relOf(b)
	b.Fork(p0, p1, ch, r.m.And(r.setG(g, r.l(id, pds.LCur)), r.m.Lt(r.l(id, pds.LCur), r.c(3, 2)), r.n.LocalsUnchanged(par, pds.LNext),
		r.m.Eq(r.l(from, pds.LSaved), r.l(id, pds.LCur)), r.m.Eq(r.l(seen, pds.LSaved), r.c(0, 2))), noPos)
	b.Step(h0, h1, r.m.And(r.n.Unchanged(), r.setL(seen, r.g(g, pds.GCur))), noPos)
	b.Step(h1, bad, r.m.And(r.same(ch), r.m.Ne(r.l(seen, pds.LCur), r.l(from, pds.LCur))), noPos)
	return mustBuild(t, b)
}
