package types

import (
	"fmt"
	"go/constant"
	gotoken "go/token"
	"math/big"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
)

type mode int

const (
	invalid   mode = iota
	constant_      // a constant with a value
	value          // a variable value
)

// operand is the result of checking an expression.
type operand struct {
	mode mode
	typ  Type
	val  constant.Value
	expr ast.Expr
}

func (c *checker) record(x *operand) {
	if x.mode == invalid {
		return
	}
	tv := TypeAndValue{Type: x.typ}
	if x.mode == constant_ {
		tv.Value = x.val
	}
	c.info.Types[x.expr] = tv
}

var bad = operand{mode: invalid, typ: Typ[Invalid]}

// wildcardMsg explains where ? may appear.
const wildcardMsg = "? is only allowed as a whole condition of if or while, or as the whole right-hand side of an assignment or initializer"

// expr checks an expression used as a value.
func (c *checker) expr(e ast.Expr) operand {
	x := c.expr0(e)
	x.expr = e
	c.record(&x)
	return x
}

func (c *checker) expr0(e ast.Expr) operand {
	switch e := e.(type) {
	case *ast.BadExpr:
		return bad
	case *ast.Ident:
		return c.ident(e)
	case *ast.BasicLit:
		switch e.Kind {
		case token.TRUE:
			return operand{mode: constant_, typ: Typ[UntypedBool], val: constant.MakeBool(true)}
		case token.FALSE:
			return operand{mode: constant_, typ: Typ[UntypedBool], val: constant.MakeBool(false)}
		}
		v, ok := parseInt(e.Value)
		if !ok {
			return bad // the scanner reported it
		}
		return operand{mode: constant_, typ: Typ[UntypedInt], val: v}
	case *ast.Wildcard:
		c.errorf(e.Pos(), "%s", wildcardMsg)
		return bad
	case *ast.ParenExpr:
		return c.expr(e.X)
	case *ast.IndexExpr:
		return c.index(e)
	case *ast.CallExpr:
		c.call(e)
		c.errorf(e.Pos(), "a call of %s is not allowed inside an expression: a call can only be a statement or the whole right-hand side of an assignment or initializer", e.Fun.Name)
		return bad
	case *ast.UnaryExpr:
		return c.unary(e)
	case *ast.BinaryExpr:
		return c.binary(e)
	case *ast.ConvExpr:
		return c.conversion(e)
	case *ast.CondExpr:
		return c.conditional(e)
	}
	return bad
}

func parseInt(lit string) (constant.Value, bool) {
	z := new(big.Int)
	var ok bool
	if strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X") {
		_, ok = z.SetString(lit[2:], 16)
	} else {
		_, ok = z.SetString(lit, 10)
	}
	if !ok {
		return nil, false
	}
	return constant.Make(z), true
}

func (c *checker) ident(e *ast.Ident) operand {
	obj := c.scope.lookup(e.Name)
	if obj == nil {
		c.errorf(e.Pos(), "undefined: %s", e.Name)
		return bad
	}
	c.info.Uses[e] = obj
	switch obj := obj.(type) {
	case *Var:
		if c.inConst > 0 {
			c.errorf(e.Pos(), "%s is a variable and cannot be part of a constant expression", e.Name)
			return bad
		}
		if isInvalid(obj.typ) {
			return bad
		}
		if _, ok := obj.typ.(*Array); ok {
			c.errorf(e.Pos(), "array %s is used without an index", e.Name)
			return bad
		}
		return operand{mode: value, typ: obj.typ}
	case *Const:
		if obj.Decl != nil {
			c.resolveConst(obj)
		}
		if isInvalid(obj.typ) || obj.Val == nil {
			return bad
		}
		return operand{mode: constant_, typ: obj.typ, val: obj.Val}
	case *TypeName:
		c.errorf(e.Pos(), "%s is a type, not a value", e.Name)
	case *Proc:
		c.errorf(e.Pos(), "%s is a procedure, not a value", e.Name)
	}
	return bad
}

// arrayVar resolves the array of an index expression or lvalue.
func (c *checker) arrayVar(id *ast.Ident) (*Var, *Array) {
	obj := c.scope.lookup(id.Name)
	if obj == nil {
		c.errorf(id.Pos(), "undefined: %s", id.Name)
		return nil, nil
	}
	c.info.Uses[id] = obj
	v, ok := obj.(*Var)
	if !ok {
		c.errorf(id.Pos(), "%s is not an array", id.Name)
		return nil, nil
	}
	if isInvalid(v.typ) {
		return nil, nil
	}
	a, ok := v.typ.(*Array)
	if !ok {
		c.errorf(id.Pos(), "%s is not an array (it has type %s)", id.Name, v.typ)
		return nil, nil
	}
	return v, a
}

func (c *checker) index(e *ast.IndexExpr) operand {
	_, a := c.arrayVar(e.X)
	ok := c.indexValue(e.Index)
	if a == nil || !ok {
		return bad
	}
	return operand{mode: value, typ: a.Elem}
}

// indexValue checks an index: an integer, not a negative constant.
func (c *checker) indexValue(e ast.Expr) bool {
	x := c.expr(e)
	if x.mode == invalid {
		return false
	}
	if !isInt(x.typ) {
		c.errorf(e.Pos(), "index %s must be an integer, not %s", ExprString(e), x.typ)
		return false
	}
	if x.mode == constant_ && constant.Sign(x.val) < 0 {
		c.errorf(e.Pos(), "index %s is negative", x.val)
		return false
	}
	return true
}

func (c *checker) unary(e *ast.UnaryExpr) operand {
	x := c.expr(e.X)
	if x.mode == invalid {
		return bad
	}
	switch e.Op {
	case token.NOT:
		if !isBool(x.typ) {
			c.errorf(e.Pos(), "operator ! needs a bool operand, not %s", x.typ)
			return bad
		}
		if x.mode == constant_ {
			return operand{mode: constant_, typ: x.typ, val: constant.UnaryOp(gotoken.NOT, x.val, 0)}
		}
		return operand{mode: value, typ: Typ[Bool]}
	case token.SUB, token.TILDE:
		if !isInt(x.typ) {
			c.errorf(e.Pos(), "operator %s needs an integer operand, not %s", e.Op, x.typ)
			return bad
		}
		if x.mode == constant_ {
			gop := gotoken.SUB
			if e.Op == token.TILDE {
				gop = gotoken.XOR
			}
			v := constant.UnaryOp(gop, x.val, 0) // exact: ~v is -v-1
			if isUntyped(x.typ) {
				return operand{mode: constant_, typ: Typ[UntypedInt], val: v}
			}
			return operand{mode: constant_, typ: x.typ, val: wrap(v, x.typ.Bits())}
		}
		return operand{mode: value, typ: x.typ}
	}
	c.errorf(e.Pos(), "unknown operator %s", e.Op)
	return bad
}

var goOps = map[token.Token]gotoken.Token{
	token.ADD: gotoken.ADD, token.SUB: gotoken.SUB, token.MUL: gotoken.MUL,
	token.QUO: gotoken.QUO_ASSIGN, // integer division
	token.REM: gotoken.REM, token.AND: gotoken.AND, token.OR: gotoken.OR, token.XOR: gotoken.XOR,
	token.LAND: gotoken.LAND, token.LOR: gotoken.LOR,
	token.EQL: gotoken.EQL, token.NEQ: gotoken.NEQ,
	token.LSS: gotoken.LSS, token.LEQ: gotoken.LEQ, token.GTR: gotoken.GTR, token.GEQ: gotoken.GEQ,
}

// opString spells an operator in messages, with the suffix s of a
// signed one (the spelling of parser.COperators).
func opString(op token.Token, signed bool) string {
	if signed && isSignedOp(op) {
		return op.String() + "s"
	}
	return op.String()
}

// isSignedOp reports whether BinaryExpr.Signed changes op.
func isSignedOp(op token.Token) bool {
	switch op {
	case token.QUO, token.REM, token.SHR, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func (c *checker) binary(e *ast.BinaryExpr) operand {
	x := c.expr(e.X)
	y := c.expr(e.Y)
	if x.mode == invalid || y.mode == invalid {
		return bad
	}
	op := e.Op
	both := x.mode == constant_ && y.mode == constant_
	untyped := both && isUntyped(x.typ) && isUntyped(y.typ)
	switch op {
	case token.LAND, token.LOR:
		if !isBool(x.typ) || !isBool(y.typ) {
			c.errorf(e.OpPos, "operator %s needs bool operands, not %s and %s", op, x.typ, y.typ)
			return bad
		}
		if both {
			return operand{mode: constant_, typ: Typ[UntypedBool], val: constant.BinaryOp(x.val, goOps[op], y.val)}
		}
		return operand{mode: value, typ: Typ[Bool]}

	case token.EQL, token.NEQ:
		switch {
		case isBool(x.typ) && isBool(y.typ):
		case isInt(x.typ) && isInt(y.typ):
			if !c.unify(&x, &y) {
				return bad
			}
		default:
			ex, xe := x.typ.(*Enum)
			ey, ye := y.typ.(*Enum)
			if !xe || !ye || ex != ey {
				c.errorf(e.OpPos, "invalid comparison %s: mismatched types %s and %s", ExprString(e), x.typ, y.typ)
				return bad
			}
		}
		if both {
			return operand{mode: constant_, typ: Typ[UntypedBool], val: constant.MakeBool(constant.Compare(x.val, goOps[op], y.val))}
		}
		return operand{mode: value, typ: Typ[Bool]}

	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if !isInt(x.typ) || !isInt(y.typ) {
			c.errorf(e.OpPos, "operator %s needs integer operands, not %s and %s", opString(op, e.Signed), x.typ, y.typ)
			return bad
		}
		if !c.unify(&x, &y) {
			return bad
		}
		if both {
			xv, yv := x.val, y.val
			if e.Signed {
				xv, yv = signedVal(xv, x.typ.Bits()), signedVal(yv, y.typ.Bits())
			}
			return operand{mode: constant_, typ: Typ[UntypedBool], val: constant.MakeBool(constant.Compare(xv, goOps[op], yv))}
		}
		return operand{mode: value, typ: Typ[Bool]}

	case token.AND, token.OR, token.XOR:
		if isBool(x.typ) && isBool(y.typ) {
			if both {
				a, b := constant.BoolVal(x.val), constant.BoolVal(y.val)
				v := map[token.Token]bool{token.AND: a && b, token.OR: a || b, token.XOR: a != b}[op]
				t := Typ[Bool]
				if untyped {
					t = Typ[UntypedBool]
				}
				return operand{mode: constant_, typ: t, val: constant.MakeBool(v)}
			}
			return operand{mode: value, typ: Typ[Bool]}
		}
		fallthrough
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
		if !isInt(x.typ) || !isInt(y.typ) {
			what := "integer operands"
			if op == token.AND || op == token.OR || op == token.XOR {
				what = "two integers or two bools"
			}
			c.errorf(e.OpPos, "operator %s needs %s, not %s and %s", opString(op, e.Signed), what, x.typ, y.typ)
			return bad
		}
		if untyped {
			// Constants without a width are computed exactly, as in the
			// .pds language.
			if (op == token.QUO || op == token.REM) && constant.Sign(y.val) == 0 {
				c.errorf(e.OpPos, "division by zero in constant expression %s", ExprString(e))
				return bad
			}
			return operand{mode: constant_, typ: Typ[UntypedInt], val: constant.BinaryOp(x.val, goOps[op], y.val)}
		}
		if !c.unify(&x, &y) {
			return bad
		}
		if op != token.ADD && op != token.SUB && op != token.MUL && x.typ != y.typ {
			c.errorf(e.OpPos, "operator %s needs operands of one width, not %s and %s", opString(op, e.Signed), x.typ, y.typ)
			return bad
		}
		return c.foldInt(e, x, y, IntType(max(x.typ.Bits(), y.typ.Bits())))

	case token.SHL, token.SHR:
		if !isInt(x.typ) || !isInt(y.typ) {
			c.errorf(e.OpPos, "operator %s needs integer operands, not %s and %s", opString(op, e.Signed), x.typ, y.typ)
			return bad
		}
		if y.mode == constant_ && constant.Sign(y.val) < 0 {
			c.errorf(e.Y.Pos(), "negative shift count %s", y.val)
			return bad
		}
		if isUntyped(x.typ) {
			if y.mode != constant_ {
				c.errorf(e.X.Pos(), "the shifted constant %s has no width: convert it to an int type", ExprString(e.X))
				return bad
			}
			n, ok := constant.Uint64Val(y.val)
			if !ok || op == token.SHL && n > maxConstShift {
				c.errorf(e.Y.Pos(), "constant shift count %s is too large", y.val)
				return bad
			}
			gop := gotoken.SHL
			if op == token.SHR {
				gop = gotoken.SHR // on an exact value: floor(x / 2^n)
			}
			return operand{mode: constant_, typ: Typ[UntypedInt], val: constant.Shift(x.val, gop, uint(min(n, maxConstShift)))}
		}
		if isUntyped(y.typ) {
			// The count keeps its value; it gets the narrowest type that
			// holds it.
			if constant.BitLen(y.val) > MaxWidth {
				c.errorf(e.Y.Pos(), "constant shift count %s is too large", y.val)
				return bad
			}
			if !c.convert(&y, IntType(max(1, constant.BitLen(y.val)))) {
				return bad
			}
		}
		return c.foldInt(e, x, y, x.typ.(*Basic))
	}
	c.errorf(e.OpPos, "unknown operator %s", op)
	return bad
}

// maxConstShift bounds the count of a shift of a constant without width,
// which is computed exactly.
const maxConstShift = 512

// foldInt returns the result of type t of an integer operation on typed
// operands: a constant when both are constant (computed as the program
// would, modulo 2^width), except a division by a constant zero, which is
// left to the program as the error it reaches.
func (c *checker) foldInt(e *ast.BinaryExpr, x, y operand, t *Basic) operand {
	if x.mode != constant_ || y.mode != constant_ {
		return operand{mode: value, typ: t}
	}
	v, ok := fold(e.Op, e.Signed, Uint64(x.val), x.typ.Bits(), Uint64(y.val), y.typ.Bits(), t.Width)
	if !ok {
		return operand{mode: value, typ: t}
	}
	return operand{mode: constant_, typ: t, val: constant.MakeUint64(v)}
}

// fold computes x op y on integers of the given widths (1 to 64, values
// below 2^width) with a result of width w, as the C reader's nodes define
// it (frontend/doc.go, "Nodes only readers build"): + - * & | ^ / % modulo
// 2^w on operands zero-extended to w bits (for / and % with signed, read
// as two's complement of width w: the quotient truncated toward zero, the
// remainder with the dividend's sign, the most negative value divided by
// -1 giving itself and remainder 0); << and >> shift x (width w) by the
// unsigned y, a count of w or more giving 0, or for >> with signed all
// sign bits. ok is false for a division or remainder by zero.
func fold(op token.Token, signed bool, x uint64, xw int, y uint64, yw int, w int) (v uint64, ok bool) {
	m := ^uint64(0) >> (64 - w)
	sx := func(v uint64) int64 { // two's complement of width w
		v &= m
		if v>>(w-1)&1 == 1 {
			return int64(v | ^m)
		}
		return int64(v)
	}
	switch op {
	case token.ADD:
		v = x + y
	case token.SUB:
		v = x - y
	case token.MUL:
		v = x * y
	case token.AND:
		v = x & y
	case token.OR:
		v = x | y
	case token.XOR:
		v = x ^ y
	case token.QUO, token.REM:
		if y&m == 0 {
			return 0, false
		}
		switch {
		case !signed && op == token.QUO:
			v = (x & m) / (y & m)
		case !signed:
			v = (x & m) % (y & m)
		case sx(y) == -1: // avoids Go's overflow on the most negative value
			if op == token.QUO {
				v = uint64(-sx(x))
			}
		case op == token.QUO:
			v = uint64(sx(x) / sx(y))
		default:
			v = uint64(sx(x) % sx(y))
		}
	case token.SHL:
		if y < uint64(w) {
			v = x << y
		}
	case token.SHR:
		switch {
		case signed:
			v = uint64(sx(x) >> min(y, 63))
		case y < uint64(w):
			v = (x & m) >> y
		}
	default:
		panic(fmt.Sprintf("types: fold of operator %s", op))
	}
	return v & m, true
}

// conversion checks (int<W>) X and (bool) X.
func (c *checker) conversion(e *ast.ConvExpr) operand {
	x := c.expr(e.X)
	if x.mode == invalid {
		return bad
	}
	var t Type = Typ[Bool]
	if e.Width != 0 {
		if e.Width < 0 || e.Width > MaxWidth {
			c.errorf(e.Pos(), "conversion to int<%d>: the width must be between 1 and %d", e.Width, MaxWidth)
			return bad
		}
		t = IntType(e.Width)
	}
	if !isInt(x.typ) && !isBool(x.typ) {
		c.errorf(e.Pos(), "cannot convert %s (%s) to %s", ExprString(e.X), x.typ, t)
		return bad
	}
	if x.mode != constant_ {
		return operand{mode: value, typ: t}
	}
	v := x.val
	if isBool(x.typ) {
		v = constant.MakeInt64(int64(Uint64(v)))
	} else if e.Signed && !isUntyped(x.typ) {
		v = signedVal(v, x.typ.Bits())
	}
	if e.Width == 0 {
		return operand{mode: constant_, typ: t, val: constant.MakeBool(constant.Sign(v) != 0)}
	}
	return operand{mode: constant_, typ: t, val: wrap(v, e.Width)}
}

// conditional checks Cond ? Then : Else.
func (c *checker) conditional(e *ast.CondExpr) operand {
	cond := c.expr(e.Cond)
	x := c.expr(e.Then)
	y := c.expr(e.Else)
	if cond.mode == invalid || x.mode == invalid || y.mode == invalid {
		return bad
	}
	if !isBool(cond.typ) {
		c.errorf(e.Cond.Pos(), "the condition %s of ?: must be bool, not %s", ExprString(e.Cond), cond.typ)
		return bad
	}
	all := cond.mode == constant_ && x.mode == constant_ && y.mode == constant_
	var t Type
	switch {
	case isBool(x.typ) && isBool(y.typ):
		t = Typ[Bool]
		if all && isUntyped(x.typ) && isUntyped(y.typ) {
			t = Typ[UntypedBool]
		}
	case isInt(x.typ) && isInt(y.typ):
		if !c.unify(&x, &y) {
			return bad
		}
		t = x.typ
		if isUntyped(t) && !all {
			c.errorf(e.Then.Pos(), "the branches of ?: are constants without a width: convert one to an int type")
			return bad
		}
		if x.typ != y.typ {
			c.errorf(e.Then.Pos(), "the branches of ?: have different types %s and %s", x.typ, y.typ)
			return bad
		}
	default:
		ex, xe := x.typ.(*Enum)
		ey, ye := y.typ.(*Enum)
		if !xe || !ye || ex != ey {
			c.errorf(e.Then.Pos(), "the branches of ?: have different types %s and %s", x.typ, y.typ)
			return bad
		}
		t = x.typ
	}
	if !all {
		return operand{mode: value, typ: t}
	}
	if constant.BoolVal(cond.val) {
		return operand{mode: constant_, typ: t, val: x.val}
	}
	return operand{mode: constant_, typ: t, val: y.val}
}

// wrap returns the exact integer v modulo 2^w, in 0 .. 2^w - 1.
func wrap(v constant.Value, w int) constant.Value {
	return constant.BinaryOp(v, gotoken.AND, constant.MakeUint64(^uint64(0)>>(64-w)))
}

// signedVal reads v, in 0 .. 2^w - 1, as a two's complement number of w
// bits; an untyped v (w == 0) is returned as it is.
func signedVal(v constant.Value, w int) constant.Value {
	if w == 0 || constant.BitLen(v) < w {
		return v
	}
	return constant.BinaryOp(v, gotoken.SUB, constant.Shift(constant.MakeInt64(1), gotoken.SHL, uint(w)))
}

// unify gives an untyped constant operand the type of the other, typed,
// operand of an integer operation.
func (c *checker) unify(x, y *operand) bool {
	switch {
	case isUntyped(x.typ) && !isUntyped(y.typ):
		return c.convert(x, y.typ)
	case !isUntyped(x.typ) && isUntyped(y.typ):
		return c.convert(y, x.typ)
	}
	return true
}

// convert gives an untyped constant x the integer or bool type t, checking
// that its value fits, and records the conversion.
func (c *checker) convert(x *operand, t Type) bool {
	if x.mode != constant_ || !isUntyped(x.typ) {
		return true
	}
	if isInt(t) {
		if !fits(x.val, t.Bits()) {
			c.errorf(x.expr.Pos(), "constant %s does not fit in %s (0 .. %d)", x.val, t, uint64(1)<<t.Bits()-1)
			return false
		}
	}
	x.typ = t
	c.record(x)
	return true
}

// fits reports whether the exact integer v is in 0 .. 2^w - 1.
func fits(v constant.Value, w int) bool {
	return v.Kind() == constant.Int && constant.Sign(v) >= 0 && constant.BitLen(v) <= w
}

// assignable checks that x can be stored in a variable of type t (an
// assignment, an initializer, an argument, a returned value) and records
// the type of an untyped constant.
func (c *checker) assignable(x *operand, t Type, context string) bool {
	if x.mode == invalid || isInvalid(t) {
		return false
	}
	ok := false
	switch t := t.(type) {
	case *Basic:
		switch t.Kind {
		case Bool:
			ok = isBool(x.typ)
		case Int:
			ok = isInt(x.typ)
		}
	case *Enum:
		ok = x.typ == t
	case *Array:
		c.errorf(x.expr.Pos(), "cannot %s: arrays are assigned element by element", context)
		return false
	}
	if !ok {
		c.errorf(x.expr.Pos(), "cannot use %s (%s) as %s value in %s", ExprString(x.expr), x.typ, t, context)
		return false
	}
	return c.convert(x, t)
}
