package types

import (
	"fmt"
	"go/constant"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/scanner"
	"github.com/cbreach/cbreach/frontend/token"
)

// MaxArrayLen bounds array sizes: every element is a variable of its own.
const MaxArrayLen = 1 << 16

// Check checks a parsed file and returns its side tables and every error
// found, sorted. The tables are complete for a file without errors; with
// errors they hold what could be determined.
func Check(file *token.File, f *ast.File) (*Info, scanner.ErrorList) {
	c := &checker{
		file: file,
		info: &Info{
			Types:   map[ast.Expr]TypeAndValue{},
			Defs:    map[*ast.Ident]Object{},
			Uses:    map[*ast.Ident]Object{},
			Targets: map[*ast.BranchStmt]ast.Stmt{},
			Specs:   map[*ast.VarSpec]*Var{},
		},
		top:        newScope(nil),
		procLabel:  map[string]*Label{},
		spawned:    map[*Proc]bool{},
		paramScope: map[*Proc]*scope{},
	}
	c.checkFile(f)
	c.errors.Sort()
	return c.info, c.errors
}

type scope struct {
	parent *scope
	names  map[string]Object
}

func newScope(parent *scope) *scope { return &scope{parent: parent, names: map[string]Object{}} }

func (s *scope) lookup(name string) Object {
	for ; s != nil; s = s.parent {
		if o := s.names[name]; o != nil {
			return o
		}
	}
	return nil
}

type checker struct {
	file   *token.File
	info   *Info
	errors scanner.ErrorList
	top    *scope

	// procLabel maps a label name to one procedure's label of that name,
	// for the message about a goto into another procedure.
	procLabel  map[string]*Label
	spawned    map[*Proc]bool
	paramScope map[*Proc]*scope

	// per procedure
	proc   *Proc
	scope  *scope
	loops  []*ast.WhileStmt
	atomic int // nesting depth of atomic blocks

	inConst int // inside an expression that must be constant
}

func (c *checker) errorf(pos token.Pos, format string, args ...any) {
	c.errors.Add(c.file.Position(pos), fmt.Sprintf(format, args...))
}

func (c *checker) where(pos token.Pos) string {
	p := c.file.Position(pos)
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// declare adds obj to s under id, reporting a duplicate.
func (c *checker) declare(s *scope, id *ast.Ident, obj Object) {
	if id.Name == "_" && !id.Pos().IsValid() {
		return
	}
	if prev := s.names[id.Name]; prev != nil {
		c.errorf(id.Pos(), "%s is redeclared (previous declaration at %s)", id.Name, c.where(prev.Pos()))
		return
	}
	s.names[id.Name] = obj
	c.info.Defs[id] = obj
}

func (c *checker) checkFile(f *ast.File) {
	// 1. Collect the top-level names, so that declarations may come in any
	// order.
	type pending struct {
		d *ast.VarDecl
		s *ast.VarSpec
		v *Var
	}
	var procs []*ast.ProcDecl
	var vars []pending
	var consts []*Const
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.ConstDecl:
			k := &Const{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Decl: d}
			c.declare(c.top, d.Name, k)
			consts = append(consts, k)
		case *ast.EnumDecl:
			tn := &TypeName{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Decl: d}
			e := &Enum{Obj: tn}
			tn.typ = e
			c.declare(c.top, d.Name, tn)
			for i, v := range d.Values {
				k := &Const{object: object{name: v.Name, pos: v.Pos(), typ: e}, Val: constant.MakeInt64(int64(i)), state: 2}
				e.Consts = append(e.Consts, k)
				c.declare(c.top, v, k)
			}
			c.info.Enums = append(c.info.Enums, e)
		case *ast.VarDecl:
			for _, s := range d.Specs {
				v := &Var{object: object{name: s.Name.Name, pos: s.Name.Pos()}, Kind: Global, Spec: s}
				c.declare(c.top, s.Name, v)
				vars = append(vars, pending{d, s, v})
			}
		case *ast.ProcDecl:
			p := &Proc{object: object{name: d.Name.Name, pos: d.Name.Pos()}, Decl: d, Labels: map[string]*Label{}}
			c.declare(c.top, d.Name, p)
			procs = append(procs, d)
			p.Index = len(c.info.Procs)
			c.info.Procs = append(c.info.Procs, p)
		case *ast.StartStmt:
			c.info.Starts = append(c.info.Starts, d)
		}
	}

	// 2. Constants, in order; references resolve on demand.
	c.scope = c.top
	for _, k := range consts {
		c.resolveConst(k)
	}

	// 3. Globals.
	types := map[*ast.VarDecl]Type{}
	for _, pv := range vars {
		t, ok := types[pv.d]
		if !ok {
			t = c.typeExpr(pv.d.Type)
			types[pv.d] = t
		}
		t = c.arrayType(t, pv.s)
		pv.v.typ = t
		pv.v.Index = len(c.info.Globals)
		c.info.Globals = append(c.info.Globals, pv.v)
		c.info.Specs[pv.s] = pv.v
		c.globalInit(pv.v, pv.s)
	}

	// 4. Signatures, then bodies.
	for i, d := range procs {
		c.signature(c.info.Procs[i], d)
	}
	for i, d := range procs {
		c.collectLabels(c.info.Procs[i], d.Body)
	}
	for i, d := range procs {
		c.procBody(c.info.Procs[i], d)
	}

	// 5. Initial threads.
	c.scope = c.top
	for _, s := range c.info.Starts {
		c.start(s, true)
	}
	if len(c.info.Starts) == 0 {
		c.errorf(f.EOF, "no start statement at top level: the program has no thread")
	}
}

func (c *checker) resolveConst(k *Const) {
	switch k.state {
	case 2:
		return
	case 1:
		c.errorf(k.pos, "constant %s refers to itself", k.name)
		k.typ = Typ[Invalid]
		k.state = 2
		return
	}
	k.state = 1
	saved := c.scope
	c.scope = c.top
	x := c.constExpr(k.Decl.Value)
	c.scope = saved
	if k.state == 2 { // a cycle was reported meanwhile
		return
	}
	k.state = 2
	switch {
	case x.mode == invalid:
		k.typ = Typ[Invalid]
	case !isUntyped(x.typ):
		c.errorf(k.Decl.Value.Pos(), "constant %s must be an integer or a boolean, not %s", k.name, x.typ)
		k.typ = Typ[Invalid]
	default:
		k.typ = x.typ
		k.Val = x.val
	}
}

// constExpr checks an expression that must be constant.
func (c *checker) constExpr(e ast.Expr) operand {
	c.inConst++
	x := c.expr(e)
	c.inConst--
	if x.mode == value {
		c.errorf(e.Pos(), "%s is not a constant expression", ExprString(e))
		x.mode = invalid
	}
	return x
}

// constInt evaluates a constant integer expression (a width, a size).
func (c *checker) constInt(e ast.Expr, what string) (int64, bool) {
	x := c.constExpr(e)
	if x.mode == invalid {
		return 0, false
	}
	if !isInt(x.typ) {
		c.errorf(e.Pos(), "%s must be an integer constant, not %s", what, x.typ)
		return 0, false
	}
	v, ok := constant.Int64Val(x.val)
	if !ok {
		v = 1 << 62
	}
	return v, true
}

func (c *checker) typeExpr(t ast.TypeExpr) Type {
	switch t := t.(type) {
	case *ast.BoolType:
		return Typ[Bool]
	case *ast.IntType:
		w, ok := c.constInt(t.Width, "the width of an int")
		if !ok {
			return Typ[Invalid]
		}
		if w < 1 || w > MaxWidth {
			c.errorf(t.Width.Pos(), "int width %d out of range: it must be between 1 and %d", w, MaxWidth)
			return Typ[Invalid]
		}
		return IntType(int(w))
	case *ast.NamedType:
		obj := c.scope.lookup(t.Name.Name)
		switch obj := obj.(type) {
		case nil:
			c.errorf(t.Pos(), "undefined type %s", t.Name.Name)
		case *TypeName:
			c.info.Uses[t.Name] = obj
			return obj.typ
		default:
			c.info.Uses[t.Name] = obj
			c.errorf(t.Pos(), "%s is not a type", t.Name.Name)
		}
	}
	return Typ[Invalid]
}

// arrayType applies a declarator's size to the element type.
func (c *checker) arrayType(elem Type, s *ast.VarSpec) Type {
	if s.Size == nil {
		return elem
	}
	n, ok := c.constInt(s.Size, "an array size")
	if !ok {
		return Typ[Invalid]
	}
	if n < 1 || n > MaxArrayLen {
		c.errorf(s.Size.Pos(), "array size %d out of range: it must be between 1 and %d", n, MaxArrayLen)
		return Typ[Invalid]
	}
	if isInvalid(elem) {
		return Typ[Invalid]
	}
	return &Array{Elem: elem, Len: int(n)}
}

func (c *checker) globalInit(v *Var, s *ast.VarSpec) {
	switch init := s.Value.(type) {
	case nil, *ast.Wildcard:
		if init != nil {
			c.info.Types[init] = TypeAndValue{Type: v.typ}
		}
		return
	case *ast.CallExpr:
		c.errorf(init.Pos(), "a global cannot be initialized by a call: use a constant or ?")
		return
	}
	if _, ok := v.typ.(*Array); ok {
		c.errorf(s.Value.Pos(), "array %s can only be initialized with ?", v.name)
		return
	}
	x := c.constExpr(s.Value)
	if x.mode == invalid {
		return
	}
	c.assignable(&x, v.typ, "initialize "+v.name)
}

func (c *checker) signature(p *Proc, d *ast.ProcDecl) {
	ps := newScope(c.top)
	c.scope = c.top
	for _, prm := range d.Params {
		t := c.typeExpr(prm.Type)
		v := &Var{object: object{name: prm.Name.Name, pos: prm.Name.Pos(), typ: t}, Kind: Param, Proc: p, Index: len(p.Locals)}
		c.declare(ps, prm.Name, v)
		p.Params = append(p.Params, v)
		p.Locals = append(p.Locals, v)
	}
	if d.Result != nil {
		p.Result = c.typeExpr(d.Result)
	}
	c.paramScope[p] = ps
}

// collectLabels records the labels of a procedure body.
func (c *checker) collectLabels(p *Proc, body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.LabeledStmt:
			l := &Label{object: object{name: s.Label.Name, pos: s.Label.Pos()}, Stmt: s, Proc: p}
			if prev := p.Labels[s.Label.Name]; prev != nil {
				c.errorf(s.Label.Pos(), "label %s is redeclared (previous declaration at %s)", s.Label.Name, c.where(prev.pos))
			} else {
				p.Labels[s.Label.Name] = l
				c.info.Defs[s.Label] = l
				if c.procLabel[s.Label.Name] == nil {
					c.procLabel[s.Label.Name] = l
				}
			}
			return true
		case *ast.DeclStmt:
			return false
		case ast.Stmt:
			return true
		}
		return false // expressions hold no statements
	})
}
