package bp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/pds"
)

// FuzzRead checks that no input makes Read panic or fail with anything but
// a positioned ErrorList of bounded length, and that what it accepts is a
// valid network.
func FuzzRead(f *testing.F) {
	for _, tc := range semanticCases {
		f.Add(tc.src)
	}
	f.Add("decl x := 1;\nvoid main() begin 0: x := *; 1: goto 0, 2; 2: assert(x); end")
	f.Add("decl a; bool<2> f(p) begin return p, !p; end void main() begin a, a := f(1); end")
	f.Add("void main() begin /* open")
	f.Add("void main() begin if ((((((((x then fi end")
	f.Add("decl {a < b}; void init() begin {a < b} := schoose[T, F]; end void t() begin SLIC_ERROR: skip; end")
	files, _ := filepath.Glob("../../benchmarks/boolean/ijit-test*.bp")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		n, err := Read("f.bp", []byte(src), pds.Options{MaxThreads: 3})
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) {
				if strings.Contains(err.Error(), "internal error") {
					t.Fatalf("internal error: %v", err)
				}
				return // a BDD limit
			}
			if len(list) == 0 || len(list) > MaxErrors+1 {
				t.Fatalf("got %d errors, want 1..%d", len(list), MaxErrors+1)
			}
			for _, e := range list {
				if e.Pos.File != "f.bp" || e.Pos.Line < 1 || e.Msg == "" {
					t.Fatalf("error without position or message: %q", e.Error())
				}
			}
			return
		}
		if err := n.Validate(); err != nil {
			t.Fatalf("accepted an invalid network: %v", err)
		}
	})
}
