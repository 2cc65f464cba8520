package c

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/pds/diag"
	"modernc.org/cc/v4"
)

const (
	tokNUMBER = token.NUMBER

	// The globals the lowering adds; C names cannot collide with them
	// (they hold a '#').
	haltName = "#halt" // set by abort, exit, a failed assume and main's return
	nextName = "#next" // the next thread id, with pthread_join
	doneName = "#done" // which threads have ended, with pthread_join
)

// unsupportedPanic carries a refusal out of the lowering.
type unsupportedPanic struct{ err *diag.Unsupported }

// lowerer lowers a translation unit.
type lowerer struct {
	name  string
	src   []byte
	file  *token.File
	lines []int
	o     Options

	tu    *cc.AST
	funcs map[string]*cc.FunctionDefinition // definitions by name
	// globals by name, in the order met; locals by declarator.
	globals   map[string]*variable
	globalSeq []*variable
	decls     []ast.Decl

	procs    map[string]*procInfo // lowered functions by name
	queue    []string             // functions to lower
	joins    bool                 // the program calls pthread_join
	maxTid   int                  // the size of #done
	wrappers map[string]bool      // thread wrappers made

	fn *fnState // the function being lowered
}

// variable is a lowered C object.
type variable struct {
	name   string
	t      ctype
	global bool
}

// procInfo is a lowered function.
type procInfo struct {
	name   string
	def    *cc.FunctionDefinition
	result ctype
	params []*variable
	thread bool // started by pthread_create
	exits  bool // calls pthread_exit (lowered as its return)
	direct bool // called by a call of the program (not only started)
}

// fnState is the state of lowering one function body.
type fnState struct {
	info   *procInfo
	locals map[*cc.Declarator]*variable
	names  map[string]bool
	decls  []ast.Stmt // the locals' declarations, at the top of the body
	temps  int
	labels int
	atomic int          // > 0 inside an atomic region or inlined atomic function
	split  bool         // the current statement touches shared memory more than once
	pre    *[]ast.Stmt  // where the current statement's earlier steps go
	breaks []string     // "" : a native break; else the label a break jumps to
	conts  []string     // "" : a native continue; else the label
	inline []*inlineCtx // the functions being inlined, innermost last
	isMain bool
	// cases names the case labels of the switches met.
	cases map[*cc.LabeledStatement]string
}

// inlineCtx is a function inlined into an atomic region.
type inlineCtx struct {
	name   string
	result *variable // where its return value goes; nil for void
	params map[*cc.Declarator]*variable
	// ptrs are its pointer parameters, each bound to the variable whose
	// address the call passed.
	ptrs map[*cc.Declarator]*variable
}

func lower(name string, src []byte, tu *cc.AST, o Options) (l *lowered, err error) {
	file, lines := newFile(name, src)
	lw := &lowerer{name: name, src: src, file: file, lines: lines, o: o, tu: tu,
		funcs: map[string]*cc.FunctionDefinition{}, globals: map[string]*variable{},
		procs: map[string]*procInfo{}, wrappers: map[string]bool{}}
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupportedPanic)
			if !ok {
				panic(r)
			}
			l, err = nil, u.err
		}
	}()
	return lw.run()
}

// lowered is the result: the tree and the file its positions are in.
type lowered struct {
	file *token.File
	src  []byte
	ast  *ast.File
}

func (l *lowerer) run() (*lowered, error) {
	for n := l.tu.TranslationUnit; n != nil; n = n.TranslationUnit {
		ed := n.ExternalDeclaration
		if ed.Case == cc.ExternalDeclarationFuncDef {
			fd := ed.FunctionDefinition
			l.funcs[fd.Declarator.Name()] = fd
		}
	}
	main := l.funcs["main"]
	if main == nil {
		return nil, &diag.InputError{Err: fmt.Errorf("%s: the program has no function main", l.name)}
	}
	l.maxTid = l.o.MaxThreads
	if l.maxTid <= 0 {
		l.maxTid = 8
	}
	l.scanJoins()
	// Globals first, in the order written (their tentative and actual
	// definitions merge by name).
	for n := l.tu.TranslationUnit; n != nil; n = n.TranslationUnit {
		if ed := n.ExternalDeclaration; ed.Case == cc.ExternalDeclarationDecl {
			l.globalDecl(ed.Declaration)
		}
	}
	l.declareGlobal(&variable{name: haltName, t: tBool, global: true}, nil)
	if l.joins {
		l.declareGlobal(&variable{name: nextName, t: l.idType(), global: true}, nil)
		l.declareGlobal(&variable{name: doneName, t: ctype{k: kBool, n: l.maxTid + 1}, global: true}, nil)
	}
	l.need("main")
	for len(l.queue) > 0 {
		f := l.queue[0]
		l.queue = l.queue[1:]
		l.function(l.procs[f])
	}
	for _, name := range sortedKeys(l.procs) {
		// pthread_exit ends the thread, lowered as a return from the
		// start function: a call of that function (not as a thread)
		// would return to its caller instead.
		if p := l.procs[name]; p.exits && p.direct {
			l.unsupported(p.def.Declarator, "pthread_exit in "+name+", which is also called as a function")
		}
	}
	pos := l.pos(main.Declarator.NameTok())
	l.decls = append(l.decls, &ast.StartStmt{Start: pos, Call: &ast.CallExpr{Fun: ident("main", pos)}})
	return &lowered{file: l.file, src: l.src, ast: &ast.File{Decls: l.decls, EOF: l.file.Pos(len(l.src))}}, nil
}

// scanJoins notes whether the program joins threads (then thread ids are
// kept).
func (l *lowerer) scanJoins() {
	for _, name := range sortedKeys(l.funcs) {
		if strings.Contains(cc.NodeSource(l.funcs[name].CompoundStatement), "pthread_join") {
			l.joins = true
			return
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// need queues a function for lowering and returns its info.
func (l *lowerer) need(name string) *procInfo {
	if p := l.procs[name]; p != nil {
		return p
	}
	fd := l.funcs[name]
	ft := fd.Declarator.Type().(*cc.FunctionType)
	p := &procInfo{name: name, def: fd}
	if name != "main" {
		p.result = l.typeOf(ft.Result(), fd.Declarator)
	}
	l.procs[name] = p
	l.queue = append(l.queue, name)
	return p
}

// globalDecl lowers a file-scope declaration: objects become globals;
// functions, typedefs and extern declarations of objects defined
// nowhere are skipped.
func (l *lowerer) globalDecl(d *cc.Declaration) {
	for list := d.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		dr := id.Declarator
		if dr.IsTypename() || dr.Type().Kind() == cc.Function {
			continue
		}
		if dr.IsExtern() && id.Initializer == nil {
			continue
		}
		name := dr.Name()
		t := l.typeOf(dr.Type(), dr)
		if t.k == kPtr {
			// A pointer global is lowered only when no code reads it.
			if dr.ReadCount() == 0 && dr.WriteCount() <= boolToInt(id.Initializer != nil) {
				continue
			}
			l.unsupported(dr, "a global pointer ("+name+")")
		}
		if t.k == kCond {
			continue
		}
		v := l.globals[name]
		if v == nil {
			v = &variable{name: name, t: t, global: true}
			l.globals[name] = v
			l.globalSeq = append(l.globalSeq, v)
		}
		l.declareGlobal(v, id)
	}
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// declareGlobal adds (or, for a repeated tentative definition, updates)
// the declaration of v with the initializer of id.
func (l *lowerer) declareGlobal(v *variable, id *cc.InitDeclarator) {
	var pos token.Pos
	var value ast.Expr
	if id != nil {
		pos = l.pos(id.Declarator.NameTok())
		if id.Initializer != nil && v.t.k != kMutex {
			value = l.constInit(id.Initializer, v.t)
		}
	}
	for _, d := range l.decls {
		if vd, ok := d.(*ast.VarDecl); ok && vd.Specs[0].Name.Name == v.name {
			if value != nil {
				vd.Specs[0].Value = value
			}
			return
		}
	}
	spec := &ast.VarSpec{Name: ident(v.name, pos), Value: value}
	if v.t.n > 0 {
		spec.Size = lit(uint64(v.t.n))
	}
	l.decls = append(l.decls, &ast.VarDecl{Type: typeExpr(v.t), Specs: []*ast.VarSpec{spec}})
}

// constInit is the value of a global's constant initializer.
func (l *lowerer) constInit(in *cc.Initializer, t ctype) ast.Expr {
	if t.n > 0 {
		// An array: all zero is what a global without initializer has.
		if in.Case == cc.InitializerInitList && allZero(in) {
			return nil
		}
		l.unsupported(in, "an array initializer")
	}
	if in.Case != cc.InitializerExpr {
		l.unsupported(in, "an initializer list")
	}
	v, ok := constValue(in.AssignmentExpression)
	if !ok {
		l.unsupported(in, "a global's initializer that is not constant")
	}
	return constExpr(v, t)
}

func allZero(in *cc.Initializer) bool {
	switch in.Case {
	case cc.InitializerExpr:
		v, ok := constValue(in.AssignmentExpression)
		return ok && v == 0
	}
	for list := in.InitializerList; list != nil; list = list.InitializerList {
		if list.Designation != nil || !allZero(list.Initializer) {
			return false
		}
	}
	return true
}

// constValue is the value of a constant integer expression.
func constValue(n cc.ExpressionNode) (uint64, bool) {
	switch v := n.Value().(type) {
	case cc.Int64Value:
		return uint64(v), true
	case cc.UInt64Value:
		return uint64(v), true
	}
	return 0, false
}

// constExpr is the literal of v in t.
func constExpr(v uint64, t ctype) ast.Expr {
	switch t.k {
	case kBool, kMutex:
		if v != 0 {
			return &ast.BasicLit{Kind: token.TRUE, Value: "true"}
		}
		return &ast.BasicLit{Kind: token.FALSE, Value: "false"}
	}
	if t.w < 64 {
		v &= 1<<uint(t.w) - 1
	}
	return lit(v)
}

// pos is the position of a cc token in the input.
func (l *lowerer) pos(t cc.Token) token.Pos {
	p := t.Position()
	if p.Line <= 0 || p.Line > len(l.lines) {
		return token.NoPos
	}
	return l.file.Pos(l.lines[p.Line-1] + p.Column - 1)
}

// nodePos is the position of a cc node.
func (l *lowerer) nodePos(n cc.Node) token.Pos {
	if n == nil {
		return token.NoPos
	}
	p := n.Position()
	if p.Line <= 0 || p.Line > len(l.lines) {
		return token.NoPos
	}
	return l.file.Pos(l.lines[p.Line-1] + p.Column - 1)
}

// unsupported refuses the construct at n.
func (l *lowerer) unsupported(n cc.Node, what string) {
	var p diag.Pos
	if n != nil {
		p = l.file.Position(l.nodePos(n))
	}
	panic(unsupportedPanic{&diag.Unsupported{Pos: p, What: what}})
}

func ident(name string, pos token.Pos) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
