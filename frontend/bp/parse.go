package bp

import (
	"fmt"
	"strconv"

	"github.com/cbreach/cbreach/pds/diag"
)

// maxDepth caps the nesting of statements and expressions, so that no
// input exhausts the stack.
const maxDepth = 500

// parser is a recursive-descent parser with two tokens of lookahead (a
// label is a name followed by a colon).
type parser struct {
	sc       scanner
	tok, nxt token
	errs     *errorList
	depth    int
	lastLine int // the line of the last error: one error per line
}

func parse(file string, src []byte, errs *errorList) *program {
	p := &parser{sc: scanner{file: file, src: src, line: 1, col: 1, errs: errs}, errs: errs}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		p.sc.off = 3
	}
	p.tok = p.sc.next()
	p.nxt = p.sc.next()
	return p.program()
}

func (p *parser) next() {
	p.tok = p.nxt
	if p.tok.kind != tEOF {
		p.nxt = p.sc.next()
	}
}

func (p *parser) errorAt(pos diag.Pos, msg string) {
	if pos.Line == p.lastLine {
		return
	}
	p.lastLine = pos.Line
	p.errs.Add(pos, msg)
}

func (p *parser) is(text string) bool {
	return (p.tok.kind == tPunct || p.tok.kind == tKeyword) && p.tok.text == text
}

func (p *parser) got(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(text string) bool {
	if p.got(text) {
		return true
	}
	p.errorAt(p.tok.pos, fmt.Sprintf("expected %q, found %s", text, p.tok))
	return false
}

func (p *parser) ident() *ident {
	if p.tok.kind != tIdent {
		p.errorAt(p.tok.pos, fmt.Sprintf("expected a name, found %s", p.tok))
		return &ident{name: "_", pos: p.tok.pos}
	}
	id := &ident{name: p.tok.text, pos: p.tok.pos}
	p.next()
	return id
}

// sync skips to just after the next ";" or to a keyword that closes or
// starts a construct, so that parsing goes on after an error.
func (p *parser) sync() {
	for p.tok.kind != tEOF {
		if p.got(";") {
			return
		}
		if p.tok.kind == tKeyword {
			switch p.tok.text {
			case "end", "fi", "od", "else", "elsif", "decl", "void", "bool":
				return
			}
		}
		p.next()
	}
}

// program = { "decl" names ";" } { proc } .
func (p *parser) program() *program {
	prog := &program{}
	for p.is("decl") {
		prog.globals = append(prog.globals, p.decl()...)
	}
	for p.tok.kind != tEOF {
		if p.is("void") || p.is("bool") {
			prog.procs = append(prog.procs, p.proc())
			continue
		}
		if p.is("decl") {
			p.errorAt(p.tok.pos, "global declarations must come before the first procedure")
			p.decl()
			continue
		}
		p.errorAt(p.tok.pos, fmt.Sprintf("expected a procedure (void, bool or bool<n>), found %s", p.tok))
		p.next()
		for p.tok.kind != tEOF && !p.is("void") && !p.is("bool") && !p.is("decl") {
			p.next()
		}
	}
	return prog
}

// decl = "decl" name { "," name } ";" .
func (p *parser) decl() []*ident {
	p.expect("decl")
	var ids []*ident
	for {
		id := p.ident()
		ids = append(ids, id)
		if p.got(":=") {
			id.init = p.expr()
			if k := id.init.kind; k != eConst && k != eNondet {
				p.errorAt(id.init.pos, "an initial value is 0, 1, T, F or *")
			}
		}
		if p.is("<") {
			p.errorAt(p.tok.pos, "variables of type bool<n> are not supported (only procedure results may be bool<n>)")
			p.sync()
			return ids
		}
		if !p.got(",") {
			break
		}
	}
	if !p.expect(";") {
		p.sync()
	}
	return ids
}

// proc = ( "void" | "bool" [ "<" int ">" ] ) name "(" [ names ] ")" "begin"
// { decl } [ "enforce" ... ] stmts "end" .
func (p *parser) proc() *proc {
	pr := &proc{}
	if p.got("bool") {
		pr.results = 1
		if p.got("<") {
			if p.tok.kind == tInt {
				n, err := strconv.Atoi(p.tok.text)
				if err != nil || n < 1 || n > 32 {
					p.errorAt(p.tok.pos, "the number of results must be between 1 and 32")
				} else {
					pr.results = n
				}
				p.next()
			} else {
				p.errorAt(p.tok.pos, fmt.Sprintf("expected the number of results, found %s", p.tok))
			}
			p.expect(">")
		}
	} else {
		p.expect("void")
	}
	pr.name = *p.ident()
	if p.expect("(") {
		if !p.is(")") {
			for {
				pr.params = append(pr.params, p.ident())
				if !p.got(",") {
					break
				}
			}
		}
		p.expect(")")
	}
	p.expect("begin")
	for p.is("decl") {
		pr.locals = append(pr.locals, p.decl()...)
	}
	if p.is("enforce") {
		p.errorAt(p.tok.pos, "enforce is not supported")
		p.sync()
	}
	pr.body = p.stmts()
	pr.end = p.tok.pos
	if !p.expect("end") {
		for p.tok.kind != tEOF && !p.is("void") && !p.is("bool") {
			p.next()
		}
	}
	return pr
}

// stmts parses statements up to a keyword that ends a block.
func (p *parser) stmts() []*stmt {
	var list []*stmt
	for {
		if p.tok.kind == tEOF {
			return list
		}
		if p.tok.kind == tKeyword {
			switch p.tok.text {
			case "end", "fi", "od", "else", "elsif", "void", "bool":
				return list
			}
		}
		if s := p.stmt(); s != nil {
			list = append(list, s)
		}
	}
}

// stmt = { label ":" } simple .
func (p *parser) stmt() *stmt {
	var labels []*ident
	for (p.tok.kind == tIdent || p.tok.kind == tInt) && p.nxt.kind == tPunct && p.nxt.text == ":" {
		labels = append(labels, &ident{name: p.tok.text, pos: p.tok.pos})
		p.next()
		p.next()
	}
	if p.tok.kind == tKeyword {
		switch p.tok.text {
		case "end", "fi", "od", "else", "elsif":
			// A label at the end of a block marks an empty statement.
			if len(labels) > 0 {
				return &stmt{kind: sSkip, pos: labels[0].pos, labels: labels}
			}
		}
	}
	s := &stmt{pos: p.tok.pos, labels: labels}
	if p.depth++; p.depth > maxDepth {
		p.errorAt(p.tok.pos, "statements nested too deeply")
		for p.tok.kind != tEOF {
			p.next()
		}
		p.depth--
		return nil
	}
	defer func() { p.depth-- }()
	ok := true
	switch {
	case p.got("skip"):
		s.kind = sSkip
	case p.got("dead"):
		// dead x, y; says the values are never read again: a skip.
		s.kind = sSkip
		for {
			p.ident()
			if !p.got(",") {
				break
			}
		}
	case p.got("goto"):
		s.kind = sGoto
		s.targets = p.labelList()
	case p.got("return"):
		s.kind = sReturn
		if !p.is(";") {
			s.exprs = p.exprList()
		}
	case p.is("assume") || p.is("assert"):
		s.kind = sAssume
		if p.tok.text == "assert" {
			s.kind = sAssert
		}
		start := p.tok.off - len(p.tok.text)
		p.next()
		ok = p.expect("(")
		s.exprs = []*expr{p.expr()}
		if ok && p.is(")") {
			s.text = string(p.sc.src[start:p.tok.off])
		}
		ok = ok && p.expect(")")
	case p.got("start_thread"):
		s.kind = sStartThread
		if !p.expect("goto") {
			p.errorAt(p.tok.pos, "only start_thread goto L is supported")
			ok = false
			break
		}
		s.targets = p.labelList()
		if len(s.targets) > 1 {
			p.errorAt(s.targets[1].pos, "start_thread goto takes one label")
		}
	case p.got("end_thread"):
		s.kind = sEndThread
	case p.got("atomic_begin"):
		s.kind = sAtomicBegin
	case p.got("atomic_end"):
		s.kind = sAtomicEnd
	case p.got("if"):
		s.kind = sIf
		s.conds = append(s.conds, p.expr())
		p.expect("then")
		s.blocks = append(s.blocks, p.stmts())
		for p.got("elsif") {
			s.conds = append(s.conds, p.expr())
			p.expect("then")
			s.blocks = append(s.blocks, p.stmts())
		}
		if p.got("else") {
			s.hasElse = true
			s.blocks = append(s.blocks, p.stmts())
		}
		if !p.expect("fi") {
			p.sync()
			return s
		}
		p.got(";") // SATABS writes "fi;"
		return s
	case p.got("while"):
		s.kind = sWhile
		s.exprs = []*expr{p.expr()}
		p.expect("do")
		s.body = p.stmts()
		if !p.expect("od") {
			p.sync()
			return s
		}
		p.got(";")
		return s
	case p.tok.kind == tKeyword && (p.tok.text == "print" || p.tok.text == "enforce" || p.tok.text == "abortif" || p.tok.text == "sync"):
		p.errorAt(p.tok.pos, p.tok.text+" is not supported")
		p.sync()
		return nil
	case p.tok.kind == tIdent && p.nxt.kind == tPunct && p.nxt.text == "(":
		s.kind = sCall
		s.callee = p.ident()
		s.exprs = p.args()
	case p.tok.kind == tIdent:
		s.kind = sAssign
		for {
			s.targets = append(s.targets, p.ident())
			if !p.got(",") {
				break
			}
		}
		if !p.expect(":=") {
			ok = false
			break
		}
		if p.tok.kind == tIdent && p.nxt.kind == tPunct && p.nxt.text == "(" {
			s.kind = sCall
			s.callee = p.ident()
			s.exprs = p.args()
			break
		}
		s.exprs = p.exprList()
		if p.got("constrain") {
			s.constrain = p.expr()
		}
	default:
		p.errorAt(p.tok.pos, fmt.Sprintf("expected a statement, found %s", p.tok))
		p.next()
		p.sync()
		return nil
	}
	if !ok || !p.expect(";") {
		p.sync()
	}
	return s
}

func (p *parser) labelList() []*ident {
	var ids []*ident
	for {
		if p.tok.kind == tInt {
			ids = append(ids, &ident{name: p.tok.text, pos: p.tok.pos})
			p.next()
		} else {
			ids = append(ids, p.ident())
		}
		if !p.got(",") {
			return ids
		}
	}
}

func (p *parser) args() []*expr {
	p.expect("(")
	var list []*expr
	if !p.is(")") {
		list = p.exprList()
	}
	p.expect(")")
	return list
}

func (p *parser) exprList() []*expr {
	list := []*expr{p.expr()}
	for p.got(",") {
		list = append(list, p.expr())
	}
	return list
}

// Expressions, from the lowest precedence: => (to the right), |, ^, &,
// = and !=, then the unary ! and ~.
func (p *parser) expr() *expr {
	if p.depth++; p.depth > maxDepth {
		p.errorAt(p.tok.pos, "expression nested too deeply")
		for p.tok.kind != tEOF {
			p.next()
		}
		p.depth--
		return &expr{kind: eConst, pos: p.tok.pos}
	}
	defer func() { p.depth-- }()
	x := p.binary(0)
	if p.is("=>") {
		pos := p.tok.pos
		p.next()
		return &expr{kind: eImp, pos: pos, x: x, y: p.expr()}
	}
	return x
}

var levels = [][]string{{"|", "||"}, {"^"}, {"&", "&&"}, {"=", "!="}}

func (p *parser) binary(level int) *expr {
	if level == len(levels) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for {
		op := ""
		for _, o := range levels[level] {
			if p.is(o) {
				op = o
			}
		}
		if op == "" {
			return x
		}
		pos := p.tok.pos
		p.next()
		y := p.binary(level + 1)
		k := map[string]exprKind{"|": eOr, "||": eOr, "^": eXor, "&": eAnd, "&&": eAnd, "=": eEq, "!=": eNe}[op]
		x = &expr{kind: k, pos: pos, x: x, y: y}
	}
}

func (p *parser) unary() *expr {
	pos := p.tok.pos
	switch {
	case p.is("!") || p.is("~"):
		p.next()
		if p.depth++; p.depth > maxDepth {
			p.errorAt(pos, "expression nested too deeply")
			for p.tok.kind != tEOF {
				p.next()
			}
			p.depth--
			return &expr{kind: eConst, pos: pos}
		}
		x := p.unary()
		p.depth--
		return &expr{kind: eNot, pos: pos, x: x}
	case p.got("("):
		x := p.expr()
		p.expect(")")
		return x
	case p.got("*") || p.got("?"):
		return &expr{kind: eNondet, pos: pos}
	case p.got("T"):
		return &expr{kind: eConst, pos: pos, val: true}
	case p.got("F"):
		return &expr{kind: eConst, pos: pos}
	case p.tok.kind == tInt:
		t := p.tok.text
		p.next()
		if t != "0" && t != "1" {
			p.errorAt(pos, fmt.Sprintf("a Boolean constant is 0 or 1, not %s", t))
		}
		return &expr{kind: eConst, pos: pos, val: t == "1"}
	case p.got("schoose"):
		p.expect("[")
		x := p.expr()
		p.expect(",")
		y := p.expr()
		p.expect("]")
		return &expr{kind: eChoose, pos: pos, x: x, y: y}
	case p.got("'"):
		id := p.ident()
		return &expr{kind: eVar, pos: pos, name: id.name, primed: true}
	case p.tok.kind == tIdent:
		id := p.ident()
		if p.is("(") {
			p.errorAt(p.tok.pos, "a call is allowed only as a statement or as the whole right-hand side of an assignment")
		}
		return &expr{kind: eVar, pos: pos, name: id.name}
	}
	p.errorAt(pos, fmt.Sprintf("expected an expression, found %s", p.tok))
	if p.tok.kind != tEOF && !p.is(";") && !p.is(")") {
		p.next()
	}
	return &expr{kind: eConst, pos: pos}
}
