package diag

import (
	"errors"
	"fmt"
	"testing"
)

// TestKinds: each kind is told by its type through any wrapping, and by
// nothing else (a message that says "internal error" is not one).
func TestKinds(t *testing.T) {
	internal := fmt.Errorf("reading x: %w", Internal(errors.New("bp: internal error: boom")))
	if !IsInternal(internal) || IsInput(internal) {
		t.Errorf("a wrapped internal error: internal %v, input %v", IsInternal(internal), IsInput(internal))
	}
	if IsInternal(errors.New("internal error (a bug)")) {
		t.Error("a message is not a kind")
	}
	var list ErrorList
	list.Add(Pos{File: "a.pds", Line: 1, Col: 2}, "bad")
	for _, err := range []error{list, list[0], &InputError{errors.New("cannot read a.pds")}, fmt.Errorf("x: %w", list.Err())} {
		if !IsInput(err) || IsInternal(err) {
			t.Errorf("%v: input %v, internal %v", err, IsInput(err), IsInternal(err))
		}
	}
	if Internal(nil) != nil {
		t.Error("Internal(nil) is not nil")
	}
}
