// Package diag defines source positions and the positioned error list that
// every reader of the module reports into (after go/scanner's ErrorList):
// the .pds front end, the CUBA reader and the network checker of package
// pds. It imports only the standard library, so the lowest layers of the
// front end can use it without depending on BDDs.
//
// A position here is expanded: file name, line and column. Readers that
// keep compact positions (frontend/token) expand them only when they report
// an error.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a source position: a file name, a line and a column, both counted
// from 1 (the column in bytes). A zero Line means the position is unknown;
// a zero Col that only the line is known.
type Pos struct {
	File      string
	Line, Col int
}

// String returns "file:line:col", "file:line" without a column, and "-"
// when neither file nor line is known.
func (p Pos) String() string {
	switch {
	case p.Line == 0 && p.File == "":
		return "-"
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Error is an error in the input at a source position.
type Error struct {
	Pos Pos
	Msg string
}

// Error returns "file:line:col: message", "file: message" when only the
// file is known, and the bare message when the position is unknown.
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
// use. It keeps the order of Add until Sort is called.
type ErrorList []*Error

// Add appends an error.
func (p *ErrorList) Add(pos Pos, msg string) { *p = append(*p, &Error{pos, msg}) }

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

// Sort sorts the list by position, then message, and removes exact
// duplicates. It takes O(n log n) for n errors.
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

// MaxErrors is the number of errors a reader reports unless all are asked
// for.
const MaxErrors = 10

// Truncate keeps the first max errors and, when it cut some, ends the list
// with a "too many errors (N more)" entry at the position of the first one
// left out. Call it after Sort to keep the first errors of the file.
func (p *ErrorList) Truncate(max int) {
	p.TruncateWith(max, func(more int) string { return fmt.Sprintf("too many errors (%d more)", more) })
}

// TruncateWith is Truncate with the text of the last entry given by msg,
// called with the number of errors left out.
func (p *ErrorList) TruncateWith(max int, msg func(more int) string) {
	if len(*p) <= max {
		return
	}
	more := len(*p) - max
	cut := (*p)[max]
	*p = append((*p)[:max:max], &Error{cut.Pos, msg(more)})
}

// Error returns one error per line ("no errors" for an empty list).
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
