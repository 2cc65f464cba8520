package cuba

import "github.com/cbreach/cbreach/pds/diag"

// MaxErrors is the number of errors a read reports before it gives up with
// a final "too many errors".
const MaxErrors = diag.MaxErrors

// Error is an error in an input file, at a line: it prints as
// "file:line: message" ("file: message" without a line). It is the error
// type of all the module's readers (package pds/diag).
type Error = diag.Error

// ErrorList is the list of errors of one read, in the order they were
// found: the .pds file top to bottom, then the .init (or .spec) file. It
// holds at most MaxErrors errors and then one "too many errors" entry.
type ErrorList = diag.ErrorList

// errorList collects the errors of one read: the first MaxErrors, then a
// last "too many errors" at the position of the next one; it ignores the
// rest, so a long malformed file costs no more than a short one.
type errorList struct{ list ErrorList }

// Add records an error unless the list is full.
func (l *errorList) Add(pos diag.Pos, msg string) {
	switch len(l.list) {
	case MaxErrors:
		msg = "too many errors"
	case MaxErrors + 1:
		return
	}
	l.list.Add(pos, msg)
}

// empty reports whether no error was recorded.
func (l *errorList) empty() bool { return len(l.list) == 0 }
