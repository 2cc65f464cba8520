// Package interp is a small-step interpreter of checked .pds programs,
// written directly over the syntax tree and the checker's side tables,
// without the compiler. It is slow and simple on purpose: it is the second
// opinion that the differential tests of package frontend compare the
// compiled network with (docs/design.md, "Testing the engine").
//
// The steps are those of docs/language.md: each simple statement, each test of
// a condition, each call, each return and each atomic block is one step of
// its thread. A frame's control point is the statement to run next (found
// by walking the tree upwards), the end of its procedure, a call waiting
// for its callee, or a dead end (a failed assertion, an index out of
// range, a division by zero, a start beyond the thread bound). It also
// runs the nodes only readers build (frontend/doc.go), with an
// implementation of its own: it shares no arithmetic with the checker's
// constant folding or the compiler's circuits.
package interp

import (
	"fmt"
	"go/constant"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
)

// Kind is the kind of a control point.
type Kind int

// The kinds of control points.
const (
	Stmt    Kind = iota // about to run Node (a statement or a declarator)
	End                 // at the end of the procedure (Node: *ast.ProcDecl)
	Wait                // waiting for the callee of the call statement Node
	Assert              // dead end: the assertion Node failed
	Bounds              // dead end: the index expression Node was out of range
	Cutoff              // dead end: the start Node found every thread slot taken
	DivZero             // dead end: the division or remainder Node divided by zero
)

func (k Kind) String() string {
	return [...]string{"stmt", "end", "wait", "assert", "bounds", "cutoff", "div"}[k]
}

// errPoint is the dead end of an evaluation error at site: an index out of
// range (an *ast.IndexExpr) or a division by zero (an *ast.BinaryExpr).
func errPoint(site ast.Expr) Point {
	if _, ok := site.(*ast.BinaryExpr); ok {
		return Point{site, DivZero}
	}
	return Point{site, Bounds}
}

// Point is a control point.
type Point struct {
	Node ast.Node
	Kind Kind
}

// Frame is a stack frame: a procedure, its control point and its locals
// (one value per cell: the procedure's Locals in order, arrays expanded).
type Frame struct {
	Proc   *types.Proc
	PC     Point
	Locals []uint64
}

// Config is a configuration: the globals (one value per cell, in
// declaration order, arrays expanded) and one stack per thread, bottom
// first. An empty stack is a finished thread.
type Config struct {
	Globals []uint64
	Threads [][]Frame
}

// Program is a checked program ready to run.
type Program struct {
	File *token.File
	Info *types.Info
	f    *ast.File

	gOff   map[*types.Var]int
	nG     int
	lOff   map[*types.Var]int
	nL     map[*types.Proc]int
	parent map[ast.Node]ast.Node
	decl   map[*ast.VarSpec]*ast.DeclStmt
	procOf map[*ast.ProcDecl]*types.Proc
}

// New prepares a checked program.
func New(file *token.File, f *ast.File, info *types.Info) *Program {
	p := &Program{File: file, Info: info, f: f,
		gOff: map[*types.Var]int{}, lOff: map[*types.Var]int{}, nL: map[*types.Proc]int{},
		parent: map[ast.Node]ast.Node{}, decl: map[*ast.VarSpec]*ast.DeclStmt{},
		procOf: map[*ast.ProcDecl]*types.Proc{}}
	for _, v := range info.Globals {
		p.gOff[v] = p.nG
		p.nG += cellsOf(v)
	}
	for _, pr := range info.Procs {
		p.procOf[pr.Decl] = pr
		n := 0
		for _, v := range pr.Locals {
			p.lOff[v] = n
			n += cellsOf(v)
		}
		p.nL[pr] = n
		p.parents(pr.Decl.Body, pr.Decl)
	}
	return p
}

func cellsOf(v *types.Var) int {
	if a, ok := v.Type().(*types.Array); ok {
		return a.Len
	}
	return 1
}

// parents records the parent of s and of every statement under it outside
// atomic blocks (whose bodies run as one step), and the declaration
// statement of every declarator.
func (p *Program) parents(s ast.Stmt, parent ast.Node) {
	stack := []ast.Node{parent}
	ast.Inspect(s, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		s, ok := n.(ast.Stmt)
		if !ok {
			return false // expressions hold no statements
		}
		p.parent[s] = stack[len(stack)-1]
		switch s := s.(type) {
		case *ast.BlockStmt, *ast.LabeledStmt, *ast.IfStmt, *ast.WhileStmt:
			stack = append(stack, s)
			return true
		case *ast.DeclStmt:
			for _, spec := range s.Decl.Specs {
				p.decl[spec] = s
			}
		}
		return false
	})
}

// entryPoint returns the point where s starts.
func (p *Program) entryPoint(s ast.Stmt) Point {
	switch s := s.(type) {
	case *ast.BlockStmt:
		if len(s.List) == 0 {
			return p.after(s)
		}
		return p.entryPoint(s.List[0])
	case *ast.LabeledStmt:
		return p.entryPoint(s.Stmt)
	case *ast.DeclStmt:
		return Point{s.Decl.Specs[0], Stmt}
	}
	return Point{s, Stmt}
}

// After returns the point that follows the statement or declarator n when
// it completes normally.
func (p *Program) After(n ast.Node) Point { return p.after(n) }

// after returns the point that follows the statement or declarator n when
// it completes normally.
func (p *Program) after(n ast.Node) Point {
	if spec, ok := n.(*ast.VarSpec); ok {
		d := p.decl[spec]
		for i, s := range d.Decl.Specs {
			if s == spec && i+1 < len(d.Decl.Specs) {
				return Point{d.Decl.Specs[i+1], Stmt}
			}
		}
		return p.after(d)
	}
	switch par := p.parent[n].(type) {
	case *ast.BlockStmt:
		for i, s := range par.List {
			if s == n && i+1 < len(par.List) {
				return p.entryPoint(par.List[i+1])
			}
		}
		return p.after(par)
	case *ast.WhileStmt:
		return Point{par, Stmt}
	case *ast.IfStmt, *ast.LabeledStmt:
		return p.after(par)
	case *ast.ProcDecl:
		return Point{par, End}
	}
	panic(fmt.Sprintf("interp: no parent for %T", n))
}

// Key returns a canonical string of c.
func (c Config) Key() string {
	var b strings.Builder
	fmt.Fprint(&b, c.Globals)
	for _, t := range c.Threads {
		b.WriteString("|")
		for _, f := range t {
			fmt.Fprintf(&b, "%s/%p/%d%v;", f.Proc.Name(), f.PC.Node, f.PC.Kind, f.Locals)
		}
	}
	return b.String()
}

func (c Config) clone() Config {
	d := Config{Globals: append([]uint64(nil), c.Globals...), Threads: make([][]Frame, len(c.Threads))}
	for i, t := range c.Threads {
		d.Threads[i] = make([]Frame, len(t))
		for j, f := range t {
			d.Threads[i][j] = Frame{f.Proc, f.PC, append([]uint64(nil), f.Locals...)}
		}
	}
	return d
}

// ----------------------------------------------------------------------------
// Values

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// count returns the number of valid values of a type.
func count(t types.Type) uint64 {
	if a, ok := t.(*types.Array); ok {
		t = a.Elem
	}
	if e, ok := t.(*types.Enum); ok {
		return uint64(len(e.Consts))
	}
	return 1 << uint(t.Bits())
}

// world is the state one thread's step works on.
type world struct {
	g, l []uint64
}

func (w world) clone() world {
	return world{append([]uint64(nil), w.g...), append([]uint64(nil), w.l...)}
}

// ref returns the slice and offset of a variable's cells.
func (p *Program) ref(w world, v *types.Var) ([]uint64, int) {
	if v.Kind == types.Global {
		return w.g, p.gOff[v]
	}
	return w.l, p.lOff[v]
}

// eval evaluates e; a non-nil site is the first error met: an index out
// of range (*ast.IndexExpr) or a division by zero (*ast.BinaryExpr).
func (p *Program) eval(e ast.Expr, w world) (uint64, ast.Expr) {
	tv := p.Info.Types[e]
	if tv.Value != nil {
		return types.Uint64(tv.Value), nil
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return p.eval(e.X, w)
	case *ast.Ident:
		s, off := p.ref(w, p.Info.Uses[e].(*types.Var))
		return s[off], nil
	case *ast.IndexExpr:
		k, site := p.indexOf(e, w)
		if site != nil {
			return 0, site
		}
		s, off := p.ref(w, p.Info.VarOf(e))
		return s[off+k], nil
	case *ast.UnaryExpr:
		x, site := p.eval(e.X, w)
		if site != nil {
			return 0, site
		}
		switch e.Op {
		case token.NOT:
			return 1 - x, nil
		case token.TILDE:
			return ^x & mask(tv.Type.Bits()), nil
		}
		return -x & mask(tv.Type.Bits()), nil
	case *ast.ConvExpr:
		x, site := p.eval(e.X, w)
		if site != nil {
			return 0, site
		}
		if e.Width == 0 {
			return b2u(x != 0), nil
		}
		if b, ok := p.Info.Types[e.X].Type.(*types.Basic); ok && b.Kind == types.Int && e.Signed {
			return uint64(signed(x, b.Width)) & mask(e.Width), nil
		}
		return x & mask(e.Width), nil
	case *ast.CondExpr:
		c, site := p.eval(e.Cond, w)
		if site != nil {
			return 0, site
		}
		if c == 1 {
			return p.eval(e.Then, w)
		}
		return p.eval(e.Else, w)
	case *ast.BinaryExpr:
		x, site := p.eval(e.X, w)
		if site != nil {
			return 0, site
		}
		switch e.Op {
		case token.LAND:
			if x == 0 {
				return 0, nil
			}
			return p.eval(e.Y, w)
		case token.LOR:
			if x == 1 {
				return 1, nil
			}
			return p.eval(e.Y, w)
		}
		y, site := p.eval(e.Y, w)
		if site != nil {
			return 0, site
		}
		return p.binary(e, tv.Type, x, y)
	}
	panic(fmt.Sprintf("interp: cannot evaluate %T", e))
}

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// signed reads the low w bits of v as a two's complement number.
func signed(v uint64, w int) int64 {
	v &= mask(w)
	if v>>(w-1)&1 == 1 {
		return int64(v) - int64(1)<<w
	}
	return int64(v)
}

// binary applies the operator of e to the values x and y of its operands;
// t is e's type. The site is e for a division by zero.
func (p *Program) binary(e *ast.BinaryExpr, t types.Type, x, y uint64) (uint64, ast.Expr) {
	m := mask(t.Bits())
	xw, yw := p.Info.Types[e.X].Type.Bits(), p.Info.Types[e.Y].Type.Bits()
	sx, sy := signed(x, max(xw, 1)), signed(y, max(yw, 1))
	switch e.Op {
	case token.ADD:
		return (x + y) & m, nil
	case token.SUB:
		return (x - y) & m, nil
	case token.MUL:
		return (x * y) & m, nil
	case token.AND:
		return x & y, nil
	case token.OR:
		return x | y, nil
	case token.XOR:
		return x ^ y, nil
	case token.QUO, token.REM:
		if y == 0 {
			return 0, e
		}
		switch {
		case !e.Signed && e.Op == token.QUO:
			return x / y, nil
		case !e.Signed:
			return x % y, nil
		case e.Op == token.QUO:
			return uint64(sx/sy) & m, nil // Go wraps MinInt64 / -1 too
		}
		return uint64(sx%sy) & m, nil
	case token.SHL:
		if y >= 64 {
			return 0, nil
		}
		return (x << y) & m, nil
	case token.SHR:
		if e.Signed {
			return uint64(sx>>min(y, 63)) & m, nil
		}
		if y >= 64 {
			return 0, nil
		}
		return x >> y, nil
	case token.EQL:
		return b2u(x == y), nil
	case token.NEQ:
		return b2u(x != y), nil
	}
	if e.Signed {
		x, y = uint64(sx)^1<<63, uint64(sy)^1<<63 // the signed order as unsigned
	}
	switch e.Op {
	case token.LSS:
		return b2u(x < y), nil
	case token.LEQ:
		return b2u(x <= y), nil
	case token.GTR:
		return b2u(x > y), nil
	case token.GEQ:
		return b2u(x >= y), nil
	}
	panic(fmt.Sprintf("interp: cannot evaluate operator %s", e.Op))
}

// indexOf evaluates the index of a[i] and checks its range.
func (p *Program) indexOf(e *ast.IndexExpr, w world) (int, ast.Expr) {
	n := uint64(p.Info.VarOf(e).Type().(*types.Array).Len)
	var k uint64
	if tv := p.Info.Types[e.Index]; tv.Value != nil {
		v, ok := constant.Uint64Val(tv.Value)
		if !ok {
			return 0, e
		}
		k = v
	} else {
		v, site := p.eval(e.Index, w)
		if site != nil {
			return 0, site
		}
		k = v
	}
	if k >= n {
		return 0, e
	}
	return int(k), nil
}

// ----------------------------------------------------------------------------
// Statements as relations on worlds

type status int

const (
	normal status = iota
	failed        // an error point was reached
)

// result is one outcome of running a statement on a world.
type result struct {
	w      world
	status status
	err    Point // when failed
}

func evalErr(w world, site ast.Expr) []result {
	return []result{{w: w, status: failed, err: errPoint(site)}}
}

// store writes v, truncated, into cell k of variable x.
func (p *Program) store(w world, x *types.Var, k int, v uint64) {
	s, off := p.ref(w, x)
	t := x.Type()
	if a, ok := t.(*types.Array); ok {
		t = a.Elem
	}
	s[off+k] = v & mask(t.Bits())
}

// assign runs an assignment without a call.
func (p *Program) assign(s *ast.AssignStmt, w world) []result {
	if _, ok := s.Rhs[0].(*ast.Wildcard); ok {
		x := p.Info.VarOf(s.Lhs[0])
		k := 0
		if ix, ok := s.Lhs[0].(*ast.IndexExpr); ok {
			var site ast.Expr
			if k, site = p.indexOf(ix, w); site != nil {
				return evalErr(w, site)
			}
		}
		var out []result
		for v := uint64(0); v < count(x.Type()); v++ {
			w2 := w.clone()
			p.store(w2, x, k, v)
			out = append(out, result{w: w2})
		}
		return out
	}
	vals := make([]uint64, len(s.Rhs))
	for i, r := range s.Rhs {
		v, site := p.eval(r, w)
		if site != nil {
			return evalErr(w, site)
		}
		vals[i] = v
	}
	ks := make([]int, len(s.Lhs))
	for i, l := range s.Lhs {
		if ix, ok := l.(*ast.IndexExpr); ok {
			k, site := p.indexOf(ix, w)
			if site != nil {
				return evalErr(w, site)
			}
			ks[i] = k
		}
	}
	w2 := w.clone()
	for i, l := range s.Lhs {
		p.store(w2, p.Info.VarOf(l), ks[i], vals[i])
	}
	return []result{{w: w2}}
}

// declare runs a declarator without a call.
func (p *Program) declare(spec *ast.VarSpec, w world) []result {
	x := p.Info.Specs[spec]
	n := cellsOf(x)
	switch init := spec.Value.(type) {
	case nil:
		w2 := w.clone()
		for k := 0; k < n; k++ {
			p.store(w2, x, k, 0)
		}
		return []result{{w: w2}}
	case *ast.Wildcard:
		out := []result{{w: w}}
		for k := 0; k < n; k++ {
			var next []result
			for _, r := range out {
				for v := uint64(0); v < count(x.Type()); v++ {
					w2 := r.w.clone()
					p.store(w2, x, k, v)
					next = append(next, result{w: w2})
				}
			}
			out = next
		}
		return out
	default:
		v, site := p.eval(init, w)
		if site != nil {
			return evalErr(w, site)
		}
		w2 := w.clone()
		p.store(w2, x, 0, v)
		return []result{{w: w2}}
	}
}

// check runs assert or assume.
func (p *Program) check(s *ast.AssertStmt, w world) []result {
	v, site := p.eval(s.X, w)
	switch {
	case site != nil:
		return evalErr(w, site)
	case v == 1:
		return []result{{w: w}}
	case s.Tok == token.ASSERT:
		return []result{{w: w, status: failed, err: Point{s, Assert}}}
	}
	return nil // assume blocks
}

// atomic runs the statements of an atomic body in order on every outcome
// of the ones before.
func (p *Program) atomic(list []ast.Stmt, w world) []result {
	out := []result{{w: w}}
	for _, s := range list {
		var next []result
		for _, r := range out {
			if r.status != normal {
				next = append(next, r)
				continue
			}
			next = append(next, p.atomicStmt(s, r.w)...)
		}
		out = next
	}
	return out
}

func (p *Program) atomicStmt(s ast.Stmt, w world) []result {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return p.atomic(s.List, w)
	case *ast.AtomicStmt:
		return p.atomic(s.Body.List, w)
	case *ast.SkipStmt:
		return []result{{w: w}}
	case *ast.DeclStmt:
		out := []result{{w: w}}
		for _, spec := range s.Decl.Specs {
			var next []result
			for _, r := range out {
				if r.status != normal {
					next = append(next, r)
					continue
				}
				next = append(next, p.declare(spec, r.w)...)
			}
			out = next
		}
		return out
	case *ast.AssignStmt:
		return p.assign(s, w)
	case *ast.AssertStmt:
		return p.check(s, w)
	case *ast.IfStmt:
		var branches []ast.Stmt
		if _, ok := s.Cond.(*ast.Wildcard); ok {
			branches = []ast.Stmt{s.Then, s.Else}
		} else {
			v, site := p.eval(s.Cond, w)
			if site != nil {
				return evalErr(w, site)
			}
			if v == 1 {
				branches = []ast.Stmt{s.Then}
			} else {
				branches = []ast.Stmt{s.Else}
			}
		}
		var out []result
		for _, b := range branches {
			if b == nil {
				out = append(out, result{w: w})
			} else {
				out = append(out, p.atomicStmt(b, w)...)
			}
		}
		return out
	}
	panic(fmt.Sprintf("interp: %T inside atomic", s))
}
