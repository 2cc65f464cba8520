package c

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"modernc.org/cc/v4"
)

// function lowers one function definition into a procedure.
func (l *lowerer) function(p *procInfo) {
	fd := p.def
	fs := &fnState{info: p, locals: map[*cc.Declarator]*variable{}, names: map[string]bool{}, isMain: p.name == "main"}
	l.fn = fs
	ft := fd.Declarator.Type().(*cc.FunctionType)
	var params []*ast.Param
	for _, prm := range ft.Parameters() {
		d := prm.Declarator
		if d == nil || prm.Type().Kind() == cc.Void {
			p.params = append(p.params, nil)
			continue
		}
		t := l.typeOf(d.Type(), d)
		if t.k == kPtr || fs.isMain {
			if used(fd, d) {
				l.unsupported(d, "a pointer parameter that is used ("+d.Name()+")")
			}
			p.params = append(p.params, nil)
			continue
		}
		if t.n > 0 || t.k == kMutex || t.k == kCond {
			l.unsupported(d, "a parameter of type "+d.Type().String())
		}
		v := l.newName(d.Name(), t)
		fs.locals[d] = v
		p.params = append(p.params, v)
		params = append(params, &ast.Param{Type: typeExpr(t), Name: ident(v.name, l.pos(d.NameTok()))})
	}
	var body []ast.Stmt
	l.compound(fd.CompoundStatement, &body)
	if fs.isMain {
		body = append(body, l.halt(l.pos(fd.CompoundStatement.Token2)))
	}
	list := append(fs.decls, body...)
	pd := &ast.ProcDecl{Proc: l.pos(fd.Declarator.NameTok()), Name: ident(p.name, l.pos(fd.Declarator.NameTok())),
		Params: params, Body: &ast.BlockStmt{Lbrace: l.pos(fd.CompoundStatement.Token), List: list, Rbrace: l.pos(fd.CompoundStatement.Token2)}}
	if p.result.k == kBool || p.result.k == kInt {
		pd.Result = typeExpr(p.result)
	}
	l.decls = append(l.decls, pd)
	l.fn = nil
}

// newLocal declares a local of the current procedure under a name of its
// own (C's block scopes may reuse a name; the .pds language may not).
func (l *lowerer) newLocal(base string, t ctype) *variable {
	v := l.newName(base, t)
	fs := l.fn
	spec := &ast.VarSpec{Name: ident(v.name, token.NoPos)}
	if t.n > 0 {
		spec.Size = lit(uint64(t.n))
	}
	fs.decls = append(fs.decls, &ast.DeclStmt{Decl: &ast.VarDecl{Type: typeExpr(t), Specs: []*ast.VarSpec{spec}}})
	return v
}

// newName names a local or a parameter of the current procedure.
func (l *lowerer) newName(base string, t ctype) *variable {
	fs := l.fn
	name := base
	for i := 1; fs.names[name] || l.globals[name] != nil || l.funcs[name] != nil; i++ {
		name = fmt.Sprintf("%s#%d", base, i)
	}
	fs.names[name] = true
	return &variable{name: name, t: t}
}

// temp is a fresh local of type t.
func (l *lowerer) temp(t ctype) *variable {
	l.fn.temps++
	return l.newLocal(fmt.Sprintf("#t%d", l.fn.temps), t.scalar())
}

// label is a fresh label name.
func (l *lowerer) label(what string) string {
	l.fn.labels++
	return fmt.Sprintf("#%s%d", what, l.fn.labels)
}

// halt is #halt = true.
func (l *lowerer) halt(pos token.Pos) ast.Stmt {
	return assign(ident(haltName, pos), &ast.BasicLit{ValuePos: pos, Kind: token.TRUE, Value: "true"})
}

func assign(lhs, rhs ast.Expr) *ast.AssignStmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{lhs}, TokPos: lhs.Pos(), Rhs: []ast.Expr{rhs}}
}

func block(list []ast.Stmt) *ast.BlockStmt { return &ast.BlockStmt{List: list} }

func boolLit(b bool) *ast.BasicLit {
	if b {
		return &ast.BasicLit{Kind: token.TRUE, Value: "true"}
	}
	return &ast.BasicLit{Kind: token.FALSE, Value: "false"}
}

// compound lowers a block.
func (l *lowerer) compound(cs *cc.CompoundStatement, out *[]ast.Stmt) {
	var items []*cc.BlockItem
	for list := cs.BlockItemList; list != nil; list = list.BlockItemList {
		items = append(items, list.BlockItem)
	}
	l.items(items, out)
}

// items lowers a block's items; __VERIFIER_atomic_begin() ...
// __VERIFIER_atomic_end() in one block make one atomic step.
func (l *lowerer) items(items []*cc.BlockItem, out *[]ast.Stmt) {
	for i := 0; i < len(items); i++ {
		it := items[i]
		if callee(it) == "__VERIFIER_atomic_begin" {
			j := i + 1
			for j < len(items) && callee(items[j]) != "__VERIFIER_atomic_end" {
				j++
			}
			if j == len(items) {
				l.unsupported(it.Statement, "__VERIFIER_atomic_begin without __VERIFIER_atomic_end in the same block")
			}
			var body []ast.Stmt
			l.fn.atomic++
			l.items(items[i+1:j], &body)
			l.fn.atomic--
			if l.fn.atomic > 0 {
				*out = append(*out, body...)
			} else {
				*out = append(*out, &ast.AtomicStmt{Atomic: l.nodePos(it.Statement), Body: block(guardHalts(body))})
			}
			i = j
			continue
		}
		if callee(it) == "__VERIFIER_atomic_end" {
			l.unsupported(it.Statement, "__VERIFIER_atomic_end without __VERIFIER_atomic_begin in the same block")
		}
		l.item(it, out)
	}
}

// callee is the name of the function a block item calls as a whole
// expression statement, or "".
func callee(it *cc.BlockItem) string {
	if it.Case != cc.BlockItemStmt || it.Statement.Case != cc.StatementExpr {
		return ""
	}
	es := it.Statement.ExpressionStatement
	if es.ExpressionList == nil {
		return ""
	}
	return callName(es.ExpressionList)
}

// callName is the name of the function n calls directly, or "".
func callName(n cc.ExpressionNode) string {
	pe, ok := n.(*cc.PostfixExpression)
	if !ok || pe.Case != cc.PostfixExpressionCall {
		return ""
	}
	prim, ok := pe.PostfixExpression.(*cc.PrimaryExpression)
	if !ok || prim.Case != cc.PrimaryExpressionIdent {
		return ""
	}
	return prim.Token.SrcStr()
}

func (l *lowerer) item(it *cc.BlockItem, out *[]ast.Stmt) {
	switch it.Case {
	case cc.BlockItemDecl:
		l.localDecl(it.Declaration, out)
	case cc.BlockItemStmt:
		l.stmt(it.Statement, out)
	case cc.BlockItemLabel:
		// A label declaration (__label__): nothing to do.
	default:
		l.unsupported(it.Declaration, "a nested function")
	}
}

// localDecl lowers a declaration in a block.
func (l *lowerer) localDecl(d *cc.Declaration, out *[]ast.Stmt) {
	for list := d.InitDeclaratorList; list != nil; list = list.InitDeclaratorList {
		id := list.InitDeclarator
		dr := id.Declarator
		if dr.IsTypename() || dr.Type().Kind() == cc.Function || dr.IsExtern() || dr.Name() == "__func__" {
			continue
		}
		if dr.IsStatic() {
			l.unsupported(dr, "a static local ("+dr.Name()+")")
		}
		t := l.typeOf(dr.Type(), dr)
		switch t.k {
		case kPtr:
			if dr.ReadCount() == 0 {
				continue
			}
			l.unsupported(dr, "a local pointer ("+dr.Name()+")")
		case kMutex, kCond:
			l.unsupported(dr, "a local "+t.String()+" ("+dr.Name()+")")
		}
		v := l.newLocal(dr.Name(), t)
		l.fn.locals[dr] = v
		if id.Initializer == nil {
			continue
		}
		if t.n > 0 {
			l.unsupported(id.Initializer, "a local array's initializer")
		}
		if id.Initializer.Case != cc.InitializerExpr {
			l.unsupported(id.Initializer, "an initializer list")
		}
		rhs := id.Initializer.AssignmentExpression
		l.simple(rhs, out, func() {
			l.store(v, nil, rhs, l.pos(dr.NameTok()), out)
		})
	}
}

// simple runs lower for one simple statement over the expressions of n:
// it decides whether the statement's shared accesses are split into steps
// of their own.
func (l *lowerer) simple(n cc.Node, out *[]ast.Stmt, lower func()) {
	fs := l.fn
	old, oldPre := fs.split, fs.pre
	fs.split = fs.atomic == 0 && l.shared(n) > 1
	fs.pre = out
	lower()
	fs.split, fs.pre = old, oldPre
}

// shared counts the accesses of n to shared memory: each use of a global,
// twice for one that ++, -- or a compound assignment both reads and
// writes. A name counts by what it resolves to, so a local that hides a
// global of its name (in this block or in another) is no access.
func (l *lowerer) shared(n cc.Node) int {
	if n == nil {
		return 0
	}
	count := 0
	walk(n, func(m cc.Node) {
		if p, ok := m.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent && l.isGlobal(p) {
			count++
		}
	})
	rw := false
	for _, t := range cc.NodeTokens(n) {
		switch t.SrcStr() {
		case "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
			rw = true
		}
	}
	if rw && count > 0 {
		count++
	}
	return count
}

// isGlobal reports whether the name p resolves to a global of the program
// (not to a local, a parameter or a function).
func (l *lowerer) isGlobal(p *cc.PrimaryExpression) bool {
	d, ok := p.ResolvedTo().(*cc.Declarator)
	if !ok || d.StorageDuration() != cc.Static || l.globals[d.Name()] == nil {
		return false
	}
	if _, ok := l.fn.locals[d]; ok {
		return false
	}
	for _, in := range l.fn.inline {
		if _, ok := in.params[d]; ok {
			return false
		}
	}
	return true
}

// walk calls f on n and on every node below it (the exported fields, as
// cc.NodeTokens follows them).
func walk(n cc.Node, f func(cc.Node)) {
	if n == nil {
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	if _, ok := n.(cc.Token); ok {
		return
	}
	f(n)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		fld := t.Field(i)
		if !fld.IsExported() || strings.HasPrefix(fld.Name, "Token") {
			continue
		}
		fv := v.Field(i)
		if fv.IsZero() || !fv.CanInterface() {
			continue
		}
		if m, ok := fv.Interface().(cc.Node); ok {
			walk(m, f)
		}
	}
}

// stmt lowers a statement.
func (l *lowerer) stmt(s *cc.Statement, out *[]ast.Stmt) {
	fs := l.fn
	switch s.Case {
	case cc.StatementCompound:
		var body []ast.Stmt
		l.compound(s.CompoundStatement, &body)
		*out = append(*out, body...)
	case cc.StatementExpr:
		if e := s.ExpressionStatement.ExpressionList; e != nil {
			l.simple(e, out, func() { l.effect(e) })
		}
	case cc.StatementSelection:
		l.selection(s.SelectionStatement, out)
	case cc.StatementIteration:
		if fs.atomic > 0 {
			l.unsupported(s.IterationStatement, "a loop inside an atomic section")
		}
		l.iteration(s.IterationStatement, out)
	case cc.StatementJump:
		l.jump(s.JumpStatement, out)
	case cc.StatementLabeled:
		l.labeled(s.LabeledStatement, out)
	default:
		l.unsupported(s.AsmStatement, "inline assembly")
	}
}

// selection lowers if, if-else and switch.
func (l *lowerer) selection(s *cc.SelectionStatement, out *[]ast.Stmt) {
	pos := l.pos(s.Token)
	switch s.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		var cond ast.Expr
		l.simple(s.ExpressionList, out, func() { cond = l.cond(s.ExpressionList) })
		var then, els []ast.Stmt
		l.stmt(s.Statement, &then)
		is := &ast.IfStmt{If: pos, Cond: cond, Then: block(then)}
		if s.Case == cc.SelectionStatementIfElse {
			l.stmt(s.Statement2, &els)
			is.Else = block(els)
		}
		*out = append(*out, is)
	case cc.SelectionStatementSwitch:
		if l.fn.atomic > 0 {
			l.unsupported(s, "a switch inside an atomic section")
		}
		l.switchStmt(s, out)
	}
}

// switchStmt lowers switch (e) body: the value into a local, a test per
// case label that jumps to it, and break as a jump to the end.
func (l *lowerer) switchStmt(s *cc.SelectionStatement, out *[]ast.Stmt) {
	pos := l.pos(s.Token)
	// The controlling expression is promoted, and each case value
	// converted to the promoted type (C11 6.8.4.2): a char's switch
	// does not match case 200.
	t := l.typeOf(cc.IntegerPromotion(s.ExpressionList.Type()), s.ExpressionList)
	v := l.temp(t)
	l.simple(s.ExpressionList, out, func() { l.store(v, nil, s.ExpressionList, pos, out) })
	end := l.label("end")
	fs := l.fn
	// The case labels get names; the body is lowered with them.
	deflt := end
	for _, ls := range s.LabeledStatements() {
		name := l.label("case")
		fs.caseLabel(ls, name)
		switch ls.Case {
		case cc.LabeledStatementCaseLabel:
			cv, ok := constValue(ls.ConstantExpression)
			if !ok {
				l.unsupported(ls, "a case label that is not constant")
			}
			test := &ast.BinaryExpr{X: ident(v.name, pos), Op: token.EQL, Y: constExpr(cv, t)}
			*out = append(*out, &ast.IfStmt{If: pos, Cond: test, Then: block([]ast.Stmt{gotoStmt(name, pos)})})
		case cc.LabeledStatementDefault:
			deflt = name
		default:
			l.unsupported(ls, "a case range")
		}
	}
	*out = append(*out, gotoStmt(deflt, pos))
	fs.breaks = append(fs.breaks, end)
	var body []ast.Stmt
	l.stmt(s.Statement, &body)
	fs.breaks = fs.breaks[:len(fs.breaks)-1]
	*out = append(*out, body...)
	*out = append(*out, &ast.LabeledStmt{Label: ident(end, pos), Stmt: &ast.SkipStmt{Skip: pos}})
}

func gotoStmt(label string, pos token.Pos) ast.Stmt {
	return &ast.BranchStmt{TokPos: pos, Tok: token.GOTO, Label: ident(label, pos)}
}

// caseLabel records the name a case label of a switch got.
func (fs *fnState) caseLabel(ls *cc.LabeledStatement, name string) {
	if fs.cases == nil {
		fs.cases = map[*cc.LabeledStatement]string{}
	}
	fs.cases[ls] = name
}

// iteration lowers while, do-while and for: a loop whose condition is
// computed in steps of its own, and a continue that jumps to what follows
// the body (do-while's test, for's increment).
func (l *lowerer) iteration(s *cc.IterationStatement, out *[]ast.Stmt) {
	fs := l.fn
	pos := l.pos(s.Token)
	var init []ast.Stmt
	var cond, post cc.ExpressionNode
	switch s.Case {
	case cc.IterationStatementWhile:
		cond = s.ExpressionList
	case cc.IterationStatementDo:
		cond = s.ExpressionList
	case cc.IterationStatementFor:
		if s.ExpressionList != nil {
			e := s.ExpressionList
			l.simple(e, &init, func() { l.effect(e) })
		}
		cond, post = s.ExpressionList2, s.ExpressionList3
	case cc.IterationStatementForDecl:
		l.localDecl(s.Declaration, &init)
		cond, post = s.ExpressionList, s.ExpressionList2
	}
	*out = append(*out, init...)
	// test: the steps of the condition, then break when it is false.
	test := func(list *[]ast.Stmt) {
		if cond == nil {
			return
		}
		if v, ok := constValue(cond); ok && v != 0 {
			return
		}
		var c ast.Expr
		l.simple(cond, list, func() { c = l.cond(cond) })
		*list = append(*list, &ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: &ast.ParenExpr{X: c}},
			Then: block([]ast.Stmt{&ast.BranchStmt{TokPos: pos, Tok: token.BREAK}})})
	}
	var loop []ast.Stmt
	cont := ""
	if s.Case != cc.IterationStatementWhile {
		cont = l.label("cont")
	} else {
		test(&loop)
	}
	fs.breaks = append(fs.breaks, "")
	fs.conts = append(fs.conts, cont)
	var body []ast.Stmt
	l.stmt(s.Statement, &body)
	fs.breaks = fs.breaks[:len(fs.breaks)-1]
	fs.conts = fs.conts[:len(fs.conts)-1]
	loop = append(loop, body...)
	if cont != "" {
		var after []ast.Stmt
		if s.Case == cc.IterationStatementDo {
			test(&after)
		} else {
			if post != nil {
				l.simple(post, &after, func() { l.effect(post) })
			}
			var head []ast.Stmt
			test(&head)
			loop = append(head, loop...)
		}
		loop = append(loop, &ast.LabeledStmt{Label: ident(cont, pos), Stmt: &ast.SkipStmt{Skip: pos}})
		loop = append(loop, after...)
	}
	*out = append(*out, &ast.WhileStmt{While: pos, Cond: boolLit(true), Body: block(loop)})
}

// jump lowers goto, break, continue and return.
func (l *lowerer) jump(s *cc.JumpStatement, out *[]ast.Stmt) {
	fs := l.fn
	pos := l.pos(s.Token)
	switch s.Case {
	case cc.JumpStatementGoto:
		if fs.atomic > 0 {
			l.unsupported(s, "goto inside an atomic section")
		}
		*out = append(*out, gotoStmt(s.Token2.SrcStr(), pos))
	case cc.JumpStatementBreak, cc.JumpStatementContinue:
		stack := fs.breaks
		tok := token.BREAK
		if s.Case == cc.JumpStatementContinue {
			stack, tok = fs.conts, token.CONTINUE
		}
		if fs.atomic > 0 || len(stack) == 0 {
			l.unsupported(s, tok.String()+" here")
		}
		if target := stack[len(stack)-1]; target != "" {
			*out = append(*out, gotoStmt(target, pos))
		} else {
			*out = append(*out, &ast.BranchStmt{TokPos: pos, Tok: tok})
		}
	case cc.JumpStatementReturn:
		l.ret(s, out)
	default:
		l.unsupported(s, "a computed goto")
	}
}

// ret lowers return.
func (l *lowerer) ret(s *cc.JumpStatement, out *[]ast.Stmt) {
	fs := l.fn
	pos := l.pos(s.Token)
	if n := len(fs.inline); n > 0 {
		in := fs.inline[n-1]
		if s.ExpressionList != nil && in.result != nil {
			e := s.ExpressionList
			l.simple(e, out, func() { l.store(in.result, nil, e, pos, out) })
		} else if s.ExpressionList != nil {
			e := s.ExpressionList
			l.simple(e, out, func() { l.effect(e) })
		}
		return
	}
	res := fs.info.result
	if s.ExpressionList != nil {
		e := s.ExpressionList
		if fs.isMain || res.k == kPtr || res.k == kVoid {
			l.simple(e, out, func() { l.effect(e) })
		} else {
			var x ast.Expr
			l.simple(e, out, func() { x = l.value(e, res) })
			*out = append(*out, &ast.ReturnStmt{Return: pos, Result: x})
			return
		}
	}
	if fs.isMain {
		*out = append(*out, l.halt(pos))
	}
	*out = append(*out, &ast.ReturnStmt{Return: pos})
}

// labeled lowers a label, case or default.
func (l *lowerer) labeled(s *cc.LabeledStatement, out *[]ast.Stmt) {
	fs := l.fn
	var name string
	switch s.Case {
	case cc.LabeledStatementLabel:
		name = s.Token.SrcStr()
	default:
		name = fs.cases[s]
		if name == "" {
			l.unsupported(s, "a case label outside its switch")
		}
	}
	var body []ast.Stmt
	l.stmt(s.Statement, &body)
	if fs.atomic > 0 {
		// A label in an atomic section is only a name (no goto reaches
		// it: gotos are refused there).
		*out = append(*out, body...)
		return
	}
	pos := l.pos(s.Token)
	*out = append(*out, &ast.LabeledStmt{Label: ident(name, pos), Colon: pos, Stmt: block(body)})
}

// guardHalts makes the statements of an atomic body that follow one that
// may halt the program (abort, exit, a failed assume) run only when it did
// not: a halt ends the process at once, even inside one step.
func guardHalts(list []ast.Stmt) []ast.Stmt {
	for i, s := range list {
		if is, ok := s.(*ast.IfStmt); ok {
			if b, ok := is.Then.(*ast.BlockStmt); ok {
				b.List = guardHalts(b.List)
			}
			if b, ok := is.Else.(*ast.BlockStmt); ok {
				b.List = guardHalts(b.List)
			}
		}
		if b, ok := s.(*ast.BlockStmt); ok {
			b.List = guardHalts(b.List)
		}
		if i+1 < len(list) && mayHalt(s) {
			rest := guardHalts(list[i+1:])
			notHalted := &ast.UnaryExpr{Op: token.NOT, X: ident(haltName, s.Pos())}
			return append(list[:i+1:i+1], &ast.IfStmt{If: s.Pos(), Cond: notHalted, Then: block(rest)})
		}
	}
	return list
}

// mayHalt reports whether s assigns the halt flag.
func mayHalt(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok {
			for _, x := range a.Lhs {
				if id, ok := x.(*ast.Ident); ok && id.Name == haltName {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// used reports whether the body of fd uses parameter d other than in
// "(void)d;", the idiom that silences a compiler about an unused one.
func used(fd *cc.FunctionDefinition, d *cc.Declarator) bool {
	if d.ReadCount() == 0 && d.WriteCount() == 0 {
		return false
	}
	toks := cc.NodeTokens(fd.CompoundStatement)
	name := d.Name()
	for i, t := range toks {
		if t.Ch != rune(cc.IDENTIFIER) || t.SrcStr() != name {
			continue
		}
		if i < 3 || i+1 >= len(toks) || toks[i-3].SrcStr() != "(" || toks[i-2].SrcStr() != "void" || toks[i-1].SrcStr() != ")" || toks[i+1].SrcStr() != ";" {
			return true
		}
	}
	return false
}
