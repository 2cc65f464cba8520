// Package scanner turns .pds source text into tokens (after go/scanner).
// It also names the positioned error list every phase of the front end
// reports into (Error and ErrorList, aliases of package pds/diag's).
package scanner

import (
	"bytes"
	"fmt"

	"github.com/cbreach/cbreach/frontend/token"
)

// ErrorHandler is called for each error the scanner meets, with the
// position of the offending text.
type ErrorHandler func(pos token.Pos, msg string)

// Mode selects what the scanner accepts beyond the .pds language.
type Mode uint

// COperators makes the scanner accept C's operators, which the .pds
// language does not spell, for the tests of the nodes only readers build
// (parser.COperators): / % & | ^ << >> ~, and the signed variants /s %s
// >>s <s <=s >s >=s, an s right after the operator and not followed by a
// letter, digit or _ (so x /s y divides signed, x / s divides by s). The
// signed token comes back with the text "s".
const COperators Mode = 1 << iota

// Scanner holds the scanning state. Use Init, then call Scan until EOF.
type Scanner struct {
	file *token.File
	src  []byte
	err  ErrorHandler
	mode Mode

	ch       rune // current byte, -1 at end
	offset   int  // offset of ch
	rdOffset int  // offset after ch

	ErrorCount int
}

const eof = -1

// bom is the UTF-8 encoding of the byte-order mark U+FEFF.
const bom = "\xEF\xBB\xBF"

// Init prepares s to scan src, which must have file.Size() bytes. Errors
// go to err (which may be nil). A byte-order mark at the very start of src
// is skipped (positions still count its bytes, as go/scanner's do); one
// anywhere else is an invalid character.
func (s *Scanner) Init(file *token.File, src []byte, err ErrorHandler) {
	s.InitMode(file, src, err, 0)
}

// InitMode is Init with a mode.
func (s *Scanner) InitMode(file *token.File, src []byte, err ErrorHandler, mode Mode) {
	if file.Size() != len(src) {
		panic(fmt.Sprintf("scanner: file size %d does not match source length %d", file.Size(), len(src)))
	}
	*s = Scanner{file: file, src: src, err: err, mode: mode}
	if bytes.HasPrefix(src, []byte(bom)) {
		s.rdOffset = len(bom)
	}
	s.next()
}

func (s *Scanner) next() {
	if s.rdOffset < len(s.src) {
		s.offset = s.rdOffset
		if s.ch == '\n' {
			s.file.AddLine(s.offset)
		}
		s.ch = rune(s.src[s.rdOffset])
		s.rdOffset++
		return
	}
	s.offset = len(s.src)
	if s.ch == '\n' {
		s.file.AddLine(s.offset)
	}
	s.ch = eof
}

func (s *Scanner) peek() byte {
	if s.rdOffset < len(s.src) {
		return s.src[s.rdOffset]
	}
	return 0
}

func (s *Scanner) error(offset int, msg string) {
	if s.err != nil {
		s.err(s.file.Pos(offset), msg)
	}
	s.ErrorCount++
}

func isLetter(ch rune) bool { return 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || ch == '_' }
func isDigit(ch rune) bool  { return '0' <= ch && ch <= '9' }
func isHex(ch rune) bool    { return isDigit(ch) || 'a' <= ch && ch <= 'f' || 'A' <= ch && ch <= 'F' }

func (s *Scanner) skipSpaceAndComments() {
	for {
		switch {
		case s.ch == ' ' || s.ch == '\t' || s.ch == '\n' || s.ch == '\r' || s.ch == '\f' || s.ch == '\v':
			s.next()
		case s.ch == '/' && s.peek() == '/':
			for s.ch != '\n' && s.ch != eof {
				s.next()
			}
		case s.ch == '/' && s.peek() == '*':
			start := s.offset
			s.next()
			s.next()
			for {
				if s.ch == eof {
					s.error(start, "comment is not terminated")
					return
				}
				if s.ch == '*' && s.peek() == '/' {
					s.next()
					s.next()
					break
				}
				s.next()
			}
		default:
			return
		}
	}
}

// Scan returns the next token, its position and, for identifiers, numbers
// and illegal characters, its text. At the end it returns EOF forever.
func (s *Scanner) Scan() (pos token.Pos, tok token.Token, lit string) {
	s.skipSpaceAndComments()
	start := s.offset
	pos = s.file.Pos(start)
	ch := s.ch
	switch {
	case ch == eof:
		return pos, token.EOF, ""
	case isLetter(ch):
		for isLetter(s.ch) || isDigit(s.ch) {
			s.next()
		}
		lit = string(s.src[start:s.offset])
		return pos, token.Lookup(lit), lit
	case isDigit(ch):
		return s.number(start)
	}
	s.next()
	two := func(second rune, t2, t1 token.Token) token.Token {
		if s.ch == second {
			s.next()
			return t2
		}
		return t1
	}
	if s.mode&COperators != 0 {
		if tok, lit, ok := s.cOperator(ch); ok {
			return pos, tok, lit
		}
	}
	switch ch {
	case '+':
		tok = token.ADD
	case '-':
		tok = token.SUB
	case '*':
		tok = token.MUL
	case '&':
		if s.ch == '&' {
			s.next()
			tok = token.LAND
		} else {
			s.error(start, "unexpected '&' (did you mean '&&'?)")
			tok, lit = token.ILLEGAL, "&"
		}
	case '|':
		if s.ch == '|' {
			s.next()
			tok = token.LOR
		} else {
			s.error(start, "unexpected '|' (did you mean '||'?)")
			tok, lit = token.ILLEGAL, "|"
		}
	case '!':
		tok = two('=', token.NEQ, token.NOT)
	case '=':
		tok = two('=', token.EQL, token.ASSIGN)
	case '<':
		tok = two('=', token.LEQ, token.LSS)
	case '>':
		tok = two('=', token.GEQ, token.GTR)
	case '?':
		tok = token.QUEST
	case '(':
		tok = token.LPAREN
	case ')':
		tok = token.RPAREN
	case '[':
		tok = token.LBRACK
	case ']':
		tok = token.RBRACK
	case '{':
		tok = token.LBRACE
	case '}':
		tok = token.RBRACE
	case ',':
		tok = token.COMMA
	case ';':
		tok = token.SEMICOLON
	case ':':
		tok = token.COLON
	default:
		if ch >= 0x80 {
			// Skip the rest of a UTF-8 sequence: one error per character.
			for s.ch >= 0x80 && s.ch < 0xC0 {
				s.next()
			}
			s.error(start, "invalid character (only ASCII is allowed outside comments)")
		} else {
			s.error(start, fmt.Sprintf("invalid character %q", ch))
		}
		tok, lit = token.ILLEGAL, string(s.src[start:s.offset])
	}
	return pos, tok, lit
}

// cOperator scans, under COperators, the operator that starts with ch
// (already consumed) if it is one of C's or may take the suffix s; ok is
// false for the other characters.
func (s *Scanner) cOperator(ch rune) (tok token.Token, lit string, ok bool) {
	switch ch {
	case '&':
		tok = token.AND
		if s.ch == '&' {
			s.next()
			tok = token.LAND
		}
	case '|':
		tok = token.OR
		if s.ch == '|' {
			s.next()
			tok = token.LOR
		}
	case '^':
		tok = token.XOR
	case '~':
		tok = token.TILDE
	case '/':
		tok = token.QUO
	case '%':
		tok = token.REM
	case '<':
		switch s.ch {
		case '<':
			s.next()
			return token.SHL, "", true
		case '=':
			s.next()
			tok = token.LEQ
		default:
			tok = token.LSS
		}
	case '>':
		switch s.ch {
		case '>':
			s.next()
			tok = token.SHR
		case '=':
			s.next()
			tok = token.GEQ
		default:
			tok = token.GTR
		}
	default:
		return 0, "", false
	}
	switch tok {
	case token.QUO, token.REM, token.SHR, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if next := rune(s.peek()); s.ch == 's' && !isLetter(next) && !isDigit(next) {
			s.next()
			lit = "s"
		}
	}
	return tok, lit, true
}

func (s *Scanner) number(start int) (token.Pos, token.Token, string) {
	pos := s.file.Pos(start)
	if s.ch == '0' && (s.peek() == 'x' || s.peek() == 'X') {
		s.next()
		s.next()
		digits := s.offset
		for isHex(s.ch) {
			s.next()
		}
		if s.offset == digits {
			s.error(start, "hexadecimal literal has no digits")
		}
	} else {
		for isDigit(s.ch) {
			s.next()
		}
	}
	if isLetter(s.ch) || isDigit(s.ch) {
		for isLetter(s.ch) || isDigit(s.ch) {
			s.next()
		}
		s.error(start, fmt.Sprintf("invalid integer literal %s", s.src[start:s.offset]))
	}
	return pos, token.NUMBER, string(s.src[start:s.offset])
}
