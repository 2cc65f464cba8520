package cuba

import (
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// MaxErrors is the number of errors a read reports before it gives up with
// a final "too many errors".
const MaxErrors = 10

// Error is an error in an input file, at a line.
type Error struct {
	Pos pds.Pos
	Msg string
}

// Error returns "file:line: message" ("file: message" without a line).
func (e *Error) Error() string {
	switch {
	case e.Pos.IsValid():
		return e.Pos.String() + ": " + e.Msg
	case e.Pos.File != "":
		return e.Pos.File + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is the list of errors of one read, in the order they were
// found: the .pds file top to bottom, then the .init (or .spec) file. It
// holds at most MaxErrors errors and then one "too many errors" entry.
type ErrorList []*Error

// Add appends an error unless the list is full.
func (l *ErrorList) Add(pos pds.Pos, msg string) {
	switch {
	case len(*l) < MaxErrors:
		*l = append(*l, &Error{Pos: pos, Msg: msg})
	case len(*l) == MaxErrors:
		*l = append(*l, &Error{Pos: pos, Msg: "too many errors"})
	}
}

// Error returns one "file:line: message" line per error.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns l as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
