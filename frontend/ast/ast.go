// Package ast declares the syntax tree of the .pds language (after go/ast).
// Nodes hold data only: positions, names, children. What a name denotes,
// the type of an expression and its constant value are recorded by the
// checker (package frontend/types) in side tables keyed by these nodes.
package ast

import "github.com/cbreach/cbreach/frontend/token"

// Node is any node of the tree.
type Node interface {
	Pos() token.Pos // first byte of the node
	End() token.Pos // first byte after the node
}

// Expr is an expression (including the wildcard ? and calls, which the
// checker admits only where the language allows them).
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// Decl is a top-level declaration.
type Decl interface {
	Node
	declNode()
}

// TypeExpr is a type as written.
type TypeExpr interface {
	Node
	typeNode()
}

// ----------------------------------------------------------------------------
// Expressions

type (
	// BadExpr stands for an expression that did not parse.
	BadExpr struct {
		From, To token.Pos
	}

	// Ident is a name.
	Ident struct {
		NamePos token.Pos
		Name    string
	}

	// BasicLit is an integer literal or true/false.
	BasicLit struct {
		ValuePos token.Pos
		Kind     token.Token // NUMBER, TRUE or FALSE
		Value    string      // source text
	}

	// Wildcard is ?, an arbitrary value or a nondeterministic choice.
	Wildcard struct {
		Quest token.Pos
	}

	// ParenExpr is (X).
	ParenExpr struct {
		Lparen token.Pos
		X      Expr
		Rparen token.Pos
	}

	// IndexExpr is X[Index].
	IndexExpr struct {
		X      *Ident
		Lbrack token.Pos
		Index  Expr
		Rbrack token.Pos
	}

	// CallExpr is Fun(Args).
	CallExpr struct {
		Fun    *Ident
		Lparen token.Pos
		Args   []Expr
		Rparen token.Pos
	}

	// UnaryExpr is !X, -X or (built by the C reader) ~X.
	UnaryExpr struct {
		OpPos token.Pos
		Op    token.Token
		X     Expr
	}

	// BinaryExpr is X Op Y. Signed (set only by the C reader) makes
	// QUO, REM, SHR and the orderings LSS, LEQ, GTR, GEQ read their
	// operands as two's complement numbers: division truncates toward
	// zero, the remainder takes the dividend's sign, SHR shifts the sign
	// in. Without it every operator is unsigned, as in the .pds language.
	BinaryExpr struct {
		X      Expr
		OpPos  token.Pos
		Op     token.Token
		Y      Expr
		Signed bool
	}

	// ConvExpr (built by the C reader) converts the integer or Boolean X
	// to an integer of Width bits: it keeps the low bits when narrowing
	// and extends with zeros, or with X's sign bit when Signed, when
	// widening. A Width of 0 converts to bool (X != 0).
	ConvExpr struct {
		X      Expr
		Width  int
		Signed bool
	}

	// CondExpr (built by the C reader) is Cond ? Then : Else; only the
	// chosen branch is evaluated.
	CondExpr struct {
		Cond, Then, Else Expr
	}
)

func (x *BadExpr) Pos() token.Pos    { return x.From }
func (x *Ident) Pos() token.Pos      { return x.NamePos }
func (x *BasicLit) Pos() token.Pos   { return x.ValuePos }
func (x *Wildcard) Pos() token.Pos   { return x.Quest }
func (x *ParenExpr) Pos() token.Pos  { return x.Lparen }
func (x *IndexExpr) Pos() token.Pos  { return x.X.Pos() }
func (x *CallExpr) Pos() token.Pos   { return x.Fun.Pos() }
func (x *UnaryExpr) Pos() token.Pos  { return x.OpPos }
func (x *BinaryExpr) Pos() token.Pos { return x.X.Pos() }
func (x *ConvExpr) Pos() token.Pos   { return x.X.Pos() }
func (x *CondExpr) Pos() token.Pos   { return x.Cond.Pos() }

func (x *BadExpr) End() token.Pos    { return x.To }
func (x *Ident) End() token.Pos      { return x.NamePos + token.Pos(len(x.Name)) }
func (x *BasicLit) End() token.Pos   { return x.ValuePos + token.Pos(len(x.Value)) }
func (x *Wildcard) End() token.Pos   { return x.Quest + 1 }
func (x *ParenExpr) End() token.Pos  { return x.Rparen + 1 }
func (x *IndexExpr) End() token.Pos  { return x.Rbrack + 1 }
func (x *CallExpr) End() token.Pos   { return x.Rparen + 1 }
func (x *UnaryExpr) End() token.Pos  { return x.X.End() }
func (x *BinaryExpr) End() token.Pos { return x.Y.End() }
func (x *ConvExpr) End() token.Pos   { return x.X.End() }
func (x *CondExpr) End() token.Pos   { return x.Else.End() }

func (*BadExpr) exprNode()    {}
func (*Ident) exprNode()      {}
func (*BasicLit) exprNode()   {}
func (*Wildcard) exprNode()   {}
func (*ParenExpr) exprNode()  {}
func (*IndexExpr) exprNode()  {}
func (*CallExpr) exprNode()   {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*ConvExpr) exprNode()   {}
func (*CondExpr) exprNode()   {}

// ----------------------------------------------------------------------------
// Types

type (
	// BoolType is bool.
	BoolType struct {
		Bool token.Pos
	}

	// IntType is int<Width>.
	IntType struct {
		Int   token.Pos
		Width Expr
		Gt    token.Pos
	}

	// NamedType is the name of an enum type.
	NamedType struct {
		Name *Ident
	}
)

func (t *BoolType) Pos() token.Pos  { return t.Bool }
func (t *IntType) Pos() token.Pos   { return t.Int }
func (t *NamedType) Pos() token.Pos { return t.Name.Pos() }

func (t *BoolType) End() token.Pos  { return t.Bool + 4 }
func (t *IntType) End() token.Pos   { return t.Gt + 1 }
func (t *NamedType) End() token.Pos { return t.Name.End() }

func (*BoolType) typeNode()  {}
func (*IntType) typeNode()   {}
func (*NamedType) typeNode() {}

// ----------------------------------------------------------------------------
// Declarations

type (
	// BadDecl stands for a declaration that did not parse.
	BadDecl struct {
		From, To token.Pos
	}

	// ConstDecl is const Name = Value;.
	ConstDecl struct {
		Const token.Pos
		Name  *Ident
		Value Expr
		Semi  token.Pos
	}

	// EnumDecl is enum Name { Values };.
	EnumDecl struct {
		Enum   token.Pos
		Name   *Ident
		Values []*Ident
		Semi   token.Pos
	}

	// VarDecl is T spec, spec, ...; at top level (globals) or in a block
	// (locals, as the Decl of a DeclStmt).
	VarDecl struct {
		Type  TypeExpr
		Specs []*VarSpec
		Semi  token.Pos
	}

	// ProcDecl is proc Name(Params) : Result Body.
	ProcDecl struct {
		Proc   token.Pos
		Name   *Ident
		Params []*Param
		Result TypeExpr // nil without a result
		Body   *BlockStmt
	}

	// StartStmt is start Call; at top level (an initial thread) or in a
	// procedure (a fork).
	StartStmt struct {
		Start token.Pos
		Call  *CallExpr
		Semi  token.Pos
	}
)

// VarSpec declares one variable: Name, Name[Size], each with an optional
// initializer (an expression, a Wildcard or a CallExpr).
type VarSpec struct {
	Name   *Ident
	Size   Expr // nil unless an array
	Rbrack token.Pos
	Value  Expr // nil without initializer
}

// Pos returns the position of the variable's name.
func (s *VarSpec) Pos() token.Pos { return s.Name.Pos() }

// End returns the end of the declarator.
func (s *VarSpec) End() token.Pos {
	switch {
	case s.Value != nil:
		return s.Value.End()
	case s.Size != nil:
		return s.Rbrack + 1
	}
	return s.Name.End()
}

// Param is a parameter T Name.
type Param struct {
	Type TypeExpr
	Name *Ident
}

// Pos returns the position of the parameter's type.
func (p *Param) Pos() token.Pos { return p.Type.Pos() }

// End returns the end of the parameter's name.
func (p *Param) End() token.Pos { return p.Name.End() }

func (d *BadDecl) Pos() token.Pos   { return d.From }
func (d *ConstDecl) Pos() token.Pos { return d.Const }
func (d *EnumDecl) Pos() token.Pos  { return d.Enum }
func (d *VarDecl) Pos() token.Pos   { return d.Type.Pos() }
func (d *ProcDecl) Pos() token.Pos  { return d.Proc }
func (s *StartStmt) Pos() token.Pos { return s.Start }

func (d *BadDecl) End() token.Pos   { return d.To }
func (d *ConstDecl) End() token.Pos { return d.Semi + 1 }
func (d *EnumDecl) End() token.Pos  { return d.Semi + 1 }
func (d *VarDecl) End() token.Pos   { return d.Semi + 1 }
func (d *ProcDecl) End() token.Pos  { return d.Body.End() }
func (s *StartStmt) End() token.Pos { return s.Semi + 1 }

func (*BadDecl) declNode()   {}
func (*ConstDecl) declNode() {}
func (*EnumDecl) declNode()  {}
func (*VarDecl) declNode()   {}
func (*ProcDecl) declNode()  {}
func (*StartStmt) declNode() {}

// ----------------------------------------------------------------------------
// Statements

type (
	// BadStmt stands for a statement that did not parse.
	BadStmt struct {
		From, To token.Pos
	}

	// BlockStmt is { List }.
	BlockStmt struct {
		Lbrace token.Pos
		List   []Stmt
		Rbrace token.Pos
	}

	// DeclStmt declares local variables.
	DeclStmt struct {
		Decl *VarDecl
	}

	// LabeledStmt is Label: Stmt.
	LabeledStmt struct {
		Label *Ident
		Colon token.Pos
		Stmt  Stmt
	}

	// SkipStmt is skip;.
	SkipStmt struct {
		Skip token.Pos
		Semi token.Pos
	}

	// AssignStmt is Lhs = Rhs; with one or more targets (an Ident or an
	// IndexExpr each) and as many right-hand sides.
	AssignStmt struct {
		Lhs    []Expr
		TokPos token.Pos
		Rhs    []Expr
		Semi   token.Pos
	}

	// CallStmt is Call;.
	CallStmt struct {
		Call *CallExpr
		Semi token.Pos
	}

	// ReturnStmt is return; or return Result;.
	ReturnStmt struct {
		Return token.Pos
		Result Expr // nil for return;
		Semi   token.Pos
	}

	// IfStmt is if (Cond) Then else Else.
	IfStmt struct {
		If   token.Pos
		Cond Expr
		Then Stmt
		Else Stmt // nil without else
	}

	// WhileStmt is while (Cond) Body.
	WhileStmt struct {
		While token.Pos
		Cond  Expr
		Body  Stmt
	}

	// BranchStmt is break;, continue; or goto Label;.
	BranchStmt struct {
		TokPos token.Pos
		Tok    token.Token // BREAK, CONTINUE or GOTO
		Label  *Ident      // only for GOTO
		Semi   token.Pos
	}

	// AssertStmt is assert(X); or, with Tok ASSUME, assume(X);.
	AssertStmt struct {
		TokPos token.Pos
		Tok    token.Token // ASSERT or ASSUME
		Lparen token.Pos
		X      Expr
		Rparen token.Pos
		Semi   token.Pos
		// Msg (set only by a reader) replaces the failed assertion's
		// text in the error's message: "reach_error() called".
		Msg string
	}

	// AtomicStmt is atomic Body.
	AtomicStmt struct {
		Atomic token.Pos
		Body   *BlockStmt
	}
)

func (s *BadStmt) Pos() token.Pos     { return s.From }
func (s *BlockStmt) Pos() token.Pos   { return s.Lbrace }
func (s *DeclStmt) Pos() token.Pos    { return s.Decl.Pos() }
func (s *LabeledStmt) Pos() token.Pos { return s.Label.Pos() }
func (s *SkipStmt) Pos() token.Pos    { return s.Skip }
func (s *AssignStmt) Pos() token.Pos  { return s.Lhs[0].Pos() }
func (s *CallStmt) Pos() token.Pos    { return s.Call.Pos() }
func (s *ReturnStmt) Pos() token.Pos  { return s.Return }
func (s *IfStmt) Pos() token.Pos      { return s.If }
func (s *WhileStmt) Pos() token.Pos   { return s.While }
func (s *BranchStmt) Pos() token.Pos  { return s.TokPos }
func (s *AssertStmt) Pos() token.Pos  { return s.TokPos }
func (s *AtomicStmt) Pos() token.Pos  { return s.Atomic }

func (s *BadStmt) End() token.Pos     { return s.To }
func (s *BlockStmt) End() token.Pos   { return s.Rbrace + 1 }
func (s *DeclStmt) End() token.Pos    { return s.Decl.End() }
func (s *LabeledStmt) End() token.Pos { return s.Stmt.End() }
func (s *SkipStmt) End() token.Pos    { return s.Semi + 1 }
func (s *AssignStmt) End() token.Pos  { return s.Semi + 1 }
func (s *CallStmt) End() token.Pos    { return s.Semi + 1 }
func (s *ReturnStmt) End() token.Pos  { return s.Semi + 1 }
func (s *IfStmt) End() token.Pos {
	if s.Else != nil {
		return s.Else.End()
	}
	return s.Then.End()
}
func (s *WhileStmt) End() token.Pos  { return s.Body.End() }
func (s *BranchStmt) End() token.Pos { return s.Semi + 1 }
func (s *AssertStmt) End() token.Pos { return s.Semi + 1 }
func (s *AtomicStmt) End() token.Pos { return s.Body.End() }

func (*BadStmt) stmtNode()     {}
func (*BlockStmt) stmtNode()   {}
func (*DeclStmt) stmtNode()    {}
func (*LabeledStmt) stmtNode() {}
func (*SkipStmt) stmtNode()    {}
func (*AssignStmt) stmtNode()  {}
func (*CallStmt) stmtNode()    {}
func (*ReturnStmt) stmtNode()  {}
func (*IfStmt) stmtNode()      {}
func (*WhileStmt) stmtNode()   {}
func (*BranchStmt) stmtNode()  {}
func (*AssertStmt) stmtNode()  {}
func (*AtomicStmt) stmtNode()  {}
func (*StartStmt) stmtNode()   {}

// File is a parsed source file.
type File struct {
	Decls []Decl
	EOF   token.Pos // position of the end of the file
}

// Unparen strips parentheses.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
