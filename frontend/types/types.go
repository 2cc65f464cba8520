// Package types checks a parsed .pds file (after go/types): it resolves
// names in their scopes, computes the type and, for constant expressions,
// the exact value of every expression, checks statements and control flow,
// and records what it finds in an [Info] of side tables keyed by syntax
// nodes. It never changes the tree.
package types

import (
	"fmt"
	"go/constant"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
)

// Type is the type of a value: *Basic, *Enum or *Array.
type Type interface {
	String() string
	// Bits is the width of a value of the type (of one element for an
	// array); 0 for untyped constants.
	Bits() int
}

// BasicKind distinguishes the basic types.
type BasicKind int

// The basic kinds.
const (
	Invalid BasicKind = iota
	Bool
	Int
	UntypedInt
	UntypedBool
)

// Basic is bool, int<N>, or the type of an untyped constant.
type Basic struct {
	Kind  BasicKind
	Width int // for Int
}

// MaxWidth is the widest integer type.
const MaxWidth = 32

var (
	// Typ holds the singletons of the non-integer basic types.
	Typ = map[BasicKind]*Basic{
		Invalid:     {Kind: Invalid},
		Bool:        {Kind: Bool},
		UntypedInt:  {Kind: UntypedInt},
		UntypedBool: {Kind: UntypedBool},
	}
	ints [MaxWidth + 1]*Basic
)

func init() {
	for w := 1; w <= MaxWidth; w++ {
		ints[w] = &Basic{Kind: Int, Width: w}
	}
}

// IntType returns int<w>, 1 <= w <= MaxWidth; types are canonical, so
// two int types are identical when their pointers are equal.
func IntType(w int) *Basic { return ints[w] }

func (b *Basic) String() string {
	switch b.Kind {
	case Bool:
		return "bool"
	case Int:
		return fmt.Sprintf("int<%d>", b.Width)
	case UntypedInt:
		return "untyped int"
	case UntypedBool:
		return "untyped bool"
	}
	return "invalid type"
}

// Bits returns the width: N for int<N>, 1 for bool, 0 for untyped.
func (b *Basic) Bits() int {
	switch b.Kind {
	case Bool:
		return 1
	case Int:
		return b.Width
	}
	return 0
}

// Enum is an enum type.
type Enum struct {
	Obj    *TypeName
	Consts []*Const // the values, in order
}

func (e *Enum) String() string { return e.Obj.name }

// Bits returns the encoding width, ceil(log2(count)), at least 1.
func (e *Enum) Bits() int {
	b := 1
	for 1<<b < len(e.Consts) {
		b++
	}
	return b
}

// Values returns the names of the constants.
func (e *Enum) Values() []string {
	vs := make([]string, len(e.Consts))
	for i, c := range e.Consts {
		vs[i] = c.name
	}
	return vs
}

// Array is T[Len].
type Array struct {
	Elem Type
	Len  int
}

func (a *Array) String() string { return fmt.Sprintf("%s[%d]", a.Elem, a.Len) }

// Bits returns the element width.
func (a *Array) Bits() int { return a.Elem.Bits() }

// Predicates.

func isBool(t Type) bool {
	b, ok := t.(*Basic)
	return ok && (b.Kind == Bool || b.Kind == UntypedBool)
}

func isInt(t Type) bool {
	b, ok := t.(*Basic)
	return ok && (b.Kind == Int || b.Kind == UntypedInt)
}

func isUntyped(t Type) bool {
	b, ok := t.(*Basic)
	return ok && (b.Kind == UntypedInt || b.Kind == UntypedBool)
}

func isInvalid(t Type) bool {
	b, ok := t.(*Basic)
	return t == nil || ok && b.Kind == Invalid
}

// ----------------------------------------------------------------------------
// Objects

// Object is something a name denotes.
type Object interface {
	Name() string
	Pos() token.Pos
	Type() Type
}

type object struct {
	name string
	pos  token.Pos
	typ  Type
}

func (o *object) Name() string   { return o.name }
func (o *object) Pos() token.Pos { return o.pos }
func (o *object) Type() Type     { return o.typ }

// Const is a named constant: a const declaration or an enum value.
type Const struct {
	object
	Val  constant.Value // exact; an enum value's index
	Decl *ast.ConstDecl // nil for an enum value

	state int // resolution: 0 unresolved, 1 resolving, 2 done
}

// TypeName is the name of an enum type.
type TypeName struct {
	object
	Decl *ast.EnumDecl
}

// VarKind tells globals, parameters and locals apart.
type VarKind int

// The kinds of variables.
const (
	Global VarKind = iota
	Param
	Local
)

// Var is a variable: a global, a parameter or a local.
type Var struct {
	object
	Kind  VarKind
	Proc  *Proc        // nil for a global
	Index int          // in Info.Globals or Proc.Locals
	Spec  *ast.VarSpec // nil for a parameter
}

// Proc is a procedure.
type Proc struct {
	object
	Decl   *ast.ProcDecl
	Index  int
	Params []*Var
	Locals []*Var // parameters first, then every local in declaration order
	Result Type   // nil without a result
	Labels map[string]*Label
}

// Label is a statement label.
type Label struct {
	object
	Stmt *ast.LabeledStmt
	Proc *Proc
}

// ----------------------------------------------------------------------------
// Info

// TypeAndValue is the type of an expression and, when it is constant, its
// exact value (for an enum constant, its index).
type TypeAndValue struct {
	Type  Type
	Value constant.Value
}

// IsConst reports whether the expression is constant.
func (tv TypeAndValue) IsConst() bool { return tv.Value != nil }

// Info holds the checker's findings.
type Info struct {
	// Types maps every checked expression to its type and constant value.
	// An untyped constant used where a typed value is needed is recorded
	// with that type (the root of a constant subexpression only).
	Types map[ast.Expr]TypeAndValue
	// Defs maps declaring identifiers to their objects (constants, enum
	// types and values, variables, procedures, labels).
	Defs map[*ast.Ident]Object
	// Uses maps every other identifier to the object it denotes.
	Uses map[*ast.Ident]Object
	// Targets maps break and continue to their loop (*ast.WhileStmt) and
	// goto to its *ast.LabeledStmt.
	Targets map[*ast.BranchStmt]ast.Stmt
	// Specs maps local and global declarators to their variables.
	Specs map[*ast.VarSpec]*Var

	Globals []*Var  // in declaration order
	Procs   []*Proc // in declaration order
	Enums   []*Enum
	// Starts are the top-level start statements, in order.
	Starts []*ast.StartStmt
	// Spawned are the procedures some start inside a procedure may run, in
	// order of first appearance.
	Spawned []*Proc
}

// TypeOf returns the recorded type of e, or nil.
func (info *Info) TypeOf(e ast.Expr) Type {
	if tv, ok := info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

// ObjectOf returns the object id defines or uses.
func (info *Info) ObjectOf(id *ast.Ident) Object {
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

// ProcOf returns the procedure a call calls, or nil.
func (info *Info) ProcOf(c *ast.CallExpr) *Proc {
	p, _ := info.Uses[c.Fun].(*Proc)
	return p
}

// VarOf returns the variable named by an lvalue or variable expression
// (an identifier or the array of an index expression).
func (info *Info) VarOf(e ast.Expr) *Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.Uses[e].(*Var)
		return v
	case *ast.IndexExpr:
		v, _ := info.Uses[e.X].(*Var)
		return v
	}
	return nil
}

// Uint64 returns a constant's value as a code of its type: an integer, 0 or
// 1 for booleans, the index of an enum value.
func Uint64(v constant.Value) uint64 {
	switch v.Kind() {
	case constant.Bool:
		if constant.BoolVal(v) {
			return 1
		}
		return 0
	case constant.Int:
		if u, ok := constant.Uint64Val(v); ok {
			return u
		}
	}
	return 0
}

// ExprString renders an expression compactly, for messages.
func ExprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.BasicLit:
		b.WriteString(e.Value)
	case *ast.Wildcard:
		b.WriteString("?")
	case *ast.ParenExpr:
		b.WriteString("(")
		writeExpr(b, e.X)
		b.WriteString(")")
	case *ast.IndexExpr:
		writeExpr(b, e.X)
		b.WriteString("[")
		writeExpr(b, e.Index)
		b.WriteString("]")
	case *ast.CallExpr:
		writeExpr(b, e.Fun)
		b.WriteString("(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	case *ast.UnaryExpr:
		b.WriteString(e.Op.String())
		writeExpr(b, e.X)
	case *ast.BinaryExpr:
		writeExpr(b, e.X)
		b.WriteString(" " + opString(e.Op, e.Signed) + " ")
		writeExpr(b, e.Y)
	case *ast.ConvExpr:
		switch {
		case e.Width == 0:
			b.WriteString("(bool)")
		case e.Signed:
			fmt.Fprintf(b, "(sint<%d>)", e.Width)
		default:
			fmt.Fprintf(b, "(int<%d>)", e.Width)
		}
		writeExpr(b, e.X)
	case *ast.CondExpr:
		writeExpr(b, e.Cond)
		b.WriteString(" ? ")
		writeExpr(b, e.Then)
		b.WriteString(" : ")
		writeExpr(b, e.Else)
	default:
		b.WriteString("_")
	}
}
