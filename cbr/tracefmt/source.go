package tracefmt

import (
	"bytes"
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// Source holds a program's text, to show the statement of a step.
type Source struct {
	file  string
	lines []string
}

// NewSource returns the text src of the input file, as its positions
// (pds.Pos.File) name it.
func NewSource(file string, src []byte) *Source {
	return &Source{file: file, lines: strings.Split(string(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))), "\n")}
}

// Stmt returns the source text at a position of the input: the line from
// the position's column, trimmed, up to the end of a simple statement;
// "" when the position is elsewhere (or s is nil).
func (s *Source) Stmt(p pds.Pos) string {
	if s == nil || p.File != s.file || p.Line < 1 || p.Line > len(s.lines) {
		return ""
	}
	line := s.lines[p.Line-1]
	if p.Col >= 1 && p.Col <= len(line) {
		line = line[p.Col-1:]
	}
	line = strings.TrimSpace(line)
	// A simple statement ends at its semicolon; a compound one (if,
	// while, atomic) is shown to the end of the line.
	for _, kw := range []string{"if", "while", "atomic", "else"} {
		if strings.HasPrefix(line, kw) {
			return line
		}
	}
	if i := strings.IndexByte(line, ';'); i >= 0 {
		line = line[:i+1]
	}
	return line
}
