package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
)

func parse(t *testing.T, src string) (*ast.File, *token.File, string) {
	t.Helper()
	file := token.NewFile("p.pds", len(src))
	f, errs := ParseFile(file, []byte(src), 0)
	msg := ""
	if len(errs) > 0 {
		msg = errs.Error()
	}
	return f, file, msg
}

// exprString prints an expression fully parenthesized.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		return e.Value
	case *ast.Wildcard:
		return "?"
	case *ast.ParenExpr:
		return exprString(e.X)
	case *ast.IndexExpr:
		return e.X.Name + "[" + exprString(e.Index) + "]"
	case *ast.CallExpr:
		var as []string
		for _, a := range e.Args {
			as = append(as, exprString(a))
		}
		return e.Fun.Name + "(" + strings.Join(as, ", ") + ")"
	case *ast.UnaryExpr:
		return "(" + e.Op.String() + exprString(e.X) + ")"
	case *ast.BinaryExpr:
		op := e.Op.String()
		if e.Signed {
			op += "s"
		}
		return "(" + exprString(e.X) + " " + op + " " + exprString(e.Y) + ")"
	case *ast.ConvExpr:
		switch {
		case e.Width == 0:
			return "(bool)" + exprString(e.X)
		case e.Signed:
			return fmt.Sprintf("(sint<%d>)%s", e.Width, exprString(e.X))
		}
		return fmt.Sprintf("(int<%d>)%s", e.Width, exprString(e.X))
	case *ast.CondExpr:
		return "(" + exprString(e.Cond) + " ? " + exprString(e.Then) + " : " + exprString(e.Else) + ")"
	}
	return "BAD"
}

func TestPrecedence(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a || b && c", "(a || (b && c))"},
		{"a && b || c", "((a && b) || c)"},
		{"a == b < c", "(a == (b < c))"},
		{"a + b * c - d", "((a + (b * c)) - d)"},
		{"!a == -b", "((!a) == (-b))"},
		{"a - b - c", "((a - b) - c)"},
		{"x[i + 1] * f(1, y)", "(x[(i + 1)] * f(1, y))"},
		{"- - x", "(-(-x))"},
		{"0x1F + 10", "(0x1F + 10)"},
	} {
		f, _, errs := parse(t, "const C = "+tc.in+";")
		if errs != "" {
			t.Errorf("%s: %s", tc.in, errs)
			continue
		}
		got := exprString(f.Decls[0].(*ast.ConstDecl).Value)
		if got != tc.want {
			t.Errorf("%s: got %s want %s", tc.in, got, tc.want)
		}
	}
}

func TestStatementsAndPositions(t *testing.T) {
	src := "proc main() {\n  L: x, a[1] = 1, ?;\n  if (?) skip; else { y = f(); }\n  E e = A;\n}\nstart main();\n"
	f, file, errs := parse(t, src)
	if errs != "" {
		t.Fatal(errs)
	}
	body := f.Decls[0].(*ast.ProcDecl).Body.List
	if len(body) != 3 {
		t.Fatalf("got %d statements", len(body))
	}
	l := body[0].(*ast.LabeledStmt)
	as := l.Stmt.(*ast.AssignStmt)
	if p := file.Position(as.Pos()); p.Line != 2 || p.Col != 6 {
		t.Errorf("assignment at %v, want 2:6", p)
	}
	if _, ok := as.Rhs[1].(*ast.Wildcard); !ok || len(as.Lhs) != 2 {
		t.Errorf("assignment parsed as %#v", as)
	}
	ifs := body[1].(*ast.IfStmt)
	if _, ok := ifs.Cond.(*ast.Wildcard); !ok || ifs.Else == nil {
		t.Errorf("if parsed as %#v", ifs)
	}
	d := body[2].(*ast.DeclStmt)
	if nt, ok := d.Decl.Type.(*ast.NamedType); !ok || nt.Name.Name != "E" {
		t.Errorf("declaration of an enum type parsed as %#v", d.Decl.Type)
	}
	if p := file.Position(f.Decls[1].Pos()); p.Line != 6 || p.Col != 1 {
		t.Errorf("start at %v", p)
	}
}

func TestIntWidth(t *testing.T) {
	f, _, errs := parse(t, "int<(A > 1) + 2> x; int<W * 2> y;")
	if errs != "" {
		t.Fatal(errs)
	}
	w := f.Decls[0].(*ast.VarDecl).Type.(*ast.IntType).Width
	if got := exprString(w); got != "((A > 1) + 2)" {
		t.Errorf("width %s", got)
	}
}

func TestErrorsAreCapped(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		b.WriteString("proc ;\n")
	}
	_, _, errs := parse(t, b.String())
	if n := strings.Count(errs, "\n") + 1; n != 11 {
		t.Errorf("got %d errors, want 11 (ten and the one that stops the parser):\n%s", n, errs)
	}
}

func TestDeepNesting(t *testing.T) {
	src := "const C = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + ";"
	_, _, errs := parse(t, src)
	if !strings.Contains(errs, "nested too deeply") {
		t.Errorf("got %q", errs)
	}
	src = "proc main() {" + strings.Repeat("{", 5000) + strings.Repeat("}", 5000) + "}"
	if _, _, errs = parse(t, src); !strings.Contains(errs, "nested too deeply") {
		t.Errorf("got %q", errs)
	}
}

// COperators: C's operators with C's precedence, the signed suffix, the
// conditional and the conversions; without the mode the same text is
// refused as the .pds language refuses it.
func TestCOperators(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a | b ^ c & d == e", "(a | (b ^ (c & (d == e))))"},
		{"a || b | c && d", "(a || ((b | c) && d))"},
		{"a < b << c + d", "(a < (b << (c + d)))"},
		{"a * b / c % d", "(((a * b) / c) % d)"},
		{"a /s b %s c >>s d", "(((a /s b) %s c) >>s d)"},
		{"a <s b == a >=s b", "((a <s b) == (a >=s b))"},
		{"a <=s b || a >s b", "((a <=s b) || (a >s b))"},
		{"a / s", "(a / s)"},
		{"a /sx", "(a / sx)"},
		{"a >> 1", "(a >> 1)"},
		{"~a & ~-b", "((~a) & (~(-b)))"},
		{"c ? a : b ? d : e", "(c ? a : (b ? d : e))"},
		{"c || d ? a + 1 : b", "((c || d) ? (a + 1) : b)"},
		{"(int<8>) a + 1", "((int<8>)a + 1)"},
		{"(sint<0x10>) -a", "(sint<16>)(-a)"},
		{"(bool) (int<3>) a[i]", "(bool)(int<3>)a[(i)]"},
		{"(a) + sint", "(a + sint)"},
	} {
		file := token.NewFile("p.pds", len("const C = "+tc.in+";"))
		f, errs := ParseFile(file, []byte("const C = "+tc.in+";"), COperators)
		if len(errs) > 0 {
			t.Errorf("%s: %v", tc.in, errs)
			continue
		}
		got := exprString(f.Decls[0].(*ast.ConstDecl).Value)
		if got != strings.ReplaceAll(tc.want, "[(i)]", "[i]") {
			t.Errorf("%s: got %s want %s", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{"a / b", "a % b", "a & b", "a | b", "a ^ b", "~a", "a << b", "c ? a : b", "(int<8>) a"} {
		if _, _, errs := parse(t, "const C = "+in+";"); errs == "" {
			t.Errorf("%s parses without COperators", in)
		}
	}
	for _, in := range []string{"(int<0>) a", "(int<a>) b", "(sint<8> a", "c ? a", "(int<8>)"} {
		file := token.NewFile("p.pds", len("const C = "+in+";"))
		if _, errs := ParseFile(file, []byte("const C = "+in+";"), COperators); len(errs) == 0 {
			t.Errorf("%s parses", in)
		}
	}
	// Nesting stays capped.
	for _, src := range []string{
		"const C = " + strings.Repeat("c ? a : ", 5000) + "b;",
		"const C = " + strings.Repeat("(int<8>) ", 5000) + "b;",
		"const C = " + strings.Repeat("~", 5000) + "b;",
	} {
		file := token.NewFile("p.pds", len(src))
		if _, errs := ParseFile(file, []byte(src), COperators); len(errs) == 0 || !strings.Contains(errs.Error(), "nested too deeply") {
			t.Errorf("deep nesting: got %v", errs)
		}
	}
}
