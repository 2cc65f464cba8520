package frontend

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// validFiles returns the valid programs of testdata, the example of
// docs/language.md and the benchmark models.
func validFiles(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"testdata/*.pds", "testdata/valid/*.pds", "testdata/golden/*.pds", "../benchmarks/models/*.pds"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// TestValid compiles every valid program; Build validates each network.
func TestValid(t *testing.T) {
	for _, path := range validFiles(t) {
		if strings.HasSuffix(path, "-b8.pds") {
			// The 8-bit variants of the vector models have relations of
			// about 700,000 BDD nodes (their variable order, not the
			// compiler): seconds each. The 1-bit ones have the same code.
			continue
		}
		t.Run(path, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n, err := Compile(path, src)
			if err != nil {
				t.Fatal(err)
			}
			if err := n.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestValidDifferential compares the compiled valid programs with the
// interpreter (those small enough).
func TestValidDifferential(t *testing.T) {
	for _, path := range validFiles(t) {
		if strings.Contains(path, "benchmarks") {
			continue
		}
		t.Run(path, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			k := 2
			if strings.Contains(path, "constructs") {
				k = 1 // about 1,000 configurations; 16,000 with 2 contexts
			}
			if differential(t, path, string(src), diffOptions{Contexts: k, MaxDepth: 5, MaxConfigs: 20000}) {
				t.Logf("skipped: too many configurations")
			}
		})
	}
}

// TestGolden compares the printed networks of testdata/golden/*.pds and of
// the docs/language.md example with their .golden files (go test -update
// rewrites them).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.pds")
	files = append(files, "testdata/bluetooth.pds")
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".pds")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n, err := Compile(filepath.Base(path), src)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := n.Print(&got); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("printed network differs from %s (go test -update rewrites it):\ngot:\n%s", golden, got.String())
			}
		})
	}
}
