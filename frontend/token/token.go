// Package token defines the lexical tokens of the .pds language and compact
// source positions (after go/token): a Pos is a byte offset into a File,
// expanded to a Position (file:line:col) only when an error is reported or
// the compiler records where a rule comes from. The package knows nothing
// of BDDs or networks; it imports only pds/diag.
package token

import (
	"sort"
	"strconv"

	"github.com/cbreach/cbreach/pds/diag"
)

// Token is a lexical token.
type Token int

// The tokens.
const (
	ILLEGAL Token = iota
	EOF

	IDENT  // main
	NUMBER // 12, 0x1f

	operatorBeg
	ADD       // +
	SUB       // -
	MUL       // *
	LAND      // &&
	LOR       // ||
	NOT       // !
	EQL       // ==
	NEQ       // !=
	LSS       // <
	LEQ       // <=
	GTR       // >
	GEQ       // >=
	ASSIGN    // =
	QUEST     // ?
	LPAREN    // (
	RPAREN    // )
	LBRACK    // [
	RBRACK    // ]
	LBRACE    // {
	RBRACE    // }
	COMMA     // ,
	SEMICOLON // ;
	COLON     // :

	// The operators below are C's: the C reader (frontend/c) builds them
	// into the tree; the .pds language does not spell them (the tests'
	// notation parser.COperators does).
	QUO   // /
	REM   // %
	AND   // &
	OR    // |
	XOR   // ^
	SHL   // <<
	SHR   // >>
	TILDE // ~
	operatorEnd

	keywordBeg
	BOOL
	INT
	ENUM
	CONST
	PROC
	START
	IF
	ELSE
	WHILE
	GOTO
	RETURN
	ASSERT
	ASSUME
	ATOMIC
	SKIP
	BREAK
	CONTINUE
	TRUE
	FALSE
	keywordEnd
)

var tokens = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "EOF",
	IDENT:   "IDENT",
	NUMBER:  "NUMBER",

	ADD:       "+",
	SUB:       "-",
	MUL:       "*",
	LAND:      "&&",
	LOR:       "||",
	NOT:       "!",
	EQL:       "==",
	NEQ:       "!=",
	LSS:       "<",
	LEQ:       "<=",
	GTR:       ">",
	GEQ:       ">=",
	ASSIGN:    "=",
	QUEST:     "?",
	LPAREN:    "(",
	RPAREN:    ")",
	LBRACK:    "[",
	RBRACK:    "]",
	LBRACE:    "{",
	RBRACE:    "}",
	COMMA:     ",",
	SEMICOLON: ";",
	COLON:     ":",
	QUO:       "/",
	REM:       "%",
	AND:       "&",
	OR:        "|",
	XOR:       "^",
	SHL:       "<<",
	SHR:       ">>",
	TILDE:     "~",

	BOOL:     "bool",
	INT:      "int",
	ENUM:     "enum",
	CONST:    "const",
	PROC:     "proc",
	START:    "start",
	IF:       "if",
	ELSE:     "else",
	WHILE:    "while",
	GOTO:     "goto",
	RETURN:   "return",
	ASSERT:   "assert",
	ASSUME:   "assume",
	ATOMIC:   "atomic",
	SKIP:     "skip",
	BREAK:    "break",
	CONTINUE: "continue",
	TRUE:     "true",
	FALSE:    "false",
}

// String returns the token's source text for operators and keywords and
// its name for the others.
func (t Token) String() string {
	if 0 <= t && int(t) < len(tokens) && tokens[t] != "" {
		return tokens[t]
	}
	return "token(" + strconv.Itoa(int(t)) + ")"
}

// Lowest and highest operator precedence.
const (
	LowestPrec  = 0
	HighestPrec = 11 // unary operators
)

// Precedence returns the precedence of a binary operator, LowestPrec for
// other tokens. The levels are C's; the .pds language spells only || &&
// == != < <= > >= + - *, whose relative order they keep.
func (t Token) Precedence() int {
	switch t {
	case LOR:
		return 1
	case LAND:
		return 2
	case OR:
		return 3
	case XOR:
		return 4
	case AND:
		return 5
	case EQL, NEQ:
		return 6
	case LSS, LEQ, GTR, GEQ:
		return 7
	case SHL, SHR:
		return 8
	case ADD, SUB:
		return 9
	case MUL, QUO, REM:
		return 10
	}
	return LowestPrec
}

// IsKeyword reports whether t is a keyword.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

// IsOperator reports whether t is an operator or delimiter.
func (t Token) IsOperator() bool { return operatorBeg < t && t < operatorEnd }

var keywords = map[string]Token{}

func init() {
	for t := keywordBeg + 1; t < keywordEnd; t++ {
		keywords[tokens[t]] = t
	}
}

// Lookup maps an identifier to its keyword token or IDENT.
func Lookup(ident string) Token {
	if t, ok := keywords[ident]; ok {
		return t
	}
	return IDENT
}

// Pos is a compact source position: the byte offset in its file plus one.
// The zero Pos (NoPos) is unknown. Expand it with [File.Position].
type Pos int

// NoPos is the unknown position.
const NoPos Pos = 0

// IsValid reports whether p is known.
func (p Pos) IsValid() bool { return p != NoPos }

// File holds the name and line table of one source file.
type File struct {
	name  string
	size  int
	lines []int // offsets of line starts; lines[0] == 0
}

// NewFile returns a file of the given size with an empty line table (one
// line); the scanner adds lines as it meets them.
func NewFile(name string, size int) *File {
	return &File{name: name, size: size, lines: []int{0}}
}

// Name returns the file name.
func (f *File) Name() string { return f.name }

// Size returns the file size in bytes.
func (f *File) Size() int { return f.size }

// AddLine records that a line starts at offset. Offsets must increase.
func (f *File) AddLine(offset int) {
	if n := len(f.lines); offset > f.lines[n-1] && offset <= f.size {
		f.lines = append(f.lines, offset)
	}
}

// Pos returns the Pos of a byte offset (clamped to the file).
func (f *File) Pos(offset int) Pos {
	offset = max(0, min(offset, f.size))
	return Pos(offset + 1)
}

// Offset returns the byte offset of p.
func (f *File) Offset(p Pos) int { return int(p) - 1 }

// Position is an expanded source position: file, line and column. It is
// the position errors carry (package pds/diag), and the same type as
// pds.Pos, so the compiler hands it to the network unchanged.
type Position = diag.Pos

// Position expands p to file, line and column (both counted from 1, the
// column in bytes), in O(log lines). The unknown Pos gives the zero
// Position.
func (f *File) Position(p Pos) Position {
	if !p.IsValid() {
		return Position{}
	}
	off := min(int(p)-1, f.size)
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	return Position{File: f.name, Line: i + 1, Col: off - f.lines[i] + 1}
}
