package scanner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// Error is an error in the input at a source position.
type Error struct {
	Pos pds.Pos
	Msg string
}

// Error prints "file:line:col: message".
func (e *Error) Error() string {
	if e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	if e.Pos.File != "" {
		return e.Pos.File + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of errors. The zero value is an empty list ready to
// use.
type ErrorList []*Error

// Add appends an error.
func (p *ErrorList) Add(pos pds.Pos, msg string) { *p = append(*p, &Error{pos, msg}) }

// Len, Swap and Less implement sort.Interface: by file, line, column, then
// message.
func (p ErrorList) Len() int      { return len(p) }
func (p ErrorList) Swap(i, j int) { p[i], p[j] = p[j], p[i] }
func (p ErrorList) Less(i, j int) bool {
	a, b := p[i].Pos, p[j].Pos
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return p[i].Msg < p[j].Msg
}

// Sort sorts the list by position and removes exact duplicates.
func (p *ErrorList) Sort() {
	sort.Stable(*p)
	out := (*p)[:0]
	for i, e := range *p {
		if i > 0 && e.Pos == (*p)[i-1].Pos && e.Msg == (*p)[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*p = out
}

// Error prints one error per line.
func (p ErrorList) Error() string {
	if len(p) == 0 {
		return "no errors"
	}
	var b strings.Builder
	for i, e := range p {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns the list as an error, nil when it is empty.
func (p ErrorList) Err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// MaxErrors is the number of errors reported unless all are asked for.
const MaxErrors = 10

// Truncate keeps the first max errors of a sorted list and, when it cut
// some, ends the list with a "too many errors" entry at the position of the
// first one left out.
func (p *ErrorList) Truncate(max int) {
	if len(*p) <= max {
		return
	}
	rest := len(*p) - max
	cut := (*p)[max]
	*p = append((*p)[:max:max], &Error{cut.Pos, fmt.Sprintf("too many errors (%d more)", rest)})
}
