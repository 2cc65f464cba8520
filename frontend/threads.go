package frontend

import (
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
	"github.com/cbreach/cbreach/pds"
)

// countThreads returns the number of threads the program can have: the
// initial threads and the starts along any run (pds.Flow), over the
// statements' control flow as compile lays it out; pds.Unbounded when a
// start can repeat (a start under a loop or in recursion).
func countThreads(info *types.Info) int {
	f := &pds.Flow{}
	index := map[*types.Proc]int{}
	for i, tp := range info.Procs {
		index[tp] = i
	}
	for i, tp := range info.Procs {
		w := &flowWalker{f: f, info: info, proc: i, index: index, nodes: map[ast.Node]int{}, labeled: map[*ast.LabeledStmt]int{}}
		body := tp.Decl.Body
		w.allocate(body)
		end := w.node()
		f.Entry(i, w.entry(body, end))
		w.stmt(body, end, -1, -1)
		for _, g := range w.gotos {
			f.Step(i, g.from, w.labeled[g.target])
		}
	}
	var initial []int
	for _, s := range info.Starts {
		initial = append(initial, index[info.ProcOf(s.Call)])
	}
	return f.Threads(initial...)
}

// flowWalker numbers the statement points of one procedure as compile's
// labels are (allocate, entry) and adds their edges to the flow.
type flowWalker struct {
	f       *pds.Flow
	info    *types.Info
	proc    int
	index   map[*types.Proc]int
	nodes   map[ast.Node]int
	labeled map[*ast.LabeledStmt]int
	gotos   []flowGoto
	next    int
}

type flowGoto struct {
	from   int
	target *ast.LabeledStmt
}

func (w *flowWalker) node() int {
	w.next++
	return w.next - 1
}

func (w *flowWalker) allocate(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		for _, x := range s.List {
			w.allocate(x)
		}
	case *ast.DeclStmt:
		for _, spec := range s.Decl.Specs {
			w.nodes[spec] = w.node()
		}
	case *ast.LabeledStmt:
		w.allocate(s.Stmt)
	case *ast.IfStmt:
		w.nodes[s] = w.node()
		w.allocate(s.Then)
		if s.Else != nil {
			w.allocate(s.Else)
		}
	case *ast.WhileStmt:
		w.nodes[s] = w.node()
		w.allocate(s.Body)
	default:
		w.nodes[s] = w.node()
	}
}

func (w *flowWalker) entry(s ast.Stmt, next int) int {
	switch s := s.(type) {
	case *ast.BlockStmt:
		for i := len(s.List) - 1; i >= 0; i-- {
			next = w.entry(s.List[i], next)
		}
		return next
	case *ast.LabeledStmt:
		return w.entry(s.Stmt, next)
	case *ast.DeclStmt:
		return w.nodes[s.Decl.Specs[0]]
	}
	return w.nodes[s]
}

// flow adds the edge from from to next of a statement that may call.
func (w *flowWalker) flow(from, next int, rhs ast.Expr) {
	if call, ok := rhs.(*ast.CallExpr); ok {
		w.f.Call(w.proc, from, next, w.index[w.info.ProcOf(call)])
		return
	}
	w.f.Step(w.proc, from, next)
}

func (w *flowWalker) stmt(s ast.Stmt, next, brk, cont int) {
	f, p := w.f, w.proc
	switch s := s.(type) {
	case *ast.BlockStmt:
		nexts := make([]int, len(s.List))
		nx := next
		for i := len(s.List) - 1; i >= 0; i-- {
			nexts[i] = nx
			nx = w.entry(s.List[i], nx)
		}
		for i, x := range s.List {
			w.stmt(x, nexts[i], brk, cont)
		}
	case *ast.DeclStmt:
		for i, spec := range s.Decl.Specs {
			nx := next
			if i+1 < len(s.Decl.Specs) {
				nx = w.nodes[s.Decl.Specs[i+1]]
			}
			w.flow(w.nodes[spec], nx, spec.Value)
		}
	case *ast.LabeledStmt:
		w.labeled[s] = w.entry(s.Stmt, next)
		w.stmt(s.Stmt, next, brk, cont)
	case *ast.AssignStmt:
		var rhs ast.Expr
		if len(s.Rhs) == 1 {
			rhs = s.Rhs[0]
		}
		w.flow(w.nodes[s], next, rhs)
	case *ast.CallStmt:
		w.flow(w.nodes[s], next, s.Call)
	case *ast.ReturnStmt:
		// A return: no successor in the procedure.
	case *ast.IfStmt:
		from := w.nodes[s]
		f.Step(p, from, w.entry(s.Then, next))
		els := next
		if s.Else != nil {
			els = w.entry(s.Else, next)
		}
		f.Step(p, from, els)
		w.stmt(s.Then, next, brk, cont)
		if s.Else != nil {
			w.stmt(s.Else, next, brk, cont)
		}
	case *ast.WhileStmt:
		from := w.nodes[s]
		f.Step(p, from, w.entry(s.Body, from))
		f.Step(p, from, next)
		w.stmt(s.Body, from, next, from)
	case *ast.BranchStmt:
		from := w.nodes[s]
		switch {
		case s.Tok == token.BREAK:
			f.Step(p, from, brk)
		case s.Tok == token.CONTINUE:
			f.Step(p, from, cont)
		default:
			w.gotos = append(w.gotos, flowGoto{from, w.info.Targets[s].(*ast.LabeledStmt)})
		}
	case *ast.StartStmt:
		f.Start(p, w.nodes[s], next, w.index[w.info.ProcOf(s.Call)])
	default:
		// skip, assert, assume, atomic: one step on.
		f.Step(p, w.nodes[s], next)
	}
}
