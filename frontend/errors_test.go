package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/scanner"
	"github.com/cbreach/cbreach/frontend/token"
)

// Each file of testdata/errors is an invalid program with its expected
// errors marked as in go/types' tests:
//
//	x = y /* ERROR "undefined: y" */;
//
// expects an error whose message contains the quoted text at the token just
// before the comment (at its start or anywhere up to its end, for errors
// reported just after a token, such as a missing ';'), and
//
//	// ERROR "text"
//
// expects one anywhere on its line. Every error must be expected and every
// marker met.

var markerRx = regexp.MustCompile(`(/\*|//) ERROR "([^"]*)"( \*/)?`)

type marker struct {
	line     int
	lo, hi   int // byte offsets: the error must lie in [lo, hi] (block markers)
	lineOnly bool
	text     string
	met      bool
}

// markers finds the markers of src and the token ranges they refer to.
func markers(t *testing.T, name string, src []byte) []*marker {
	// The start and end of every token, including illegal ones.
	file := token.NewFile(name, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil)
	type span struct{ lo, hi int }
	var toks []span
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		n := len(lit)
		if n == 0 {
			n = len(tok.String())
		}
		toks = append(toks, span{file.Offset(pos), file.Offset(pos) + n})
	}
	var ms []*marker
	for _, loc := range markerRx.FindAllSubmatchIndex(src, -1) {
		m := &marker{text: string(src[loc[4]:loc[5]])}
		m.line = 1 + strings.Count(string(src[:loc[0]]), "\n")
		if string(src[loc[2]:loc[3]]) == "//" {
			m.lineOnly = true
		} else {
			i := sort.Search(len(toks), func(i int) bool { return toks[i].lo >= loc[0] }) - 1
			if i < 0 {
				t.Fatalf("%s: marker %q has no token before it", name, m.text)
			}
			m.lo, m.hi = toks[i].lo, toks[i].hi
		}
		ms = append(ms, m)
	}
	return ms
}

func errorFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "errors", "*.pds"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no error test files: %v", err)
	}
	return files
}

func TestErrors(t *testing.T) {
	files := errorFiles(t)
	if len(files) < 40 {
		t.Errorf("%d error test files, want at least 40", len(files))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(strings.TrimSuffix(name, ".pds"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ms := markers(t, name, src)
			if len(ms) == 0 {
				t.Fatalf("%s has no ERROR marker", name)
			}
			net, err := Compile(name, src)
			if err == nil {
				t.Fatalf("%s compiled (%d rules); want errors", name, len(net.Rules))
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got error %T %v, want an ErrorList", err, err)
			}
			lines := strings.Split(string(src), "\n")
			offset := func(line, col int) int {
				o := 0
				for _, l := range lines[:line-1] {
					o += len(l) + 1
				}
				return o + col - 1
			}
			for _, e := range list {
				if e.Pos.File != name || !e.Pos.IsValid() || e.Pos.Col < 1 {
					t.Errorf("error without a full position: %v", e)
					continue
				}
				off := offset(e.Pos.Line, e.Pos.Col)
				found := false
				for _, m := range ms {
					if m.met || !strings.Contains(e.Msg, m.text) {
						continue
					}
					if m.lineOnly && m.line == e.Pos.Line || !m.lineOnly && m.lo <= off && off <= m.hi {
						m.met, found = true, true
						break
					}
				}
				if !found {
					t.Errorf("unexpected error: %v", e)
				}
			}
			for _, m := range ms {
				if !m.met {
					t.Errorf("%s:%d: expected error %q not reported (got:\n%v)", name, m.line, m.text, err)
				}
			}
		})
	}
}

// TestErrorListFormat checks the printed form, the order and the cap of ten
// errors.
func TestErrorListFormat(t *testing.T) {
	var b strings.Builder
	b.WriteString("proc main() {\n")
	for i := 0; i < 14; i++ {
		b.WriteString("  x = 1;\n")
	}
	b.WriteString("}\nstart main();\n")
	_, err := Compile("many.pds", []byte(b.String()))
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 11 {
		t.Fatalf("got %d lines, want 10 errors and a last line:\n%v", len(lines), err)
	}
	for i, l := range lines[:10] {
		want := "many.pds:" + strconv.Itoa(i+2) + ":3: undefined: x"
		if l != want {
			t.Errorf("line %d: got %q want %q", i, l, want)
		}
	}
	if lines[10] != "many.pds:12:3: too many errors (4 more)" {
		t.Errorf("last line: got %q", lines[10])
	}
	_, err = CompileWith("many.pds", []byte(b.String()), Options{AllErrors: true})
	if n := len(err.(ErrorList)); n != 14 {
		t.Errorf("AllErrors: got %d errors, want 14", n)
	}
}
