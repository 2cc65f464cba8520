// Package randnet generates small random pushdown networks for the
// differential tests: of the engine against the explicit reference
// semantics, and of the explicit semantics against itself (native forks
// and thread slots, monotonicity in the bound). Every generated network
// passes pds.Validate.
//
// Relations are built in one of two ways: by default from guards and
// updates (constants, increments, copies, any value); with
// Params.Density, as random finite tables over every input and output
// of a rule, which together with Params.Enums and Params.AnyLocals
// reach types whose size is no power of two and unconstrained initial
// locals.
package randnet

import (
	"fmt"
	"math/rand/v2"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Params bound the size of a generated network.
type Params struct {
	Threads    int  // initial threads (1 to 3)
	GlobalBits int  // total bits of the globals (1 to 3), in one or two variables
	Procs      int  // procedures (1 to 4)
	Labels     int  // ordinary labels per procedure (2 to 6)
	LocalBits  int  // at most this many local bits per procedure (0 to 2)
	Rules      int  // rules per procedure
	Recursive  bool // calls may go to any procedure; otherwise only to later ones
	Forks      bool // add fork rules
	// LoopFork (with Forks) adds to the first procedure a fork rule from
	// its entry label back to it, drawn after every other rule: a thread
	// there can start threads without end, so the thread bound is met
	// whenever the entry is reached. The other draws are those of the
	// same seed without it.
	LoopFork   bool
	Errors     bool // add assertion error labels
	MaxThreads int  // thread bound of the network (forks)

	// Density, when > 0, makes every relation a random finite table:
	// each valuation of the rule's inputs is mapped, with this
	// probability, to one or two random valuations of its outputs.
	// GlobalBits is then ignored (one or two globals) and rules are
	// steps, calls (with receive relations), forks and returns in the
	// proportions 4:2:2:2.
	Density float64
	// Enums (with Density) draws the types of globals from bool, int<2>
	// and a three-valued enum, those of locals and results from bool and
	// int<2>.
	Enums bool
	// AnyLocals lets each local of an initial thread start with any
	// value (one in three) instead of a random one.
	AnyLocals bool
	// OpenBits, when > 0 (and without Density), adds open data: a global
	// o of that many bits that starts with any value, which rules keep,
	// overwrite with 0, 1 or its largest value, increment, or set to any
	// value, and which guards compare with those constants; the locals
	// of the initial threads start with any value one in three. The
	// other draws are those of the same seed without it, so the rest of
	// the network is the same.
	OpenBits int
	// OpenNoCount (with OpenBits) leaves the open global's increment out:
	// the rule that would increment it keeps it instead, and every other
	// draw is the same. A thread that increments o in a loop makes the
	// view-tuple engine's post* add one value a saturation step, 2^w
	// steps, which wide open data cannot afford.
	OpenNoCount bool
	// OpenGlobals, when > 0 (and without Density), adds that many more
	// globals w0, w1, ... of OpenGlobalBits bits each (1 to 32), every
	// one starting with any value: many open wide globals, as C programs
	// have (issue 38). A rule keeps each of them (most often), copies it
	// from another of them, overwrites it with 0 or 1, increments it
	// (only at 3 bits or fewer: see OpenNoCount; kept otherwise) or sets
	// it to any value; one guard in three compares two of them (equal or
	// not) or one with 0. The other draws are those of the same seed
	// without them.
	OpenGlobals    int
	OpenGlobalBits int
}

// types are the variable types of Params.Enums; locals and results take
// the first two.
var types = []pds.Type{pds.BoolType(), pds.IntType(2), pds.EnumType("tri", "u", "v", "w")}

// size is the number of valid values of t.
func size(t pds.Type) uint64 {
	if t.Kind == pds.Enum {
		return uint64(len(t.Values))
	}
	return 1 << t.Bits
}

type gen struct {
	r   *rand.Rand
	p   Params
	b   *pds.Builder
	n   *pds.Network
	m   *bdd.Manager
	gs  []*pds.Global
	o   *pds.Global   // Params.OpenBits's global, or nil
	ws  []*pds.Global // Params.OpenGlobals's globals
	ps  []*pds.Proc
	lbl map[*pds.Proc][]*pds.Label
}

// Generate returns the network of a seed.
func Generate(seed uint64, p Params) (*pds.Network, error) {
	if p.Enums && p.Density <= 0 {
		return nil, fmt.Errorf("randnet: Enums needs Density")
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), p: p, lbl: map[*pds.Proc][]*pds.Label{}}
	return g.build()
}

func (g *gen) build() (*pds.Network, error) {
	r, p := g.r, g.p
	g.b = pds.NewBuilder(pds.Options{MaxThreads: p.MaxThreads})
	b := g.b
	gb := max(1, p.GlobalBits)
	if p.Density > 0 {
		for i := 0; i < 1+r.IntN(2); i++ {
			t := g.typ(3)
			g.gs = append(g.gs, b.Global(fmt.Sprintf("g%d", i), t, g.initOf(t), pds.Pos{}))
		}
	} else if gb >= 2 && r.IntN(2) == 0 {
		first := 1 + r.IntN(gb-1)
		g.gs = append(g.gs, b.Global("x", pds.IntType(first), g.init(first), pds.Pos{}))
		g.gs = append(g.gs, b.Global("y", pds.IntType(gb-first), g.init(gb-first), pds.Pos{}))
	} else {
		g.gs = append(g.gs, b.Global("x", pds.IntType(gb), g.init(gb), pds.Pos{}))
	}
	if p.OpenBits > 0 && p.Density <= 0 {
		g.o = b.Global("o", pds.IntType(p.OpenBits), pds.Init{Any: true}, pds.Pos{})
	}
	if p.OpenGlobals > 0 && p.Density <= 0 {
		if p.OpenGlobalBits < 1 || p.OpenGlobalBits > 32 {
			return nil, fmt.Errorf("randnet: OpenGlobalBits %d outside 1..32", p.OpenGlobalBits)
		}
		for i := range p.OpenGlobals {
			g.ws = append(g.ws, b.Global(fmt.Sprintf("w%d", i), pds.IntType(p.OpenGlobalBits), pds.Init{Any: true}, pds.Pos{}))
		}
	}
	for i := 0; i < max(1, p.Procs); i++ {
		var res *pds.Type
		if r.IntN(2) == 0 {
			t := pds.IntType(1 + r.IntN(2))
			if p.Enums {
				t = g.typ(2)
			}
			res = &t
		}
		pr := b.Proc(fmt.Sprintf("f%d", i), res, pds.Pos{})
		bits := r.IntN(p.LocalBits + 1)
		if p.Enums {
			// bits is the number of locals, params first.
			params := r.IntN(bits + 1)
			for j := 0; j < bits; j++ {
				if j < params {
					b.Param(pr, fmt.Sprintf("p%d", j), g.typ(2), pds.Pos{})
				} else {
					b.Local(pr, fmt.Sprintf("x%d", j), g.typ(2), pds.Pos{})
				}
			}
		} else if bits > 0 {
			if bits == 2 && r.IntN(2) == 0 {
				b.Param(pr, "a", pds.IntType(1), pds.Pos{})
				b.Local(pr, "b", pds.IntType(1), pds.Pos{})
			} else {
				b.Param(pr, "a", pds.IntType(bits), pds.Pos{})
			}
		}
		g.ps = append(g.ps, pr)
		for j := 0; j < max(2, p.Labels); j++ {
			g.lbl[pr] = append(g.lbl[pr], b.Label(pr, fmt.Sprintf("f%d.%d", i, j), pds.Pos{}))
		}
		if p.Errors && r.IntN(2) == 0 {
			g.lbl[pr] = append(g.lbl[pr], b.ErrorLabel(pr, fmt.Sprintf("f%d.err", i), pds.Assert, "random", pds.Pos{File: "rand", Line: i + 1, Col: 1}))
		}
	}
	if p.Forks {
		for _, pr := range g.ps[1:] {
			b.Spawnable(pr)
		}
	}
	for i := 0; i < max(1, p.Threads); i++ {
		pr := g.ps[0]
		if i > 0 && len(g.ps) > 1 && r.IntN(2) == 0 {
			pr = g.ps[r.IntN(len(g.ps))]
		}
		if p.AnyLocals || g.o != nil {
			f := pds.Frame{Label: pr.Entry, Locals: make([]pds.Init, len(pr.Locals))}
			for k, l := range pr.Locals {
				if r.IntN(3) == 0 {
					f.Locals[k] = pds.Init{Any: true}
				} else {
					f.Locals[k] = pds.Init{Value: r.Uint64N(size(l.Type))}
				}
			}
			b.Thread(fmt.Sprintf("t%d", i), f)
			continue
		}
		args := make([]uint64, len(pr.Params))
		for k, a := range pr.Params {
			args[k] = r.Uint64N(1 << a.Type.Bits)
		}
		b.Thread(fmt.Sprintf("t%d", i), pds.Call(pr, args...))
	}
	g.m = b.Manager()
	g.n = b.Net()
	for _, pr := range g.ps {
		if p.Density > 0 {
			g.tableRules(pr)
		} else {
			g.rules(pr)
		}
	}
	if p.LoopFork {
		if !p.Forks || len(g.ps) < 2 {
			return nil, fmt.Errorf("randnet: LoopFork needs Forks and two procedures")
		}
		pr, q := g.ps[0], g.ps[1]
		rel := g.m.And(g.keepGlobals(), g.n.LocalsUnchanged(pr, pds.LNext), g.localsTo(pr, q, pds.LSaved))
		b.Fork(pr.Entry, pr.Entry, q, rel, pds.Pos{})
	}
	return b.Build()
}

// typ returns one of the first n types: with Params.Enums, from types;
// otherwise int<1> or int<2>.
func (g *gen) typ(n int) pds.Type {
	if g.p.Enums {
		return types[g.r.IntN(n)]
	}
	return pds.IntType(1 + g.r.IntN(2))
}

// initOf returns a random initial value of t, any value one in four.
func (g *gen) initOf(t pds.Type) pds.Init {
	if g.r.IntN(4) == 0 {
		return pds.Init{Any: true}
	}
	return pds.Init{Value: g.r.Uint64N(size(t))}
}

func (g *gen) init(bits int) pds.Init {
	if g.r.IntN(4) == 0 {
		return pds.Init{Any: true}
	}
	return pds.Init{Value: g.r.Uint64N(1 << bits)}
}

// normal returns the non-error labels of p.
func (g *gen) normal(p *pds.Proc) []*pds.Label {
	var ls []*pds.Label
	for _, l := range g.lbl[p] {
		if l.Kind == pds.Normal {
			ls = append(ls, l)
		}
	}
	return ls
}

func (g *gen) pick(ls []*pds.Label) *pds.Label { return ls[g.r.IntN(len(ls))] }

// guard returns a random condition on the current globals and locals.
func (g *gen) guard(p *pds.Proc) bdd.Node {
	m, r := g.m, g.r
	if g.o != nil && r.IntN(3) == 0 {
		return m.Eq(g.n.GlobalVec(g.o, pds.GCur), g.openConst())
	}
	if len(g.ws) > 0 && r.IntN(3) == 0 {
		return g.wideGuard()
	}
	switch r.IntN(4) {
	case 0:
		gl := g.gs[r.IntN(len(g.gs))]
		return m.Eq(g.n.GlobalVec(gl, pds.GCur), m.ConstVec(r.Uint64N(1<<gl.Type.Bits), gl.Type.Bits))
	case 1:
		if len(p.Locals) > 0 {
			l := p.Locals[r.IntN(len(p.Locals))]
			return m.Ne(g.n.LocalVec(l, pds.LCur), m.ConstVec(r.Uint64N(1<<l.Type.Bits), l.Type.Bits))
		}
	}
	return m.True()
}

// update returns a random relation between a variable's current value
// and its value in copy next: kept, a constant, incremented, anything.
func (g *gen) update(cur, next bdd.Vec) bdd.Node {
	m, r := g.m, g.r
	switch r.IntN(6) {
	case 0:
		return m.Eq(next, m.ConstVec(r.Uint64N(1<<len(next)), len(next)))
	case 1:
		return m.Assign(next, m.Add(cur, m.ConstVec(1, len(cur))))
	case 2:
		return m.True()
	}
	return m.Eq(next, cur)
}

func (g *gen) globalsUpdate() bdd.Node {
	r := g.m.True()
	for _, gl := range g.gs {
		r = g.m.And(r, g.update(g.n.GlobalVec(gl, pds.GCur), g.n.GlobalVec(gl, pds.GNext)))
	}
	if g.o != nil {
		r = g.m.And(r, g.openUpdate())
	}
	for i := range g.ws {
		r = g.m.And(r, g.wideUpdate(i))
	}
	return r
}

// wideGuard compares two of Params.OpenGlobals's globals, equal or not,
// or one with 0.
func (g *gen) wideGuard() bdd.Node {
	m, r := g.m, g.r
	x := g.n.GlobalVec(g.ws[r.IntN(len(g.ws))], pds.GCur)
	y := g.n.GlobalVec(g.ws[r.IntN(len(g.ws))], pds.GCur)
	switch r.IntN(3) {
	case 0:
		return m.Eq(x, y)
	case 1:
		return m.Ne(x, y)
	}
	return m.Eq(x, m.ConstVec(0, len(x)))
}

// wideUpdate relates the current value of Params.OpenGlobals's global i
// to its next: kept (one in two), copied from another of them, set to 0
// or 1, incremented (kept above 3 bits) or set to any value.
func (g *gen) wideUpdate(i int) bdd.Node {
	m := g.m
	cur, next := g.n.GlobalVec(g.ws[i], pds.GCur), g.n.GlobalVec(g.ws[i], pds.GNext)
	switch x := g.r.IntN(10); {
	case x < 5:
		return m.Eq(next, cur)
	case x < 7:
		src := g.ws[g.r.IntN(len(g.ws))]
		return m.Eq(next, g.n.GlobalVec(src, pds.GCur))
	case x < 8:
		return m.Eq(next, m.ConstVec(uint64(g.r.IntN(2)), len(next)))
	case x < 9:
		if len(cur) > 3 {
			return m.Eq(next, cur)
		}
		return m.Assign(next, m.Add(cur, m.ConstVec(1, len(cur))))
	}
	return m.True()
}

// openConst returns one of the constants of the open global: 0, 1 or its
// largest value.
func (g *gen) openConst() bdd.Vec {
	w := g.o.Type.Bits
	return g.m.ConstVec([]uint64{0, 1, 1<<w - 1}[g.r.IntN(3)], w)
}

// openUpdate relates the open global's current value to its next: kept
// (one in two), overwritten with one of its constants (one in four),
// incremented (kept with OpenNoCount) or set to any value (one in eight
// each).
func (g *gen) openUpdate() bdd.Node {
	m := g.m
	cur, next := g.n.GlobalVec(g.o, pds.GCur), g.n.GlobalVec(g.o, pds.GNext)
	switch x := g.r.IntN(8); {
	case x < 4:
		return m.Eq(next, cur)
	case x < 6:
		return m.Eq(next, g.openConst())
	case x < 7:
		if g.p.OpenNoCount {
			return m.Eq(next, cur)
		}
		return m.Assign(next, m.Add(cur, m.ConstVec(1, len(cur))))
	}
	return m.True()
}

func (g *gen) keepGlobals() bdd.Node { return g.n.Unchanged() }

// localsTo relates p's current locals to q's locals in copy c: when p ==
// q by update, otherwise by constants or any values.
func (g *gen) localsTo(p, q *pds.Proc, c int) bdd.Node {
	m, r := g.m, g.r
	res := m.True()
	for _, l := range q.Locals {
		next := g.n.LocalVec(l, c)
		switch {
		case p == q:
			res = m.And(res, g.update(g.n.LocalVec(l, pds.LCur), next))
		case len(p.Locals) > 0 && r.IntN(2) == 0:
			src := p.Locals[r.IntN(len(p.Locals))]
			res = m.And(res, m.Assign(next, g.n.LocalVec(src, pds.LCur)))
		case r.IntN(3) == 0:
			// any value
		default:
			res = m.And(res, m.Eq(next, m.ConstVec(r.Uint64N(1<<l.Type.Bits), l.Type.Bits)))
		}
	}
	return res
}

func (g *gen) rules(p *pds.Proc) {
	r, m, b := g.r, g.m, g.b
	ls := g.normal(p)
	idx := p.Index
	for k := 0; k < max(1, g.p.Rules); k++ {
		from := g.pick(ls)
		switch x := r.IntN(10); {
		case x < 5: // step, sometimes to the error label
			to := g.pick(g.lbl[p])
			rel := m.And(g.guard(p), m.Or(g.atom(p), g.atom(p)))
			if to.Kind != pds.Normal {
				rel = m.And(g.guard(p), g.keepGlobals())
			}
			b.Step(from, to, rel, pds.Pos{})
		case x < 7: // push
			var callees []*pds.Proc
			for _, q := range g.ps {
				if g.p.Recursive || q.Index > idx {
					callees = append(callees, q)
				}
			}
			if len(callees) == 0 {
				continue
			}
			q := callees[r.IntN(len(callees))]
			ret := g.pick(ls)
			rel := m.And(g.guard(p), g.keepGlobals(), g.localsTo(p, q, pds.LNext), g.n.LocalsUnchanged(p, pds.LSaved))
			b.Push(from, q.Entry, ret, rel, pds.Pos{})
			if ret.Recv == nil && r.IntN(2) == 0 {
				g.recv(ret)
			}
		case x < 9: // pop
			rel := m.And(g.guard(p), g.globalsUpdate())
			if p.Result != nil {
				rv := g.n.RetVec(g.n.RetBits)
				if len(p.Locals) > 0 && r.IntN(2) == 0 {
					rel = m.And(rel, m.Assign(rv, g.n.LocalVec(p.Locals[0], pds.LCur)))
				} else {
					rel = m.And(rel, m.Assign(rv, m.ConstVec(r.Uint64N(1<<p.Result.Bits), p.Result.Bits)))
				}
			} else {
				rel = m.And(rel, m.Assign(g.n.RetVec(g.n.RetBits), m.ConstVec(0, 1)))
			}
			b.Pop(from, rel, pds.Pos{})
		default: // fork
			if !g.p.Forks || len(g.ps) < 2 {
				continue
			}
			q := g.ps[1+r.IntN(len(g.ps)-1)]
			to := g.pick(ls)
			rel := m.And(g.guard(p), g.keepGlobals(), g.n.LocalsUnchanged(p, pds.LNext), g.localsTo(p, q, pds.LSaved))
			b.Fork(from, to, q, rel, pds.Pos{})
		}
	}
}

// atom is one alternative of a step: globals and locals updated at random.
func (g *gen) atom(p *pds.Proc) bdd.Node {
	return g.m.And(g.globalsUpdate(), g.localsTo(p, p, pds.LNext))
}

// recv gives a return point a receive relation: R into a local or a global.
func (g *gen) recv(ret *pds.Label) {
	m, r, n := g.m, g.r, g.n
	p := ret.Proc
	rv := n.M.Vec(bdd.Ref{Var: n.RetVar})
	if len(p.Locals) > 0 && r.IntN(2) == 0 {
		l := p.Locals[r.IntN(len(p.Locals))]
		g.b.SetRecv(ret, m.And(n.Unchanged(), n.LocalsUnchanged(p, pds.LNext, l), m.Assign(n.LocalVec(l, pds.LNext), rv)))
		return
	}
	gl := g.gs[r.IntN(len(g.gs))]
	g.b.SetRecv(ret, m.And(n.Unchanged(gl), n.LocalsUnchanged(p, pds.LNext), m.Assign(n.GlobalVec(gl, pds.GNext), rv)))
}

// domain is one input or output of a table relation: a Vec and how many
// valid values it has.
type domain struct {
	vec  bdd.Vec
	size uint64
}

// globals returns the domains of the globals in copy c.
func (g *gen) globals(c int) []domain {
	var ds []domain
	for _, gl := range g.gs {
		ds = append(ds, domain{g.n.GlobalVec(gl, c), size(gl.Type)})
	}
	return ds
}

// locals returns the domains of p's locals in copy c.
func (g *gen) locals(p *pds.Proc, c int) []domain {
	var ds []domain
	for _, l := range p.Locals {
		ds = append(ds, domain{g.n.LocalVec(l, c), size(l.Type)})
	}
	return ds
}

// table returns a relation that maps each valuation of ins, with
// probability density, to one or two random valuations of outs.
func (g *gen) table(ins, outs []domain, density float64) bdd.Node {
	m, r := g.m, g.r
	rel := m.False()
	var rec func(i int, acc bdd.Node)
	rec = func(i int, acc bdd.Node) {
		if i == len(ins) {
			if r.Float64() >= density {
				return
			}
			for k := 1 + r.IntN(2); k > 0; k-- {
				out := acc
				for _, d := range outs {
					out = m.And(out, m.Eq(d.vec, m.ConstVec(r.Uint64N(d.size), len(d.vec))))
				}
				rel = m.Or(rel, out)
			}
			return
		}
		for v := uint64(0); v < ins[i].size; v++ {
			rec(i+1, m.And(acc, m.Eq(ins[i].vec, m.ConstVec(v, len(ins[i].vec)))))
		}
	}
	rec(0, m.True())
	return rel
}

// tableRules adds p's rules with table relations (Params.Density).
func (g *gen) tableRules(p *pds.Proc) {
	r, b, n, d := g.r, g.b, g.n, g.p.Density
	ls := g.normal(p)
	in := append(g.globals(pds.GCur), g.locals(p, pds.LCur)...)
	next := func(ds ...[]domain) []domain {
		out := g.globals(pds.GNext)
		for _, x := range ds {
			out = append(out, x...)
		}
		return out
	}
	for k := 0; k < max(1, g.p.Rules); k++ {
		from := g.pick(ls)
		switch x := r.IntN(10); {
		case x < 4: // step, sometimes to the error label
			to := g.pick(g.lbl[p])
			b.Step(from, to, g.table(in, next(g.locals(p, pds.LNext)), d), pds.Pos{})
		case x < 6: // push, maybe with a receive relation
			var callees []*pds.Proc
			for _, q := range g.ps {
				if g.p.Recursive || q.Index > p.Index {
					callees = append(callees, q)
				}
			}
			if len(callees) == 0 {
				continue
			}
			q := callees[r.IntN(len(callees))]
			ret := g.pick(ls)
			b.Push(from, q.Entry, ret, g.table(in, next(g.locals(q, pds.LNext), g.locals(p, pds.LSaved)), d), pds.Pos{})
			if ret.Recv == nil && r.IntN(2) == 0 {
				R := domain{n.RetVec(n.RetBits), 1 << n.RetBits}
				rin := append(append(g.globals(pds.GCur), R), g.locals(p, pds.LCur)...)
				b.SetRecv(ret, g.table(rin, next(g.locals(p, pds.LNext)), 1))
			}
		case x < 8 && g.p.Forks && len(g.ps) > 1: // fork
			q := g.ps[1+r.IntN(len(g.ps)-1)]
			b.Fork(from, g.pick(ls), q, g.table(in, next(g.locals(p, pds.LNext), g.locals(q, pds.LSaved)), d), pds.Pos{})
		default: // pop, with a value when p has a result
			outs := next()
			if p.Result != nil {
				outs = append(outs, domain{n.RetVec(p.Result.Bits), size(*p.Result)})
			}
			b.Pop(from, g.table(in, outs, d), pds.Pos{})
		}
	}
}
