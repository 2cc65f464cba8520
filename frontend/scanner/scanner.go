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

// Scanner holds the scanning state. Use Init, then call Scan until EOF.
type Scanner struct {
	file *token.File
	src  []byte
	err  ErrorHandler

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
	if file.Size() != len(src) {
		panic(fmt.Sprintf("scanner: file size %d does not match source length %d", file.Size(), len(src)))
	}
	*s = Scanner{file: file, src: src, err: err}
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
