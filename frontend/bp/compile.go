package bp

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/diag"
)

// variant is one compiled copy of a procedure: the procedure itself, or
// the copy a start_thread goto L runs, whose entry is L.
type variant struct {
	pr     *proc
	p      *pds.Proc
	locals []*pds.Local // parameters, then locals, as in the scope
	held   *pds.Local   // "this thread holds the atomic lock", nil without a lock
	labels map[*stmt]*pds.Label
	extra  map[*stmt]*pds.Label // an assert's error label, a call's return point
	end    *pds.Label
	ended  *pds.Label // where end_thread leads (a dead end)
	wait   *pds.Label // Getafix's threads: not started while init fails (no rules)
	names  map[string]bool
}

type compiler struct {
	prog     *program
	in       *info
	b        *pds.Builder
	n        *pds.Network
	m        *bdd.Manager
	globals  []*pds.Global
	lock     []*pds.Global // no context switch while one holds
	lockVar  *pds.Global   // written by atomic_begin and atomic_end
	orig     map[*proc]*variant
	clones   map[*proc]map[string]*variant
	variants []*variant
	initial  []*pds.Proc // the procedure of each initial thread
}

// compile builds the network; for a Getafix program it then makes init's
// final states the initial configurations (initialise), unless raw, which
// leaves init in thread 0 at its entry (the tests' independent check of
// initialise).
func compile(ctx context.Context, prog *program, in *info, opts pds.Options, lim bdd.Limits, raw bool) (net *pds.Network, err error) {
	defer func() {
		if r := recover(); r != nil {
			net, err = nil, diag.Internal(fmt.Errorf("bp: internal error: %v", r))
		}
	}()
	c := &compiler{prog: prog, in: in, b: pds.NewBuilder(opts), orig: map[*proc]*variant{}, clones: map[*proc]map[string]*variant{}}
	c.declare()
	c.b.ProgramThreads(c.countThreads())
	if err := c.b.Fits(); err != nil {
		return nil, fmt.Errorf("bp: %w", err)
	}
	c.n, c.m = c.b.Net(), c.b.Manager()
	for _, v := range c.variants {
		c.body(v)
	}
	net, err = c.b.Build()
	if err != nil || !c.in.getafix || raw {
		return net, err
	}
	return c.initialise(ctx, net, lim)
}

func boolType() pds.Type { return pds.BoolType() }

// initOf is the initial value of a declared variable: any value unless
// the declaration gives a constant.
func initOf(id *ident) pds.Init {
	if id.init == nil || id.init.kind != eConst {
		return pds.Init{Any: true}
	}
	if id.init.val {
		return pds.Init{Value: 1}
	}
	return pds.Init{}
}

// declOf is the declaration of the i-th parameter or local.
func (v *variant) declOf(i int) *ident {
	if i < len(v.pr.params) {
		return v.pr.params[i]
	}
	return v.pr.locals[i-len(v.pr.params)]
}

func (c *compiler) declare() {
	for _, g := range c.prog.globals {
		if _, ok := c.in.globals[g.name]; !ok || len(c.globals) != c.in.globals[g.name] {
			continue
		}
		c.globals = append(c.globals, c.b.Global(g.name, boolType(), initOf(g), g.pos))
	}
	if c.in.getafix {
		for _, name := range []string{"atomic", "super_atomic"} {
			if i, ok := c.in.globals[name]; ok {
				c.lock = append(c.lock, c.globals[i])
				if name == "atomic" {
					c.lockVar = c.globals[i]
				}
			}
		}
	}
	if c.in.atomic && c.lockVar == nil {
		c.lockVar = c.b.Global("$atomic", boolType(), pds.Init{Value: 0}, diag.Pos{})
		c.lock = append(c.lock, c.lockVar)
	}
	for _, pr := range c.prog.procs {
		if c.in.procs[pr.name.name] != pr {
			continue
		}
		v := c.variant(pr, pr.name.name, "")
		c.orig[pr] = v
		c.clones[pr] = map[string]*variant{}
		for _, l := range c.in.scopes[pr].starts {
			cl := c.variant(pr, pr.name.name+"@"+l, l)
			c.clones[pr][l] = cl
			c.b.Spawnable(cl.p)
		}
	}
	// Threads.
	frame := func(v *variant, l *pds.Label, held uint64) pds.Frame {
		f := pds.Frame{Label: l, Locals: make([]pds.Init, len(v.p.Locals))}
		for i, loc := range v.p.Locals {
			if loc == v.held {
				f.Locals[i] = pds.Init{Value: held}
			} else if i < len(v.locals) && v.locals[i] != nil {
				f.Locals[i] = initOf(v.declOf(i))
			} else {
				f.Locals[i] = pds.Init{Any: true}
			}
		}
		return f
	}
	if !c.in.getafix {
		v := c.orig[c.in.procs["main"]]
		c.b.Thread("main", frame(v, v.p.Entry, 0))
		c.initial = append(c.initial, v.p)
		return
	}
	for i, pr := range c.prog.procs {
		v := c.orig[pr]
		if v == nil {
			continue
		}
		c.initial = append(c.initial, v.p)
		if i == 0 {
			c.b.Thread(pr.name.name, frame(v, v.p.Entry, 1))
			continue
		}
		c.b.Thread(pr.name.name, frame(v, v.p.Entry, 0))
	}
}

// variant declares a copy of pr, entered at label start ("" for the
// procedure's own entry).
func (c *compiler) variant(pr *proc, name, start string) *variant {
	v := &variant{pr: pr, labels: map[*stmt]*pds.Label{}, extra: map[*stmt]*pds.Label{}, names: map[string]bool{}}
	var result *pds.Type
	switch {
	case pr.results == 1:
		t := boolType()
		result = &t
	case pr.results > 1:
		t := pds.IntType(pr.results)
		result = &t
	}
	v.p = c.b.Proc(name, result, pr.name.pos)
	sc := c.in.scopes[pr]
	all := append(append([]*ident{}, pr.params...), pr.locals...)
	v.locals = make([]*pds.Local, len(all))
	for i, id := range all {
		if sc.vars[id.name] != i {
			continue // a duplicate, reported
		}
		if i < len(pr.params) {
			v.locals[i] = c.b.Param(v.p, id.name, boolType(), id.pos)
		} else {
			v.locals[i] = c.b.Local(v.p, id.name, boolType(), id.pos)
		}
	}
	if len(c.lock) > 0 {
		v.held = c.b.Local(v.p, "$held", boolType(), diag.Pos{})
	}
	c.labelStmts(v, pr.body)
	v.end = c.label(v, "end", pr.end)
	if len(pr.body) == 0 {
		c.b.SetEntry(v.end)
	}
	if start != "" {
		c.b.SetEntry(v.labels[sc.labels[start]])
	}
	if c.in.getafix && start == "" && pr != c.prog.procs[0] {
		v.wait = c.label(v, "wait", pr.name.pos)
	}
	c.variants = append(c.variants, v)
	return v
}

func (c *compiler) label(v *variant, suffix string, pos diag.Pos) *pds.Label {
	return c.b.Label(v.p, c.uniq(v, suffix), pos)
}

func (c *compiler) uniq(v *variant, suffix string) string {
	name := v.p.Name + "." + suffix
	for i := 2; v.names[name]; i++ {
		name = fmt.Sprintf("%s.%s#%d", v.p.Name, suffix, i)
	}
	v.names[name] = true
	return name
}

func (c *compiler) labelStmts(v *variant, list []*stmt) {
	for _, s := range list {
		slic := false
		for _, l := range s.labels {
			slic = slic || c.in.getafix && l.name == errorLabel
		}
		at := fmt.Sprintf("L%d", s.pos.Line)
		if slic {
			v.labels[s] = c.b.ErrorLabel(v.p, c.uniq(v, errorLabel), pds.Assert, errorLabel+" reached", s.pos)
			continue // nothing runs from the error label
		}
		v.labels[s] = c.label(v, at, s.pos)
		switch s.kind {
		case sAssert:
			v.extra[s] = c.b.ErrorLabel(v.p, c.uniq(v, at+".err"), pds.Assert, s.text, s.pos)
		case sCall:
			v.extra[s] = c.label(v, at+".ret", s.pos)
		case sEndThread:
			if v.ended == nil {
				v.ended = c.label(v, "ended", s.pos)
			}
		}
		for _, b := range s.blocks {
			c.labelStmts(v, b)
		}
		c.labelStmts(v, s.body)
	}
}

// Relations.

func (c *compiler) cur(v *variant, name string, copyL, copyG int) bdd.Node {
	if i, ok := c.in.scopes[v.pr].vars[name]; ok {
		return c.n.LocalVec(v.locals[i], copyL)[0]
	}
	return c.n.GlobalVec(c.globals[c.in.globals[name]], copyG)[0]
}

// eval returns when e can be true and when it can be false, over the
// current copies (the next ones for primed names). Every * is a choice of
// its own, so the two overlap where e depends on one.
func (c *compiler) eval(v *variant, e *expr) (t, f bdd.Node) {
	m := c.m
	switch e.kind {
	case eConst:
		if e.val {
			return m.True(), m.False()
		}
		return m.False(), m.True()
	case eNondet:
		return m.True(), m.True()
	case eVar:
		var x bdd.Node
		if e.primed {
			x = c.cur(v, e.name, pds.LNext, pds.GNext)
		} else {
			x = c.cur(v, e.name, pds.LCur, pds.GCur)
		}
		return x, m.Not(x)
	case eNot:
		t, f := c.eval(v, e.x)
		return f, t
	}
	xt, xf := c.eval(v, e.x)
	yt, yf := c.eval(v, e.y)
	switch e.kind {
	case eAnd:
		return m.And(xt, yt), m.Or(xf, yf)
	case eOr:
		return m.Or(xt, yt), m.And(xf, yf)
	case eImp:
		return m.Or(xf, yt), m.And(xt, yf)
	case eXor, eNe:
		return m.Or(m.And(xt, yf), m.And(xf, yt)), m.Or(m.And(xt, yt), m.And(xf, yf))
	case eEq:
		return m.Or(m.And(xt, yt), m.And(xf, yf)), m.Or(m.And(xt, yf), m.And(xf, yt))
	case eChoose:
		// schoose[a, b]: true if a holds, else false if b holds, else either.
		return m.Or(xt, m.And(xf, yf)), m.And(xf, yt)
	}
	panic(fmt.Sprintf("bp: unknown expression kind %d", e.kind))
}

// set says that bit x takes a value e can have.
func (c *compiler) set(x bdd.Node, t, f bdd.Node) bdd.Node {
	return c.m.Or(c.m.And(x, t), c.m.And(c.m.Not(x), f))
}

func (c *compiler) lockOn(copyG int) bdd.Node {
	r := c.m.False()
	for _, g := range c.lock {
		r = c.m.Or(r, c.n.GlobalVec(g, copyG)[0])
	}
	return r
}

// guard is "no other thread holds the lock": the lock is free or this
// thread holds it.
func (c *compiler) guard(v *variant) bdd.Node {
	if v.held == nil {
		return c.m.True()
	}
	return c.m.Or(c.m.Not(c.lockOn(pds.GCur)), c.n.LocalVec(v.held, pds.LCur)[0])
}

// heldAfter is "after the step, this thread holds the lock iff it is on".
func (c *compiler) heldAfter(v *variant, copyL int) bdd.Node {
	if v.held == nil {
		return c.m.True()
	}
	return c.m.Equiv(c.n.LocalVec(v.held, copyL)[0], c.lockOn(pds.GNext))
}

// frame completes a step's relation: the guard, every variable not in
// writes unchanged, and the held flag.
func (c *compiler) frame(v *variant, rel bdd.Node, writes []*ident, hidden ...*pds.Global) bdd.Node {
	return c.m.And(rel, c.guard(v), c.keepOthers(v, writes, hidden...))
}

// keepOthers is the frame condition of a step of v that writes the
// variables writes (and the hidden globals): everything else is kept,
// and the lock flag carried on.
func (c *compiler) keepOthers(v *variant, writes []*ident, hidden ...*pds.Global) bdd.Node {
	gs := hidden
	var ls []*pds.Local
	for _, w := range writes {
		if i, ok := c.in.scopes[v.pr].vars[w.name]; ok {
			ls = append(ls, v.locals[i])
		} else {
			gs = append(gs, c.globals[c.in.globals[w.name]])
		}
	}
	if v.held != nil {
		ls = append(ls, v.held)
	}
	return c.m.And(c.n.Unchanged(gs...), c.n.LocalsUnchanged(v.p, pds.LNext, ls...), c.heldAfter(v, pds.LNext))
}

func (c *compiler) step(from, to *pds.Label, rel bdd.Node, pos diag.Pos) {
	if !rel.IsFalse() {
		c.b.Step(from, to, rel, pos)
	}
}

func (c *compiler) first(v *variant, list []*stmt, next *pds.Label) *pds.Label {
	if len(list) == 0 {
		return next
	}
	return v.labels[list[0]]
}

func (c *compiler) body(v *variant) {
	c.stmts(v, v.pr.body, v.end)
	c.ret(v, v.end, nil, v.pr.end)
}

func (c *compiler) stmts(v *variant, list []*stmt, next *pds.Label) {
	for i, s := range list {
		nx := next
		if i+1 < len(list) {
			nx = v.labels[list[i+1]]
		}
		c.stmt(v, s, nx)
	}
}

func (c *compiler) stmt(v *variant, s *stmt, next *pds.Label) {
	at := v.labels[s]
	if at.Kind == pds.Assert {
		return // SLIC_ERROR
	}
	m := c.m
	switch s.kind {
	case sSkip:
		c.step(at, next, c.frame(v, m.True(), nil), s.pos)
	case sAssign:
		rel := m.True()
		for i, t := range s.targets {
			et, ef := c.eval(v, s.exprs[i])
			rel = m.And(rel, c.set(c.cur(v, t.name, pds.LNext, pds.GNext), et, ef))
		}
		if s.constrain != nil {
			ct, _ := c.eval(v, s.constrain)
			rel = m.And(rel, ct)
		}
		c.step(at, next, c.frame(v, rel, s.targets), s.pos)
	case sGoto:
		for _, t := range s.targets {
			c.step(at, v.labels[c.in.scopes[v.pr].labels[t.name]], c.frame(v, m.True(), nil), s.pos)
		}
	case sReturn:
		c.ret(v, at, s.exprs, s.pos)
	case sIf:
		rest := m.True()
		for i, cond := range s.conds {
			t, f := c.eval(v, cond)
			c.step(at, c.first(v, s.blocks[i], next), c.frame(v, m.And(rest, t), nil), s.pos)
			rest = m.And(rest, f)
		}
		to := next
		if s.hasElse {
			to = c.first(v, s.blocks[len(s.conds)], next)
		}
		c.step(at, to, c.frame(v, rest, nil), s.pos)
		for _, b := range s.blocks {
			c.stmts(v, b, next)
		}
	case sWhile:
		t, f := c.eval(v, s.exprs[0])
		c.step(at, c.first(v, s.body, at), c.frame(v, t, nil), s.pos)
		c.step(at, next, c.frame(v, f, nil), s.pos)
		c.stmts(v, s.body, at)
	case sAssume, sAssert:
		t, f := c.eval(v, s.exprs[0])
		c.step(at, next, c.frame(v, t, nil), s.pos)
		if s.kind == sAssert {
			c.step(at, v.extra[s], c.frame(v, f, nil), s.pos)
		}
	case sCall:
		c.call(v, s, at, next)
	case sStartThread:
		cl := c.clones[v.pr][s.targets[0].name]
		rel := c.frame(v, m.True(), nil)
		for i, l := range v.locals {
			if l != nil {
				rel = m.And(rel, m.Equiv(c.n.LocalVec(cl.locals[i], pds.LSaved)[0], c.n.LocalVec(l, pds.LCur)[0]))
			}
		}
		if cl.held != nil {
			rel = m.And(rel, m.Not(c.n.LocalVec(cl.held, pds.LSaved)[0]))
		}
		if !rel.IsFalse() {
			c.b.Fork(at, next, cl.p, rel, s.pos)
		}
	case sEndThread:
		c.step(at, v.ended, c.frame(v, m.True(), nil), s.pos)
	case sAtomicBegin, sAtomicEnd:
		x := c.n.GlobalVec(c.lockVar, pds.GNext)[0]
		if s.kind == sAtomicEnd {
			x = m.Not(x)
		}
		c.step(at, next, c.frame(v, x, nil, c.lockVar), s.pos)
	}
}

// ret adds the return from label at with the given values (nil at the end
// of the procedure: any values).
func (c *compiler) ret(v *variant, at *pds.Label, values []*expr, pos diag.Pos) {
	m := c.m
	rel := m.And(c.guard(v), c.n.Unchanged())
	if len(values) > 0 {
		r := c.n.RetVec(v.pr.results)
		for i, e := range values {
			t, f := c.eval(v, e)
			rel = m.And(rel, c.set(r[i], t, f))
		}
	}
	if !rel.IsFalse() {
		c.b.Pop(at, rel, pos)
	}
}

func (c *compiler) call(v *variant, s *stmt, at, next *pds.Label) {
	m := c.m
	cv := c.orig[c.in.procs[s.callee.name]]
	ret := v.extra[s]
	rel := m.And(c.guard(v), c.n.Unchanged(), c.n.LocalsUnchanged(v.p, pds.LSaved))
	for i, e := range s.exprs {
		t, f := c.eval(v, e)
		rel = m.And(rel, c.set(c.n.LocalVec(cv.locals[i], pds.LNext)[0], t, f))
	}
	for i := len(cv.pr.params); i < len(cv.locals); i++ {
		if l := cv.locals[i]; l != nil && initOf(cv.declOf(i)) != (pds.Init{Any: true}) {
			x := c.n.LocalVec(l, pds.LNext)[0]
			if initOf(cv.declOf(i)).Value == 0 {
				x = m.Not(x)
			}
			rel = m.And(rel, x)
		}
	}
	if cv.held != nil {
		rel = m.And(rel, m.Equiv(c.n.LocalVec(cv.held, pds.LNext)[0], c.lockOn(pds.GCur)))
	}
	if !rel.IsFalse() {
		c.b.Push(at, cv.p.Entry, ret, rel, s.pos)
	}
	if len(s.targets) > 0 || v.held != nil {
		recv := m.True()
		r := c.n.RetVec(cv.pr.results)
		for i, t := range s.targets {
			recv = m.And(recv, m.Equiv(c.cur(v, t.name, pds.LNext, pds.GNext), r[i]))
		}
		// The receive relation is not guarded: the returning thread runs.
		recv = m.And(recv, c.keepOthers(v, s.targets))
		c.b.SetRecv(ret, recv)
	}
	c.step(ret, next, c.frame(v, m.True(), nil), s.pos)
}
