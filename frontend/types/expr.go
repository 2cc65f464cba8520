package types

import (
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
	case token.SUB:
		if !isInt(x.typ) {
			c.errorf(e.Pos(), "operator - needs an integer operand, not %s", x.typ)
			return bad
		}
		if x.mode == constant_ {
			return operand{mode: constant_, typ: Typ[UntypedInt], val: constant.UnaryOp(gotoken.SUB, x.val, 0)}
		}
		return operand{mode: value, typ: x.typ}
	}
	return bad
}

var goOps = map[token.Token]gotoken.Token{
	token.ADD: gotoken.ADD, token.SUB: gotoken.SUB, token.MUL: gotoken.MUL,
	token.LAND: gotoken.LAND, token.LOR: gotoken.LOR,
	token.EQL: gotoken.EQL, token.NEQ: gotoken.NEQ,
	token.LSS: gotoken.LSS, token.LEQ: gotoken.LEQ, token.GTR: gotoken.GTR, token.GEQ: gotoken.GEQ,
}

func (c *checker) binary(e *ast.BinaryExpr) operand {
	x := c.expr(e.X)
	y := c.expr(e.Y)
	if x.mode == invalid || y.mode == invalid {
		return bad
	}
	op := e.Op
	both := x.mode == constant_ && y.mode == constant_
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
			c.errorf(e.OpPos, "operator %s needs integer operands, not %s and %s", op, x.typ, y.typ)
			return bad
		}
		if !c.unify(&x, &y) {
			return bad
		}
		if both {
			return operand{mode: constant_, typ: Typ[UntypedBool], val: constant.MakeBool(constant.Compare(x.val, goOps[op], y.val))}
		}
		return operand{mode: value, typ: Typ[Bool]}

	case token.ADD, token.SUB, token.MUL:
		if !isInt(x.typ) || !isInt(y.typ) {
			c.errorf(e.OpPos, "operator %s needs integer operands, not %s and %s", op, x.typ, y.typ)
			return bad
		}
		if both {
			return operand{mode: constant_, typ: Typ[UntypedInt], val: constant.BinaryOp(x.val, goOps[op], y.val)}
		}
		if !c.unify(&x, &y) {
			return bad
		}
		return operand{mode: value, typ: IntType(max(x.typ.Bits(), y.typ.Bits()))}
	}
	c.errorf(e.OpPos, "unknown operator %s", op)
	return bad
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
