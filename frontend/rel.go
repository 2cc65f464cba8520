package frontend

import (
	"fmt"
	"go/constant"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
	"github.com/cbreach/cbreach/pds"
)

// errCase is an error met while evaluating: an out-of-range index (site
// is the *ast.IndexExpr) or a division or remainder by zero (site is the
// *ast.BinaryExpr), and the condition (over the current values) under
// which it is the first error of the evaluation. The conditions of one
// evaluation are mutually exclusive.
type errCase struct {
	site ast.Expr
	cond bdd.Node
}

// ev is an evaluated expression: its value as a bit vector over the
// current copies (meaningful when no error happens) and its errors in
// evaluation order.
type ev struct {
	v    bdd.Vec
	errs []errCase
}

// okOf returns "none of errs happens".
func (c *compiler) okOf(errs []errCase) bdd.Node {
	r := c.m.True()
	for _, e := range errs {
		r = c.m.Diff(r, e.cond)
	}
	return r
}

// seq appends the errors of a later evaluation, which happens under guard
// (no earlier error, and the short-circuit condition if any).
func (c *compiler) seq(a []errCase, guard bdd.Node, b []errCase) []errCase {
	out := append([]errCase(nil), a...)
	for _, e := range b {
		if cond := c.m.And(guard, e.cond); !cond.IsFalse() {
			out = append(out, errCase{e.site, cond})
		}
	}
	return out
}

// expr evaluates an expression of the current procedure over the current
// copies of globals and locals.
func (c *compiler) expr(e ast.Expr) ev {
	m := c.m
	tv := c.info.Types[e]
	if tv.Value != nil {
		return ev{v: c.constVec(tv)}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.expr(e.X)
	case *ast.Ident:
		return ev{v: c.read(c.cells(c.info.Uses[e].(*types.Var))[0])}
	case *ast.IndexExpr:
		return c.index(e)
	case *ast.UnaryExpr:
		x := c.expr(e.X)
		switch e.Op {
		case token.NOT:
			return ev{v: bdd.Vec{m.Not(x.v[0])}, errs: x.errs}
		case token.TILDE:
			return ev{v: m.NotVec(m.Resize(x.v, tv.Type.Bits())), errs: x.errs}
		}
		w := tv.Type.Bits()
		return ev{v: m.Sub(m.ConstVec(0, w), m.Resize(x.v, w)), errs: x.errs}
	case *ast.BinaryExpr:
		return c.binary(e, tv)
	case *ast.ConvExpr:
		x := c.expr(e.X)
		if e.Width == 0 {
			return ev{v: bdd.Vec{m.Ne(x.v, m.ConstVec(0, len(x.v)))}, errs: x.errs}
		}
		if b, ok := c.info.Types[e.X].Type.(*types.Basic); ok && b.Kind == types.Int && e.Signed {
			return ev{v: m.SignExtend(x.v, e.Width), errs: x.errs}
		}
		return ev{v: m.Resize(x.v, e.Width), errs: x.errs}
	case *ast.CondExpr:
		// Only the chosen branch is evaluated: the errors of each branch
		// are guarded by the condition.
		cond := c.expr(e.Cond)
		x := c.expr(e.Then)
		y := c.expr(e.Else)
		ok := c.okOf(cond.errs)
		errs := c.seq(cond.errs, m.And(ok, cond.v[0]), x.errs)
		errs = c.seq(errs, m.Diff(ok, cond.v[0]), y.errs)
		w := tv.Type.Bits()
		return ev{v: m.IteVec(cond.v[0], m.Resize(x.v, w), m.Resize(y.v, w)), errs: errs}
	}
	panic(fmt.Sprintf("frontend: unexpected expression %T", e))
}

// binary evaluates X op Y (not constant), of type tv.Type.
func (c *compiler) binary(e *ast.BinaryExpr, tv types.TypeAndValue) ev {
	m := c.m
	x := c.expr(e.X)
	y := c.expr(e.Y)
	ok := c.okOf(x.errs)
	switch e.Op {
	case token.LAND:
		return ev{v: bdd.Vec{m.And(x.v[0], y.v[0])}, errs: c.seq(x.errs, m.And(ok, x.v[0]), y.errs)}
	case token.LOR:
		return ev{v: bdd.Vec{m.Or(x.v[0], y.v[0])}, errs: c.seq(x.errs, m.Diff(ok, x.v[0]), y.errs)}
	}
	errs := c.seq(x.errs, ok, y.errs)
	w := tv.Type.Bits()
	switch e.Op {
	case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR:
		a, b := m.Resize(x.v, w), m.Resize(y.v, w)
		var r bdd.Vec
		switch e.Op {
		case token.ADD:
			r = m.Add(a, b)
		case token.SUB:
			r = m.Sub(a, b)
		case token.MUL:
			r = m.Mul(a, b)
		case token.AND:
			r = m.AndVec(a, b)
		case token.OR:
			r = m.OrVec(a, b)
		default:
			r = m.XorVec(a, b)
		}
		return ev{v: r, errs: errs}
	case token.QUO, token.REM:
		a, b := m.Resize(x.v, w), m.Resize(y.v, w)
		// Dividing by zero is an error of its own, after the operands'.
		if zero := m.And(c.okOf(errs), m.Eq(b, m.ConstVec(0, w))); !zero.IsFalse() {
			errs = append(append([]errCase(nil), errs...), errCase{e, zero})
		}
		var q, r bdd.Vec
		if e.Signed {
			q, r = m.SDivMod(a, b)
		} else {
			q, r = m.DivMod(a, b)
		}
		if e.Op == token.QUO {
			return ev{v: q, errs: errs}
		}
		return ev{v: r, errs: errs}
	case token.SHL, token.SHR:
		a := m.Resize(x.v, w)
		var r bdd.Vec
		if yv := c.info.Types[e.Y].Value; yv != nil {
			k, _ := constUint(yv)
			if e.Op == token.SHL {
				r = m.ShlConst(a, k)
			} else {
				r = m.ShrConst(a, k, e.Signed)
			}
		} else if e.Op == token.SHL {
			r = m.Shl(a, y.v)
		} else {
			r = m.Shr(a, y.v, e.Signed)
		}
		return ev{v: r, errs: errs}
	}
	var r bdd.Node
	switch e.Op {
	case token.EQL:
		r = m.Eq(x.v, y.v)
	case token.NEQ:
		r = m.Ne(x.v, y.v)
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		cmp := map[token.Token]func(a, b bdd.Vec) bdd.Node{token.LSS: m.Lt, token.LEQ: m.Le, token.GTR: m.Gt, token.GEQ: m.Ge}
		if e.Signed {
			cmp = map[token.Token]func(a, b bdd.Vec) bdd.Node{token.LSS: m.SLt, token.LEQ: m.SLe, token.GTR: m.SGt, token.GEQ: m.SGe}
		}
		r = cmp[e.Op](x.v, y.v)
	default:
		panic(fmt.Sprintf("frontend: unexpected operator %s", e.Op))
	}
	return ev{v: bdd.Vec{r}, errs: errs}
}

// fitsBits reports whether k < 2^w.
func fitsBits(k uint64, w int) bool { return w >= 64 || k>>uint(w) == 0 }

// index evaluates a[i]: a multiplexer over the elements, and a bounds
// error when i may be out of range.
func (c *compiler) index(e *ast.IndexExpr) ev {
	m := c.m
	cells := c.cells(c.info.VarOf(e))
	n := uint64(len(cells))
	bits := cells[0].typ().Bits
	if tv := c.info.Types[e.Index]; tv.Value != nil {
		if k, ok := constant.Uint64Val(tv.Value); ok && k < n {
			return ev{v: c.read(cells[k])}
		}
		return ev{v: m.ConstVec(0, bits), errs: []errCase{{e, m.True()}}}
	}
	idx := c.expr(e.Index)
	w := len(idx.v)
	r := m.ConstVec(0, bits)
	for k := int(n) - 1; k >= 0; k-- {
		if fitsBits(uint64(k), w) {
			r = m.IteVec(m.Eq(idx.v, m.ConstVec(uint64(k), w)), c.read(cells[k]), r)
		}
	}
	errs := idx.errs
	if fitsBits(n, w) {
		// Some value of the index, n for one, is out of range.
		out := m.And(c.okOf(errs), m.Ge(idx.v, m.ConstVec(n, w)))
		if !out.IsFalse() {
			errs = append(append([]errCase(nil), errs...), errCase{e, out})
		}
	}
	return ev{v: r, errs: errs}
}

// write is an assignment to a variable: to its single cell, or, with an
// index, to the element the index selects. A nil val means any valid
// value.
type write struct {
	cells []cell
	index bdd.Vec
	val   bdd.Vec
}

// writeRel returns the relation of the writes done in order (a later write
// to the same cell wins) with every other global and local of the current
// procedure unchanged. Only a single write may have a nil value.
func (c *compiler) writeRel(ws []write) bdd.Node {
	m, n := c.m, c.n
	vals := map[cell]bdd.Vec{}
	rels := map[cell]bdd.Node{}
	var order []cell
	touch := func(x cell) {
		if _, ok := vals[x]; !ok {
			if _, ok := rels[x]; !ok {
				order = append(order, x)
			}
		}
	}
	curVal := func(x cell) bdd.Vec {
		if v, ok := vals[x]; ok {
			return v
		}
		return c.cur(x)
	}
	for _, w := range ws {
		for k, x := range w.cells {
			var sel bdd.Node
			switch {
			case w.index == nil && k > 0:
				continue
			case w.index == nil:
				sel = m.True()
			case !fitsBits(uint64(k), len(w.index)):
				continue
			default:
				sel = m.Eq(w.index, m.ConstVec(uint64(k), len(w.index)))
			}
			t := x.typ()
			touch(x)
			if w.val == nil {
				if _, ok := vals[x]; ok {
					panic("frontend: ? after another write to the same variable")
				}
				any := n.ValidType(c.next(x), t)
				rels[x] = m.Or(m.And(sel, any), m.Diff(m.Eq(c.next(x), c.cur(x)), sel))
				continue
			}
			if _, ok := rels[x]; ok {
				panic("frontend: write after ? to the same variable")
			}
			vals[x] = m.IteVec(sel, m.Resize(w.val, t.Bits), curVal(x))
		}
	}
	rel := m.True()
	var gs []*pds.Global
	var ls []*pds.Local
	for _, x := range order {
		if x.g != nil {
			gs = append(gs, x.g)
		} else {
			ls = append(ls, x.l)
		}
		if r, ok := rels[x]; ok {
			rel = m.And(rel, r)
		} else {
			rel = m.And(rel, m.Eq(c.next(x), vals[x]))
		}
	}
	return m.And(rel, n.Unchanged(gs...), n.LocalsUnchanged(c.ps.p, pds.LNext, ls...))
}

// ----------------------------------------------------------------------------
// Outcomes

// outcome is the effect of a statement (or an atomic body) as relations
// over (G, L, G', L'): normal completion, and the states in which each
// error label is reached.
type outcome struct {
	normal bdd.Node
	errs   []errRel
}

type errRel struct {
	label *pds.Label
	rel   bdd.Node
}

// addErr adds the relation of reaching error label l to o.
func (c *compiler) addErr(o *outcome, l *pds.Label, rel bdd.Node) {
	if rel.IsFalse() {
		return
	}
	for i := range o.errs {
		if o.errs[i].label == l {
			o.errs[i].rel = c.m.Or(o.errs[i].rel, rel)
			return
		}
	}
	o.errs = append(o.errs, errRel{l, rel})
}

// evalErrs adds the evaluation errors to o, each with nothing changed.
func (c *compiler) evalErrs(o *outcome, errs []errCase) {
	for _, e := range errs {
		c.addErr(o, c.errLabel(e.site), c.m.And(e.cond, c.ps.id))
	}
}

// assignOutcome compiles x, y = e1, e2 (no call): right-hand sides first,
// left to right, then the indices of the targets, then the stores.
func (c *compiler) assignOutcome(s *ast.AssignStmt) outcome {
	var errs []errCase
	vals := make([]bdd.Vec, len(s.Lhs))
	if _, ok := s.Rhs[0].(*ast.Wildcard); !ok {
		for i, r := range s.Rhs {
			x := c.expr(r)
			errs = c.seq(errs, c.okOf(errs), x.errs)
			vals[i] = x.v
		}
	}
	ws := make([]write, len(s.Lhs))
	for i, lhs := range s.Lhs {
		v := c.info.VarOf(lhs)
		ws[i] = write{cells: c.cells(v), val: vals[i]}
		if ix, ok := lhs.(*ast.IndexExpr); ok {
			x := c.index(ix)
			errs = c.seq(errs, c.okOf(errs), x.errs)
			ws[i].index = c.expr(ix.Index).v
			if tv := c.info.Types[ix.Index]; tv.Value != nil {
				// A constant index: the element itself, if in range.
				k, ok := constUint(tv.Value)
				if !ok || k >= uint64(len(ws[i].cells)) {
					ws[i].cells = nil
				} else {
					ws[i].cells = ws[i].cells[k : k+1]
				}
				ws[i].index = nil
			}
		}
	}
	o := outcome{normal: c.m.And(c.okOf(errs), c.writeRel(ws))}
	c.evalErrs(&o, errs)
	return o
}

// declOutcome compiles a local declarator without a call: the variable is
// reset, initialized, or given any value.
func (c *compiler) declOutcome(spec *ast.VarSpec) outcome {
	m := c.m
	v := c.info.Specs[spec]
	cells := c.cells(v)
	switch init := spec.Value.(type) {
	case nil:
		ws := make([]write, len(cells))
		for i, x := range cells {
			ws[i] = write{cells: []cell{x}, val: m.ConstVec(0, x.typ().Bits)}
		}
		return outcome{normal: c.writeRel(ws)}
	case *ast.Wildcard:
		ws := make([]write, len(cells))
		for i, x := range cells {
			ws[i] = write{cells: []cell{x}}
		}
		return outcome{normal: c.writeAny(ws)}
	default:
		x := c.expr(init)
		o := outcome{normal: m.And(c.okOf(x.errs), c.writeRel([]write{{cells: cells, val: x.v}}))}
		c.evalErrs(&o, x.errs)
		return o
	}
}

// writeAny is writeRel for several cells that each get any value.
func (c *compiler) writeAny(ws []write) bdd.Node {
	m, n := c.m, c.n
	rel := m.True()
	var gs []*pds.Global
	var ls []*pds.Local
	for _, w := range ws {
		x := w.cells[0]
		rel = m.And(rel, n.ValidType(c.next(x), x.typ()))
		if x.g != nil {
			gs = append(gs, x.g)
		} else {
			ls = append(ls, x.l)
		}
	}
	return m.And(rel, n.Unchanged(gs...), n.LocalsUnchanged(c.ps.p, pds.LNext, ls...))
}

// assertOutcome compiles assert(c) and assume(c).
func (c *compiler) assertOutcome(s *ast.AssertStmt) outcome {
	m := c.m
	x := c.expr(s.X)
	ok := c.okOf(x.errs)
	o := outcome{normal: m.And(ok, x.v[0], c.ps.id)}
	c.evalErrs(&o, x.errs)
	if s.Tok == token.ASSERT {
		c.addErr(&o, c.errLabel(s), m.And(ok, m.Not(x.v[0]), c.ps.id))
	}
	return o
}

// compose returns the sequential composition a;b of two relations over
// (G, L, G', L'), through the scratch copies as the intermediate state.
func (c *compiler) compose(a, b bdd.Node) bdd.Node {
	s := c.n.Sets()
	a = s.Rename(a, pds.G(pds.GNext, pds.GScratch), pds.L(pds.LNext, pds.LScratch))
	b = s.Rename(b, pds.G(pds.GCur, pds.GScratch), pds.L(pds.LCur, pds.LScratch))
	return c.m.AndExists(a, b, c.link)
}

// then returns a followed by b.
func (c *compiler) then(a, b outcome) outcome {
	o := outcome{normal: c.compose(a.normal, b.normal), errs: append([]errRel(nil), a.errs...)}
	for _, e := range b.errs {
		c.addErr(&o, e.label, c.compose(a.normal, e.rel))
	}
	return o
}

// blockOutcome compiles the body of an atomic block into one outcome: the
// statements in order, an assume that fails leaving no normal outcome,
// an assert that fails reaching its error label with the effects of the
// statements before it.
func (c *compiler) blockOutcome(list []ast.Stmt) outcome {
	if !c.noSym {
		if o, ok := c.symOutcome(list); ok {
			return o
		}
	}
	return c.composeOutcome(list)
}

// composeOutcome is blockOutcome by relational composition.
func (c *compiler) composeOutcome(list []ast.Stmt) outcome {
	o := outcome{normal: c.ps.id}
	first := true
	for _, s := range list {
		so := c.atomicStmt(s)
		if first {
			o, first = so, false
			continue
		}
		o = c.then(o, so)
	}
	return o
}

func (c *compiler) atomicStmt(s ast.Stmt) outcome {
	m := c.m
	switch s := s.(type) {
	case *ast.BlockStmt:
		return c.composeOutcome(s.List)
	case *ast.AtomicStmt:
		return c.composeOutcome(s.Body.List)
	case *ast.SkipStmt:
		return outcome{normal: c.ps.id}
	case *ast.DeclStmt:
		var list []outcome
		for _, spec := range s.Decl.Specs {
			list = append(list, c.declOutcome(spec))
		}
		o := list[0]
		for _, x := range list[1:] {
			o = c.then(o, x)
		}
		return o
	case *ast.AssignStmt:
		return c.assignOutcome(s)
	case *ast.AssertStmt:
		return c.assertOutcome(s)
	case *ast.IfStmt:
		then := c.atomicStmt(s.Then)
		els := outcome{normal: c.ps.id}
		if s.Else != nil {
			els = c.atomicStmt(s.Else)
		}
		var o outcome
		var pt, pe bdd.Node
		if _, ok := s.Cond.(*ast.Wildcard); ok {
			pt, pe = m.True(), m.True()
		} else {
			x := c.expr(s.Cond)
			ok := c.okOf(x.errs)
			pt, pe = m.And(ok, x.v[0]), m.Diff(ok, x.v[0])
			c.evalErrs(&o, x.errs)
		}
		o.normal = m.Or(m.And(pt, then.normal), m.And(pe, els.normal))
		for _, e := range then.errs {
			c.addErr(&o, e.label, m.And(pt, e.rel))
		}
		for _, e := range els.errs {
			c.addErr(&o, e.label, m.And(pe, e.rel))
		}
		return o
	}
	panic(fmt.Sprintf("frontend: %T inside atomic", s))
}

// constUint returns a non-negative constant that fits 64 bits.
func constUint(v constant.Value) (uint64, bool) {
	k, ok := constant.Uint64Val(v)
	if !ok {
		return ^uint64(0), false
	}
	return k, true
}
