// Package engine holds what every analysis engine of cbreach takes and
// returns, so that engines, the command line and tools that compare
// engines share one vocabulary without importing each other: the verdict,
// violations, targets, the limits a run obeys and the errors that name
// them, the unit of the bound, and the figures of a run.
//
// It imports the model (package pds), the BDD layer and package split
// only for their types and errors; it imports no engine. The symbolic engine of the jMoped paper is
// package cbr, which re-exports these types under its own name.
package engine
