package bp

import "github.com/cbreach/cbreach/pds/diag"

// MaxErrors is the number of errors a read reports; a last "too many
// errors (N more)" entry stands for the others.
const MaxErrors = diag.MaxErrors

// ErrorList is the list of errors of one read (pds/diag's, the type
// of every reader of the module), sorted by position.
type ErrorList = diag.ErrorList

// errorList collects errors as the phases find them; err sorts them and
// keeps the first MaxErrors.
type errorList struct{ list ErrorList }

func (l *errorList) Add(pos diag.Pos, msg string) { l.list.Add(pos, msg) }

func (l *errorList) empty() bool { return len(l.list) == 0 }

func (l *errorList) err() error {
	l.list.Sort()
	l.list.Truncate(MaxErrors)
	return l.list.Err()
}
