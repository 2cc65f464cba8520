package benchmarks

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateVector = flag.Bool("update-vector", false, "rewrite models/vector-*.pds from VectorModel")

func TestVectorModelText(t *testing.T) {
	for bits := 1; bits <= 16; bits++ {
		java5, java6 := VectorModel(bits, false), VectorModel(bits, true)
		if java5 == java6 {
			t.Fatalf("bits %d: Java 5 and Java 6 forms are equal", bits)
		}
		width := fmt.Sprintf("int<%d> x = ?;", bits)
		for _, c := range []struct {
			name, text string
			want       []string
			wantNot    []string
		}{
			{"java5", java5,
				[]string{"proc size() : int<2>", "n = size();", "\n  toArray();", "fewest contexts 3"},
				[]string{"safe for every bound"}},
			{"java6", java6,
				[]string{"v2size = v1size;", "safe for every bound"},
				[]string{"proc size()", "\n  toArray();", "fewest contexts"}},
		} {
			want := append([]string{
				width,
				fmt.Sprintf("int<%d> v1data[2];", bits),
				fmt.Sprintf("int<%d> v2data[2];", bits),
				fmt.Sprintf("proc add(int<%d> e)", bits),
				"assume(x != 0);",
				"start remover();",
				"assert(v2size == 0 || v2data[0] == x);",
				"\nstart test();\n",
			}, c.want...)
			for _, s := range want {
				if !strings.Contains(c.text, s) {
					t.Errorf("bits %d, %s: got text without %q", bits, c.name, s)
				}
			}
			for _, s := range c.wantNot {
				if strings.Contains(c.text, s) {
					t.Errorf("bits %d, %s: got text with %q", bits, c.name, s)
				}
			}
			if n := strings.Count(c.text, "\nstart "); n != 1 {
				t.Errorf("bits %d, %s: got %d top-level starts, want 1", bits, c.name, n)
			}
			if strings.Count(c.text, "{") != strings.Count(c.text, "}") {
				t.Errorf("bits %d, %s: unbalanced braces", bits, c.name)
			}
			if other := fmt.Sprintf("int<%d>", bits+1); strings.Contains(c.text, other) && bits+1 != 2 {
				t.Errorf("bits %d, %s: got text with %q", bits, c.name, other)
			}
		}
	}
}

func TestVectorModelPanicsOnBadWidth(t *testing.T) {
	for _, bits := range []int{0, -1, 33} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("VectorModel(%d, false): got no panic, want one", bits)
				}
			}()
			VectorModel(bits, false)
		}()
	}
}

// TestVectorModelFiles checks that the files in models/ are what
// VectorModel generates; go test -run TestVectorModelFiles -update-vector
// rewrites them.
func TestVectorModelFiles(t *testing.T) {
	for _, c := range []struct {
		bits  int
		fixed bool
	}{{1, false}, {8, false}, {1, true}, {8, true}} {
		java := "5"
		if c.fixed {
			java = "6"
		}
		path := filepath.Join("models", fmt.Sprintf("vector-java%s-b%d.pds", java, c.bits))
		want := VectorModel(c.bits, c.fixed)
		if *updateVector {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run TestVectorModelFiles -update-vector)", err)
		}
		if string(got) != want {
			t.Errorf("%s: got text different from VectorModel(%d, %v); rerun with -update-vector", path, c.bits, c.fixed)
		}
	}
}
