package pds

import (
	"fmt"

	"github.com/cbreach/cbreach/pds/diag"
)

// Error is one broken invariant found by Validate, at the position of the
// offending rule, label, procedure or variable when it has one. It is the
// error type of the module's readers (package pds/diag).
type Error = diag.Error

// ErrorList is the error Validate returns for an invalid network: one
// "pds: invalid network: ..." entry per broken invariant, in the order of
// the checks (see sanity.go), at most ten and then an "and N more" entry.
type ErrorList = diag.ErrorList

// Validate checks the network's invariants: every label belongs to exactly
// one procedure, rules connect labels as their kind requires (a step stays
// in its procedure, except the wake-up steps of WithThreadSlots' dormant
// slots, which go to a procedure entry), relations mention only the
// variable copies their kind allows and, applied to valid values, produce
// valid enum values in every output copy (globals, the new top's locals,
// the saved frame's or the forked thread's locals), error labels are dead
// ends, threads start on existing labels with well-typed locals. Build
// calls it; tests call it on every network, slotted ones included.
//
// A broken invariant is reported as an [ErrorList]; a failure of the BDD
// manager while checking (a node limit) as the manager's error instead.
func (n *Network) Validate() error {
	s := newSanity(n)
	s.check()
	if err := n.M.Err(); err != nil {
		return err
	}
	s.errs.TruncateWith(maxSanityErrors, func(more int) string {
		return fmt.Sprintf("%s: and %d more", invalidNetwork, more)
	})
	return s.errs.Err()
}

// procCopy names the locals of a procedure in one copy of the local block.
type procCopy struct {
	p *Proc
	c int
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
