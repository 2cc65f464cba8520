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
		n, m := cs.n, cs.n.M
		r := m.True()
		for _, g := range n.Globals {
			r = m.And(r, m.Eq(n.GlobalVec(g, c), m.ConstVec(vals[g.Index], g.Type.Bits)))
		}
		return r
	})
}

// localsAre returns "copy c of the local block holds p's locals with the
// values vals and zeros in the other bits".
func (cs *constraints) localsAre(p *pds.Proc, c int, vals []uint64) bdd.Node {
	return cs.remember(fmt.Sprint("L", p.Index, c, vals), func() bdd.Node {
		n, m := cs.n, cs.n.M
		r := cs.unused(p, c)
		for i, l := range p.Locals {
			r = m.And(r, m.Eq(n.LocalVec(l, c), m.ConstVec(vals[i], l.Type.Bits)))
		}
		return r
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
// (their frames and locals): they are then read-only.
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
	stack := c.Threads[thread]
	if len(stack) == 0 {
		return nil, nil, false, false
	}
	m := n.M
	top := stack[len(stack)-1]
	here := func() bdd.Node {
		return m.And(cs.globalsAre(pds.GCur, c.Globals), cs.localsAre(top.Label.Proc, pds.LCur, top.Locals))
	}
	// The solutions of a rule depend only on the rule, the globals and the
	// top frame's locals; they are remembered under this key.
	key := fmt.Sprint("rule", c.Globals, top.Locals)

	// Successors differ from c only in the globals, the thread's stack
	// and the threads a fork appends: they are told apart by those
	// parts, not by their whole keys (a configuration may have many
	// threads).
	seen := map[string]bool{}
	var rule *pds.Rule // the rule being applied
	emit := func(d Config) {
		part := Config{Globals: d.Globals, Threads: append([][]Frame{d.Threads[thread]}, d.Threads[len(c.Threads):]...)}
		if k := part.Key(); !seen[k] {
			seen[k] = true
			succ = append(succ, d)
			rules = append(rules, rule)
		}
	}
	// with returns a copy of c with the given globals and the thread's stack
	// cut to its keep bottom frames, followed by (copies of) frames.
	with := func(globals []uint64, keep int, frames ...Frame) Config {
		var d Config
		if share {
			d = Config{Threads: append(make([][]Frame, 0, len(c.Threads)+1), c.Threads...)}
			d.Threads[thread] = append(make([]Frame, 0, keep+len(frames)), stack[:keep]...)
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
	depth := len(stack)

	for _, r := range n.RulesFrom(top.Label) {
		if only != nil && r.Index != only.Index {
			continue // by index: a network built again has rules of its own
		}
		rule = r
		key := fmt.Sprint(r.Index, key)
		switch r.Kind {
		case pds.Step:
			// <g, (γ, l)> -> <g', (γ', l')>
			sols := cs.solutions(key, func() bdd.Node {
				return m.And(r.Rel, here(), cs.unused(r.To.Proc, pds.LNext))
			}, globalVecs(n, pds.GNext), localVecs(n, r.To.Proc, pds.LNext))
			for _, sol := range sols {
				emit(with(sol[0], depth-1, Frame{r.To, sol[1]}))
			}

		case pds.Push:
			// <g, (γ, l)> -> <g', (γe, l') (γr, l'')>, γe on top
			sols := cs.solutions(key, func() bdd.Node {
				return m.And(r.Rel, here(), cs.unused(r.To.Proc, pds.LNext), cs.unused(r.Ret.Proc, pds.LSaved))
			}, globalVecs(n, pds.GNext), localVecs(n, r.To.Proc, pds.LNext), localVecs(n, r.Ret.Proc, pds.LSaved))
			if depth+1 > maxDepth {
				capped = capped || len(sols) > 0
				continue
			}
			for _, sol := range sols {
				emit(with(sol[0], depth-1, Frame{r.Ret, sol[2]}, Frame{r.To, sol[1]}))
			}

		case pds.Pop:
			// <g, (γ, l)> -> <g', ε> returning r; then the return point
			// (γr, lr) below receives r: Recv(g', r, lr, g'', lr').
			sols := cs.solutions(key, func() bdd.Node {
				return m.And(r.Rel, here())
			}, globalVecs(n, pds.GNext), []bdd.Vec{retVec(n)})
			for _, sol := range sols {
				g2, ret := sol[0], sol[1][0]
				if depth == 1 {
					emit(with(g2, 0)) // the thread has finished
					continue
				}
				caller := stack[depth-2]
				if caller.Label.Recv == nil {
					emit(with(g2, depth-1))
					continue
				}
				p := caller.Label.Proc
				recv := cs.solutions(fmt.Sprint("recv", caller.Label.ID, g2, ret, caller.Locals), func() bdd.Node {
					return m.And(*caller.Label.Recv, cs.globalsAre(pds.GCur, g2), cs.retIs(ret),
						cs.localsAre(p, pds.LCur, caller.Locals), cs.unused(p, pds.LNext))
				}, globalVecs(n, pds.GNext), localVecs(n, p, pds.LNext))
				for _, sol2 := range recv {
					emit(with(sol2[0], depth-2, Frame{caller.Label, sol2[1]}))
				}
			}

		case pds.Fork:
			// <g, (γ, l)> -> <g', (γ', l')> and a new thread (child entry, l'')
			sols := cs.solutions(key, func() bdd.Node {
				return m.And(r.Rel, here(), cs.unused(r.To.Proc, pds.LNext), cs.unused(r.Child, pds.LSaved))
			}, globalVecs(n, pds.GNext), localVecs(n, r.To.Proc, pds.LNext), localVecs(n, r.Child, pds.LSaved))
			if len(sols) > 0 && len(c.Threads) >= maxThreads {
				cut := n.CutoffLabel(r)
				if cut == nil {
					panic(fmt.Sprintf("explicit: fork rule %d has no cutoff label", r.Index))
				}
				cutoff = true
				emit(with(c.Globals, depth-1, Frame{cut, top.Locals}))
				continue
			}
			for _, sol := range sols {
				d := with(sol[0], depth-1, Frame{r.To, sol[1]})
				d.Threads = append(d.Threads, []Frame{{r.Child.Entry, append([]uint64(nil), sol[2]...)}})
				emit(d)
			}

		default:
			panic(fmt.Sprintf("explicit: rule %d has unknown kind %d", r.Index, r.Kind))
		}
	}
	if err := m.Err(); err != nil {
		panic(bddError{err})
	}
	return succ, rules, cutoff, capped
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
