package c

import (
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"modernc.org/cc/v4"
)

// args are the argument expressions of a call.
func args(x *cc.PostfixExpression) []cc.ExpressionNode {
	var list []cc.ExpressionNode
	for a := x.ArgumentExpressionList; a != nil; a = a.ArgumentExpressionList {
		list = append(list, a.AssignmentExpression)
	}
	return list
}

// ignored are library functions without effect on the property.
var ignored = map[string]bool{
	"printf": true, "fprintf": true, "puts": true, "putchar": true, "fflush": true, "sleep": true, "usleep": true,
	"pthread_attr_init": true, "pthread_attr_destroy": true, "pthread_attr_setdetachstate": true,
	"pthread_mutexattr_init": true, "pthread_mutexattr_destroy": true, "pthread_mutex_destroy": true,
	"pthread_cond_init": true, "pthread_cond_destroy": true, "pthread_cond_signal": true, "pthread_cond_broadcast": true,
	"pthread_yield": true, "sched_yield": true,
}

// halting are the functions that end the whole process.
var halting = map[string]bool{"abort": true, "exit": true, "_exit": true, "__assert_fail": true, "__assert_perror_fail": true, "__assert": true}

// call lowers a call; stmt says whether its value is unused. It returns
// the value (nil for void) and its type.
func (l *lowerer) call(x *cc.PostfixExpression, stmt bool) (ast.Expr, ctype) {
	name := callName(x)
	if name == "" {
		l.unsupported(x, "a call through a function pointer")
	}
	pos := l.pos(x.Token)
	as := args(x)
	fd := l.funcs[name]
	switch {
	case name == "reach_error" || name == "__VERIFIER_error":
		l.emit(&ast.AssertStmt{TokPos: pos, Tok: token.ASSERT, X: boolLit(false), Msg: name + "() called"})
		return nil, ctype{k: kVoid}
	case fd != nil && strings.HasPrefix(name, "__VERIFIER_atomic_"):
		return l.inlineCall(x, fd, true)
	case fd != nil && l.fn.atomic > 0:
		return l.inlineCall(x, fd, false)
	case fd != nil:
		return l.userCall(x, fd, stmt)
	case strings.HasPrefix(name, "__VERIFIER_nondet_"):
		t := l.typeOf(x.Type(), x)
		if t.k == kPtr {
			// Any pointer: used only as a number (converted to an
			// integer or a bool), so any value of its width.
			if stmt {
				return nil, ctype{k: kVoid}
			}
			t = ctype{k: kInt, w: t.w}
		}
		if t.k != kInt && t.k != kBool {
			l.unsupported(x, name+" (a nondeterministic "+t.String()+")")
		}
		v := l.temp(t)
		l.emit(assign(ident(v.name, pos), &ast.Wildcard{Quest: pos}))
		return ident(v.name, pos), t
	case name == "__VERIFIER_assume":
		c := l.cond(as[0])
		stop := &ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: &ast.ParenExpr{X: c}}, Then: block([]ast.Stmt{l.halt(pos)})}
		if l.fn.atomic > 0 {
			l.emit(stop)
		} else {
			l.emit(&ast.AtomicStmt{Atomic: pos, Body: block([]ast.Stmt{stop})})
		}
		return nil, ctype{k: kVoid}
	case halting[name]:
		for _, a := range as {
			if !pure(a) {
				l.effect(a)
			}
		}
		l.emit(l.halt(pos))
		return nil, ctype{k: kVoid}
	case ignored[name]:
		for _, a := range as {
			if !pure(a) {
				l.effect(a)
			}
		}
		return lit(0), tInt
	case strings.HasPrefix(name, "pthread_"):
		return l.pthread(name, x, as, pos)
	case name == "__VERIFIER_atomic_begin" || name == "__VERIFIER_atomic_end":
		l.unsupported(x, name+" outside a block that holds both")
	}
	l.unsupported(x, "the function "+name+" (no definition)")
	return nil, ctype{}
}

// userCall lowers a call of a function of the program.
func (l *lowerer) userCall(x *cc.PostfixExpression, fd *cc.FunctionDefinition, stmt bool) (ast.Expr, ctype) {
	name := callName(x)
	if name == "main" {
		l.unsupported(x, "a call of main")
	}
	p := l.need(name)
	p.direct = true
	pos := l.pos(x.Token)
	call := &ast.CallExpr{Fun: ident(name, pos)}
	as := args(x)
	ft := fd.Declarator.Type().(*cc.FunctionType)
	params := ft.Parameters()
	if ft.IsVariadic() || len(as) != len(params) && !(len(as) == 0 && len(params) == 1 && params[0].Type().Kind() == cc.Void) {
		l.unsupported(x, "a call with "+strconv.Itoa(len(as))+" arguments of "+name)
	}
	for i, a := range as {
		pt := l.typeOf(params[i].Type(), x)
		if pt.k == kPtr {
			if d := params[i].Declarator; d != nil && (d.ReadCount() > 0 || d.WriteCount() > 0) {
				l.unsupported(a, "passing a pointer to "+name)
			}
			if !pure(a) {
				l.effect(a)
			}
			continue
		}
		call.Args = append(call.Args, l.value(a, pt))
	}
	res := p.result
	if stmt || res.k == kVoid || res.k == kPtr {
		l.emit(&ast.CallStmt{Call: call})
		return nil, ctype{k: kVoid}
	}
	v := l.temp(res)
	l.emit(assign(ident(v.name, pos), call))
	return ident(v.name, pos), res
}

// inlineCall inlines a call into the atomic section it is in (or, for a
// __VERIFIER_atomic_ function, into an atomic section of its own): the
// parameters become locals of the caller, set to the arguments.
func (l *lowerer) inlineCall(x *cc.PostfixExpression, fd *cc.FunctionDefinition, atomicFn bool) (ast.Expr, ctype) {
	name := callName(x)
	fs := l.fn
	for _, in := range fs.inline {
		if in.name == name {
			l.unsupported(x, "recursion inside an atomic section ("+name+")")
		}
	}
	pos := l.pos(x.Token)
	ft := fd.Declarator.Type().(*cc.FunctionType)
	in := &inlineCtx{name: name, params: map[*cc.Declarator]*variable{}, ptrs: map[*cc.Declarator]*variable{}}
	res := l.typeOf(ft.Result(), fd.Declarator)
	if res.k == kInt || res.k == kBool {
		in.result = l.temp(res)
	}
	var body []ast.Stmt
	as := args(x)
	params := ft.Parameters()
	body = l.capture(func() {
		for i, a := range as {
			if i >= len(params) {
				l.unsupported(x, "too many arguments for "+name)
			}
			d := params[i].Declarator
			pt := l.typeOf(params[i].Type(), x)
			if pt.k == kPtr && d != nil && (d.ReadCount() > 0 || d.WriteCount() > 0) {
				v := l.addressOf(a)
				if v == nil {
					l.unsupported(a, "passing to "+name+" a pointer that is not the address of a variable")
				}
				in.ptrs[d] = v
				continue
			}
			if pt.k == kPtr || d == nil {
				continue
			}
			v := l.newLocal(name+"#"+d.Name(), pt)
			in.params[d] = v
			l.store(v, nil, a, pos, fs.pre)
		}
	})
	if atomicFn && fs.atomic == 0 {
		// C evaluates the arguments before the call: outside its step.
		for _, s := range body {
			l.emit(s)
		}
		body = nil
	}
	fs.atomic++
	fs.inline = append(fs.inline, in)
	var items []*cc.BlockItem
	for list := fd.CompoundStatement.BlockItemList; list != nil; list = list.BlockItemList {
		items = append(items, list.BlockItem)
	}
	// The inlined body has no jumps: a return is lowered as the store of
	// its value, so it must end the body (the last statement, or the
	// last of a branch of an if that is).
	if r := nonTailReturn(items); r != nil {
		l.unsupported(r, "a return before the end of "+name+" (inlined into an atomic section)")
	}
	inner := l.capture(func() {
		for _, it := range items {
			l.item(it, fs.pre)
		}
	})
	// Locals of the inlined function are locals of the caller.
	body = append(body, inner...)
	fs.inline = fs.inline[:len(fs.inline)-1]
	fs.atomic--
	if fs.atomic == 0 && atomicFn {
		l.emit(&ast.AtomicStmt{Atomic: pos, Body: block(guardHalts(body))})
	} else {
		*fs.pre = append(*fs.pre, body...)
	}
	if in.result != nil {
		return ident(in.result.name, pos), res
	}
	return nil, ctype{k: kVoid}
}

// pthread lowers the pthread calls.
func (l *lowerer) pthread(name string, x *cc.PostfixExpression, as []cc.ExpressionNode, pos token.Pos) (ast.Expr, ctype) {
	zero := func() (ast.Expr, ctype) { return lit(0), tInt }
	switch name {
	case "pthread_create":
		l.create(x, as, pos)
		return zero()
	case "pthread_join":
		if v, ok := constValue(as[1]); !ok || v != 0 {
			l.unsupported(as[1], "pthread_join's result pointer")
		}
		id := l.value(as[0], l.idType())
		l.emit(&ast.AssertStmt{TokPos: pos, Tok: token.ASSUME, X: &ast.IndexExpr{X: ident(doneName, pos), Index: id}})
		return zero()
	case "pthread_exit":
		fs := l.fn
		if len(fs.inline) > 0 || fs.atomic > 0 || !(fs.info.thread || fs.isMain) {
			l.unsupported(x, "pthread_exit outside a thread's start function")
		}
		fs.info.exits = true
		if !pure(as[0]) {
			l.effect(as[0])
		}
		l.emit(&ast.ReturnStmt{Return: pos})
		return nil, ctype{k: kVoid}
	case "pthread_mutex_lock":
		m := l.mutex(as[0])
		body := []ast.Stmt{
			&ast.AssertStmt{TokPos: pos, Tok: token.ASSUME, X: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: ident(m, pos)}},
			assign(ident(m, pos), boolLit(true)),
		}
		l.atomicSteps(body, pos)
		return zero()
	case "pthread_mutex_unlock":
		l.emit(assign(ident(l.mutex(as[0]), pos), boolLit(false)))
		return zero()
	case "pthread_mutex_init":
		if v, ok := constValue(as[1]); !ok || v != 0 {
			l.unsupported(as[1], "mutex attributes")
		}
		l.emit(assign(ident(l.mutex(as[0]), pos), boolLit(false)))
		return zero()
	case "pthread_mutex_trylock":
		m := l.mutex(as[0])
		r := l.temp(tInt)
		body := []ast.Stmt{&ast.IfStmt{If: pos, Cond: ident(m, pos),
			Then: block([]ast.Stmt{assign(ident(r.name, pos), lit(16))}), // EBUSY
			Else: block([]ast.Stmt{assign(ident(m, pos), boolLit(true)), assign(ident(r.name, pos), lit(0))})}}
		l.atomicSteps(body, pos)
		return ident(r.name, pos), tInt
	case "pthread_cond_wait":
		// A wait may wake spuriously (POSIX), so unlock, then lock again
		// is all it does.
		if l.fn.atomic > 0 {
			l.unsupported(x, "pthread_cond_wait inside an atomic section")
		}
		m := l.mutex(as[1])
		l.emit(assign(ident(m, pos), boolLit(false)))
		l.atomicSteps([]ast.Stmt{
			&ast.AssertStmt{TokPos: pos, Tok: token.ASSUME, X: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: ident(m, pos)}},
			assign(ident(m, pos), boolLit(true)),
		}, pos)
		return zero()
	}
	l.unsupported(x, "the function "+name)
	return nil, ctype{}
}

// atomicSteps emits body as one step.
func (l *lowerer) atomicSteps(body []ast.Stmt, pos token.Pos) {
	if l.fn.atomic > 0 {
		for _, s := range body {
			l.emit(s)
		}
		return
	}
	l.emit(&ast.AtomicStmt{Atomic: pos, Body: block(body)})
}

// addressOf resolves &x to the scalar variable x, or a pointer parameter
// of an inlined function to the variable it is bound to; nil otherwise.
func (l *lowerer) addressOf(n cc.ExpressionNode) *variable {
	n = unparen(n)
	if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return l.boundPointer(p)
	}
	if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		if p, ok := unparen(u.CastExpression).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
			if v := l.variableOf(p); v.t.n == 0 && (v.t.k == kInt || v.t.k == kBool) {
				return v
			}
		}
	}
	return nil
}

// boundPointer is the variable a pointer parameter of an inlined function
// is bound to, or nil.
func (l *lowerer) boundPointer(p *cc.PrimaryExpression) *variable {
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok {
		return nil
	}
	for i := len(l.fn.inline) - 1; i >= 0; i-- {
		if v := l.fn.inline[i].ptrs[d]; v != nil {
			return v
		}
	}
	return nil
}

// deref resolves *p for a pointer parameter p of an inlined function.
func (l *lowerer) deref(n cc.ExpressionNode) *variable {
	if p, ok := unparen(n).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return l.boundPointer(p)
	}
	return nil
}

// mutex resolves &m to the global mutex m.
func (l *lowerer) mutex(n cc.ExpressionNode) string {
	n = unparen(n)
	if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		if p, ok := unparen(u.CastExpression).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
			if v := l.variableOf(p); v.global && v.t.k == kMutex && v.t.n == 0 {
				return v.name
			}
		}
	}
	l.unsupported(n, "a mutex that is not a global pthread_mutex_t named by &")
	return ""
}

// create lowers pthread_create(&t, attr, f, arg).
func (l *lowerer) create(x *cc.PostfixExpression, as []cc.ExpressionNode, pos token.Pos) {
	if len(as) != 4 {
		l.unsupported(x, "pthread_create with "+strconv.Itoa(len(as))+" arguments")
	}
	if v, ok := constValue(as[1]); !ok || v != 0 {
		l.unsupported(as[1], "thread attributes")
	}
	fn := unparen(as[2])
	if c, ok := fn.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast {
		fn = unparen(c.CastExpression)
	}
	if u, ok := fn.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		fn = unparen(u.CastExpression)
	}
	prim, ok := fn.(*cc.PrimaryExpression)
	if !ok || prim.Case != cc.PrimaryExpressionIdent || l.funcs[prim.Token.SrcStr()] == nil {
		l.unsupported(as[2], "a thread function that is not a function of the program named directly")
	}
	name := prim.Token.SrcStr()
	p := l.need(name)
	p.thread = true
	ft := p.def.Declarator.Type().(*cc.FunctionType)
	if ps := ft.Parameters(); len(ps) == 1 && ps[0].Declarator != nil {
		if d := ps[0].Declarator; used(p.def, d) {
			l.unsupported(as[3], "a thread argument that the thread uses")
		}
	}
	if !pure(as[3]) {
		l.effect(as[3])
	}
	if l.fn.atomic > 0 {
		l.unsupported(x, "pthread_create inside an atomic section")
	}
	if !l.joins {
		l.emit(&ast.StartStmt{Start: pos, Call: &ast.CallExpr{Fun: ident(name, pos)}})
		return
	}
	// With joins, the thread gets an id: t = #next, and its wrapper marks
	// it done when it returns.
	id := unparen(as[0])
	u, ok := id.(*cc.UnaryExpression)
	if !ok || u.Case != cc.UnaryExpressionAddrof {
		l.unsupported(as[0], "a thread id that is not &variable")
	}
	v, index := l.lvalue(u.CastExpression)
	if v.t.k != kInt {
		l.unsupported(as[0], "a thread id of type "+v.t.String())
	}
	// The id goes through a local of the thread, so that a thread
	// writing the pthread_t in between cannot change the id started.
	tmp := l.temp(l.idType())
	l.emit(&ast.AtomicStmt{Atomic: pos, Body: block([]ast.Stmt{
		assign(ident(tmp.name, pos), ident(nextName, pos)),
		assign(target(v, index, pos), l.conv(ident(tmp.name, pos), l.idType(), v.t.scalar(), x)),
		&ast.IfStmt{If: pos, Cond: &ast.BinaryExpr{X: ident(nextName, pos), Op: token.LSS, Y: lit(uint64(l.maxTid))},
			Then: block([]ast.Stmt{assign(ident(nextName, pos), &ast.BinaryExpr{X: ident(nextName, pos), Op: token.ADD, Y: lit(1)})})},
	})})
	w := l.wrapper(name, pos)
	l.emit(&ast.StartStmt{Start: pos, Call: &ast.CallExpr{Fun: ident(w, pos), Args: []ast.Expr{ident(tmp.name, pos)}}})
}

// wrapper is the procedure a joinable thread runs: the thread function,
// then the mark that it ended.
func (l *lowerer) wrapper(name string, pos token.Pos) string {
	w := name + "#thread"
	if l.wrappers[w] {
		return w
	}
	l.wrappers[w] = true
	l.decls = append(l.decls, &ast.ProcDecl{Proc: pos, Name: ident(w, pos),
		Params: []*ast.Param{{Type: typeExpr(l.idType()), Name: ident("id", pos)}},
		Body: block([]ast.Stmt{
			&ast.CallStmt{Call: &ast.CallExpr{Fun: ident(name, pos)}},
			assign(&ast.IndexExpr{X: ident(doneName, pos), Index: ident("id", pos)}, boolLit(true)),
		})})
	return w
}

// idType is the type of the thread ids the lowering hands out: wide
// enough for 0 .. maxTid, so that #done's index costs few bits (a
// pthread_t holds the id, converted).
func (l *lowerer) idType() ctype {
	w := 1
	for 1<<w <= l.maxTid {
		w++
	}
	return ctype{k: kInt, w: w}
}

// nonTailReturn is a return among items that does not end them (one
// after which more of the function would run), or nil.
func nonTailReturn(items []*cc.BlockItem) cc.Node {
	for i, it := range items {
		if i < len(items)-1 || it.Case != cc.BlockItemStmt {
			if r := firstReturn(it); r != nil {
				return r
			}
			continue
		}
		if r := nonTailReturnStmt(it.Statement); r != nil {
			return r
		}
	}
	return nil
}

// nonTailReturnStmt is nonTailReturn for the last statement.
func nonTailReturnStmt(s *cc.Statement) cc.Node {
	switch s.Case {
	case cc.StatementJump:
		return nil
	case cc.StatementCompound:
		var items []*cc.BlockItem
		for list := s.CompoundStatement.BlockItemList; list != nil; list = list.BlockItemList {
			items = append(items, list.BlockItem)
		}
		return nonTailReturn(items)
	case cc.StatementSelection:
		ss := s.SelectionStatement
		if ss.Case == cc.SelectionStatementIf || ss.Case == cc.SelectionStatementIfElse {
			if r := nonTailReturnStmt(ss.Statement); r != nil {
				return r
			}
			if ss.Statement2 != nil {
				return nonTailReturnStmt(ss.Statement2)
			}
			return nil
		}
	case cc.StatementLabeled:
		return nonTailReturnStmt(s.LabeledStatement.Statement)
	}
	return firstReturn(s)
}

// firstReturn is the first return statement in n, or nil.
func firstReturn(n cc.Node) cc.Node {
	var r cc.Node
	walk(n, func(m cc.Node) {
		if j, ok := m.(*cc.JumpStatement); ok && j.Case == cc.JumpStatementReturn && r == nil {
			r = j
		}
	})
	return r
}
