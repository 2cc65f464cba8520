package c

import (
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"modernc.org/cc/v4"
)

// emit appends a step of the current statement.
func (l *lowerer) emit(s ast.Stmt) { *l.fn.pre = append(*l.fn.pre, s) }

// capture lowers f with its steps collected apart; it returns them.
func (l *lowerer) capture(f func()) []ast.Stmt {
	fs := l.fn
	old := fs.pre
	var list []ast.Stmt
	fs.pre = &list
	f()
	fs.pre = old
	return list
}

// effect lowers an expression evaluated for its side effects.
func (l *lowerer) effect(n cc.ExpressionNode) {
	switch x := n.(type) {
	case *cc.ExpressionList:
		for e := x; e != nil; e = e.ExpressionList {
			l.effect(e.AssignmentExpression)
		}
		return
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			l.assignment(x)
			return
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionCall:
			l.call(x, true)
			return
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			l.incDec(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, x.Token)
			return
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			l.incDec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, x.Token)
			return
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && x.Type().Kind() == cc.Void {
			l.effect(x.CastExpression)
			return
		}
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			l.effect(x.ExpressionList)
			return
		case cc.PrimaryExpressionStmt:
			// A statement expression, as glibc's assert expands to: its
			// statements in order (its value is not used).
			if l.fn.split {
				l.fn.split = false // each statement decides its own steps
			}
			l.compound(x.CompoundStatement, l.fn.pre)
			return
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond && x.Type().Kind() == cc.Void {
			// c ? (void)0 : __assert_fail(...), as assert expands to.
			pos := l.pos(x.Token)
			c := l.cond(x.LogicalOrExpression)
			then := l.capture(func() { l.effect(x.ExpressionList) })
			els := l.capture(func() { l.effect(x.ConditionalExpression) })
			l.emit(&ast.IfStmt{If: pos, Cond: c, Then: block(then), Else: block(els)})
			return
		}
	}
	// Anything else: evaluate it (its reads may matter for nothing, but
	// its calls and assignments do).
	if pure(n) {
		return
	}
	l.expr(n)
}

// pure reports whether n has no side effects (no call, assignment,
// increment).
func pure(n cc.Node) bool {
	for _, t := range cc.NodeTokens(n) {
		switch t.SrcStr() {
		case "(", "=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
			return false
		}
	}
	return true
}

// cond lowers a controlling expression to a bool.
func (l *lowerer) cond(n cc.ExpressionNode) ast.Expr {
	e, t := l.expr(n)
	return l.toBool(e, t)
}

func (l *lowerer) toBool(e ast.Expr, t ctype) ast.Expr {
	switch t.k {
	case kBool:
		return e
	case kInt:
		return &ast.BinaryExpr{X: e, OpPos: e.Pos(), Op: token.NEQ, Y: lit(0)}
	}
	l.unsupported(nil, "a condition of type "+t.String())
	return nil
}

// value lowers n converted to t.
func (l *lowerer) value(n cc.ExpressionNode, t ctype) ast.Expr {
	if v, ok := constValue(n); ok {
		return constExpr(v, t)
	}
	e, from := l.expr(n)
	return l.conv(e, from, t, n)
}

// conv converts e from one scalar type to another as C does.
func (l *lowerer) conv(e ast.Expr, from, to ctype, n cc.Node) ast.Expr {
	from, to = from.scalar(), to.scalar()
	switch {
	case to.k == kBool:
		return l.toBool(e, from)
	case to.k != kInt || (from.k != kInt && from.k != kBool):
		l.unsupported(n, "a conversion from "+from.String()+" to "+to.String())
	case from.k == kBool:
		return &ast.ConvExpr{X: e, Width: to.w}
	case from.w == to.w:
		return e
	}
	if b, ok := e.(*ast.BasicLit); ok && b.Kind == tokNUMBER {
		// A literal has no width of its own in the tree, so the
		// conversion cannot extend its sign: convert it here.
		if v, err := strconv.ParseUint(b.Value, 10, 64); err == nil {
			if from.signed && from.w < 64 && v&(1<<uint(from.w-1)) != 0 {
				v |= ^uint64(0) << uint(from.w)
			}
			return constExpr(v, to)
		}
	}
	return &ast.ConvExpr{X: e, Width: to.w, Signed: from.signed}
}

// read is the use of variable v (of element index of an array): in a
// statement that is split, a shared read is a step of its own into a
// local.
func (l *lowerer) read(v *variable, index ast.Expr, pos token.Pos) ast.Expr {
	var e ast.Expr = ident(v.name, pos)
	if index != nil {
		e = &ast.IndexExpr{X: ident(v.name, pos), Index: index}
	}
	if v.global && l.fn.split && l.fn.atomic == 0 {
		t := l.temp(v.t)
		l.emit(assign(ident(t.name, pos), e))
		return ident(t.name, pos)
	}
	return e
}

// variable resolves an identifier to the variable it names.
func (l *lowerer) variableOf(p *cc.PrimaryExpression) *variable {
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok {
		l.unsupported(p, "the name "+p.Token.SrcStr())
	}
	for i := len(l.fn.inline) - 1; i >= 0; i-- {
		if v := l.fn.inline[i].params[d]; v != nil {
			return v
		}
	}
	if v := l.fn.locals[d]; v != nil {
		return v
	}
	if v := l.globals[d.Name()]; v != nil && d.StorageDuration() == cc.Static {
		return v
	}
	l.unsupported(p, "the object "+d.Name())
	return nil
}

// lvalue resolves an assignable expression: a variable or an element.
func (l *lowerer) lvalue(n cc.ExpressionNode) (*variable, ast.Expr) {
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			v := l.variableOf(x)
			if v.t.n > 0 {
				l.unsupported(x, "an assignment to a whole array")
			}
			return v, nil
		case cc.PrimaryExpressionExpr:
			return l.lvalue(x.ExpressionList)
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return l.lvalue(x.AssignmentExpression)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			if v := l.deref(x.CastExpression); v != nil {
				return v, nil
			}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return l.lvalue(x.UnaryExpression)
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionIndex {
			prim, ok := x.PostfixExpression.(*cc.PrimaryExpression)
			if ok && prim.Case == cc.PrimaryExpressionIdent {
				v := l.variableOf(prim)
				if v.t.n > 0 {
					return v, l.index(x.ExpressionList)
				}
			}
		}
	}
	l.unsupported(n, "an assignment to this expression")
	return nil, nil
}

// index lowers an array index.
func (l *lowerer) index(n cc.ExpressionNode) ast.Expr {
	e, t := l.expr(n)
	if t.k == kBool {
		return &ast.ConvExpr{X: e, Width: 1}
	}
	return e
}

// assignment lowers x = e and x op= e.
func (l *lowerer) assignment(x *cc.AssignmentExpression) (*variable, ast.Expr) {
	v, index := l.lvalue(x.UnaryExpression)
	pos := l.pos(x.Token)
	if x.Case == cc.AssignmentExpressionAssign {
		l.store(v, index, x.AssignmentExpression, pos, l.fn.pre)
		return v, index
	}
	op := map[cc.AssignmentExpressionCase]token.Token{
		cc.AssignmentExpressionMul: token.MUL, cc.AssignmentExpressionDiv: token.QUO, cc.AssignmentExpressionMod: token.REM,
		cc.AssignmentExpressionAdd: token.ADD, cc.AssignmentExpressionSub: token.SUB, cc.AssignmentExpressionLsh: token.SHL,
		cc.AssignmentExpressionRsh: token.SHR, cc.AssignmentExpressionAnd: token.AND, cc.AssignmentExpressionXor: token.XOR,
		cc.AssignmentExpressionOr: token.OR,
	}[x.Case]
	cur := l.read(v, index, pos)
	lt := v.t.scalar()
	// The operation's type: the usual conversions of both sides (for a
	// shift, the promoted left side).
	var ot ctype
	if op == token.SHL || op == token.SHR {
		ot = l.typeOf(cc.IntegerPromotion(x.UnaryExpression.Type()), x)
	} else {
		ot = l.typeOf(cc.UsualArithmeticConversions(x.UnaryExpression.Type(), x.AssignmentExpression.Type()), x)
	}
	re, rt2 := l.expr(x.AssignmentExpression)
	var y ast.Expr
	if op == token.SHL || op == token.SHR {
		y = l.conv(re, rt2, l.typeOf(cc.IntegerPromotion(x.AssignmentExpression.Type()), x), x)
	} else {
		y = l.conv(re, rt2, ot, x)
	}
	res := l.binary(op, l.conv(cur, lt, ot, x), y, ot, pos)
	l.emit(assign(target(v, index, pos), l.conv(res, ot, lt, x)))
	return v, index
}

func target(v *variable, index ast.Expr, pos token.Pos) ast.Expr {
	if index != nil {
		return &ast.IndexExpr{X: ident(v.name, pos), Index: index}
	}
	return ident(v.name, pos)
}

// binary builds X op Y of type t (the signed forms for a signed t).
func (l *lowerer) binary(op token.Token, x, y ast.Expr, t ctype, pos token.Pos) ast.Expr {
	b := &ast.BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
	switch op {
	case token.QUO, token.REM, token.SHR, token.LSS, token.LEQ, token.GTR, token.GEQ:
		b.Signed = t.signed
	}
	return b
}

// store lowers v[index] = rhs.
func (l *lowerer) store(v *variable, index ast.Expr, rhs cc.ExpressionNode, pos token.Pos, out *[]ast.Stmt) {
	fs := l.fn
	old := fs.pre
	fs.pre = out
	defer func() { fs.pre = old }()
	t := v.t.scalar()
	if t.k == kMutex {
		l.unsupported(rhs, "an assignment to a mutex")
	}
	// x = nondet() and x = f(...) assign directly when the types agree.
	if pe, ok := unparen(rhs).(*cc.PostfixExpression); ok && pe.Case == cc.PostfixExpressionCall {
		name := callName(pe)
		if strings.HasPrefix(name, "__VERIFIER_nondet_") && l.funcs[name] == nil {
			rt := l.typeOf(pe.Type(), pe)
			if rt == t {
				l.emit(assign(target(v, index, pos), &ast.Wildcard{Quest: pos}))
				return
			}
		}
	}
	e := l.value(rhs, t)
	l.emit(assign(target(v, index, pos), e))
}

func unparen(n cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				n = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
		}
		return n
	}
}

// incDec lowers x++, x--, ++x, --x; it returns the variable.
func (l *lowerer) incDec(n cc.ExpressionNode, inc bool, tok cc.Token) (*variable, ast.Expr) {
	v, index := l.lvalue(n)
	pos := l.pos(tok)
	t := v.t.scalar()
	if t.k != kInt {
		l.unsupported(n, "++ or -- on "+t.String())
	}
	op := token.ADD
	if !inc {
		op = token.SUB
	}
	cur := l.read(v, index, pos)
	l.emit(assign(target(v, index, pos), &ast.BinaryExpr{X: cur, OpPos: pos, Op: op, Y: lit(1)}))
	return v, index
}

// expr lowers an expression to a value without side effects, its steps
// emitted before; it returns the value's type.
func (l *lowerer) expr(n cc.ExpressionNode) (ast.Expr, ctype) {
	if v, ok := constValue(n); ok {
		t := l.typeOf(n.Type(), n)
		return constExpr(v, t), t
	}
	switch x := n.(type) {
	case *cc.ExpressionList:
		for ; x.ExpressionList != nil; x = x.ExpressionList {
			l.effect(x.AssignmentExpression)
		}
		return l.expr(x.AssignmentExpression)
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			v := l.variableOf(x)
			if v.t.n > 0 || v.t.k == kMutex {
				l.unsupported(x, "the value of "+x.Token.SrcStr())
			}
			return l.read(v, nil, l.pos(x.Token)), v.t
		case cc.PrimaryExpressionExpr:
			e, t := l.expr(x.ExpressionList)
			return &ast.ParenExpr{X: e}, t
		}
		l.unsupported(x, "this kind of expression ("+x.Case.String()+")")
	case *cc.PostfixExpression:
		return l.postfix(x)
	case *cc.UnaryExpression:
		return l.unary(x)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return l.expr(x.UnaryExpression)
		}
		to := l.typeOf(x.Type(), x)
		if to.k == kVoid {
			l.effect(x.CastExpression)
			return nil, to
		}
		e, from := l.expr(x.CastExpression)
		return &ast.ParenExpr{X: l.conv(e, from, to, x)}, to
	case *cc.MultiplicativeExpression:
		op := map[cc.MultiplicativeExpressionCase]token.Token{cc.MultiplicativeExpressionMul: token.MUL,
			cc.MultiplicativeExpressionDiv: token.QUO, cc.MultiplicativeExpressionMod: token.REM}[x.Case]
		return l.arith(op, x.MultiplicativeExpression, x.CastExpression, x, x.Token)
	case *cc.AdditiveExpression:
		op := token.ADD
		if x.Case == cc.AdditiveExpressionSub {
			op = token.SUB
		}
		return l.arith(op, x.AdditiveExpression, x.MultiplicativeExpression, x, x.Token)
	case *cc.ShiftExpression:
		op := token.SHL
		if x.Case == cc.ShiftExpressionRsh {
			op = token.SHR
		}
		t := l.typeOf(x.Type(), x)
		a, at := l.expr(x.ShiftExpression)
		b, bt := l.expr(x.AdditiveExpression)
		pt := l.typeOf(cc.IntegerPromotion(x.AdditiveExpression.Type()), x)
		return l.binary(op, l.conv(a, at, t, x), l.conv(b, bt, pt, x), t, l.pos(x.Token)), t
	case *cc.AndExpression:
		return l.arith(token.AND, x.AndExpression, x.EqualityExpression, x, x.Token)
	case *cc.ExclusiveOrExpression:
		return l.arith(token.XOR, x.ExclusiveOrExpression, x.AndExpression, x, x.Token)
	case *cc.InclusiveOrExpression:
		return l.arith(token.OR, x.InclusiveOrExpression, x.ExclusiveOrExpression, x, x.Token)
	case *cc.RelationalExpression:
		op := map[cc.RelationalExpressionCase]token.Token{cc.RelationalExpressionLt: token.LSS, cc.RelationalExpressionGt: token.GTR,
			cc.RelationalExpressionLeq: token.LEQ, cc.RelationalExpressionGeq: token.GEQ}[x.Case]
		return l.compare(op, x.RelationalExpression, x.ShiftExpression, x, x.Token)
	case *cc.EqualityExpression:
		op := token.EQL
		if x.Case == cc.EqualityExpressionNeq {
			op = token.NEQ
		}
		return l.compare(op, x.EqualityExpression, x.RelationalExpression, x, x.Token)
	case *cc.LogicalAndExpression:
		return l.logical(token.LAND, x.LogicalAndExpression, x.InclusiveOrExpression, x.Token)
	case *cc.LogicalOrExpression:
		return l.logical(token.LOR, x.LogicalOrExpression, x.LogicalAndExpression, x.Token)
	case *cc.ConditionalExpression:
		return l.conditional(x)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return l.expr(x.ConditionalExpression)
		}
		v, index := l.assignment(x)
		return l.readBack(v, index, l.pos(x.Token))
	}
	l.unsupported(n, "this kind of expression")
	return nil, ctype{}
}

// readBack is the value just stored in v[index], as the value of an
// assignment expression.
func (l *lowerer) readBack(v *variable, index ast.Expr, pos token.Pos) (ast.Expr, ctype) {
	if v.global && l.fn.atomic == 0 {
		// Reading it again would be another access: keep a copy.
		l.unsupported(nil, "the value of an assignment to a shared variable")
	}
	return target(v, index, pos), v.t.scalar()
}

// arith lowers X op Y in the type of n (the usual arithmetic conversions).
func (l *lowerer) arith(op token.Token, xn, yn cc.ExpressionNode, n cc.ExpressionNode, tok cc.Token) (ast.Expr, ctype) {
	t := l.typeOf(n.Type(), n)
	if t.k != kInt {
		l.unsupported(n, "arithmetic on "+t.String())
	}
	a, at := l.expr(xn)
	b, bt := l.expr(yn)
	return l.binary(op, l.conv(a, at, t, n), l.conv(b, bt, t, n), t, l.pos(tok)), t
}

// compare lowers a comparison in the operands' common type.
func (l *lowerer) compare(op token.Token, xn, yn cc.ExpressionNode, n cc.ExpressionNode, tok cc.Token) (ast.Expr, ctype) {
	xt, yt := xn.Type(), yn.Type()
	if xt.Kind() == cc.Ptr || yt.Kind() == cc.Ptr {
		l.unsupported(n, "a comparison of pointers")
	}
	t := l.typeOf(cc.UsualArithmeticConversions(xt, yt), n)
	a, at := l.expr(xn)
	b, bt := l.expr(yn)
	if at.k == kBool && bt.k == kBool && (op == token.EQL || op == token.NEQ) {
		return &ast.BinaryExpr{X: a, OpPos: l.pos(tok), Op: op, Y: b}, tBool
	}
	return l.binary(op, l.conv(a, at, t, n), l.conv(b, bt, t, n), t, l.pos(tok)), tBool
}

// logical lowers && and ||: when the right side has steps of its own,
// they run only when the left side does not decide.
func (l *lowerer) logical(op token.Token, xn, yn cc.ExpressionNode, tok cc.Token) (ast.Expr, ctype) {
	pos := l.pos(tok)
	a := l.cond(xn)
	var b ast.Expr
	steps := l.capture(func() { b = l.cond(yn) })
	if len(steps) == 0 {
		return &ast.BinaryExpr{X: a, OpPos: pos, Op: op, Y: b}, tBool
	}
	r := l.temp(tBool)
	l.emit(assign(ident(r.name, pos), a))
	test := ast.Expr(ident(r.name, pos))
	if op == token.LOR {
		test = &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: test}
	}
	steps = append(steps, assign(ident(r.name, pos), b))
	l.emit(&ast.IfStmt{If: pos, Cond: test, Then: block(steps)})
	return ident(r.name, pos), tBool
}

// conditional lowers c ? a : b.
func (l *lowerer) conditional(x *cc.ConditionalExpression) (ast.Expr, ctype) {
	pos := l.pos(x.Token)
	t := l.typeOf(x.Type(), x)
	if t.k != kInt && t.k != kBool {
		l.unsupported(x, "a conditional expression of type "+t.String())
	}
	c := l.cond(x.LogicalOrExpression)
	var a, b ast.Expr
	as := l.capture(func() { a = l.value(x.ExpressionList, t) })
	bs := l.capture(func() { b = l.value(x.ConditionalExpression, t) })
	if len(as) == 0 && len(bs) == 0 {
		if t.k == kBool {
			// (c && a) || (!c && b): both sides are without effects.
			notC := &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: &ast.ParenExpr{X: c}}
			return &ast.ParenExpr{X: &ast.BinaryExpr{
				X:  &ast.ParenExpr{X: &ast.BinaryExpr{X: &ast.ParenExpr{X: c}, OpPos: pos, Op: token.LAND, Y: &ast.ParenExpr{X: a}}},
				Op: token.LOR, OpPos: pos,
				Y: &ast.ParenExpr{X: &ast.BinaryExpr{X: notC, OpPos: pos, Op: token.LAND, Y: &ast.ParenExpr{X: b}}}}}, t
		}
		// A constant branch gets the type's width.
		if _, ok := a.(*ast.BasicLit); ok {
			a = &ast.ConvExpr{X: a, Width: t.w}
		}
		if _, ok := b.(*ast.BasicLit); ok {
			b = &ast.ConvExpr{X: b, Width: t.w}
		}
		return &ast.ParenExpr{X: &ast.CondExpr{Cond: c, Then: a, Else: b}}, t
	}
	r := l.temp(t)
	as = append(as, assign(ident(r.name, pos), a))
	bs = append(bs, assign(ident(r.name, pos), b))
	l.emit(&ast.IfStmt{If: pos, Cond: c, Then: block(as), Else: block(bs)})
	return ident(r.name, pos), t
}

// postfix lowers a[i], calls, x++ and x--.
func (l *lowerer) postfix(x *cc.PostfixExpression) (ast.Expr, ctype) {
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		return l.expr(x.PrimaryExpression)
	case cc.PostfixExpressionIndex:
		prim, ok := x.PostfixExpression.(*cc.PrimaryExpression)
		if !ok || prim.Case != cc.PrimaryExpressionIdent {
			l.unsupported(x, "indexing this expression")
		}
		v := l.variableOf(prim)
		if v.t.n == 0 {
			l.unsupported(x, "indexing through a pointer")
		}
		return l.read(v, l.index(x.ExpressionList), l.pos(prim.Token)), v.t.scalar()
	case cc.PostfixExpressionCall:
		e, t := l.call(x, false)
		return e, t
	case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
		v, index := l.lvalue(x.PostfixExpression)
		pos := l.pos(x.Token)
		t := v.t.scalar()
		old := l.temp(t)
		l.emit(assign(ident(old.name, pos), target(v, index, pos)))
		op := token.ADD
		if x.Case == cc.PostfixExpressionDec {
			op = token.SUB
		}
		if v.global && l.fn.atomic == 0 {
			l.fn.split = true
		}
		l.emit(assign(target(v, index, pos), &ast.BinaryExpr{X: ident(old.name, pos), OpPos: pos, Op: op, Y: lit(1)}))
		return ident(old.name, pos), t
	}
	l.unsupported(x, "structs, unions and pointers ("+x.Case.String()+")")
	return nil, ctype{}
}

// unary lowers the unary operators.
func (l *lowerer) unary(x *cc.UnaryExpression) (ast.Expr, ctype) {
	pos := l.pos(x.Token)
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return l.expr(x.PostfixExpression)
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		v, index := l.incDec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, x.Token)
		return l.readBack(v, index, pos)
	case cc.UnaryExpressionPlus, cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
		t := l.typeOf(x.Type(), x)
		e, et := l.expr(x.CastExpression)
		e = l.conv(e, et, t, x)
		switch x.Case {
		case cc.UnaryExpressionMinus:
			return &ast.UnaryExpr{OpPos: pos, Op: token.SUB, X: e}, t
		case cc.UnaryExpressionCpl:
			return &ast.UnaryExpr{OpPos: pos, Op: token.TILDE, X: e}, t
		}
		return e, t
	case cc.UnaryExpressionNot:
		c := l.cond(x.CastExpression)
		return &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: &ast.ParenExpr{X: c}}, tBool
	case cc.UnaryExpressionAddrof:
		l.unsupported(x, "taking an address (outside the pthread calls)")
	case cc.UnaryExpressionDeref:
		if v := l.deref(x.CastExpression); v != nil {
			return l.read(v, nil, pos), v.t
		}
		l.unsupported(x, "following a pointer")
	}
	l.unsupported(x, "this operator ("+x.Case.String()+")")
	return nil, ctype{}
}
