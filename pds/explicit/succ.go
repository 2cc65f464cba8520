package explicit

import (
	"fmt"
	"math"
	"math/big"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// DefaultMaxDepth is the stack depth cap when none is given.
const DefaultMaxDepth = 16

// lastValue is the largest valid value of a type: the last constant of
// an enum, 2^bits-1 otherwise.
func lastValue(t pds.Type) uint64 {
	if t.Kind == pds.Enum {
		return uint64(len(t.Values)) - 1
	}
	if t.Bits >= 64 {
		return ^uint64(0)
	}
	return 1<<t.Bits - 1
}

// choice is one value to choose for an initial configuration: every value
// from 0 to last when any, else the constant value.
type choice struct {
	any         bool
	value, last uint64
}

func choiceOf(init pds.Init, t pds.Type) choice {
	if !init.Any {
		return choice{value: init.Value}
	}
	return choice{any: true, last: lastValue(t)}
}

// initialChoices returns one choice per value of an initial configuration,
// in a fixed order: globals first, then threads, frames and locals. With
// InitGlobals (sols, from initialGlobals, not nil), the globals are one
// choice: an index into the valuations of the initial relation, in
// enumeration order; ok is false when there is none.
func initialChoices(n *pds.Network, sols [][]uint64) (cs []choice, ok bool) {
	if sols != nil {
		if len(sols) == 0 {
			return nil, false // no initial valuation
		}
		cs = append(cs, choice{any: len(sols) > 1, last: uint64(len(sols) - 1)})
	} else {
		for _, g := range n.Globals {
			cs = append(cs, choiceOf(g.Init, g.Type))
		}
	}
	for _, t := range n.Threads {
		for _, f := range t.Stack {
			for i, init := range f.Locals {
				cs = append(cs, choiceOf(init, f.Label.Proc.Locals[i].Type))
			}
		}
	}
	return cs, true
}

// InitialCount returns the number of initial configurations of n: the
// product of the numbers of values that the "any" initial values stand
// for. It is exact however large (32 open bits and more), so that a
// caller can compare it with what its limits allow before enumerating.
func InitialCount(n *pds.Network) *big.Int {
	count := big.NewInt(1)
	var x big.Int
	cs, ok := initialChoices(n, initialGlobals(n))
	if !ok {
		return new(big.Int)
	}
	for _, c := range cs {
		if c.any {
			x.SetUint64(c.last)
			x.Add(&x, big.NewInt(1))
			count.Mul(count, &x)
		}
	}
	return count
}

// FormatCount writes a count of configurations readably: in decimal up to
// 2^20, else as a power of two when it is one ("2^22"), else in decimal
// with its order of magnitude ("12582912 (about 2^23.6)").
func FormatCount(x *big.Int) string {
	if x.Cmp(big.NewInt(1<<20)) <= 0 {
		return x.String()
	}
	if b := x.BitLen() - 1; new(big.Int).Lsh(big.NewInt(1), uint(b)).Cmp(x) == 0 {
		return fmt.Sprintf("2^%d", b)
	}
	f, _ := new(big.Float).SetInt(x).Float64()
	return fmt.Sprintf("%s (about 2^%.1f)", x.String(), math.Log2(f))
}

// EachInitial calls yield with the initial configurations of n, one at a
// time, in the order of Initial, until yield returns false: the caller
// counts them against its limits from the first one, and none is built
// before it is asked for. Each configuration is the caller's.
func EachInitial(n *pds.Network, yield func(Config) bool) {
	sols := initialGlobals(n)
	slots, ok := initialChoices(n, sols)
	if !ok {
		return
	}
	vals := make([]uint64, len(slots))
	for i, s := range slots {
		vals[i] = s.value
	}
	for {
		c := Config{Threads: make([][]Frame, len(n.Threads))}
		next := len(n.Globals)
		if sols != nil {
			c.Globals, next = append([]uint64(nil), sols[vals[0]]...), 1
		} else {
			c.Globals = append([]uint64(nil), vals[:len(n.Globals)]...)
		}
		for ti, t := range n.Threads {
			c.Threads[ti] = make([]Frame, 0, len(t.Stack))
			for _, f := range t.Stack {
				locals := append([]uint64(nil), vals[next:next+len(f.Locals)]...)
				next += len(f.Locals)
				c.Threads[ti] = append(c.Threads[ti], Frame{Label: f.Label, Locals: locals})
			}
		}
		if !yield(c) {
			return
		}
		// Advance the odometer, last slot fastest.
		i := len(slots) - 1
		for ; i >= 0; i-- {
			if slots[i].any && vals[i] < slots[i].last {
				vals[i]++
				break
			}
			vals[i] = slots[i].value
		}
		if i < 0 {
			return
		}
	}
}

// initialGlobals returns the valuations of the globals that the network's
// InitGlobals allows with their Init values (InitRel), in
// bdd.Manager.Enumerate's order; nil without InitGlobals.
func initialGlobals(n *pds.Network) [][]uint64 {
	if n.InitGlobals == nil {
		return nil
	}
	sols := [][]uint64{}
	for _, s := range enumerate(n, n.InitRel(pds.GCur), globalVecs(n, pds.GCur)) {
		sols = append(sols, s[0])
	}
	return sols
}

// Initial returns the initial configurations of n: one for each combination
// of the values that the "any" initial values (Init.Any) of globals and of
// frame locals stand for (for an enum, only its constants). They come in
// lexicographic order of the choices, globals first, then threads, frames
// and locals in order. It builds them all: for a network whose open
// initial data may be large, use EachInitial and InitialCount.
func Initial(n *pds.Network) []Config {
	var out []Config
	EachInitial(n, func(c Config) bool {
		out = append(out, c)
		return true
	})
	return out
}

// Relations are read by enumeration: the relation is conjoined with the
// constants of the current state (globals in GCur, the top frame's locals in
// LCur, zeros in the bits of the local block the procedure does not use),
// and the satisfying values of the output copies are listed with
// bdd.Manager.Enumerate. An output frame's unused bits must be zero too.

// constraints builds (and remembers, since the same valuations recur in
// many states) the constant constraints that select a state, and the
// solutions of each rule from each (globals, top locals) it was applied to.
type constraints struct {
	n    *pds.Network
	memo map[string]bdd.Node
	sols map[string][][][]uint64
}

func newConstraints(n *pds.Network) *constraints {
	return &constraints{n: n, memo: map[string]bdd.Node{}, sols: map[string][][][]uint64{}}
}

func (cs *constraints) remember(key string, build func() bdd.Node) bdd.Node {
	if r, ok := cs.memo[key]; ok {
		return r
	}
	r := build()
	cs.memo[key] = r
	return r
}

// globalsAre returns "copy c of the globals has the values vals".
func (cs *constraints) globalsAre(c int, vals []uint64) bdd.Node {
	return cs.remember(fmt.Sprint("G", c, vals), func() bdd.Node {
		// One cube (bdd.Manager.Values): conjoined global after global,
		// each value's bits spread over the order, it was quadratic in
		// the globals (a trace's replay of 2,000 globals of 32 bits).
		n := cs.n
		refs := n.GlobalRefs(c)
		vs := make([]uint64, len(n.Globals))
		for _, g := range n.Globals {
			vs[g.Index] = vals[g.Index] & (1<<g.Type.Bits - 1) // as ConstVec keeps the low bits
		}
		return n.M.Values(refs, vs)
	})
}

// localsAre returns "copy c of the local block holds p's locals with the
// values vals and zeros in the other bits".
func (cs *constraints) localsAre(p *pds.Proc, c int, vals []uint64) bdd.Node {
	return cs.remember(fmt.Sprint("L", p.Index, c, vals), func() bdd.Node {
		n, m := cs.n, cs.n.M
		var fs []bdd.Node
		for i, l := range p.Locals {
			fs = append(fs, m.BitEqs(n.LocalVec(l, c), m.ConstVec(vals[i], l.Type.Bits))...)
		}
		return m.And(cs.unused(p, c), m.Conj(fs...))
	})
}

// unused returns "the bits of copy c of the local block that p's locals do
// not occupy are zero".
func (cs *constraints) unused(p *pds.Proc, c int) bdd.Node {
	return cs.remember(fmt.Sprint("U", p.Index, c), func() bdd.Node {
		n := cs.n
		return n.Unused(p, c)
	})
}

// solutions returns enumerate(n, rel(), groups...), remembered under key:
// the key must determine the relation and the groups. The result is shared
// and must not be modified.
func (cs *constraints) solutions(key string, rel func() bdd.Node, groups ...[]bdd.Vec) [][][]uint64 {
	if sols, ok := cs.sols[key]; ok {
		return sols
	}
	sols := enumerate(cs.n, rel(), groups...)
	cs.sols[key] = sols
	return sols
}

// retIs returns "the return register holds r".
func (cs *constraints) retIs(r uint64) bdd.Node {
	return cs.remember(fmt.Sprint("R", r), func() bdd.Node {
		return cs.n.M.Eq(retVec(cs.n), cs.n.M.ConstVec(r, cs.n.RetBits))
	})
}

func retVec(n *pds.Network) bdd.Vec { return n.M.Vec(bdd.Ref{Var: n.RetVar}) }

func globalVecs(n *pds.Network, c int) []bdd.Vec {
	vs := make([]bdd.Vec, len(n.Globals))
	for i, g := range n.Globals {
		vs[i] = n.GlobalVec(g, c)
	}
	return vs
}

func localVecs(n *pds.Network, p *pds.Proc, c int) []bdd.Vec {
	vs := make([]bdd.Vec, len(p.Locals))
	for i, l := range p.Locals {
		vs[i] = n.LocalVec(l, c)
	}
	return vs
}

// enumerate lists the values of the groups of fields that satisfy rel, in
// bdd.Manager.Enumerate's order; each solution is split by group.
func enumerate(n *pds.Network, rel bdd.Node, groups ...[]bdd.Vec) [][][]uint64 {
	var fields []bdd.Vec
	for _, g := range groups {
		fields = append(fields, g...)
	}
	var sols [][][]uint64
	n.M.Enumerate(rel, fields, func(vals []uint64) bool {
		sol := make([][]uint64, len(groups))
		k := 0
		for i, g := range groups {
			sol[i] = append([]uint64{}, vals[k:k+len(g)]...)
			k += len(g)
		}
		sols = append(sols, sol)
		return true
	})
	if err := n.M.Err(); err != nil {
		panic(bddError{err})
	}
	return sols
}

// Successors returns the configurations reached from c by one step of the
// given thread, in a deterministic order (rules in the order of
// n.RulesFrom, each rule's results in enumeration order) and without
// duplicates. A finished thread has none.
//
// A push that would make the stack deeper than maxDepth is not taken and
// sets capped. A fork taken when c already has maxThreads threads moves the
// thread to n.CutoffLabel(rule) instead, with globals and locals unchanged,
// and sets cutoff. maxThreads <= 0 means n.MaxThreads; maxDepth <= 0 means
// DefaultMaxDepth. It panics when thread is not a thread of c.
func Successors(n *pds.Network, c Config, thread int, maxThreads, maxDepth int) (succ []Config, cutoff, capped bool) {
	succ, _, cutoff, capped = successors(newConstraints(n), c, thread, maxThreads, maxDepth, nil, false)
	return succ, cutoff, capped
}

// successors also returns, for each successor, the first rule that makes
// it; only, when not nil, is the one rule applied. With share, the
// successors share the stacks of the threads that do not move with c
// (their frames and locals): they are then read-only. Each rule of the
// top frame's label is applied in rule order by the step of its kind
// (expansion's step, push, pop, fork).
func successors(cs *constraints, c Config, thread int, maxThreads, maxDepth int, only *pds.Rule, share bool) (succ []Config, rules []*pds.Rule, cutoff, capped bool) {
	n := cs.n
	if maxThreads <= 0 {
		maxThreads = n.MaxThreads
	}
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if thread < 0 || thread >= len(c.Threads) {
		panic(fmt.Sprintf("explicit: thread %d of a configuration with %d threads", thread, len(c.Threads)))
	}
	if len(c.Threads[thread]) == 0 {
		return nil, nil, false, false
	}
	return expand(newExpansion(cs, c, thread, share), maxThreads, maxDepth, only)
}

// expand applies the rules of x's top (only one, when not nil).
func expand(x *expansion, maxThreads, maxDepth int, only *pds.Rule) (succ []Config, rules []*pds.Rule, cutoff, capped bool) {
	n := x.cs.n
	for _, r := range n.RulesFrom(x.top.Label) {
		if only != nil && r.Index != only.Index {
			continue // by index: a network built again has rules of its own
		}
		x.rule = r
		key := fmt.Sprint(r.Index, x.key)
		switch r.Kind {
		case pds.Step:
			x.step(r, key)
		case pds.Push:
			x.push(r, key, maxDepth)
		case pds.Pop:
			x.pop(r, key)
		case pds.Fork:
			x.fork(r, key, maxThreads)
		default:
			panic(fmt.Sprintf("explicit: rule %d has unknown kind %d", r.Index, r.Kind))
		}
	}
	if err := n.M.Err(); err != nil {
		panic(bddError{err})
	}
	return x.succ, x.rules, x.cutoff, x.capped
}

// expansion is one call of successors: the configuration c, the thread
// that moves, its stack and top frame, and the successors found so far,
// with the rule that made each.
type expansion struct {
	cs     *constraints
	c      Config
	thread int
	stack  []Frame
	top    Frame
	depth  int
	share  bool
	// key: the solutions of a rule depend only on the rule, the globals
	// and the top frame's locals; they are remembered under the rule's
	// index followed by this key.
	key string
	// Successors differ from c only in the globals, the thread's stack
	// and the threads a fork appends: seen tells them apart by those
	// parts, not by their whole keys (a configuration may have many
	// threads).
	seen map[string]bool
	rule *pds.Rule // the rule being applied
	// want, when set, is the one successor looked for (Stepper.Allows):
	// the solutions are restricted to its values, so that a rule that
	// sets a wide variable to any value is checked without enumerating
	// them.
	want           *Config
	succ           []Config
	rules          []*pds.Rule
	cutoff, capped bool
}

func newExpansion(cs *constraints, c Config, thread int, share bool) *expansion {
	stack := c.Threads[thread]
	top := stack[len(stack)-1]
	return &expansion{cs: cs, c: c, thread: thread, stack: stack, top: top, depth: len(stack), share: share,
		key: fmt.Sprint("rule", c.Globals, top.Locals), seen: map[string]bool{}}
}

// here is the constraint of the state a rule applies to: the globals in
// GCur, the top frame's locals in LCur.
func (x *expansion) here() bdd.Node {
	cs := x.cs
	return cs.n.M.And(cs.globalsAre(pds.GCur, x.c.Globals), cs.localsAre(x.top.Label.Proc, pds.LCur, x.top.Locals))
}

// emit adds d to the successors unless it is one already.
func (x *expansion) emit(d Config) {
	part := Config{Globals: d.Globals, Threads: append([][]Frame{d.Threads[x.thread]}, d.Threads[len(x.c.Threads):]...)}
	if k := part.Key(); !x.seen[k] {
		x.seen[k] = true
		x.succ = append(x.succ, d)
		x.rules = append(x.rules, x.rule)
	}
}

// with returns a copy of c with the given globals and the thread's stack
// cut to its keep bottom frames, followed by (copies of) frames.
func (x *expansion) with(globals []uint64, keep int, frames ...Frame) Config {
	var d Config
	c, thread := x.c, x.thread
	if x.share {
		d = Config{Threads: append(make([][]Frame, 0, len(c.Threads)+1), c.Threads...)}
		d.Threads[thread] = append(make([]Frame, 0, keep+len(frames)), x.stack[:keep]...)
	} else {
		d = c.clone()
		d.Threads[thread] = d.Threads[thread][:keep:keep]
	}
	d.Globals = append([]uint64(nil), globals...)
	for _, f := range frames {
		d.Threads[thread] = append(d.Threads[thread], Frame{f.Label, append([]uint64(nil), f.Locals...)})
	}
	return d
}

// output is a frame a rule writes: the procedure whose locals copy c of
// the local block holds.
type output struct {
	p *pds.Proc
	c int
}

// solve returns the solutions of the step, push or fork rule r at the
// top frame (remembered under key): the values of the globals in GNext
// and of each output frame's locals, the bits of the local block that an
// output's procedure does not use being zero.
func (x *expansion) solve(r *pds.Rule, key string, outs ...output) [][][]uint64 {
	cs, n := x.cs, x.cs.n
	groups := [][]bdd.Vec{globalVecs(n, pds.GNext)}
	for _, o := range outs {
		groups = append(groups, localVecs(n, o.p, o.c))
	}
	rel := func() bdd.Node {
		rel := []bdd.Node{r.Rel, x.here()}
		for _, o := range outs {
			rel = append(rel, cs.unused(o.p, o.c))
		}
		return n.M.And(rel...)
	}
	if x.want != nil {
		w := x.wanted(r, outs)
		return enumerate(n, n.M.And(rel(), w), groups...)
	}
	return cs.solutions(key, rel, groups...)
}

// wanted is the constraint of x.want on a rule's outputs: the globals in
// GNext and the frames the rule makes (the new top, and the frame saved
// below a push or a forked thread's); false when want's shape is not one
// the rule can make.
func (x *expansion) wanted(r *pds.Rule, outs []output) bdd.Node {
	cs, n, w := x.cs, x.cs.n, x.want
	if len(w.Globals) != len(x.c.Globals) || x.thread >= len(w.Threads) {
		return n.M.False()
	}
	c := []bdd.Node{cs.globalsAre(pds.GNext, w.Globals)}
	st := w.Threads[x.thread]
	frame := func(i int, p *pds.Proc, copy int) bool {
		if i < 0 || i >= len(st) || st[i].Label.Proc != p || len(st[i].Locals) != len(p.Locals) {
			return false
		}
		c = append(c, cs.localsAre(p, copy, st[i].Locals))
		return true
	}
	top := len(st) - 1
	ok := true
	switch r.Kind {
	case pds.Step:
		ok = frame(top, outs[0].p, pds.LNext)
	case pds.Push:
		ok = frame(top, outs[0].p, pds.LNext) && frame(top-1, outs[1].p, pds.LSaved)
	case pds.Fork:
		ok = frame(top, outs[0].p, pds.LNext)
		if ok && len(w.Threads) == len(x.c.Threads)+1 {
			child := w.Threads[len(w.Threads)-1]
			ok = len(child) == 1 && len(child[0].Locals) == len(outs[1].p.Locals)
			if ok {
				c = append(c, cs.localsAre(outs[1].p, pds.LSaved, child[0].Locals))
			}
		}
	}
	if !ok {
		return n.M.False()
	}
	return n.M.And(c...)
}

// step applies a step rule, <g, (γ, l)> -> <g', (γ', l')>: a rule of the
// jMoped paper's Section 2.1 that replaces the top symbol by one, its
// stack symbols pairs of a label and the locals' values as in Section
// 4.1. The new top frame has the values of γ'.Proc's locals in LNext.
func (x *expansion) step(r *pds.Rule, key string) {
	for _, sol := range x.solve(r, key, output{r.To.Proc, pds.LNext}) {
		x.emit(x.with(sol[0], x.depth-1, Frame{r.To, sol[1]}))
	}
}

// push applies a push rule, <g, (γ, l)> -> <g', (γe, l') (γr, l″)> with
// γe on top: a rule of Section 2.1 that replaces the top symbol by two,
// the callee's entry frame (LNext) above the caller's return point
// (LSaved), Section 4.1's R(g, l, g', l', l″). A push beyond maxDepth
// is not taken and sets capped when the rule has a solution.
func (x *expansion) push(r *pds.Rule, key string, maxDepth int) {
	sols := x.solve(r, key, output{r.To.Proc, pds.LNext}, output{r.Ret.Proc, pds.LSaved})
	if x.depth+1 > maxDepth {
		x.capped = x.capped || len(sols) > 0
		return
	}
	for _, sol := range sols {
		x.emit(x.with(sol[0], x.depth-1, Frame{r.Ret, sol[2]}, Frame{r.To, sol[1]}))
	}
}

// pop applies a pop rule, <g, (γ, l)> -> <g', ε> with the value r in the
// return register: a rule of Section 2.1 that removes the top symbol.
// Popping the last frame finishes the thread (its stack stays, empty);
// else the return point below receives r (receive).
func (x *expansion) pop(r *pds.Rule, key string) {
	cs, n := x.cs, x.cs.n
	sols := cs.solutions(key, func() bdd.Node {
		return n.M.And(r.Rel, x.here())
	}, globalVecs(n, pds.GNext), []bdd.Vec{retVec(n)})
	for _, sol := range sols {
		g2, ret := sol[0], sol[1][0]
		if x.depth == 1 {
			x.emit(x.with(g2, 0)) // the thread has finished
			continue
		}
		x.receive(g2, ret)
	}
}

// receive is the second half of a pop: the return point (γr, lr) now on
// top receives the returned value r through its receive relation,
// Recv(g', r, lr, g″, lr') (docs/design.md, "The model"; without one,
// the globals and locals stay as the pop left them).
func (x *expansion) receive(g2 []uint64, ret uint64) {
	cs, n := x.cs, x.cs.n
	caller := x.stack[x.depth-2]
	if caller.Label.Recv == nil {
		x.emit(x.with(g2, x.depth-1))
		return
	}
	p := caller.Label.Proc
	recv := cs.solutions(fmt.Sprint("recv", caller.Label.ID, g2, ret, caller.Locals), func() bdd.Node {
		return n.M.And(*caller.Label.Recv, cs.globalsAre(pds.GCur, g2), cs.retIs(ret),
			cs.localsAre(p, pds.LCur, caller.Locals), cs.unused(p, pds.LNext))
	}, globalVecs(n, pds.GNext), localVecs(n, p, pds.LNext))
	for _, sol2 := range recv {
		x.emit(x.with(sol2[0], x.depth-2, Frame{caller.Label, sol2[1]}))
	}
}

// fork applies a fork rule, <g, (γ, l)> -> <g', (γ', l')> ▷ (child
// entry, l″), Section 2.2: the top frame is replaced and a new thread is
// appended, on the child procedure's entry with its locals from LSaved.
// When c already has maxThreads threads, a fork the relation allows moves
// the thread to the rule's cutoff label instead, globals and locals
// unchanged, and sets cutoff.
func (x *expansion) fork(r *pds.Rule, key string, maxThreads int) {
	sols := x.solve(r, key, output{r.To.Proc, pds.LNext}, output{r.Child, pds.LSaved})
	if len(sols) > 0 && len(x.c.Threads) >= maxThreads {
		cut := x.cs.n.CutoffLabel(r)
		if cut == nil {
			panic(fmt.Sprintf("explicit: fork rule %d has no cutoff label", r.Index))
		}
		x.cutoff = true
		x.emit(x.with(x.c.Globals, x.depth-1, Frame{cut, x.top.Locals}))
		return
	}
	for _, sol := range sols {
		d := x.with(sol[0], x.depth-1, Frame{r.To, sol[1]})
		d.Threads = append(d.Threads, []Frame{{r.Child.Entry, append([]uint64(nil), sol[2]...)}})
		x.emit(d)
	}
}

// bddError is the panic value of a BDD failure (a node limit) during an
// enumeration; Explore turns it into its error.
type bddError struct{ err error }

func (e bddError) Error() string { return "explicit: " + e.err.Error() }

// enabled implements Enabled: some rule at the thread's top has a solution
// here, remembered per rule, globals and top locals.
func enabled(cs *constraints, c Config, thread int) bool {
	if thread < 0 || thread >= len(c.Threads) {
		panic(fmt.Sprintf("explicit: thread %d of a configuration with %d threads", thread, len(c.Threads)))
	}
	stack := c.Threads[thread]
	if len(stack) == 0 {
		return false
	}
	n, m := cs.n, cs.n.M
	top := stack[len(stack)-1]
	for _, r := range n.RulesFrom(top.Label) {
		x := cs.remember(fmt.Sprint("enabled", r.Index, c.Globals, top.Locals), func() bdd.Node {
			if m.And(r.Rel, cs.globalsAre(pds.GCur, c.Globals), cs.localsAre(top.Label.Proc, pds.LCur, top.Locals)).IsFalse() {
				return m.False()
			}
			return m.True() // only the answer is kept
		})
		if err := m.Err(); err != nil {
			panic(bddError{err})
		}
		if !x.IsFalse() {
			return true
		}
	}
	return false
}
