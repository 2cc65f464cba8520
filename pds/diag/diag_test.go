package diag

import (
	"errors"
	"fmt"
	"testing"
)

func TestPosString(t *testing.T) {
	for _, tc := range []struct {
		pos  Pos
		want string
	}{
		{Pos{}, "-"},
		{Pos{File: "a.pds", Line: 3}, "a.pds:3"},
		{Pos{File: "a.pds", Line: 3, Col: 7}, "a.pds:3:7"},
		{Pos{Line: 2, Col: 1}, ":2:1"},
	} {
		if got := tc.pos.String(); got != tc.want {
			t.Errorf("%#v.String(): got %q want %q", tc.pos, got, tc.want)
		}
	}
	if (Pos{File: "a"}).IsValid() || !(Pos{Line: 1}).IsValid() {
		t.Error("IsValid: got true for no line or false for line 1")
	}
}

func TestErrorString(t *testing.T) {
	for _, tc := range []struct {
		err  Error
		want string
	}{
		{Error{Pos{File: "a.pds", Line: 1, Col: 2}, "bad"}, "a.pds:1:2: bad"},
		{Error{Pos{File: "a.pds"}, "bad"}, "a.pds: bad"},
		{Error{Pos{}, "bad"}, "bad"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q want %q", got, tc.want)
		}
	}
}

func TestSortTruncate(t *testing.T) {
	var l ErrorList
	if l.Err() != nil || l.Error() != "no errors" {
		t.Fatalf("empty list: got %v, %q", l.Err(), l.Error())
	}
	for i := 12; i >= 1; i-- {
		l.Add(Pos{File: "f", Line: i, Col: 1}, fmt.Sprintf("e%d", i))
	}
	l.Add(Pos{File: "f", Line: 1, Col: 1}, "e1")  // duplicate
	l.Add(Pos{File: "f", Line: 1, Col: 1}, "a1")  // same position, earlier message
	l.Add(Pos{File: "e", Line: 20, Col: 1}, "e0") // earlier file
	l.Sort()
	if len(l) != 14 {
		t.Fatalf("after Sort: got %d errors want 14:\n%v", len(l), l)
	}
	if l[0].Msg != "e0" || l[1].Msg != "a1" || l[2].Msg != "e1" {
		t.Errorf("order: got %s, %s, %s want e0, a1, e1", l[0].Msg, l[1].Msg, l[2].Msg)
	}
	l.Truncate(MaxErrors)
	if len(l) != MaxErrors+1 {
		t.Fatalf("after Truncate: got %d errors want %d", len(l), MaxErrors+1)
	}
	if got, want := l[MaxErrors].Error(), "f:9:1: too many errors (4 more)"; got != want {
		t.Errorf("last entry: got %q want %q", got, want)
	}
	var target ErrorList
	if err := fmt.Errorf("wrapped: %w", l.Err()); !errors.As(err, &target) || len(target) != len(l) {
		t.Errorf("errors.As: got %v", target)
	}
}

func TestTruncateWith(t *testing.T) {
	var l ErrorList
	for i := 1; i <= 3; i++ {
		l.Add(Pos{File: "f", Line: i}, "e")
	}
	l.TruncateWith(3, func(int) string { return "unused" })
	if len(l) != 3 {
		t.Fatalf("got %d errors want 3", len(l))
	}
	l.TruncateWith(1, func(more int) string { return fmt.Sprintf("and %d more", more) })
	if got, want := l.Error(), "f:1: e\nf:2: and 2 more"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}
