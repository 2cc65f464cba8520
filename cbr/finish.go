package cbr

import (
	"errors"
	"fmt"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// LimitError is a limit with its words: one an engine met itself (a
// thread bound, a depth limit, a view tuple limit), wrapping one of the
// sentinel errors (ErrThreadBound, ErrDepthLimit, ErrTupleLimit), or one
// every engine meets (a deadline, a cancellation, the node or the memory
// limit) as Finish says it, wrapping the error the engine met. Either way
// errors.Is and IsLimit know it.
type LimitError struct {
	Err   error  // the sentinel, or the error met
	Msg   string // the error's text
	Words string // the limit in words, for Result.Reason
	// Threads is the thread bound of an ErrThreadBound (0 for the
	// others): the coverage of a run that met it assumes at most that
	// many threads (Result.ThreadBound).
	Threads int
}

func (e *LimitError) Error() string { return e.Msg }
func (e *LimitError) Unwrap() error { return e.Err }

// NewLimit returns the limit sentinel met by engine, said in words: its
// error reads "engine: words: sentinel".
func NewLimit(engine string, sentinel error, format string, args ...any) *LimitError {
	w := fmt.Sprintf(format, args...)
	return &LimitError{Err: sentinel, Msg: fmt.Sprintf("%s: %s: %v", engine, w, sentinel), Words: w}
}

// ThreadLimit returns the limit an engine meets when a start at pos
// would create more threads than the thread bound allows: the start is
// cut off (its thread stops at the cutoff label), and so is every run
// through it. It is the same text in every engine.
func ThreadLimit(engine string, pos pds.Pos, threads int) *LimitError {
	e := NewLimit(engine, ErrThreadBound, "a start at %s would exceed the thread bound of %s", pos, plural.Count(threads, "thread"))
	e.Threads = threads
	return e
}

// Reason says a limit in words: a LimitError's own words, or the words
// of the limits every engine meets (LimitWords), or the error's text.
func Reason(err error) string {
	var le *LimitError
	if errors.As(err, &le) {
		return le.Words
	}
	if w := LimitWords(err); w != "" {
		return w
	}
	return err.Error()
}

// commonLimit returns a limit every engine meets (LimitWords) with one
// text whatever the engine and wherever it was met: "cbr: time limit
// reached", "cbr: cancelled", "cbr: BDD node limit reached", "cbr:
// memory limit reached". It wraps err, so that errors.Is(_,
// context.DeadlineExceeded) and the like still hold and an engine's own
// error stays reachable with errors.As. Any other error is returned as
// it is.
func commonLimit(err error) error {
	w := LimitWords(err)
	if w == "" || errors.As(err, new(*LimitError)) {
		return err // said already, or an engine's own limit in its own words
	}
	return &LimitError{Err: err, Msg: "cbr: " + w, Words: w}
}

// Finish is the one step that ends every engine's run: err is how the
// search ended (nil, a limit, or an internal error) and cut a limit the
// engine met without an error (the thread bound reached by a start it
// left out, ThreadLimit), or nil. A limit goes to Limit (with the same
// text in every engine for the limits every engine meets: commonLimit)
// and its words to Reason; when the search was cut off by another limit
// after a start was cut, Reason says both. A thread bound met, in err or
// in cut, sets ThreadBound. An internal error leaves the verdict
// Unknown, never Safe,
// with the error as Reason, and is returned; otherwise the verdict
// follows Decide.
func (r *Result) Finish(err, cut error) error {
	for _, e := range []error{err, cut} {
		var le *LimitError
		if errors.As(e, &le) && le.Threads > 0 {
			r.ThreadBound = le.Threads
		}
	}
	switch {
	case err != nil && IsLimit(err):
		r.Limit = commonLimit(err)
	case err != nil:
		r.Verdict, r.Reason = Unknown, err.Error()
		return err
	case cut != nil:
		r.Limit = cut
	}
	r.Decide()
	if r.Limit != nil {
		r.Reason = Reason(r.Limit)
		if cut != nil && r.Limit != cut {
			r.Reason += "; " + Reason(cut)
		}
	}
	return nil
}
