package diag

import "errors"

// The kinds of failure a front door tells apart, each by a type that it
// matches with errors.As, never by a message's words:
//
//   - bad input: an *Error or an ErrorList (positioned, from a reader),
//     or an *InputError (the rest: a file that cannot be read, a file
//     that is not of the format it is read as);
//   - a usage error: cbr.OptionError or cbr.SettingError (the options or
//     the settings of an engine), or the front door's own;
//   - a limit: cbr.LimitError and the sentinel errors of package bdd and
//     package cbr, which bdd.IsLimit and cbr.IsLimit recognise;
//   - an internal error, a bug: an *InternalError;
//   - a construct a reader understands but does not analyse (C's floating
//     point, inline assembly, a pointer it cannot resolve): an
//     *Unsupported, which makes the answer unknown rather than an error
//     in the input.
//
// An error of a reader or an engine that is none of these is bad input
// from a reader and an internal error from an engine.

// InternalError is a failure that is a bug of the module, not of its
// input: a panic recovered, a check of its own results that failed.
type InternalError struct{ Err error }

func (e *InternalError) Error() string { return e.Err.Error() }
func (e *InternalError) Unwrap() error { return e.Err }

// Internal marks err as an internal error (nil for nil).
func Internal(err error) error {
	if err == nil {
		return nil
	}
	return &InternalError{err}
}

// IsInternal reports whether err is, or wraps, an internal error.
func IsInternal(err error) bool {
	var ie *InternalError
	return errors.As(err, &ie)
}

// InputError is bad input without a position: a file that cannot be
// read, or that is not of the format it is read as.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// IsInput reports whether err is bad input: an *Error, an ErrorList or
// an *InputError.
func IsInput(err error) bool {
	var (
		pe *Error
		el ErrorList
		ie *InputError
	)
	return errors.As(err, &pe) || errors.As(err, &el) || errors.As(err, &ie)
}

// Unsupported is a construct of a valid input that a reader refuses to
// analyse rather than guess at: where it is and what it is. A front door
// answers unknown (exit status 3) with it, never safe and never an error
// in the input.
type Unsupported struct {
	Pos  Pos
	What string // "floating point", "inline assembly", ...
}

func (e *Unsupported) Error() string {
	if e.Pos.IsValid() {
		return e.Pos.String() + ": not supported: " + e.What
	}
	return "not supported: " + e.What
}

// IsUnsupported reports whether err is, or wraps, an *Unsupported and
// returns it.
func IsUnsupported(err error) (*Unsupported, bool) {
	var u *Unsupported
	ok := errors.As(err, &u)
	return u, ok
}
