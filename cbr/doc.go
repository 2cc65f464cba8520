// Package cbr is the vocabulary every analysis engine of cbreach shares,
// so that the engines, the table of engines (package cbr/engines), the
// command line and the tools that compare engines speak one language
// without importing each other: the options common to every engine
// (Options: the bound and its unit, the limits, traces, the hooks, and
// their one check, Options.Check), the Result with its verdict,
// violations, traces and figures, the one step that ends every run
// (Result.Finish) and the limits with their words (LimitWords, Reason,
// LimitError).
//
// It imports the model (package pds), the BDD layer and the explicit
// reference semantics (package pds/explicit, which traces are replayed
// on); it imports no engine and no splitter (docs/design.md, "Import
// rules"). The engines are its siblings' business: cbr/tuples (the jMoped
// paper's view tuples), cbr/seq (Lal and Reps' sequential reduction) and
// cbr/states (explicit states).
package cbr
