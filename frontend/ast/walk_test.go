package ast_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/parser"
	"github.com/cbreach/cbreach/frontend/token"
)

// TestInspect walks the valid programs of the front end's testdata and the
// syntax error cases: positions come in source order (a node starts no
// later than its first child, a child no earlier than its previous
// sibling's subtree), every f(node) is matched by one f(nil), and the
// walk of the valid programs meets every kind of statement.
func TestInspect(t *testing.T) {
	files, err := filepath.Glob("../testdata/valid/*.pds")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	syntax, _ := filepath.Glob("../testdata/errors/syntax_*.pds")
	seen := map[string]bool{}
	for _, name := range append(files, syntax...) {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		file := token.NewFile(name, len(src))
		f, _ := parser.ParseFile(file, src, parser.AllErrors)
		for _, d := range f.Decls {
			depth, last := 0, token.NoPos
			ast.Inspect(d, func(n ast.Node) bool {
				if n == nil {
					depth--
					return false
				}
				depth++
				seen[fmt.Sprintf("%T", n)] = true
				if n.Pos() < last {
					t.Errorf("%s: %T at %v comes before %v", name, n, file.Position(n.Pos()), file.Position(last))
				}
				last = n.Pos()
				return true
			})
			if depth != 0 {
				t.Errorf("%s: got %d more visits than f(nil) calls", name, depth)
			}
		}
	}
	for _, typ := range []string{"*ast.BlockStmt", "*ast.DeclStmt", "*ast.LabeledStmt", "*ast.SkipStmt",
		"*ast.AssignStmt", "*ast.CallStmt", "*ast.ReturnStmt", "*ast.IfStmt", "*ast.WhileStmt",
		"*ast.BranchStmt", "*ast.AssertStmt", "*ast.AtomicStmt", "*ast.StartStmt", "*ast.IndexExpr",
		"*ast.BinaryExpr", "*ast.Wildcard", "*ast.VarSpec", "*ast.Param"} {
		if !seen[typ] {
			t.Errorf("no %s met", typ)
		}
	}
}

// Returning false from f skips the children of a node, and f(nil) is not
// called for it.
func TestInspectPrune(t *testing.T) {
	src := []byte("proc main() { if (true) { skip; } else { while (false) skip; } }")
	file := token.NewFile("p.pds", len(src))
	f, errs := parser.ParseFile(file, src, 0)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	ast.Inspect(f.Decls[0], func(n ast.Node) bool {
		switch n.(type) {
		case nil:
			got = append(got, "nil")
			return false
		case ast.Expr:
			return false
		}
		got = append(got, fmt.Sprintf("%T", n)[5:])
		_, isWhile := n.(*ast.WhileStmt)
		return !isWhile
	})
	want := "[ProcDecl BlockStmt IfStmt BlockStmt SkipStmt nil nil BlockStmt WhileStmt nil nil nil nil]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v want %s", got, want)
	}
}
