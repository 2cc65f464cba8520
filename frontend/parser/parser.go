// Package parser builds the syntax tree of a .pds file (after go/parser).
//
// The parser is a recursive descent over the grammar of docs/language.md with one
// token of lookahead. It always returns a tree, partial when the input has
// errors (missing pieces become Bad nodes), together with the sorted list of
// syntax errors. Unless all errors are asked for, it stops after ten and
// reports at most one error per line. No input makes it panic.
package parser

import (
	"fmt"
	"strconv"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/scanner"
	"github.com/cbreach/cbreach/frontend/token"
)

// Mode controls the parser.
type Mode uint

const (
	// AllErrors reports every error, not only the first ten.
	AllErrors Mode = 1 << iota
	// COperators accepts, for the tests of the nodes only readers build
	// (frontend/doc.go, "Nodes only readers build"), a notation for them
	// that the .pds language does not have: C's operators / % & | ^ << >>
	// and ~ with C's precedence, the signed operators /s %s >>s <s <=s >s
	// >=s (scanner.COperators), the conditional c ? a : b (lowest
	// precedence, grouping to the right), and the conversions (int<N>) x,
	// (sint<N>) x (x read as signed: sign-extended) and (bool) x, which
	// bind like unary operators; N is a literal, and sint is reserved
	// after '('. Readers' tests use it; the .pds reader never does.
	COperators
)

type bailout struct{}

type parser struct {
	file    *token.File
	errors  scanner.ErrorList
	scanner scanner.Scanner
	mode    Mode

	pos     token.Pos   // current token
	tok     token.Token // current token
	lit     string      // current token text
	prevEnd token.Pos   // end of the previous token
	lastErr int         // line of the last error
	nest    int         // nesting depth of statements and expressions
}

// ParseFile parses src as the content of file, which must have been created
// with the size of src. It returns the tree (never nil) and the errors,
// sorted.
func ParseFile(file *token.File, src []byte, mode Mode) (f *ast.File, errs scanner.ErrorList) {
	p := &parser{file: file, mode: mode}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		if f == nil {
			f = &ast.File{EOF: file.Pos(file.Size())}
		}
		p.errors.Sort()
		errs = p.errors
	}()
	var smode scanner.Mode
	if mode&COperators != 0 {
		smode = scanner.COperators
	}
	p.scanner.InitMode(file, src, p.scanError, smode)
	p.next()
	f = p.parseFile()
	return f, errs
}

func (p *parser) scanError(pos token.Pos, msg string) { p.error(pos, msg) }

func (p *parser) error(pos token.Pos, msg string) {
	position := p.file.Position(pos)
	if p.mode&AllErrors == 0 {
		if len(p.errors) > 0 && position.Line == p.lastErr {
			return // one error per line: the rest is usually a consequence
		}
		if len(p.errors) >= scanner.MaxErrors {
			p.errors.Add(position, msg)
			panic(bailout{})
		}
	}
	p.lastErr = position.Line
	p.errors.Add(position, msg)
}

func (p *parser) found() string {
	switch p.tok {
	case token.EOF:
		return "end of file"
	case token.IDENT:
		return "name " + p.lit
	case token.NUMBER:
		return "number " + p.lit
	case token.ILLEGAL:
		return fmt.Sprintf("%q", p.lit)
	}
	if p.tok.IsKeyword() {
		return "keyword " + p.tok.String()
	}
	return "'" + p.tok.String() + "'"
}

func (p *parser) errorExpected(pos token.Pos, what string) {
	p.error(pos, "expected "+what+", found "+p.found())
}

func (p *parser) next() {
	if p.pos.IsValid() {
		p.prevEnd = p.pos + token.Pos(len(p.tokText()))
	}
	for {
		p.pos, p.tok, p.lit = p.scanner.Scan()
		if p.tok != token.ILLEGAL {
			return
		}
		// The scanner reported it; skip.
	}
}

func (p *parser) tokText() string {
	switch p.tok {
	case token.IDENT, token.NUMBER, token.ILLEGAL:
		return p.lit
	case token.EOF:
		return ""
	}
	if p.tok.IsOperator() {
		return p.tok.String() + p.lit // a signed operator's suffix s
	}
	return p.tok.String()
}

// expect consumes tok if it is the current token and reports an error
// otherwise (without consuming anything).
func (p *parser) expect(tok token.Token) token.Pos {
	pos := p.pos
	if p.tok != tok {
		p.errorExpected(pos, "'"+tok.String()+"'")
		return pos
	}
	p.next()
	return pos
}

// expectSemi consumes a ';'. When it is missing it reports the error just
// after the previous token and skips to the next ';', '}' or statement
// keyword.
func (p *parser) expectSemi() token.Pos {
	if p.tok == token.SEMICOLON {
		pos := p.pos
		p.next()
		return pos
	}
	pos := p.prevEnd
	if !pos.IsValid() {
		pos = p.pos
	}
	p.error(pos, "expected ';', found "+p.found())
	p.skipTo(true)
	return pos
}

// skipTo advances to a token where parsing can resume: past a ';', or at
// '}', a keyword that starts a statement or declaration, or the end.
func (p *parser) skipTo(semi bool) {
	for {
		switch p.tok {
		case token.EOF, token.RBRACE:
			return
		case token.SEMICOLON:
			if semi {
				p.next()
			}
			return
		case token.IF, token.WHILE, token.RETURN, token.ASSERT, token.ASSUME, token.ATOMIC,
			token.SKIP, token.BREAK, token.CONTINUE, token.GOTO, token.PROC, token.CONST,
			token.ENUM, token.START:
			return
		}
		p.next()
	}
}

// ----------------------------------------------------------------------------
// Declarations

func (p *parser) parseFile() *ast.File {
	f := &ast.File{}
	for p.tok != token.EOF {
		before := p.pos
		if d := p.parseDecl(); d != nil {
			f.Decls = append(f.Decls, d)
		}
		if p.pos == before && p.tok != token.EOF {
			p.next() // make progress
		}
	}
	f.EOF = p.pos
	return f
}

func (p *parser) parseDecl() ast.Decl {
	switch p.tok {
	case token.CONST:
		return p.parseConst()
	case token.ENUM:
		return p.parseEnum()
	case token.PROC:
		return p.parseProc()
	case token.START:
		return p.parseStart()
	case token.BOOL, token.INT, token.IDENT:
		return p.parseVarDecl(p.parseType())
	}
	pos := p.pos
	p.errorExpected(pos, "declaration")
	p.next()
	p.skipTo(true)
	return &ast.BadDecl{From: pos, To: p.pos}
}

func (p *parser) parseIdent() *ast.Ident {
	pos, name := p.pos, "_"
	if p.tok == token.IDENT {
		name = p.lit
		p.next()
	} else {
		p.errorExpected(pos, "name")
	}
	return &ast.Ident{NamePos: pos, Name: name}
}

func (p *parser) parseConst() ast.Decl {
	d := &ast.ConstDecl{Const: p.expect(token.CONST)}
	d.Name = p.parseIdent()
	p.expect(token.ASSIGN)
	d.Value = p.parseExpr()
	d.Semi = p.expectSemi()
	return d
}

func (p *parser) parseEnum() ast.Decl {
	d := &ast.EnumDecl{Enum: p.expect(token.ENUM)}
	d.Name = p.parseIdent()
	p.expect(token.LBRACE)
	d.Values = append(d.Values, p.parseIdent())
	for p.tok == token.COMMA {
		p.next()
		d.Values = append(d.Values, p.parseIdent())
	}
	p.expect(token.RBRACE)
	d.Semi = p.expectSemi()
	return d
}

func (p *parser) parseType() ast.TypeExpr {
	switch p.tok {
	case token.BOOL:
		t := &ast.BoolType{Bool: p.pos}
		p.next()
		return t
	case token.INT:
		t := &ast.IntType{Int: p.pos}
		p.next()
		p.expect(token.LSS)
		// The width stops before '<' and '>': int<(A > B)> needs parentheses.
		t.Width = p.parseBinaryExpr(token.LSS.Precedence() + 1)
		t.Gt = p.pos
		p.expect(token.GTR)
		return t
	case token.IDENT:
		return &ast.NamedType{Name: p.parseIdent()}
	}
	p.errorExpected(p.pos, "type")
	return &ast.NamedType{Name: &ast.Ident{NamePos: p.pos, Name: "_"}}
}

func (p *parser) parseVarDecl(typ ast.TypeExpr) *ast.VarDecl {
	d := &ast.VarDecl{Type: typ}
	d.Specs = append(d.Specs, p.parseVarSpec())
	for p.tok == token.COMMA {
		p.next()
		d.Specs = append(d.Specs, p.parseVarSpec())
	}
	d.Semi = p.expectSemi()
	return d
}

func (p *parser) parseVarSpec() *ast.VarSpec {
	s := &ast.VarSpec{Name: p.parseIdent()}
	if p.tok == token.LBRACK {
		p.next()
		s.Size = p.parseExpr()
		s.Rbrack = p.pos
		p.expect(token.RBRACK)
	}
	if p.tok == token.ASSIGN {
		p.next()
		s.Value = p.parseExpr()
	}
	return s
}

func (p *parser) parseProc() ast.Decl {
	d := &ast.ProcDecl{Proc: p.expect(token.PROC)}
	d.Name = p.parseIdent()
	p.expect(token.LPAREN)
	if p.tok != token.RPAREN {
		for {
			prm := &ast.Param{Type: p.parseType()}
			prm.Name = p.parseIdent()
			d.Params = append(d.Params, prm)
			if p.tok != token.COMMA {
				break
			}
			p.next()
		}
	}
	p.expect(token.RPAREN)
	if p.tok == token.COLON {
		p.next()
		d.Result = p.parseType()
	}
	d.Body = p.parseBlock()
	return d
}

func (p *parser) parseStart() *ast.StartStmt {
	s := &ast.StartStmt{Start: p.expect(token.START)}
	s.Call = p.parseCall(p.parseIdent())
	s.Semi = p.expectSemi()
	return s
}

// ----------------------------------------------------------------------------
// Statements

func (p *parser) parseBlock() *ast.BlockStmt {
	b := &ast.BlockStmt{Lbrace: p.pos}
	if p.tok != token.LBRACE {
		p.errorExpected(p.pos, "'{'")
		b.Rbrace = p.pos
		return b
	}
	p.next()
	b.List = p.parseStmtList()
	b.Rbrace = p.pos
	p.expect(token.RBRACE)
	return b
}

func (p *parser) parseStmtList() []ast.Stmt {
	var list []ast.Stmt
	for p.tok != token.RBRACE && p.tok != token.EOF {
		before := p.pos
		list = append(list, p.parseStmt())
		if p.pos == before {
			p.next() // make progress
		}
	}
	return list
}

func (p *parser) parseStmt() ast.Stmt {
	p.enter()
	defer p.leave()
	switch p.tok {
	case token.LBRACE:
		return p.parseBlock()
	case token.BOOL, token.INT:
		return &ast.DeclStmt{Decl: p.parseVarDecl(p.parseType())}
	case token.IDENT:
		return p.parseSimpleStmt()
	case token.SKIP:
		s := &ast.SkipStmt{Skip: p.pos}
		p.next()
		s.Semi = p.expectSemi()
		return s
	case token.RETURN:
		s := &ast.ReturnStmt{Return: p.pos}
		p.next()
		if p.tok != token.SEMICOLON {
			s.Result = p.parseExpr()
		}
		s.Semi = p.expectSemi()
		return s
	case token.IF:
		s := &ast.IfStmt{If: p.pos}
		p.next()
		s.Cond = p.parseCond()
		s.Then = p.parseStmt()
		if p.tok == token.ELSE {
			p.next()
			s.Else = p.parseStmt()
		}
		return s
	case token.WHILE:
		s := &ast.WhileStmt{While: p.pos}
		p.next()
		s.Cond = p.parseCond()
		s.Body = p.parseStmt()
		return s
	case token.BREAK, token.CONTINUE:
		s := &ast.BranchStmt{TokPos: p.pos, Tok: p.tok}
		p.next()
		s.Semi = p.expectSemi()
		return s
	case token.GOTO:
		s := &ast.BranchStmt{TokPos: p.pos, Tok: p.tok}
		p.next()
		s.Label = p.parseIdent()
		s.Semi = p.expectSemi()
		return s
	case token.ASSERT, token.ASSUME:
		s := &ast.AssertStmt{TokPos: p.pos, Tok: p.tok}
		p.next()
		s.Lparen = p.pos
		p.expect(token.LPAREN)
		s.X = p.parseExpr()
		s.Rparen = p.pos
		p.expect(token.RPAREN)
		s.Semi = p.expectSemi()
		return s
	case token.ATOMIC:
		s := &ast.AtomicStmt{Atomic: p.pos}
		p.next()
		s.Body = p.parseBlock()
		return s
	case token.START:
		return p.parseStart()
	}
	pos := p.pos
	p.errorExpected(pos, "statement")
	p.next()
	p.skipTo(true)
	return &ast.BadStmt{From: pos, To: p.pos}
}

// parseCond parses ( expr ) or ( ? ).
func (p *parser) parseCond() ast.Expr {
	p.expect(token.LPAREN)
	x := p.parseExpr()
	p.expect(token.RPAREN)
	return x
}

// parseSimpleStmt parses the statements that start with a name: a local
// declaration of an enum type, a label, a call, an assignment.
func (p *parser) parseSimpleStmt() ast.Stmt {
	id := p.parseIdent()
	switch p.tok {
	case token.IDENT:
		return &ast.DeclStmt{Decl: p.parseVarDecl(&ast.NamedType{Name: id})}
	case token.COLON:
		s := &ast.LabeledStmt{Label: id, Colon: p.pos}
		p.next()
		if p.tok == token.RBRACE || p.tok == token.EOF {
			p.errorExpected(p.pos, "statement after label")
			s.Stmt = &ast.BadStmt{From: p.pos, To: p.pos}
			return s
		}
		s.Stmt = p.parseStmt()
		return s
	case token.LPAREN:
		s := &ast.CallStmt{Call: p.parseCall(id)}
		s.Semi = p.expectSemi()
		return s
	}
	s := &ast.AssignStmt{}
	s.Lhs = append(s.Lhs, p.parseLvalue(id))
	for p.tok == token.COMMA {
		p.next()
		s.Lhs = append(s.Lhs, p.parseLvalue(p.parseIdent()))
	}
	s.TokPos = p.pos
	if p.tok != token.ASSIGN {
		p.errorExpected(p.pos, "'='")
		p.skipTo(true)
		s.Rhs = []ast.Expr{&ast.BadExpr{From: p.pos, To: p.pos}}
		s.Semi = p.pos
		return s
	}
	p.next()
	s.Rhs = append(s.Rhs, p.parseExpr())
	for p.tok == token.COMMA {
		p.next()
		s.Rhs = append(s.Rhs, p.parseExpr())
	}
	s.Semi = p.expectSemi()
	return s
}

func (p *parser) parseLvalue(id *ast.Ident) ast.Expr {
	if p.tok != token.LBRACK {
		return id
	}
	return p.parseIndex(id)
}

func (p *parser) parseIndex(id *ast.Ident) *ast.IndexExpr {
	x := &ast.IndexExpr{X: id, Lbrack: p.pos}
	p.next()
	x.Index = p.parseExpr()
	x.Rbrack = p.pos
	p.expect(token.RBRACK)
	return x
}

func (p *parser) parseCall(fun *ast.Ident) *ast.CallExpr {
	c := &ast.CallExpr{Fun: fun, Lparen: p.pos}
	if p.tok != token.LPAREN {
		p.errorExpected(p.pos, "'('")
		c.Rparen = p.pos
		return c
	}
	p.next()
	if p.tok != token.RPAREN {
		c.Args = append(c.Args, p.parseExpr())
		for p.tok == token.COMMA {
			p.next()
			c.Args = append(c.Args, p.parseExpr())
		}
	}
	c.Rparen = p.pos
	p.expect(token.RPAREN)
	return c
}

// ----------------------------------------------------------------------------
// Expressions

func (p *parser) parseExpr() ast.Expr {
	x := p.parseBinaryExpr(token.LowestPrec + 1)
	if p.mode&COperators == 0 || p.tok != token.QUEST {
		return x
	}
	p.enter()
	defer p.leave()
	p.next()
	c := &ast.CondExpr{Cond: x, Then: p.parseExpr()}
	p.expect(token.COLON)
	c.Else = p.parseExpr()
	return c
}

func (p *parser) parseBinaryExpr(prec int) ast.Expr {
	p.enter()
	saved := p.nest
	defer func() { p.nest = saved - 1 }()
	x := p.parseUnaryExpr()
	for {
		op := p.tok
		oprec := op.Precedence()
		if oprec < prec {
			return x
		}
		p.enter() // the tree grows one level deeper on the left
		pos, signed := p.pos, p.lit == "s"
		p.next()
		y := p.parseBinaryExpr(oprec + 1)
		x = &ast.BinaryExpr{X: x, OpPos: pos, Op: op, Y: y, Signed: signed}
	}
}

// maxNest bounds the nesting of statements, parentheses and operators, so
// that deep input cannot exhaust the stack of the phases that follow.
const maxNest = 1000

func (p *parser) enter() {
	p.nest++
	if p.nest > maxNest {
		p.errors.Add(p.file.Position(p.pos), "program nested too deeply")
		panic(bailout{})
	}
}

func (p *parser) leave() { p.nest-- }

func (p *parser) parseUnaryExpr() ast.Expr {
	var ops []*ast.UnaryExpr
	for p.tok == token.NOT || p.tok == token.SUB || p.tok == token.TILDE {
		ops = append(ops, &ast.UnaryExpr{OpPos: p.pos, Op: p.tok})
		p.next()
	}
	for range ops {
		p.enter()
	}
	x := p.parsePrimary()
	p.nest -= len(ops)
	for i := len(ops) - 1; i >= 0; i-- {
		ops[i].X = x
		x = ops[i]
	}
	return x
}

func (p *parser) parsePrimary() ast.Expr {
	switch p.tok {
	case token.IDENT:
		id := p.parseIdent()
		switch p.tok {
		case token.LBRACK:
			return p.parseIndex(id)
		case token.LPAREN:
			return p.parseCall(id)
		}
		return id
	case token.NUMBER, token.TRUE, token.FALSE:
		x := &ast.BasicLit{ValuePos: p.pos, Kind: p.tok, Value: p.tokText()}
		p.next()
		return x
	case token.QUEST:
		x := &ast.Wildcard{Quest: p.pos}
		p.next()
		return x
	case token.LPAREN:
		x := &ast.ParenExpr{Lparen: p.pos}
		p.next()
		if p.mode&COperators != 0 && (p.tok == token.INT || p.tok == token.BOOL || p.tok == token.IDENT && p.lit == "sint") {
			return p.parseConversion()
		}
		x.X = p.parseExpr()
		x.Rparen = p.pos
		p.expect(token.RPAREN)
		return x
	}
	pos := p.pos
	p.errorExpected(pos, "expression")
	return &ast.BadExpr{From: pos, To: pos}
}

// parseConversion parses, under COperators, the rest of (int<N>) x,
// (sint<N>) x or (bool) x after the '('.
func (p *parser) parseConversion() ast.Expr {
	c := &ast.ConvExpr{}
	switch p.tok {
	case token.BOOL:
		p.next()
	default:
		c.Signed = p.tok == token.IDENT
		p.next()
		p.expect(token.LSS)
		if p.tok == token.NUMBER {
			w, err := strconv.ParseInt(p.lit, 0, 32)
			if err != nil || w < 1 {
				p.error(p.pos, "the width of a conversion must be a number from 1 (write (bool) x for a conversion to bool)")
			}
			c.Width = int(w)
		}
		p.expect(token.NUMBER)
		p.expect(token.GTR)
	}
	p.expect(token.RPAREN)
	p.enter()
	c.X = p.parseUnaryExpr()
	p.leave()
	return c
}
