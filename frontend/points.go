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

// flowWalk walks a procedure's statements as the control flow lays them
// out, for the compiler (labels) and for countThreads (flow nodes) alike:
// it gives every statement its successor point (next) and the targets of
// a break and a continue (brk, cont; the zero P outside a loop), records
// the entry of each labeled statement, and hands every statement that
// has a point of its own to point, in source order, before the
// statements nested in it.
type flowWalk[P any] struct {
	entry   func(s ast.Stmt, next P) P          // where s starts when next follows it
	labeled map[*ast.LabeledStmt]P              // filled: the entry of each labeled statement
	point   func(s ast.Stmt, next, brk, cont P) // a statement with a point: its edges
}

// walk walks s, followed by next, inside a loop whose exit is brk and
// whose test is cont. A block's statements follow one another; an if's
// branches are both followed by next; a while's body is followed by the
// while's own point (its test), which is also the body's continue, and
// its break is next.
func (w flowWalk[P]) walk(s ast.Stmt, next, brk, cont P) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		nexts := blockNexts(s.List, next, w.entry)
		for i, x := range s.List {
			w.walk(x, nexts[i], brk, cont)
		}
	case *ast.LabeledStmt:
		w.labeled[s] = w.entry(s.Stmt, next)
		w.walk(s.Stmt, next, brk, cont)
	case *ast.IfStmt:
		w.point(s, next, brk, cont)
		w.walk(s.Then, next, brk, cont)
		if s.Else != nil {
			w.walk(s.Else, next, brk, cont)
		}
	case *ast.WhileStmt:
		w.point(s, next, brk, cont)
		from := w.entry(s, next)
		w.walk(s.Body, from, next, from)
	default:
		w.point(s, next, brk, cont)
	}
}
