package frontend

import (
	"context"
	"fmt"
	"go/constant"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
	"github.com/cbreach/cbreach/pds"
)

// cell is one scalar storage place: a global or a local of the network
// (an array has one cell per element).
type cell struct {
	g *pds.Global
	l *pds.Local
}

func (x cell) typ() pds.Type {
	if x.g != nil {
		return x.g.Type
	}
	return x.l.Type
}

// point describes a label for the tests that compare the network with
// the interpreter (package frontend/internal/interp): which statement it
// stands for and, for a return label of its own, where it continues.
type point struct {
	node  ast.Node // the statement, declarator, *ast.ProcDecl (end) or error site
	tag   string   // "stmt", "end", "ret", "assert", "bounds", "div"
	alias *pds.Label
	oob   []*pds.Label // for "ret": error label of $oob value k+1
	proc  *procState
}

type compiler struct {
	u    *unit
	info *types.Info
	b    *pds.Builder
	n    *pds.Network
	m    *bdd.Manager
	net  *pds.Network

	globals    map[*types.Var][]cell
	procs      map[*types.Proc]*procState
	labelNames map[string]bool
	points     map[*pds.Label]*point
	link       bdd.VarSet // the intermediate copies of atomic composition

	ps *procState // the procedure being compiled

	// sym, during the symbolic execution of an atomic body, holds the
	// values the cells have so far (see sym.go); reads go through it.
	sym *symPath
	// noSym makes atomic bodies compile by composition only (tests).
	noSym bool
	// oneGroup puts every variable into one order group, the order by
	// significance across all variables (tests).
	oneGroup bool
	// guard is what every rule requires of the current globals: true, or
	// with Options.Halt "the halt flag is clear".
	guard bdd.Node
	// haltName is Options.Halt; halt is its global once declared.
	haltName string
	halt     *pds.Global
}

type procState struct {
	tp     *types.Proc
	p      *pds.Proc
	locals map[*types.Var][]cell
	oob    *pds.Local // hidden: which bounds error a receive met (0: none)

	labels    map[ast.Node]*pds.Label // statement points
	end       *pds.Label
	errLabels map[ast.Node]*pds.Label
	labeled   map[*ast.LabeledStmt]*pds.Label // entries of labeled statements
	gotos     []pendingGoto
	recvSig   map[*pds.Label]string // how a return point receives

	id bdd.Node // globals and locals unchanged
}

type pendingGoto struct {
	from   *pds.Label
	target *ast.LabeledStmt
}

func compile(u *unit, opts Options) (*compiler, error) { return compileWith(u, opts, false) }

func compileWith(u *unit, opts Options, noSym bool) (c *compiler, err error) {
	c = &compiler{
		noSym:      noSym,
		oneGroup:   opts.oneGroup,
		haltName:   opts.Halt,
		u:          u,
		info:       u.info,
		b:          pds.NewBuilder(pds.Options{MaxThreads: opts.MaxThreads, BDD: opts.BDD}),
		globals:    map[*types.Var][]cell{},
		procs:      map[*types.Proc]*procState{},
		labelNames: map[string]bool{},
		points:     map[*pds.Label]*point{},
	}
	c.b.ProgramThreads(countThreads(u.info))
	c.declare()
	if err := c.b.Fits(); err != nil {
		return nil, fmt.Errorf("frontend: %w", err)
	}
	c.m = c.b.Manager()
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	// The relations are built under the caller's context and limits: a
	// wide multiplication can take minutes in one BDD operation.
	if err := c.m.Run(ctx, opts.Limits, c.build); err != nil {
		if bdd.IsLimit(err) {
			return nil, fmt.Errorf("frontend: %w", err)
		}
		return nil, err
	}
	return c, nil
}

// build adds the rules and threads, and builds the network.
func (c *compiler) build() error {
	c.n = c.b.Net()
	c.guard = c.m.True()
	if c.halt != nil {
		c.guard = c.m.Not(c.n.GlobalVec(c.halt, pds.GCur)[0])
	}
	s := c.n.Sets()
	c.link = c.m.Union(s.G[pds.GScratch], s.L[pds.LScratch])
	for _, tp := range c.info.Procs {
		c.labelProc(c.procs[tp])
	}
	for _, tp := range c.info.Procs {
		c.proc(c.procs[tp])
	}
	for i, s := range c.info.Starts {
		ps := c.procs[c.info.ProcOf(s.Call)]
		args := make([]uint64, len(s.Call.Args))
		for j, a := range s.Call.Args {
			args[j] = constCode(c.info.Types[a].Value, ps.p.Params[j].Type.Bits)
		}
		c.b.Thread(fmt.Sprintf("thread%d", i), pds.Call(ps.p, args...))
	}
	if err := c.m.Err(); err != nil {
		return fmt.Errorf("frontend: %w", err)
	}
	net, err := c.b.Build()
	if err != nil {
		if merr := c.m.Err(); merr != nil {
			return fmt.Errorf("frontend: %w", merr)
		}
		return internalError(err)
	}
	c.net = net
	return nil
}

// pdsType converts a checked type (of an array: its element type).
func pdsType(t types.Type) pds.Type {
	switch t := t.(type) {
	case *types.Array:
		return pdsType(t.Elem)
	case *types.Enum:
		return pds.EnumType(t.Obj.Name(), t.Values()...)
	case *types.Basic:
		if t.Kind == types.Int {
			return pds.IntType(t.Width)
		}
	}
	return pds.BoolType()
}

// pos expands the compact position of n (token.Pos) into the position the
// network records (pds.Pos, the same type as token.Position).
func (c *compiler) pos(n ast.Node) pds.Pos { return c.u.file.Position(n.Pos()) }

// srcText returns the source text of a node with runs of white space
// collapsed.
func (c *compiler) srcText(n ast.Node) string {
	lo, hi := int(n.Pos())-1, int(n.End())-1
	if lo < 0 || hi > len(c.u.src) || lo > hi {
		return types.ExprString(n.(ast.Expr))
	}
	return strings.Join(strings.Fields(string(c.u.src[lo:hi])), " ")
}

// elements returns the names and count of a variable's cells.
func elements(v *types.Var) (names []string) {
	if a, ok := v.Type().(*types.Array); ok {
		for i := 0; i < a.Len; i++ {
			names = append(names, fmt.Sprintf("%s[%d]", v.Name(), i))
		}
		return names
	}
	return []string{v.Name()}
}

// declare is the first phase: globals, procedures with their parameters
// and locals, and the procedures that may be started as threads.
func (c *compiler) declare() {
	groups, locals := orderGroups(c.info)
	if c.oneGroup {
		groups, locals = make([]int, len(groups)), 0
	}
	c.b.LocalGroup(locals)
	for i, v := range c.info.Globals {
		t := pdsType(v.Type())
		init := pds.Init{}
		switch val := v.Spec.Value.(type) {
		case nil:
		case *ast.Wildcard:
			init.Any = true
		default:
			init.Value = constCode(c.info.Types[val].Value, t.Bits)
		}
		for _, name := range elements(v) {
			g := c.b.Global(name, t, init, c.pos(v.Spec.Name))
			g.Group = groups[i]
			c.globals[v] = append(c.globals[v], cell{g: g})
			if name == c.haltName && t.Kind == pds.Bool {
				c.halt = g
			}
		}
	}
	for _, tp := range c.info.Procs {
		var result *pds.Type
		if tp.Result != nil {
			t := pdsType(tp.Result)
			result = &t
		}
		ps := &procState{
			tp:        tp,
			p:         c.b.Proc(tp.Name(), result, c.pos(tp.Decl.Name)),
			locals:    map[*types.Var][]cell{},
			labels:    map[ast.Node]*pds.Label{},
			errLabels: map[ast.Node]*pds.Label{},
			labeled:   map[*ast.LabeledStmt]*pds.Label{},
			recvSig:   map[*pds.Label]string{},
		}
		c.procs[tp] = ps
		used := map[string]int{}
		for _, v := range tp.Locals {
			t := pdsType(v.Type())
			name := v.Name()
			if used[name]++; used[name] > 1 {
				name = fmt.Sprintf("%s#%d", name, used[name])
			}
			pos := c.u.file.Position(v.Pos())
			if v.Kind == types.Param {
				ps.locals[v] = []cell{{l: c.b.Param(ps.p, name, t, pos)}}
				continue
			}
			for _, el := range elements(v) {
				el = name + strings.TrimPrefix(el, v.Name())
				ps.locals[v] = append(ps.locals[v], cell{l: c.b.Local(ps.p, el, t, pos)})
			}
		}
		if k := maxReceiveSites(tp.Decl.Body); k > 0 {
			ps.oob = c.b.Local(ps.p, "$oob", pds.IntType(bdd.BitsFor(k+1)), pds.Pos{})
		}
	}
	for _, tp := range c.info.Spawned {
		// A start passes the arguments; the other locals start at 0.
		c.b.SpawnableWithParams(c.procs[tp].p)
	}
}

// maxReceiveSites returns the largest number of index expressions in the
// target of an assignment a[i] = f(...) in body: the bounds errors its
// receive relation may have to tell apart.
func maxReceiveSites(body *ast.BlockStmt) int {
	k := 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
				if ix, ok := s.Lhs[0].(*ast.IndexExpr); ok {
					if _, ok := s.Rhs[0].(*ast.CallExpr); ok {
						k = max(k, countIndex(ix))
					}
				}
			}
			return false
		case ast.Stmt:
			return true
		}
		return false // expressions and declarations hold no statements
	})
	return k
}

// countIndex returns the number of error sites in e: index expressions,
// divisions and remainders.
func countIndex(e ast.Expr) int {
	k := 0
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			k++
		case *ast.BinaryExpr:
			if n.Op == token.QUO || n.Op == token.REM {
				k++
			}
		}
		return true
	})
	return k
}

// ----------------------------------------------------------------------------
// Labels

func (c *compiler) uniqueName(base string) string {
	name := base
	for i := 2; c.labelNames[name]; i++ {
		name = fmt.Sprintf("%s#%d", base, i)
	}
	c.labelNames[name] = true
	return name
}

// stmtLabel creates the label of a statement point: "proc.L<line>", or
// with the column when the line already has one.
func (c *compiler) stmtLabel(node ast.Node, pos pds.Pos) *pds.Label {
	ps := c.ps
	base := fmt.Sprintf("%s.L%d", ps.p.Name, pos.Line)
	if c.labelNames[base] {
		base = fmt.Sprintf("%s.L%dc%d", ps.p.Name, pos.Line, pos.Col)
	}
	l := c.b.Label(ps.p, c.uniqueName(base), pos)
	ps.labels[node] = l
	c.points[l] = &point{node: node, tag: "stmt", proc: ps}
	return l
}

// allocate creates the labels of the statement points of s in source
// order (eachPoint).
func (c *compiler) allocate(s ast.Stmt) {
	eachPoint(s, func(key, at ast.Node) { c.stmtLabel(key, c.pos(at)) })
}

// entry returns the label where s starts when next follows it.
func (c *compiler) entry(s ast.Stmt, next *pds.Label) *pds.Label {
	if k := entryPoint(s); k != nil {
		return c.ps.labels[k]
	}
	return next
}

// errLabel returns the error label of an assertion or an index
// expression, creating it on first use.
func (c *compiler) errLabel(site ast.Node) *pds.Label {
	ps := c.ps
	if l := ps.errLabels[site]; l != nil {
		return l
	}
	pos := c.pos(site)
	var l *pds.Label
	switch site := site.(type) {
	case *ast.AssertStmt:
		name := c.uniqueName(fmt.Sprintf("%s.L%d.assert", ps.p.Name, pos.Line))
		msg := "assert(" + c.srcText(site.X) + ")"
		if site.Msg != "" {
			msg = site.Msg
		}
		l = c.b.ErrorLabel(ps.p, name, pds.Assert, msg, pos)
		c.points[l] = &point{node: site, tag: "assert", proc: ps}
	case *ast.IndexExpr:
		name := c.uniqueName(fmt.Sprintf("%s.L%d.bounds", ps.p.Name, pos.Line))
		n := len(c.cells(c.info.VarOf(site)))
		l = c.b.ErrorLabel(ps.p, name, pds.Bounds, fmt.Sprintf("index out of range: %s (size %d)", c.srcText(site), n), pos)
		c.points[l] = &point{node: site, tag: "bounds", proc: ps}
	case *ast.BinaryExpr: // a division or remainder by zero
		pos = c.u.file.Position(site.OpPos)
		name := c.uniqueName(fmt.Sprintf("%s.L%d.div", ps.p.Name, pos.Line))
		l = c.b.ErrorLabel(ps.p, name, pds.DivZero, "division by zero: "+c.srcText(site), pos)
		c.points[l] = &point{node: site, tag: "div", proc: ps}
	default:
		panic(fmt.Sprintf("frontend: error site %T", site))
	}
	ps.errLabels[site] = l
	return l
}

// ----------------------------------------------------------------------------
// Rules

// step adds a step rule unless its relation is empty.
func (c *compiler) step(from, to *pds.Label, rel bdd.Node) {
	if rel = c.m.And(rel, c.guard); rel.IsFalse() {
		return
	}
	c.b.Step(from, to, rel, from.Pos)
}

// emitOutcome adds the steps of a statement's outcome.
func (c *compiler) emitOutcome(from, next *pds.Label, o outcome) {
	c.step(from, next, o.normal)
	for _, e := range o.errs {
		c.step(from, e.label, e.rel)
	}
}

// errSteps adds the steps to the error labels of evaluation errors.
func (c *compiler) errSteps(from *pds.Label, errs []errCase) {
	for _, e := range errs {
		c.step(from, c.errLabel(e.site), c.m.And(e.cond, c.ps.id))
	}
}

// labelProc creates the labels of a procedure's statements, in source
// order, and its end label.
func (c *compiler) labelProc(ps *procState) {
	c.ps = ps
	body := ps.tp.Decl.Body
	c.allocate(body)
	ps.end = c.b.Label(ps.p, c.uniqueName(ps.p.Name+".end"), c.u.file.Position(body.Rbrace))
	c.points[ps.end] = &point{node: ps.tp.Decl, tag: "end", proc: ps}
	c.b.SetEntry(c.entry(body, ps.end))
	c.ps = nil
}

// proc adds the rules of a procedure.
func (c *compiler) proc(ps *procState) {
	c.ps = ps
	n, m := c.n, c.m
	ps.id = m.And(n.Unchanged(), n.LocalsUnchanged(ps.p, pds.LNext))
	flowWalk[*pds.Label]{entry: c.entry, labeled: ps.labeled, point: c.stmt}.walk(ps.tp.Decl.Body, ps.end, nil, nil)
	// Falling off the end returns the zero value.
	c.pop(ps.end, c.retZero())
	for _, g := range ps.gotos {
		c.step(g.from, ps.labeled[g.target], ps.id)
	}
	c.ps = nil
}

// retZero returns "the return register is 0": the value of falling off
// the end, and the (ignored) value of a procedure without result.
func (c *compiler) retZero() bdd.Node {
	return c.m.Assign(c.n.RetVec(c.n.RetBits), c.m.ConstVec(0, 1))
}

// pop adds a return from l whose relation rel sets the return register.
func (c *compiler) pop(l *pds.Label, rel bdd.Node) {
	rel = c.m.And(rel, c.n.Unchanged(), c.guard)
	if rel.IsFalse() {
		return
	}
	c.b.Pop(l, rel, l.Pos)
}

// stmt adds the rules of a statement with a point of its own, which next
// follows (brk and cont: a break's and a continue's targets); flowWalk
// walks the statements nested in it.
func (c *compiler) stmt(s ast.Stmt, next, brk, cont *pds.Label) {
	ps := c.ps
	switch s := s.(type) {
	case *ast.DeclStmt:
		nexts := specNexts(s, next, ps.labels)
		for i, spec := range s.Decl.Specs {
			nx := nexts[i]
			from := ps.labels[spec]
			if call, ok := spec.Value.(*ast.CallExpr); ok {
				v := c.info.Specs[spec]
				c.call(from, s, call, &target{cells: c.cells(v)}, nx)
				continue
			}
			c.emitOutcome(from, nx, c.declOutcome(spec))
		}
	case *ast.SkipStmt:
		c.step(ps.labels[s], next, ps.id)
	case *ast.AssignStmt:
		from := ps.labels[s]
		if call, ok := s.Rhs[0].(*ast.CallExpr); ok && len(s.Rhs) == 1 {
			t := &target{cells: c.cells(c.info.VarOf(s.Lhs[0]))}
			if ix, ok := s.Lhs[0].(*ast.IndexExpr); ok {
				t.index = ix
			}
			c.call(from, s, call, t, next)
			return
		}
		c.emitOutcome(from, next, c.assignOutcome(s))
	case *ast.CallStmt:
		c.call(ps.labels[s], s, s.Call, nil, next)
	case *ast.ReturnStmt:
		c.ret(ps.labels[s], s)
	case *ast.IfStmt:
		then, els := branchEntries(s, next, c.entry)
		c.cond(ps.labels[s], s.Cond, then, els)
	case *ast.WhileStmt:
		from := ps.labels[s]
		c.cond(from, s.Cond, c.entry(s.Body, from), next)
	case *ast.BranchStmt:
		from := ps.labels[s]
		switch s.Label {
		case nil:
			to := brk
			if s.Tok == token.CONTINUE {
				to = cont
			}
			c.step(from, to, ps.id)
		default:
			ps.gotos = append(ps.gotos, pendingGoto{from, c.info.Targets[s].(*ast.LabeledStmt)})
		}
	case *ast.AssertStmt:
		c.emitOutcome(ps.labels[s], next, c.assertOutcome(s))
	case *ast.AtomicStmt:
		c.emitOutcome(ps.labels[s], next, c.blockOutcome(s.Body.List))
	case *ast.StartStmt:
		c.fork(ps.labels[s], s, next)
	default:
		panic(fmt.Sprintf("frontend: unexpected statement %T", s))
	}
}

// cond adds the steps of an if or while test.
func (c *compiler) cond(from *pds.Label, e ast.Expr, then, els *pds.Label) {
	id := c.ps.id
	if _, ok := e.(*ast.Wildcard); ok {
		c.step(from, then, id)
		c.step(from, els, id)
		return
	}
	x := c.expr(e)
	ok := c.okOf(x.errs)
	c.step(from, then, c.m.And(ok, x.v[0], id))
	c.step(from, els, c.m.And(ok, c.m.Not(x.v[0]), id))
	c.errSteps(from, x.errs)
}

// ret adds the pop rule of a return statement.
func (c *compiler) ret(from *pds.Label, s *ast.ReturnStmt) {
	if s.Result == nil {
		c.pop(from, c.retZero())
		return
	}
	x := c.expr(s.Result)
	bits := c.ps.p.Result.Bits
	rel := c.m.And(c.okOf(x.errs), c.m.Assign(c.n.RetVec(c.n.RetBits), c.m.Resize(x.v, bits)))
	c.pop(from, rel)
	c.errSteps(from, x.errs)
}

// target is where a call's result goes: a variable, or an array element
// whose index is evaluated at the return.
type target struct {
	cells []cell
	index *ast.IndexExpr
}

// args evaluates a call's arguments and returns the relation that passes
// them to callee's parameters in copy lc, every other local of the callee
// being zero.
func (c *compiler) args(call *ast.CallExpr, callee *procState, lc int) (bdd.Node, []errCase) {
	m := c.m
	rel := m.True()
	var errs []errCase
	for i, a := range call.Args {
		x := c.expr(a)
		errs = c.seq(errs, c.okOf(errs), x.errs)
		prm := callee.p.Params[i]
		rel = m.And(rel, m.Assign(c.n.LocalVec(prm, lc), x.v))
	}
	rel = m.And(rel, c.n.LocalsZero(callee.p, lc, callee.p.Params...))
	return m.And(rel, c.okOf(errs)), errs
}

// call compiles a call: a push rule from from to the callee's entry, and
// the return point's receive relation when the result is stored.
func (c *compiler) call(from *pds.Label, s ast.Node, call *ast.CallExpr, t *target, next *pds.Label) {
	ps, m, n := c.ps, c.m, c.n
	callee := c.procs[c.info.ProcOf(call)]
	rel, errs := c.args(call, callee, pds.LNext)
	rel = m.And(rel, n.LocalsUnchanged(ps.p, pds.LSaved), n.Unchanged())

	// The return point is next itself unless next already receives in
	// another way (or a[i] = f(...) needs the bounds step).
	ret := next
	switch {
	case t == nil:
		if sig, ok := ps.recvSig[next]; ok && sig != "" {
			ret = c.retLabel(from, s, next)
			c.step(ret, next, ps.id)
		} else {
			ps.recvSig[next] = ""
		}
	case t.index == nil:
		sig := fmt.Sprintf("%p/%p", t.cells[0].g, t.cells[0].l)
		switch old, ok := ps.recvSig[next]; {
		case !ok:
			ps.recvSig[next] = sig
			c.b.SetRecv(next, c.recvScalar(callee, t))
		case old != sig:
			ret = c.retLabel(from, s, next)
			c.b.SetRecv(ret, c.recvScalar(callee, t))
			c.step(ret, next, ps.id)
		}
	default:
		ret = c.retLabel(from, s, next)
	}
	if rel = m.And(rel, c.guard); !rel.IsFalse() {
		c.b.Push(from, callee.p.Entry, ret, rel, from.Pos)
	}
	c.errSteps(from, errs)
	if t != nil && t.index != nil {
		c.recvElement(callee, t, ret, next)
	}
}

// retLabel creates a return point of its own for the call at from, which
// continues to next.
func (c *compiler) retLabel(from *pds.Label, s ast.Node, next *pds.Label) *pds.Label {
	l := c.b.Label(c.ps.p, c.uniqueName(from.Name+".ret"), from.Pos)
	c.ps.recvSig[l] = "own"
	c.points[l] = &point{node: s, tag: "ret", alias: next, proc: c.ps}
	if t := c.ps.labels[s]; t == nil {
		// s is a declaration: the point is its declarator's label.
		c.points[l].node = c.points[from].node
	}
	return l
}

// retValue returns the returned value of callee, with the validity of an
// enum.
func (c *compiler) retValue(callee *procState) (bdd.Vec, bdd.Node) {
	t := *callee.p.Result
	v := c.n.RetVec(t.Bits)
	return v, c.n.ValidType(v, t)
}

// recvScalar is the receive relation that stores the result into a
// variable.
func (c *compiler) recvScalar(callee *procState, t *target) bdd.Node {
	v, valid := c.retValue(callee)
	return c.m.And(valid, c.writeRel([]write{{cells: t.cells, val: v}}))
}

// recvElement sets the receive relation of ret for a[i] = f(...): the
// index is evaluated at the return; in range, the element gets the value;
// out of range, nothing changes but the hidden local $oob, which records
// which bounds error happened, and the only step from ret leads to that
// error label. Otherwise ret steps on to next.
func (c *compiler) recvElement(callee *procState, t *target, ret, next *pds.Label) {
	ps, m, n := c.ps, c.m, c.n
	v, valid := c.retValue(callee)
	ix := c.index(t.index) // value unused; its errors are the index's
	idx := c.expr(t.index.Index)
	errs := ix.errs
	ok := c.okOf(errs)
	oob := []cell{{l: ps.oob}}
	zero := m.ConstVec(0, ps.oob.Type.Bits)
	recv := m.And(ok, c.writeRel([]write{{cells: t.cells, index: idx.v, val: v}, {cells: oob, val: zero}}))
	pt := c.points[ret]
	oobNow := n.LocalVec(ps.oob, pds.LCur)
	for k, e := range errs {
		code := m.ConstVec(uint64(k+1), ps.oob.Type.Bits)
		recv = m.Or(recv, m.And(e.cond, c.writeRel([]write{{cells: oob, val: code}})))
		el := c.errLabel(e.site)
		pt.oob = append(pt.oob, el)
		c.step(ret, el, m.And(m.Eq(oobNow, code), ps.id))
	}
	c.b.SetRecv(ret, m.And(recv, valid))
	c.step(ret, next, m.And(m.Eq(oobNow, zero), ps.id))
}

// fork compiles start f(args) inside a procedure.
func (c *compiler) fork(from *pds.Label, s *ast.StartStmt, next *pds.Label) {
	ps, m, n := c.ps, c.m, c.n
	child := c.procs[c.info.ProcOf(s.Call)]
	rel, errs := c.args(s.Call, child, pds.LSaved)
	rel = m.And(rel, n.LocalsUnchanged(ps.p, pds.LNext), n.Unchanged(), c.guard)
	if !rel.IsFalse() {
		c.b.Fork(from, next, child.p, rel, from.Pos)
	}
	c.errSteps(from, errs)
}

// cells returns the cells of a variable of the current procedure or a
// global.
func (c *compiler) cells(v *types.Var) []cell {
	if v.Kind == types.Global {
		return c.globals[v]
	}
	return c.procs[v.Proc].locals[v]
}

// read returns the value of a cell when an expression reads it: its
// current copy, or its value so far in a symbolically executed atomic body.
func (c *compiler) read(x cell) bdd.Vec {
	if c.sym != nil {
		if v, ok := c.sym.vals[x]; ok {
			return v
		}
	}
	return c.cur(x)
}

func (c *compiler) cur(x cell) bdd.Vec {
	if x.g != nil {
		return c.n.GlobalVec(x.g, pds.GCur)
	}
	return c.n.LocalVec(x.l, pds.LCur)
}

func (c *compiler) next(x cell) bdd.Vec {
	if x.g != nil {
		return c.n.GlobalVec(x.g, pds.GNext)
	}
	return c.n.LocalVec(x.l, pds.LNext)
}

// constVec returns a constant expression's value in its recorded type.
func (c *compiler) constVec(tv types.TypeAndValue) bdd.Vec {
	w := tv.Type.Bits()
	if w == 0 { // untyped
		w = 1
		if tv.Value.Kind() == constant.Int {
			w = max(1, constant.BitLen(tv.Value))
		}
	}
	return c.m.ConstVec(types.Uint64(tv.Value), w)
}

// constCode returns a constant stored into a variable of the given width:
// its code, truncated (a constant with a width, which the C reader's
// conversions make, may be wider than its target; a constant without one
// fits).
func constCode(v constant.Value, bits int) uint64 {
	return types.Uint64(v) & (^uint64(0) >> (64 - bits))
}
