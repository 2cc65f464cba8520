package frontend

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
)

// Symbolic execution of atomic bodies.
//
// An atomic body becomes one relation over (G, L, G', L'). Instead of
// composing the relations of its statements through intermediate copies
// (composeOutcome, the fallback), the body is executed symbolically: each
// path holds the value of every cell written so far as a bit vector over
// the values at the start of the block, and a guard, the condition under
// which the path is taken. An if on a real condition keeps one path and
// merges the branches' values with if-then-else; an if (?) splits the
// path. At the end, the relation is the disjunction over paths of
// guard AND (x' == value of x, for every written x) AND (everything else
// unchanged); an error (a failed assert, an index out of range, a
// division by zero) gives the same relation for the state at the point of the error.
//
// x = ? makes x's value its own after-copy x', unconstrained but for the
// validity of an enum: later reads of x then read x', which is exact as
// long as x is not written again on that path (x' is the value x ends
// with). A path that writes such a cell again gives up, and the body is
// compiled by composition.

// symPath is one path of a symbolic execution.
type symPath struct {
	vals  map[cell]bdd.Vec
	order []cell // written cells, in order of first write
	guard bdd.Node
	free  map[cell]bool // cells whose value is their own after-copy
}

func (p *symPath) clone() *symPath {
	q := &symPath{vals: map[cell]bdd.Vec{}, order: append([]cell(nil), p.order...), guard: p.guard, free: map[cell]bool{}}
	for k, v := range p.vals {
		q.vals[k] = v
	}
	for k := range p.free {
		q.free[k] = true
	}
	return q
}

// symRun is the state of one symbolic execution.
type symRun struct {
	out  outcome
	fail bool // gave up: compile by composition
}

// symOutcome executes an atomic body symbolically. ok is false when it
// gives up.
func (c *compiler) symOutcome(list []ast.Stmt) (o outcome, ok bool) {
	m := c.m
	run := &symRun{}
	saved := c.sym
	defer func() { c.sym = saved }()
	paths := c.symList(run, list, []*symPath{{vals: map[cell]bdd.Vec{}, guard: m.True(), free: map[cell]bool{}}})
	if run.fail {
		return outcome{}, false
	}
	run.out.normal = m.False()
	for _, p := range paths {
		run.out.normal = m.Or(run.out.normal, m.And(p.guard, c.pathRel(p)))
	}
	return run.out, true
}

// pathRel is the relation of a path's state: written cells have their
// values, every other global and local of the procedure is unchanged.
func (c *compiler) pathRel(p *symPath) bdd.Node {
	ws := make([]write, 0, len(p.order))
	for _, x := range p.order {
		ws = append(ws, write{cells: []cell{x}, val: p.vals[x]})
	}
	return c.writeRel(ws)
}

func (c *compiler) symList(run *symRun, list []ast.Stmt, paths []*symPath) []*symPath {
	for _, s := range list {
		var next []*symPath
		for _, p := range paths {
			next = append(next, c.symStmt(run, s, p)...)
			if run.fail {
				return nil
			}
		}
		paths = next
	}
	return paths
}

// symErrs records the evaluation errors of a path (each reached with the
// state so far) and restricts the path to the error-free case.
func (c *compiler) symErrs(run *symRun, p *symPath, errs []errCase) {
	if len(errs) == 0 {
		return
	}
	m := c.m
	state := c.pathRel(p)
	for _, e := range errs {
		c.addErr(&run.out, c.errLabel(e.site), m.And(p.guard, e.cond, state))
	}
	p.guard = m.And(p.guard, c.okOf(errs))
}

// assign sets a cell's value on a path; it gives up on a cell that holds
// its after-copy.
func (c *compiler) symSet(run *symRun, p *symPath, x cell, v bdd.Vec) {
	if p.free[x] {
		run.fail = true
		return
	}
	if _, ok := p.vals[x]; !ok {
		p.order = append(p.order, x)
	}
	p.vals[x] = c.m.Resize(v, x.typ().Bits)
}

// symAny makes x any valid value where sel holds.
func (c *compiler) symAny(run *symRun, p *symPath, x cell, sel bdd.Node) {
	m := c.m
	old := c.read(x)
	c.symSet(run, p, x, m.IteVec(sel, c.next(x), old))
	p.free[x] = true
	p.guard = m.And(p.guard, m.Imp(sel, c.n.ValidType(c.next(x), x.typ())))
}

func (c *compiler) symStmt(run *symRun, s ast.Stmt, p *symPath) []*symPath {
	m := c.m
	p = p.clone()
	c.sym = p
	switch s := s.(type) {
	case *ast.BlockStmt:
		return c.symList(run, s.List, []*symPath{p})
	case *ast.AtomicStmt:
		return c.symList(run, s.Body.List, []*symPath{p})
	case *ast.SkipStmt:
		return []*symPath{p}
	case *ast.DeclStmt:
		for _, spec := range s.Decl.Specs {
			c.sym = p
			cells := c.cells(c.info.Specs[spec])
			switch init := spec.Value.(type) {
			case nil:
				for _, x := range cells {
					c.symSet(run, p, x, m.ConstVec(0, x.typ().Bits))
				}
			case *ast.Wildcard:
				for _, x := range cells {
					c.symAny(run, p, x, m.True())
				}
			default:
				v := c.expr(init)
				c.symErrs(run, p, v.errs)
				c.symSet(run, p, cells[0], v.v)
			}
		}
		return []*symPath{p}
	case *ast.AssignStmt:
		c.symAssign(run, s, p)
		return []*symPath{p}
	case *ast.AssertStmt:
		x := c.expr(s.X)
		c.symErrs(run, p, x.errs)
		if s.Tok == token.ASSERT {
			c.addErr(&run.out, c.errLabel(s), m.And(p.guard, m.Not(x.v[0]), c.pathRel(p)))
		}
		p.guard = m.And(p.guard, x.v[0])
		return []*symPath{p}
	case *ast.IfStmt:
		if _, ok := s.Cond.(*ast.Wildcard); ok {
			then := c.symStmt(run, s.Then, p)
			if s.Else == nil {
				return append(then, p)
			}
			return append(then, c.symStmt(run, s.Else, p)...)
		}
		x := c.expr(s.Cond)
		c.symErrs(run, p, x.errs)
		cond := x.v[0]
		tp := p.clone()
		tp.guard = m.And(p.guard, cond)
		ep := p.clone()
		ep.guard = m.Diff(p.guard, cond)
		thens := c.symStmt(run, s.Then, tp)
		elses := []*symPath{ep}
		if s.Else != nil {
			elses = c.symStmt(run, s.Else, ep)
		}
		if run.fail {
			return nil
		}
		if len(thens) != 1 || len(elses) != 1 {
			return append(thens, elses...) // a ? inside: keep the paths apart
		}
		return []*symPath{c.symMerge(cond, thens[0], elses[0])}
	}
	run.fail = true // not expected inside atomic; be safe
	return nil
}

// symMerge joins the two branches of an if on cond into one path.
func (c *compiler) symMerge(cond bdd.Node, t, e *symPath) *symPath {
	m := c.m
	r := &symPath{vals: map[cell]bdd.Vec{}, guard: m.Or(t.guard, e.guard), free: map[cell]bool{}}
	get := func(p *symPath, x cell) bdd.Vec {
		if v, ok := p.vals[x]; ok {
			return v
		}
		return c.cur(x)
	}
	for _, p := range []*symPath{t, e} {
		for _, x := range p.order {
			if _, ok := r.vals[x]; ok {
				continue
			}
			r.order = append(r.order, x)
			r.vals[x] = m.IteVec(cond, get(t, x), get(e, x))
		}
		for x := range p.free {
			r.free[x] = true
		}
	}
	return r
}

// symAssign runs x, y = e1, e2 (or x = ?) on a path.
func (c *compiler) symAssign(run *symRun, s *ast.AssignStmt, p *symPath) {
	m := c.m
	_, any := s.Rhs[0].(*ast.Wildcard)
	var errs []errCase
	vals := make([]bdd.Vec, len(s.Lhs))
	if !any {
		for i, r := range s.Rhs {
			x := c.expr(r)
			errs = c.seq(errs, c.okOf(errs), x.errs)
			vals[i] = x.v
		}
	}
	type target struct {
		cells []cell
		index bdd.Vec // nil: cells[0]
	}
	ts := make([]target, len(s.Lhs))
	for i, lhs := range s.Lhs {
		ts[i].cells = c.cells(c.info.VarOf(lhs))
		ix, ok := lhs.(*ast.IndexExpr)
		if !ok {
			continue
		}
		x := c.index(ix)
		errs = c.seq(errs, c.okOf(errs), x.errs)
		if tv := c.info.Types[ix.Index]; tv.Value != nil {
			k, _ := constUint(tv.Value)
			if k < uint64(len(ts[i].cells)) {
				ts[i].cells = ts[i].cells[k : k+1]
			} else {
				ts[i].cells = nil
			}
			continue
		}
		ts[i].index = c.expr(ix.Index).v
	}
	c.symErrs(run, p, errs)
	// The stores, in order, from the values computed before any of them.
	for i, t := range ts {
		for k, x := range t.cells {
			sel := m.True()
			if t.index != nil {
				if !fitsBits(uint64(k), len(t.index)) {
					continue
				}
				sel = m.Eq(t.index, m.ConstVec(uint64(k), len(t.index)))
			} else if k > 0 {
				continue
			}
			if any {
				c.symAny(run, p, x, sel)
				continue
			}
			if t.index == nil {
				c.symSet(run, p, x, vals[i])
			} else {
				c.symSet(run, p, x, m.IteVec(sel, m.Resize(vals[i], x.typ().Bits), c.read(x)))
			}
		}
	}
}
