package frontend

import (
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
)

// The BDD order from the relation graph (doc.go, "The BDD order").
//
// orderGroups returns the order group of each global of info.Globals and
// the group of the locals (the local block, the return register and the
// thread slots). Two globals are in one cluster when some expression of
// the program combines them bit by bit: the operands of an arithmetic
// operator or a comparison, an assignment's target and the variables its
// value carries, an array and its index. Every local, parameter and the
// return register are one node of the graph, so a global that meets a
// local that way joins the locals' cluster. The groups number the
// clusters by their first global in declaration order; the locals'
// cluster, without a global, comes last; clusters of Booleans join the
// first group. The result depends on the program only.
func orderGroups(info *types.Info) (globals []int, locals int) {
	o := &orderGraph{info: info, parent: make([]int, len(info.Globals)+1)}
	for i := range o.parent {
		o.parent[i] = i
	}
	o.local = len(info.Globals)
	for _, p := range info.Procs {
		ast.Inspect(p.Decl.Body, o.visit)
	}
	// A cluster of Booleans has no carries and no bits to interleave: it
	// joins the first group, where the order by significance puts bits
	// of significance 0, first.
	wide := map[int]bool{o.find(o.local): true}
	for i, v := range info.Globals {
		if v.Type().Bits() > 1 {
			wide[o.find(i)] = true
		}
	}
	rank := map[int]int{}
	globals = make([]int, len(info.Globals))
	for i := range info.Globals {
		r := o.find(i)
		if !wide[r] {
			continue // group 0
		}
		if _, ok := rank[r]; !ok {
			rank[r] = len(rank)
		}
		globals[i] = rank[r]
	}
	locals, ok := rank[o.find(o.local)]
	if !ok {
		locals = len(rank)
	}
	return globals, locals
}

// orderGraph is a union-find over the globals (by index) and one node for
// every local, parameter and the return register.
type orderGraph struct {
	info   *types.Info
	parent []int
	local  int // the node of the locals
}

func (o *orderGraph) find(i int) int {
	for o.parent[i] != i {
		o.parent[i] = o.parent[o.parent[i]]
		i = o.parent[i]
	}
	return i
}

// link puts the nodes into one cluster; the smaller root stays the root.
func (o *orderGraph) link(nodes []int) {
	for _, n := range nodes[min(1, len(nodes)):] {
		a, b := o.find(nodes[0]), o.find(n)
		if a > b {
			a, b = b, a
		}
		o.parent[b] = a
	}
}

// node returns the node of a variable.
func (o *orderGraph) node(v *types.Var) int {
	if v.Kind == types.Global {
		return v.Index
	}
	return o.local
}

// visit links the variables a statement relates; expressions are walked
// by flow.
func (o *orderGraph) visit(n ast.Node) bool {
	switch s := n.(type) {
	case *ast.AssignStmt:
		if call, ok := s.Rhs[0].(*ast.CallExpr); ok && len(s.Rhs) == 1 {
			o.link(append(o.target(s.Lhs[0]), o.flow(call)...))
			return false
		}
		for i, lhs := range s.Lhs {
			o.link(append(o.target(lhs), o.flow(s.Rhs[i])...))
		}
		return false
	case *ast.DeclStmt:
		for _, spec := range s.Decl.Specs {
			if spec.Value != nil {
				o.link(append([]int{o.local}, o.flow(spec.Value)...))
			}
		}
		return false
	case *ast.ReturnStmt:
		if s.Result != nil {
			o.link(append([]int{o.local}, o.flow(s.Result)...))
		}
		return false
	case *ast.CallStmt:
		o.flow(s.Call)
		return false
	case *ast.StartStmt:
		o.flow(s.Call)
		return false
	case *ast.IfStmt:
		o.flow(s.Cond)
	case *ast.WhileStmt:
		o.flow(s.Cond)
	case *ast.AssertStmt:
		o.flow(s.X)
		return false
	case ast.Expr:
		return false
	}
	return true
}

// target returns the nodes an assignment to lhs writes, linked with those
// of its index.
func (o *orderGraph) target(lhs ast.Expr) []int {
	v := o.info.VarOf(lhs)
	if v == nil {
		return nil
	}
	nodes := []int{o.node(v)}
	if ix, ok := ast.Unparen(lhs).(*ast.IndexExpr); ok {
		nodes = append(nodes, o.flow(ix.Index)...)
	}
	return nodes
}

// flow returns the nodes whose bits the value of e carries, after linking
// the operands e combines bit by bit. A comparison or a logical operator
// links its operands' nodes and carries none: its value is one bit.
func (o *orderGraph) flow(e ast.Expr) []int {
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := o.info.Uses[e].(*types.Var); ok {
			return []int{o.node(v)}
		}
	case *ast.ParenExpr:
		return o.flow(e.X)
	case *ast.IndexExpr:
		nodes := append(o.flow(e.X), o.flow(e.Index)...)
		o.link(nodes)
		return nodes
	case *ast.CallExpr:
		for _, a := range e.Args {
			o.link(append([]int{o.local}, o.flow(a)...))
		}
		return []int{o.local}
	case *ast.UnaryExpr:
		nodes := o.flow(e.X)
		if e.Op == token.NOT {
			return nil
		}
		return nodes
	case *ast.BinaryExpr:
		nodes := append(o.flow(e.X), o.flow(e.Y)...)
		switch e.Op {
		case token.LAND, token.LOR:
			return nil
		}
		o.link(nodes)
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return nil
		}
		return nodes
	case *ast.ConvExpr:
		nodes := o.flow(e.X)
		if e.Width == 0 {
			return nil
		}
		return nodes
	case *ast.CondExpr:
		o.flow(e.Cond)
		nodes := append(o.flow(e.Then), o.flow(e.Else)...)
		o.link(nodes)
		return nodes
	}
	return nil
}
