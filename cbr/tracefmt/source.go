package tracefmt

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// Lang is the comment syntax of an input, which a step's statement
// leaves out.
type Lang int

const (
	LangPDS  Lang = iota // "//" to the end of the line, "/* ... */"
	LangBP               // as .pds; an identifier in braces ("{x//y}") is kept whole
	LangCUBA             // "#" to the end of the line
)

// langNames name the languages as the table of readers does
// (frontend/readers, Reader.Lang), which cannot import this package.
var langNames = []string{LangPDS: "pds", LangBP: "bp", LangCUBA: "cuba"}

// ParseLang returns the language named name: "pds", "bp" or "cuba".
func ParseLang(name string) (Lang, error) {
	for l, n := range langNames {
		if n == name {
			return Lang(l), nil
		}
	}
	return 0, fmt.Errorf("tracefmt: no language %q: want pds, bp or cuba", name)
}

// Source holds a program's text, to show the statement of a step.
type Source struct {
	file  string
	lines []string
	lang  Lang
}

// NewSource returns the text src of the input file, as its positions
// (pds.Pos.File) name it, with comments written in lang.
func NewSource(file string, src []byte, lang Lang) *Source {
	return &Source{file: file, lines: strings.Split(string(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))), "\n"), lang: lang}
}

// Stmt returns the source text at a position of the input: the line from
// the position's column, its comments left out, trimmed, up to the end
// of a simple statement; "" when the position is elsewhere (or s is
// nil).
func (s *Source) Stmt(p pds.Pos) string {
	if s == nil || p.File != s.file || p.Line < 1 || p.Line > len(s.lines) {
		return ""
	}
	line := s.lines[p.Line-1]
	if p.Col >= 1 && p.Col <= len(line) {
		line = line[p.Col-1:]
	}
	line = strings.TrimSpace(Uncomment(line, s.lang))
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

// Uncomment returns a line of an input (or its end) without its
// comments: a line comment to the end of the line, a block comment (to
// the end of the line when it does not close on it) with the blanks
// around it made one. Neither input language has strings; a Boolean
// program's identifier in braces may hold "//" or "/*" and is kept.
func Uncomment(line string, lang Lang) string {
	if lang == LangCUBA {
		line, _, _ = strings.Cut(line, "#")
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		rest := line[i:]
		switch {
		case lang == LangBP && rest[0] == '{':
			n := strings.IndexByte(rest, '}') + 1
			if n == 0 {
				n = len(rest)
			}
			b.WriteString(rest[:n])
			i += n
		case strings.HasPrefix(rest, "//"):
			return b.String()
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				return b.String()
			}
			before := strings.TrimRight(b.String(), " \t")
			after := strings.TrimLeft(rest[2+end+2:], " \t")
			b.Reset()
			b.WriteString(before)
			if before != "" && after != "" && !strings.ContainsAny(after[:1], ";,)") {
				b.WriteByte(' ')
			}
			i = len(line) - len(after)
		default:
			b.WriteByte(rest[0])
			i++
		}
	}
	return b.String()
}
