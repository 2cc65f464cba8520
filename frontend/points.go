package frontend

import "github.com/cbreach/cbreach/frontend/ast"

// The statement points of a procedure's body, shared by the compiler
// (compile.go: one label per point) and by countThreads (threads.go: one
// node of the flow per point), so that both lay out the same control
// flow.

// eachPoint calls f with every statement point of s in source order: the
// node that keys the point (the statement, or one spec of a
// declaration) and the node whose position names it (a declaration's
// first spec takes the declaration's). Blocks and labeled statements
// have no point of their own; an if or while has one, its test.
func eachPoint(s ast.Stmt, f func(key, at ast.Node)) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		for _, x := range s.List {
			eachPoint(x, f)
		}
	case *ast.DeclStmt:
		for i, spec := range s.Decl.Specs {
			var at ast.Node = spec
			if i == 0 {
				at = s
			}
			f(spec, at)
		}
	case *ast.LabeledStmt:
		eachPoint(s.Stmt, f)
	case *ast.IfStmt:
		f(s, s)
		eachPoint(s.Then, f)
		if s.Else != nil {
			eachPoint(s.Else, f)
		}
	case *ast.WhileStmt:
		f(s, s)
		eachPoint(s.Body, f)
	default:
		f(s, s)
	}
}

// entryPoint returns the key (see eachPoint) of the point where s
// starts, or nil when s has no point (an empty block): then s starts
// where what follows it starts.
func entryPoint(s ast.Stmt) ast.Node {
	switch s := s.(type) {
	case *ast.BlockStmt:
		for _, x := range s.List {
			if k := entryPoint(x); k != nil {
				return k
			}
		}
		return nil
	case *ast.LabeledStmt:
		return entryPoint(s.Stmt)
	case *ast.DeclStmt:
		return s.Decl.Specs[0]
	}
	return s
}

// blockNexts returns, for each statement of a block's list, the point
// that follows it: the entry of the statement after it, next after the
// last. entry gives the point where a statement starts when a point
// follows it (a label for the compiler, a node for the flow).
func blockNexts[P any](list []ast.Stmt, next P, entry func(ast.Stmt, P) P) []P {
	nexts := make([]P, len(list))
	for i := len(list) - 1; i >= 0; i-- {
		nexts[i] = next
		next = entry(list[i], next)
	}
	return nexts
}

// specNexts returns, for each spec of a declaration, the point that
// follows it: the next spec's (points maps a key to its point), next
// after the last.
func specNexts[P any](s *ast.DeclStmt, next P, points map[ast.Node]P) []P {
	specs := s.Decl.Specs
	nexts := make([]P, len(specs))
	for i := range specs {
		nexts[i] = next
		if i+1 < len(specs) {
			nexts[i] = points[specs[i+1]]
		}
	}
	return nexts
}

// branchEntries returns where the branches of an if statement start when
// next follows it: its then branch's entry, and its else branch's (next
// without one).
func branchEntries[P any](s *ast.IfStmt, next P, entry func(ast.Stmt, P) P) (then, els P) {
	then, els = entry(s.Then, next), next
	if s.Else != nil {
		els = entry(s.Else, next)
	}
	return then, els
}
