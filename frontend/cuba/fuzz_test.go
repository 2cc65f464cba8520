package cuba_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/frontend/cuba"
)

// FuzzRead checks that no input makes the reader panic, that errors are
// positioned ErrorLists of bounded length, that what it accepts is a
// valid network whose targets parse, and that LooksLikeSystem accepts
// every .pds file that parses without errors.
func FuzzRead(f *testing.F) {
	f.Add(twoThreads, "0|0,6.5\n", "2|1,6")
	f.Add("1\nPDA 0 0\n0 0 -> 0 -\nPDA 1 1\n", "0|0,-", "0|-,-")
	f.Add("3\r\nPDA 0 1\r\n0 0 -> 1 1 2 # c\r\n1 1 -> 1 -\r\n", "0|0.1\r\n", "1|2")
	f.Add("2\nPDA 0 1\n0 -1 -> 99999999999999999999 1\n", "x|1", "0|1.2")
	for _, name := range []string{"08_Stefan-1/stefan-2", "06_K-Indcution/k-induction", "07_Proc-2/proc-2"} {
		p, err1 := os.ReadFile(filepath.Join(suiteDir, name+".pds"))
		i, err2 := os.ReadFile(filepath.Join(suiteDir, name+".init"))
		if err1 == nil && err2 == nil {
			f.Add(string(p), string(i), string(i))
		}
	}
	f.Fuzz(func(t *testing.T, pdsSrc, initSrc, spec string) {
		if _, err := cuba.ParsePDS("f.pds", []byte(pdsSrc)); err != nil {
			checkErrorList(t, err)
		} else if !cuba.LooksLikeSystem([]byte(pdsSrc)) {
			t.Fatalf("LooksLikeSystem: got false for a system that parses")
		}
		in, err := cuba.Read("f.pds", []byte(pdsSrc), "f.init", []byte(initSrc), testOpts)
		if err != nil {
			checkErrorList(t, err)
			return
		}
		if err := in.Net.Validate(); err != nil {
			t.Fatalf("accepted an invalid network: %v", err)
		}
		if len(in.Net.Threads) != len(in.System.Blocks) || len(in.Symbols) != len(in.System.Blocks) {
			t.Fatalf("got %d threads and %d symbol tables, want %d", len(in.Net.Threads), len(in.Symbols), len(in.System.Blocks))
		}
		if tg, err := cuba.ParseTarget("f.spec", []byte(spec), in); err != nil {
			checkErrorList(t, err)
		} else if len(tg.Tops) != len(in.Net.Threads) {
			t.Fatalf("target %s has %d tops, want %d", tg, len(tg.Tops), len(in.Net.Threads))
		}
		if _, err := cuba.ParseTargetString(spec, in); err != nil {
			checkErrorList(t, err)
		}
	})
}

func checkErrorList(t *testing.T, err error) {
	t.Helper()
	var list cuba.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got error %T %v, want an ErrorList", err, err)
	}
	if len(list) == 0 || len(list) > cuba.MaxErrors+1 {
		t.Fatalf("got %d errors, want 1..%d", len(list), cuba.MaxErrors+1)
	}
	for _, e := range list {
		if e.Pos.File == "" || e.Msg == "" {
			t.Fatalf("error without file or message: %q", e.Error())
		}
	}
}
