package ast

import "fmt"

// A Visitor's Visit method is invoked for each node met by Walk. If the
// result visitor w is not nil, Walk visits each of the children of node
// with w, followed by a call of w.Visit(nil).
type Visitor interface {
	Visit(node Node) (w Visitor)
}

// Walk traverses the tree rooted at node in depth-first order, children in
// source order (after go/ast.Walk): it starts by calling v.Visit(node);
// node must not be nil. If the visitor w returned by v.Visit(node) is not
// nil, Walk is invoked recursively with w for each non-nil child of node,
// followed by a call of w.Visit(nil). Absent optional children (an if
// without else, a declarator without initializer) are skipped. The
// recursion is as deep as the tree, which the parser bounds.
func Walk(v Visitor, node Node) {
	if v = v.Visit(node); v == nil {
		return
	}
	switch n := node.(type) {
	// Expressions
	case *BadExpr, *Ident, *BasicLit, *Wildcard:
		// no children
	case *ParenExpr:
		walkExpr(v, n.X)
	case *IndexExpr:
		walkIdent(v, n.X)
		walkExpr(v, n.Index)
	case *CallExpr:
		walkIdent(v, n.Fun)
		for _, x := range n.Args {
			walkExpr(v, x)
		}
	case *UnaryExpr:
		walkExpr(v, n.X)
	case *BinaryExpr:
		walkExpr(v, n.X)
		walkExpr(v, n.Y)
	case *ConvExpr:
		walkExpr(v, n.X)
	case *CondExpr:
		walkExpr(v, n.Cond)
		walkExpr(v, n.Then)
		walkExpr(v, n.Else)

	// Types
	case *BoolType:
		// no children
	case *IntType:
		walkExpr(v, n.Width)
	case *NamedType:
		walkIdent(v, n.Name)

	// Declarations
	case *BadDecl:
		// no children
	case *ConstDecl:
		walkIdent(v, n.Name)
		walkExpr(v, n.Value)
	case *EnumDecl:
		walkIdent(v, n.Name)
		for _, x := range n.Values {
			walkIdent(v, x)
		}
	case *VarDecl:
		if n.Type != nil {
			Walk(v, n.Type)
		}
		for _, s := range n.Specs {
			if s != nil {
				Walk(v, s)
			}
		}
	case *VarSpec:
		walkIdent(v, n.Name)
		walkExpr(v, n.Size)
		walkExpr(v, n.Value)
	case *Param:
		if n.Type != nil {
			Walk(v, n.Type)
		}
		walkIdent(v, n.Name)
	case *ProcDecl:
		walkIdent(v, n.Name)
		for _, p := range n.Params {
			if p != nil {
				Walk(v, p)
			}
		}
		if n.Result != nil {
			Walk(v, n.Result)
		}
		walkBlock(v, n.Body)
	case *StartStmt:
		if n.Call != nil {
			Walk(v, n.Call)
		}

	// Statements
	case *BadStmt, *SkipStmt:
		// no children
	case *BlockStmt:
		for _, s := range n.List {
			walkStmt(v, s)
		}
	case *DeclStmt:
		if n.Decl != nil {
			Walk(v, n.Decl)
		}
	case *LabeledStmt:
		walkIdent(v, n.Label)
		walkStmt(v, n.Stmt)
	case *AssignStmt:
		for _, x := range n.Lhs {
			walkExpr(v, x)
		}
		for _, x := range n.Rhs {
			walkExpr(v, x)
		}
	case *CallStmt:
		if n.Call != nil {
			Walk(v, n.Call)
		}
	case *ReturnStmt:
		walkExpr(v, n.Result)
	case *IfStmt:
		walkExpr(v, n.Cond)
		walkStmt(v, n.Then)
		walkStmt(v, n.Else)
	case *WhileStmt:
		walkExpr(v, n.Cond)
		walkStmt(v, n.Body)
	case *BranchStmt:
		walkIdent(v, n.Label)
	case *AssertStmt:
		walkExpr(v, n.X)
	case *AtomicStmt:
		walkBlock(v, n.Body)

	default:
		panic(fmt.Sprintf("ast.Walk: unexpected node type %T", n))
	}
	v.Visit(nil)
}

// The helpers below skip absent children: a nil interface or a nil
// pointer, which a Node interface would hold as a non-nil value.

func walkExpr(v Visitor, x Expr) {
	if x != nil {
		Walk(v, x)
	}
}

func walkStmt(v Visitor, s Stmt) {
	if s != nil {
		Walk(v, s)
	}
}

func walkIdent(v Visitor, x *Ident) {
	if x != nil {
		Walk(v, x)
	}
}

func walkBlock(v Visitor, b *BlockStmt) {
	if b != nil {
		Walk(v, b)
	}
}

type inspector func(Node) bool

func (f inspector) Visit(node Node) Visitor {
	if f(node) {
		return f
	}
	return nil
}

// Inspect traverses the tree rooted at node in depth-first order, children
// in source order (after go/ast.Inspect): it starts by calling f(node);
// node must not be nil. If f returns true, Inspect invokes f recursively
// for each of the non-nil children of node, followed by a call of f(nil).
func Inspect(node Node, f func(Node) bool) {
	Walk(inspector(f), node)
}
