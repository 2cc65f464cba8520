package cuba_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/cuba"
)

func TestLooksLikeSystem(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"two threads", twoThreads, true},
		{"count then PDA", "2\nPDA 0 1\n0 0 -> 1 1\n", true},
		{"comments first", "# s^I = 0|0,0,7,7\n4\n# thr1\nPDA 0 6\n", true},
		{"banner comments", "21\n####################\n# adder\n####################\nPDA 0 23\n", true},
		{"CRLF", "3\r\nPDA 0 2\r\n0 0 -> 1 1 0\r\n", true},
		{"byte-order mark", "\uFEFF2\nPDA 0 1\n", true},
		{"rule before a block", "2\n0 1 -> 1 1\n", true},
		{"empty", "", false},
		{"comments only", "# 2\n# PDA 0 1\n", false},
		{"count alone", "2\n", false},
		{"count and garbage", "2\nproc main() { skip; }\n", false},
		{"two numbers", "2 3\nPDA 0 1\n", false},
		{"negative count", "-2\nPDA 0 1\n", false},
		{"modelling language", "proc main() {\n  skip;\n}\nstart main();\n", false},
		{"modelling language comment", "// 2\nPDA\n", false},
		{"init file", "0|1,2\n", false},
	} {
		if got := cuba.LooksLikeSystem([]byte(tc.src)); got != tc.want {
			t.Errorf("%s: got %v want %v", tc.name, got, tc.want)
		}
	}
}

// Every program of the modelling language in the repository (front end
// testdata, benchmark models) is not taken for a CUBA system, and every
// .pds file of the CUBA suite is, when the suite is available.
func TestLooksLikeSystemFiles(t *testing.T) {
	var lang []string
	for _, dir := range []string{"../testdata", "../../benchmarks/models", "../../examples"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(path, ".pds") {
				lang = append(lang, path)
			}
			return nil
		})
	}
	if len(lang) < 10 {
		t.Fatalf("got %d programs of the modelling language, want at least 10", len(lang))
	}
	for _, path := range lang {
		if src, err := os.ReadFile(path); err != nil {
			t.Error(err)
		} else if cuba.LooksLikeSystem(src) {
			t.Errorf("%s: got true want false", path)
		}
	}
	if _, err := os.Stat(suiteDir); err != nil {
		t.Skipf("CUBA suite not available (%v)", err)
	}
	n := 0
	filepath.WalkDir(suiteDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".pds") {
			return nil
		}
		n++
		if src, err := os.ReadFile(path); err != nil {
			t.Error(err)
		} else if !cuba.LooksLikeSystem(src) {
			t.Errorf("%s: got false want true", path)
		}
		return nil
	})
	if n != len(suite) {
		t.Errorf("got %d suite files want %d", n, len(suite))
	}
}

// A UTF-8 byte-order mark at the very start of a .pds, .init or .spec file
// is skipped; anywhere else it is an error like any other stray text.
func TestByteOrderMark(t *testing.T) {
	const bom = "\uFEFF"
	in := read(t, bom+twoThreads, bom+"0|0,6.5")
	if got := printed(t, in.Net); got != printed(t, read(t, twoThreads, "0|0,6.5").Net) {
		t.Errorf("with a byte-order mark: got\n%s\nwant the network without", got)
	}
	tg, err := cuba.ParseTarget("a.spec", []byte(bom+"0|1,5\n"), in)
	if err != nil || tg.String() != "0|1,5" {
		t.Errorf("target with a byte-order mark: got %v, %v want 0|1,5", tg, err)
	}
	_, err = cuba.Read("a.pds", []byte("2\n"+bom+"PDA 0 1\n"), "a.init", []byte("0|1"), testOpts)
	if want := `a.pds:2: rule before the first "PDA l1 l2" block`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("byte-order mark on line 2: got %v want %q", err, want)
	}
}
