package types

import (
	"go/constant"
	gotoken "go/token"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/pds/plural"
)

func (c *checker) procBody(p *Proc, d *ast.ProcDecl) {
	c.proc = p
	c.scope = newScope(c.paramScope[p])
	c.loops = nil
	c.atomic = 0
	c.stmtList(d.Body.List)
	c.proc = nil
	c.scope = c.top
}

func (c *checker) openScope()  { c.scope = newScope(c.scope) }
func (c *checker) closeScope() { c.scope = c.scope.parent }

func (c *checker) stmtList(list []ast.Stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

// notInAtomic reports what as disallowed when inside an atomic block.
func (c *checker) notInAtomic(pos token.Pos, what string) bool {
	if c.atomic > 0 {
		c.errorf(pos, "%s is not allowed inside atomic: an atomic body may hold only assignments, assume, assert, if/else, skip, local declarations and nested atomic blocks", what)
		return false
	}
	return true
}

func (c *checker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.BadStmt:
	case *ast.BlockStmt:
		c.openScope()
		c.stmtList(s.List)
		c.closeScope()
	case *ast.DeclStmt:
		c.localDecl(s.Decl)
	case *ast.LabeledStmt:
		c.notInAtomic(s.Label.Pos(), "a label")
		c.stmt(s.Stmt)
	case *ast.SkipStmt:
	case *ast.AssignStmt:
		c.assign(s)
	case *ast.CallStmt:
		c.notInAtomic(s.Pos(), "a call")
		c.call(s.Call)
	case *ast.ReturnStmt:
		c.notInAtomic(s.Pos(), "return")
		c.ret(s)
	case *ast.IfStmt:
		c.cond(s.Cond)
		c.branch(s.Then)
		if s.Else != nil {
			c.branch(s.Else)
		}
	case *ast.WhileStmt:
		c.notInAtomic(s.Pos(), "a while loop")
		c.cond(s.Cond)
		c.loops = append(c.loops, s)
		c.branch(s.Body)
		c.loops = c.loops[:len(c.loops)-1]
	case *ast.BranchStmt:
		c.jump(s)
	case *ast.AssertStmt:
		x := c.expr(s.X)
		if x.mode != invalid && !isBool(x.typ) {
			c.errorf(s.X.Pos(), "the condition of %s must be bool, not %s", s.Tok, x.typ)
		}
	case *ast.AtomicStmt:
		c.atomic++
		c.stmt(s.Body)
		c.atomic--
	case *ast.StartStmt:
		c.notInAtomic(s.Pos(), "start")
		c.start(s, false)
	}
}

// cond checks the condition of if or while: a bool expression or ?.
func (c *checker) cond(e ast.Expr) {
	if w, ok := e.(*ast.Wildcard); ok {
		c.info.Types[w] = TypeAndValue{Type: Typ[Bool]}
		return
	}
	x := c.expr(e)
	if x.mode != invalid && !isBool(x.typ) {
		c.errorf(e.Pos(), "condition %s must be bool, not %s", ExprString(e), x.typ)
	}
}

func (c *checker) localDecl(d *ast.VarDecl) {
	t := c.typeExpr(d.Type)
	for _, s := range d.Specs {
		vt := c.arrayType(t, s)
		v := &Var{object: object{name: s.Name.Name, pos: s.Name.Pos(), typ: vt}, Kind: Local, Proc: c.proc, Spec: s}
		// The initializer is checked before the name comes into scope.
		c.rhs(s.Value, vt, "initialize "+s.Name.Name)
		if s.Value != nil {
			if _, ok := vt.(*Array); ok {
				if _, w := s.Value.(*ast.Wildcard); !w {
					c.errorf(s.Value.Pos(), "array %s can only be initialized with ?", s.Name.Name)
				}
			}
		}
		c.declareLocal(s.Name, v)
	}
}

// declareLocal adds a local to the current scope: its name must not be in
// use by a parameter, a local in scope or any top-level declaration.
func (c *checker) declareLocal(id *ast.Ident, v *Var) {
	if prev := c.scope.names[id.Name]; prev != nil {
		c.errorf(id.Pos(), "%s is redeclared in this block (previous declaration at %s)", id.Name, c.where(prev.Pos()))
	} else if prev := c.scope.lookup(id.Name); prev != nil {
		what := "a local variable"
		switch prev := prev.(type) {
		case *Var:
			switch prev.Kind {
			case Global:
				what = "a global variable"
			case Param:
				what = "a parameter"
			}
		case *Const:
			what = "a constant"
			if prev.Decl == nil {
				what = "an enum value"
			}
		case *TypeName:
			what = "an enum type"
		case *Proc:
			what = "a procedure"
		}
		c.errorf(id.Pos(), "local %s shadows %s declared at %s", id.Name, what, c.where(prev.Pos()))
		// Declare it anyway, so that its uses do not cascade.
	}
	c.scope.names[id.Name] = v
	c.info.Defs[id] = v
	c.info.Specs[v.Spec] = v
	v.Index = len(c.proc.Locals)
	c.proc.Locals = append(c.proc.Locals, v)
}

// rhs checks a right-hand side or initializer stored into type t: an
// expression, ? or a call.
func (c *checker) rhs(e ast.Expr, t Type, context string) {
	switch e := e.(type) {
	case nil:
	case *ast.Wildcard:
		c.info.Types[e] = TypeAndValue{Type: t}
	case *ast.CallExpr:
		if !c.notInAtomic(e.Pos(), "a call") {
			return
		}
		p := c.call(e)
		if p == nil {
			return
		}
		if p.Result == nil {
			c.errorf(e.Pos(), "%s returns no value", p.name)
			return
		}
		x := operand{mode: value, typ: p.Result, expr: e}
		c.info.Types[e] = TypeAndValue{Type: p.Result}
		if _, ok := t.(*Array); ok {
			return // reported by the caller
		}
		c.assignable(&x, t, context)
	default:
		x := c.expr(e)
		if _, ok := t.(*Array); ok {
			return
		}
		c.assignable(&x, t, context)
	}
}

func (c *checker) assign(s *ast.AssignStmt) {
	var types []Type
	for i, lhs := range s.Lhs {
		t := c.lvalue(lhs)
		types = append(types, t)
		// The same variable twice is ambiguous.
		for _, prev := range s.Lhs[:i] {
			if c.sameTarget(prev, lhs) {
				c.errorf(lhs.Pos(), "%s is assigned twice in one assignment", ExprString(lhs))
				break
			}
		}
	}
	if len(s.Rhs) == 1 {
		switch r := s.Rhs[0].(type) {
		case *ast.Wildcard, *ast.CallExpr:
			if len(s.Lhs) != 1 {
				what := "a call"
				if _, ok := r.(*ast.Wildcard); ok {
					what = "?"
				}
				c.errorf(r.Pos(), "%s assigns only one variable, not %d", what, len(s.Lhs))
				if cl, ok := r.(*ast.CallExpr); ok {
					c.call(cl)
				}
				return
			}
			c.rhs(r, types[0], "assignment to "+ExprString(s.Lhs[0]))
			return
		}
	}
	if len(s.Lhs) != len(s.Rhs) {
		c.errorf(s.TokPos, "assignment mismatch: %s but %s", plural.Count(len(s.Lhs), "variable"), plural.Count(len(s.Rhs), "value"))
	}
	for i, r := range s.Rhs {
		switch r.(type) {
		case *ast.Wildcard:
			c.errorf(r.Pos(), "? must be the only right-hand side of an assignment")
			continue
		case *ast.CallExpr:
			c.errorf(r.Pos(), "a call must be the only right-hand side of an assignment")
			c.call(r.(*ast.CallExpr))
			continue
		}
		x := c.expr(r)
		if i < len(types) && types[i] != nil {
			c.assignable(&x, types[i], "assignment to "+ExprString(s.Lhs[i]))
		}
	}
}

// lvalue checks an assignment target and returns its type (nil when
// invalid).
func (c *checker) lvalue(e ast.Expr) Type {
	switch e := e.(type) {
	case *ast.Ident:
		obj := c.scope.lookup(e.Name)
		if obj == nil {
			c.errorf(e.Pos(), "undefined: %s", e.Name)
			return nil
		}
		c.info.Uses[e] = obj
		v, ok := obj.(*Var)
		if !ok {
			c.errorf(e.Pos(), "cannot assign to %s: it is not a variable", e.Name)
			return nil
		}
		if isInvalid(v.typ) {
			return nil
		}
		if _, ok := v.typ.(*Array); ok {
			c.errorf(e.Pos(), "cannot assign to array %s: assign its elements", e.Name)
			return nil
		}
		c.info.Types[e] = TypeAndValue{Type: v.typ}
		return v.typ
	case *ast.IndexExpr:
		_, a := c.arrayVar(e.X)
		ok := c.indexValue(e.Index)
		if a == nil || !ok {
			return nil
		}
		c.info.Types[e] = TypeAndValue{Type: a.Elem}
		return a.Elem
	}
	c.errorf(e.Pos(), "cannot assign to %s", ExprString(e))
	return nil
}

// sameTarget reports whether two lvalues surely denote the same variable.
func (c *checker) sameTarget(a, b ast.Expr) bool {
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		return ok && c.info.Uses[a] != nil && c.info.Uses[a] == c.info.Uses[b]
	case *ast.IndexExpr:
		b, ok := b.(*ast.IndexExpr)
		if !ok || c.info.Uses[a.X] == nil || c.info.Uses[a.X] != c.info.Uses[b.X] {
			return false
		}
		ta, tb := c.info.Types[a.Index], c.info.Types[b.Index]
		return ta.Value != nil && tb.Value != nil && constant.Compare(ta.Value, gotoken.EQL, tb.Value)
	}
	return false
}

// call checks a call's procedure and arguments and returns the procedure.
func (c *checker) call(e *ast.CallExpr) *Proc {
	obj := c.scope.lookup(e.Fun.Name)
	var p *Proc
	switch o := obj.(type) {
	case nil:
		c.errorf(e.Fun.Pos(), "undefined: %s", e.Fun.Name)
	case *Proc:
		p = o
		c.info.Uses[e.Fun] = o
	default:
		c.info.Uses[e.Fun] = o
		c.errorf(e.Fun.Pos(), "cannot call %s: it is not a procedure", e.Fun.Name)
	}
	for i, a := range e.Args {
		switch a.(type) {
		case *ast.Wildcard:
			c.errorf(a.Pos(), "%s", wildcardMsg)
			continue
		case *ast.CallExpr:
			c.errorf(a.Pos(), "a call cannot be an argument: call it first and pass the result")
			continue
		}
		x := c.expr(a)
		if p != nil && i < len(p.Params) {
			c.assignable(&x, p.Params[i].typ, "argument "+p.Params[i].name+" of "+p.name)
		}
	}
	if p != nil && len(e.Args) != len(p.Params) {
		what := "not enough"
		if len(e.Args) > len(p.Params) {
			what = "too many"
		}
		c.errorf(e.Rparen, "%s arguments in call to %s: have %d, want %d", what, p.name, len(e.Args), len(p.Params))
	}
	return p
}

func (c *checker) ret(s *ast.ReturnStmt) {
	p := c.proc
	switch {
	case s.Result == nil && p.Result != nil:
		c.errorf(s.Pos(), "missing return value: %s returns %s", p.name, p.Result)
	case s.Result != nil && p.Result == nil:
		c.errorf(s.Result.Pos(), "%s has no result type and cannot return a value", p.name)
		if _, ok := s.Result.(*ast.CallExpr); !ok {
			c.expr(s.Result)
		}
	case s.Result != nil:
		if cl, ok := s.Result.(*ast.CallExpr); ok {
			c.errorf(cl.Pos(), "cannot return a call: store its result in a variable first")
			c.call(cl)
			return
		}
		x := c.expr(s.Result)
		c.assignable(&x, p.Result, "return from "+p.name)
	}
}

// branch checks the branch of an if or the body of a while in a scope of
// its own: a declaration there is not visible after it.
func (c *checker) branch(s ast.Stmt) {
	c.openScope()
	c.stmt(s)
	c.closeScope()
}

func (c *checker) jump(s *ast.BranchStmt) {
	switch s.Tok {
	case token.BREAK, token.CONTINUE:
		if !c.notInAtomic(s.Pos(), s.Tok.String()) {
			return
		}
		if len(c.loops) == 0 {
			c.errorf(s.Pos(), "%s is not inside a while loop", s.Tok)
			return
		}
		c.info.Targets[s] = c.loops[len(c.loops)-1]
	case token.GOTO:
		if !c.notInAtomic(s.Pos(), "goto") {
			return
		}
		name := s.Label.Name
		l := c.proc.Labels[name]
		if l == nil {
			if other := c.procLabel[name]; other != nil {
				c.errorf(s.Label.Pos(), "goto %s jumps to a label of procedure %s: goto stays within its procedure", name, other.Proc.name)
			} else {
				c.errorf(s.Label.Pos(), "undefined label %s", name)
			}
			return
		}
		c.info.Uses[s.Label] = l
		c.info.Targets[s] = l.Stmt
	}
}

// start checks a start statement: at top level with constant arguments.
func (c *checker) start(s *ast.StartStmt, top bool) {
	p := c.call(s.Call)
	if p == nil {
		return
	}
	if top {
		for _, a := range s.Call.Args {
			if tv, ok := c.info.Types[a]; ok && tv.Value == nil {
				c.errorf(a.Pos(), "the arguments of an initial thread must be constants")
			}
		}
		return
	}
	if !c.spawned[p] {
		c.spawned[p] = true
		c.info.Spawned = append(c.info.Spawned, p)
	}
}
