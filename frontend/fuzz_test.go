package frontend

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/parser"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
)

// addCorpus seeds a fuzz target with every .pds file of testdata.
func addCorpus(f *testing.F) {
	for _, pat := range []string{"testdata/*.pds", "testdata/*/*.pds"} {
		files, _ := filepath.Glob(pat)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
}

// FuzzParse: the parser never panics, always returns a tree, and every
// node it builds lies within the file.
func FuzzParse(f *testing.F) {
	addCorpus(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		file := token.NewFile("fuzz.pds", len(src))
		tree, errs := parser.ParseFile(file, src, 0)
		if tree == nil {
			t.Fatal("nil tree")
		}
		if len(errs) > 11 {
			t.Fatalf("%d errors without AllErrors", len(errs))
		}
		for _, e := range errs {
			if !e.Pos.IsValid() {
				t.Fatalf("error without position: %v", e)
			}
		}
		walk(tree, func(n ast.Node) {
			lo, hi := n.Pos(), n.End()
			if !lo.IsValid() || lo > hi || int(hi) > len(src)+2 {
				t.Fatalf("%T at [%d, %d) in a file of %d bytes", n, lo, hi, len(src))
			}
		})
		if len(errs) == 0 {
			types.Check(file, tree)
		}
	})
}

// FuzzCompile: Compile never panics; what compiles is a valid network.
func FuzzCompile(f *testing.F) {
	addCorpus(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		u, err := check("fuzz.pds", src, false)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 || len(list) > 11 {
				t.Fatalf("bad error list: %v", err)
			}
			return
		}
		// Keep the BDD work of one input small: skip huge state spaces.
		if stateBits(u.info) > 200 {
			return
		}
		c, err := compile(u, Options{Limits: bdd.Limits{MaxNodes: 1 << 20}})
		if err != nil {
			if errors.Is(err, bdd.ErrNodeLimit) {
				return
			}
			t.Fatalf("compile: %v", err)
		}
		if err := c.net.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}

// stateBits returns the bits of the globals plus the largest local block.
func stateBits(info *types.Info) int {
	bits := 0
	for _, v := range info.Globals {
		bits += varBits(v)
	}
	most := 0
	for _, p := range info.Procs {
		b := 0
		for _, v := range p.Locals {
			b += varBits(v)
		}
		most = max(most, b)
	}
	return bits + most
}

func varBits(v *types.Var) int {
	if a, ok := v.Type().(*types.Array); ok {
		return a.Len * a.Elem.Bits()
	}
	return v.Type().Bits()
}

// walk calls fn for every node of the tree.
func walk(f *ast.File, fn func(ast.Node)) {
	for _, d := range f.Decls {
		ast.Inspect(d, func(n ast.Node) bool {
			if n != nil {
				fn(n)
			}
			return true
		})
	}
}

// FuzzCompileCOperators is FuzzCompile in the notation of the nodes only
// readers build (parser.COperators), seeded with generated programs that
// use them.
func FuzzCompileCOperators(f *testing.F) {
	addCorpus(f)
	for seed := int64(1); seed <= 8; seed++ {
		g, _ := randomOptions(seed)
		g.cops = true
		f.Add([]byte(genProgram(rand.New(rand.NewSource(seed)), g)))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		u, err := checkMode("fuzz.pds", src, parser.COperators)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 || len(list) > 11 {
				t.Fatalf("bad error list: %v", err)
			}
			return
		}
		if stateBits(u.info) > 40 {
			return // wide divisions of variables are slow by nature
		}
		c, err := compile(u, Options{Limits: bdd.Limits{MaxNodes: 1 << 20}})
		if err != nil {
			if errors.Is(err, bdd.ErrNodeLimit) {
				return
			}
			t.Fatalf("compile: %v", err)
		}
		if err := c.net.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}
