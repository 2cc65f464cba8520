package bp

import (
	"fmt"
	"strconv"

	"github.com/cbreach/cbreach/pds/diag"
)

// The syntax tree. It holds data only; the compiler reads it.

// program is a parsed file.
type program struct {
	globals []*ident
	procs   []*proc
}

// ident is a name with the position where it is written.
type ident struct {
	name string
	pos  diag.Pos
	init *expr // decl x := e: a constant 0, 1, T, F or * (nil: any value)
}

// proc is a procedure: void (results 0), bool (1) or bool<n> (n).
type proc struct {
	name    ident
	results int
	params  []*ident
	locals  []*ident
	body    []*stmt
	end     diag.Pos
}

type stmtKind uint8

const (
	sSkip stmtKind = iota
	sAssign
	sCall
	sGoto
	sReturn
	sIf
	sWhile
	sAssume
	sAssert
	sStartThread
	sEndThread
	sAtomicBegin
	sAtomicEnd
)

// stmt is a statement with the labels written before it.
type stmt struct {
	kind      stmtKind
	pos       diag.Pos
	labels    []*ident
	targets   []*ident // assignment and call left-hand sides; goto and start_thread labels
	exprs     []*expr  // right-hand sides, return values, call arguments; the condition of assume/assert/while
	constrain *expr
	callee    *ident
	conds     []*expr   // if and elsif conditions
	blocks    [][]*stmt // their blocks, then the else block (if any)
	hasElse   bool
	text      string  // assert: its source text, for the error label
	body      []*stmt // while
}

type exprKind uint8

const (
	eConst exprKind = iota
	eVar
	eNondet
	eNot
	eAnd
	eOr
	eXor
	eEq
	eNe
	eImp
	eChoose
)

// expr is a Boolean expression. A variable written 'x (primed) is the
// value of x after the assignment, allowed in constrain clauses only.
type expr struct {
	kind   exprKind
	pos    diag.Pos
	val    bool
	name   string
	primed bool
	x, y   *expr
}

// Tokens.

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tKeyword
	tPunct
	tBad // skipped after an error
)

type token struct {
	kind tokKind
	text string
	pos  diag.Pos
	off  int // byte offset of the end of the token
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return "identifier " + t.text
	case tInt:
		return "number " + t.text
	}
	return strconv.Quote(t.text)
}

var keywords = map[string]bool{
	"decl": true, "void": true, "bool": true, "begin": true, "end": true,
	"if": true, "then": true, "elsif": true, "else": true, "fi": true,
	"while": true, "do": true, "od": true, "goto": true, "return": true,
	"skip": true, "assume": true, "assert": true, "constrain": true,
	"schoose": true, "start_thread": true, "end_thread": true,
	"atomic_begin": true, "atomic_end": true, "dead": true, "enforce": true,
	"print": true, "T": true, "F": true,
	// Parts of other dialects that this reader refuses by name.
	"abortif": true, "sync": true,
}

// scanner splits a source into tokens; it reports bad characters and
// unterminated comments as errors and goes on.
type scanner struct {
	file      string
	src       []byte
	off       int
	line, col int
	errs      *errorList
}

func isLetter(c byte) bool {
	return c == '_' || c == '$' || c == '@' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (s *scanner) advance() {
	if s.src[s.off] == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	s.off++
}

func (s *scanner) pos() diag.Pos { return diag.Pos{File: s.file, Line: s.line, Col: s.col} }

// next returns the next token, skipping bad ones (reported).
func (s *scanner) next() token {
	for {
		if t := s.scan(); t.kind != tBad {
			t.off = s.off
			return t
		}
	}
}

func (s *scanner) scan() token {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance()
			continue
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.advance()
			}
			continue
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			p := s.pos()
			s.advance()
			s.advance()
			closed := false
			for s.off < len(s.src) {
				if s.src[s.off] == '*' && s.off+1 < len(s.src) && s.src[s.off+1] == '/' {
					s.advance()
					s.advance()
					closed = true
					break
				}
				s.advance()
			}
			if !closed {
				s.errs.Add(p, "comment is not terminated")
			}
			continue
		}
		break
	}
	p := s.pos()
	if s.off >= len(s.src) {
		return token{kind: tEOF, pos: p}
	}
	start := s.off
	c := s.src[s.off]
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.advance()
		}
		text := string(s.src[start:s.off])
		if keywords[text] {
			return token{kind: tKeyword, text: text, pos: p}
		}
		return token{kind: tIdent, text: text, pos: p}
	case isDigit(c):
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.advance()
		}
		if s.off < len(s.src) && isLetter(s.src[s.off]) {
			// A SATABS-style name may start with digits only as a label;
			// digits and letters together form an identifier.
			for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
				s.advance()
			}
			return token{kind: tIdent, text: string(s.src[start:s.off]), pos: p}
		}
		return token{kind: tInt, text: string(s.src[start:s.off]), pos: p}
	case c == '{':
		// Getafix writes identifiers in braces: {x < y}.
		for s.off < len(s.src) && s.src[s.off] != '}' && s.src[s.off] != '\n' {
			s.advance()
		}
		if s.off < len(s.src) && s.src[s.off] == '}' {
			s.advance()
			return token{kind: tIdent, text: string(s.src[start:s.off]), pos: p}
		}
		s.errs.Add(p, "braced identifier is not closed on its line")
		return token{kind: tBad}
	}
	if s.off+1 < len(s.src) {
		two := string(s.src[s.off : s.off+2])
		switch two {
		case ":=", "!=", "=>", "&&", "||":
			s.advance()
			s.advance()
			return token{kind: tPunct, text: two, pos: p}
		}
	}
	switch c {
	case ';', ',', ':', '(', ')', '[', ']', '<', '>', '=', '&', '|', '^', '!', '~', '*', '?', '\'':
		s.advance()
		return token{kind: tPunct, text: string(c), pos: p}
	}
	s.advance()
	for s.off < len(s.src) && s.src[s.off]&0xC0 == 0x80 {
		s.advance()
	}
	s.errs.Add(p, fmt.Sprintf("unexpected character %q", string(s.src[start:s.off])))
	return token{kind: tBad}
}
