package scanner

import "github.com/cbreach/cbreach/pds/diag"

// Error is an error in the input at an expanded source position
// (token.Position); it prints as "file:line:col: message". It is the error
// type of the module's readers (package pds/diag).
type Error = diag.Error

// ErrorList is the list every phase of the front end reports into: Add,
// then Sort (by position, duplicates removed) and Truncate (to MaxErrors
// and a "too many errors (N more)" entry); Err returns it as an error.
type ErrorList = diag.ErrorList

// MaxErrors is the number of errors reported unless all are asked for.
const MaxErrors = diag.MaxErrors
