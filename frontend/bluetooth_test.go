package frontend

import (
	"testing"

	"github.com/cbreach/cbreach/pds/explicit"
)

// The example of docs/language.md: the assertion fails with 5 contexts, not with
// 4 (checked on the explicit reference semantics).
func TestBluetoothExample(t *testing.T) {
	n, err := Compile("bluetooth.pds", []byte(readTestdata(t, "bluetooth.pds")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		k          int
		violations int
	}{{4, 0}, {5, 1}} {
		res, err := explicit.Explore(n, explicit.Options{Contexts: tc.k})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Violations) != tc.violations {
			t.Errorf("k=%d: got %d violations, want %d", tc.k, len(res.Violations), tc.violations)
		}
		for _, v := range res.Violations {
			if v.Label.Message != "assert(!stopped)" || v.Contexts != 5 {
				t.Errorf("k=%d: violation %s (%s) with %d contexts", tc.k, v.Label.Name, v.Label.Message, v.Contexts)
			}
		}
	}
}
