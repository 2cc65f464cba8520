package pds_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/pds"
)

// Validate's error is an ErrorList: one entry per broken invariant, at the
// position of the offending rule, in the order of the checks, capped at ten
// and "and N more".
func TestValidateErrorList(t *testing.T) {
	s := newBase(true)
	s.b.Thread("T0", pds.Call(s.main))
	for i := 0; i < 12; i++ {
		s.b.Step(s.merr, s.m0, s.same(), pds.Pos{File: "m.pds", Line: i + 1, Col: 3})
	}
	_, err := s.b.Build()
	var list pds.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %T %v, want a pds.ErrorList", err, err)
	}
	if len(list) != 11 {
		t.Fatalf("got %d entries want 11:\n%v", len(list), err)
	}
	if got, want := list[0].Error(), "m.pds:1:3: pds: invalid network: rule 0 (step from m.err): assert labels are dead ends and have no rules"; got != want {
		t.Errorf("first entry: got %q want %q", got, want)
	}
	if got, want := list[10].Error(), "m.pds:11:3: pds: invalid network: and 2 more"; got != want {
		t.Errorf("last entry: got %q want %q", got, want)
	}
	if n := strings.Count(err.Error(), "\n"); n != 10 {
		t.Errorf("got %d lines want 11", n+1)
	}
}
