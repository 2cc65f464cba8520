package frontend

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

// The phases up to the checker, and the interpreter of the tests, must not
// depend on BDDs or networks: no package they import, directly or not,
// is pds, bdd or rudd (pds's leaves of words, pds/diag and pds/plural,
// import only the standard library and are allowed).
func TestPhasesIndependentOfBDDs(t *testing.T) {
	const module = "github.com/cbreach/cbreach/"
	seen := map[string]bool{}
	var visit func(path string, from []string)
	visit = func(path string, from []string) {
		if seen[path] {
			return
		}
		seen[path] = true
		leaf := path == module+"pds/diag" || path == module+"pds/plural"
		if !leaf && strings.Contains(path, "/pds") || strings.Contains(path, "/bdd") || strings.Contains(path, "rudd") {
			t.Errorf("%s imports %s", strings.Join(from, " -> "), path)
			return
		}
		rel, ok := strings.CutPrefix(path, module)
		if !ok {
			return // the standard library
		}
		pkg, err := build.ImportDir(filepath.Join("..", filepath.FromSlash(rel)), 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range pkg.Imports {
			visit(imp, append(from, path))
		}
	}
	for _, p := range []string{"token", "scanner", "ast", "parser", "types", "internal/interp"} {
		visit(module+"frontend/"+p, nil)
	}
	if !seen[module+"pds/diag"] {
		t.Error("the walk did not reach pds/diag")
	}
}
