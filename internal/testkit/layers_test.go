package testkit

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/cbreach/cbreach/"

// floors are the module's packages by floor (docs/design.md, "Import
// rules"): a package may import its own subpackages and the packages of
// lower floors, never a sibling on its own floor. A package below a
// listed one (bdd/internal/..., frontend/ast, cmd/cbreach/internal/...)
// belongs to it.
var floors = [][]string{
	{"pds/plural"}, // the wording of counts, below everything but bdd
	{"pds/diag", "bdd"},
	{"pds"},
	{"pds/explicit", "symauto"},
	{"cbr"}, // the vocabulary: no engine, no splitter
	{"split"},
	{"cbr/seq", "cbr/states", "cbr/tuples"}, // the engines, siblings
	{"cbr/auto"},                            // the portfolio of two engines
	{"cbr/engines"},                         // the table
	{"frontend"},                            // the readers
	{"frontend/readers"},                    // their table
	{"internal/testkit", "benchmarks", "cmd"},
}

// readers is what the readers may import: the core up to symauto
// (Boolean programs compute init's final states by post*), never an
// engine or the vocabulary. Their table, frontend/readers, may import
// the readers too, and no reader imports it.
var readers = []string{"pds/plural", "pds/diag", "bdd", "pds", "symauto"}

// home returns the floor and the listed package that p belongs to (the
// longest listed prefix); -1 when none.
func home(p string) (floor int, name string) {
	floor = -1
	for f, names := range floors {
		for _, n := range names {
			if (p == n || strings.HasPrefix(p, n+"/")) && len(n) > len(name) {
				floor, name = f, n
			}
		}
	}
	return floor, name
}

// allowedImport reports whether package p may import dep.
func allowedImport(p, dep string) bool {
	pf, pn := home(p)
	df, dn := home(dep)
	switch {
	case pf < 0 || df < 0:
		return false
	case dn == pn:
		return true // its own tree
	case pn == "frontend":
		return slices.Contains(readers, dn)
	case pn == "frontend/readers":
		return dn == "frontend" || slices.Contains(readers, dn)
	}
	return df < pf
}

// TestImportRules checks every import of every non-test file of the
// module against the floors.
func TestImportRules(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "examples") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if f, _ := home(rel); f < 0 {
			bad = append(bad, rel+": on no floor")
		}
		for _, imp := range pkg.Imports {
			if dep, ok := strings.CutPrefix(imp, module); ok && !allowedImport(rel, dep) {
				bad = append(bad, rel+" imports "+dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("imports against the rules of docs/design.md, \"Import rules\":\n%s", strings.Join(bad, "\n"))
	}
}

// TestReadersTableRule: the table of readers may import the readers and
// what they may, but no engine and not the vocabulary; no reader imports
// the table.
func TestReadersTableRule(t *testing.T) {
	for _, c := range []struct {
		p, dep string
		ok     bool
	}{
		{"frontend/readers", "frontend", true},
		{"frontend/readers", "frontend/bp", true},
		{"frontend/readers", "frontend/cuba", true},
		{"frontend/readers", "symauto", true},
		{"frontend/readers", "cbr", false},
		{"frontend/readers", "cbr/tracefmt", false},
		{"frontend/readers", "cbr/engines", false},
		{"frontend/readers", "cbr/tuples", false},
		{"frontend/cuba", "frontend/readers", false},
		{"frontend", "frontend/readers", false},
		{"cmd/cbreach", "frontend/readers", true},
	} {
		if got := allowedImport(c.p, c.dep); got != c.ok {
			t.Errorf("allowedImport(%s, %s): got %v want %v", c.p, c.dep, got, c.ok)
		}
	}
}
