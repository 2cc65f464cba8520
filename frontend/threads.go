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
		flowWalk[int]{entry: w.entry, labeled: w.labeled, point: w.stmt}.walk(body, end, -1, -1)
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

// allocate numbers the statement points of s in source order, as the
// compiler's allocate labels them (eachPoint).
func (w *flowWalker) allocate(s ast.Stmt) {
	eachPoint(s, func(key, _ ast.Node) { w.nodes[key] = w.node() })
}

// entry returns the node where s starts when next follows it.
func (w *flowWalker) entry(s ast.Stmt, next int) int {
	if k := entryPoint(s); k != nil {
		return w.nodes[k]
	}
	return next
}

// flow adds the edge from from to next of a statement that may call.
func (w *flowWalker) flow(from, next int, rhs ast.Expr) {
	if call, ok := rhs.(*ast.CallExpr); ok {
		w.f.Call(w.proc, from, next, w.index[w.info.ProcOf(call)])
		return
	}
	w.f.Step(w.proc, from, next)
}

// stmt adds the edges of a statement with a point of its own, which next
// follows (brk and cont: a break's and a continue's targets); flowWalk
// walks the statements nested in it.
func (w *flowWalker) stmt(s ast.Stmt, next, brk, cont int) {
	f, p := w.f, w.proc
	switch s := s.(type) {
	case *ast.DeclStmt:
		nexts := specNexts(s, next, w.nodes)
		for i, spec := range s.Decl.Specs {
			w.flow(w.nodes[spec], nexts[i], spec.Value)
		}
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
		then, els := branchEntries(s, next, w.entry)
		f.Step(p, from, then)
		f.Step(p, from, els)
	case *ast.WhileStmt:
		from := w.nodes[s]
		f.Step(p, from, w.entry(s.Body, from))
		f.Step(p, from, next)
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
