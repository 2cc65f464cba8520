package frontend

import (
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/parser"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Tests of the nodes only readers build (doc.go, "Nodes only readers
// build"), spelled in the notation of parser.COperators: every operator,
// conversion and conditional is compiled and interpreted on every pair of
// small operands and on random wide ones, and both answers are compared
// with Go's own arithmetic on Go's integer types.

// signedInt and unsignedInt are the Go types the reference computes in.
type signedInt interface {
	~int8 | ~int16 | ~int32 | ~int64
}
type unsignedInt interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// goOp computes x op y in Go: in U, or in S for the signed operators
// (spelled with the suffix s), operands and result of the op's width w
// (S and U at least as wide; the result is taken modulo 2^w, so an int8
// computes an int<4> exactly). ok is false for a division by zero.
func goOp[S signedInt, U unsignedInt](op string, x, y uint64, w int) (v uint64, ok bool) {
	m := uint64(1)<<w - 1
	ux, uy := U(x), U(y)
	sx, sy := S(sext(x, w)), S(sext(y, w))
	b := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case "+":
		v = uint64(ux + uy)
	case "-":
		v = uint64(ux - uy)
	case "*":
		v = uint64(ux * uy)
	case "&":
		v = uint64(ux & uy)
	case "|":
		v = uint64(ux | uy)
	case "^":
		v = uint64(ux ^ uy)
	case "<<":
		v = uint64(ux << uy)
	case ">>":
		v = uint64(ux >> uy)
	case ">>s":
		v = uint64(sx >> uy)
	case "/", "%", "/s", "%s":
		if uy == 0 {
			return 0, false
		}
		switch op {
		case "/":
			v = uint64(ux / uy)
		case "%":
			v = uint64(ux % uy)
		case "/s":
			v = uint64(sx / sy) // Go defines MinInt / -1 as MinInt
		default:
			v = uint64(sx % sy)
		}
	case "==":
		return b(ux == uy), true
	case "!=":
		return b(ux != uy), true
	case "<":
		return b(ux < uy), true
	case "<=":
		return b(ux <= uy), true
	case ">":
		return b(ux > uy), true
	case ">=":
		return b(ux >= uy), true
	case "<s":
		return b(sx < sy), true
	case "<=s":
		return b(sx <= sy), true
	case ">s":
		return b(sx > sy), true
	case ">=s":
		return b(sx >= sy), true
	default:
		panic("goOp: " + op)
	}
	return v & m, true
}

// sext reads the low w bits of v as a two's complement number.
func sext(v uint64, w int) int64 {
	v &= 1<<w - 1
	if v>>(w-1)&1 == 1 {
		return int64(v) - 1<<w
	}
	return int64(v)
}

// opCase is an expression over X and Y of widths xw and yw, its result
// type, and Go's answer for operand values x and y (ok false: a division
// by zero is the error reached).
type opCase struct {
	expr string
	xw   int
	yw   int
	res  string
	want func(x, y uint64) (v uint64, ok bool)
}

// binCase is X op Y at width w; comparisons are bool.
func binCase[S signedInt, U unsignedInt](op string, w int) opCase {
	res := fmt.Sprintf("int<%d>", w)
	switch strings.TrimSuffix(op, "s") {
	case "==", "!=", "<", "<=", ">", ">=":
		res = "bool"
	}
	return opCase{"X " + op + " Y", w, w, res, func(x, y uint64) (uint64, bool) { return goOp[S, U](op, x, y, w) }}
}

// binOps are the binary operators the tests run.
var binOps = []string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "/s", "%s", ">>s",
	"==", "!=", "<", "<=", ">", ">=", "<s", "<=s", ">s", ">=s"}

// opCases returns the cases at width w (at most 8) and, for conversions,
// a wider width wide (at most 16).
func opCases[S signedInt, U unsignedInt](w int) []opCase {
	var cs []opCase
	for _, op := range binOps {
		cs = append(cs, binCase[S, U](op, w))
	}
	m := uint64(1)<<w - 1
	iw := fmt.Sprintf("int<%d>", w)
	wide := min(2*w+1, 32)
	cs = append(cs,
		opCase{"~X", w, w, iw, func(x, _ uint64) (uint64, bool) { return uint64(^U(x)) & m, true }},
		opCase{"-X", w, w, iw, func(x, _ uint64) (uint64, bool) { return uint64(-U(x)) & m, true }},
		// a shift amount of another width
		opCase{"X << Y", w, 2, iw, func(x, y uint64) (uint64, bool) { return uint64(U(x)<<y) & m, true }},
		opCase{"X >>s Y", w, 2, iw, func(x, y uint64) (uint64, bool) { return uint64(S(sext(x, w))>>y) & m, true }},
		// bitwise operators on bools
		opCase{"(X == 0) ^ (Y != 0)", w, w, "bool", func(x, y uint64) (uint64, bool) { return b2u((x == 0) != (y != 0)), true }},
		opCase{"(X == 0) & (Y != 0) | X == Y", w, w, "bool", func(x, y uint64) (uint64, bool) { return b2u(x == 0 && y != 0 || x == y), true }},
		// conversions: narrowing, widening (zero or sign), to and from bool
		opCase{"(int<1>) X", w, w, "int<1>", func(x, _ uint64) (uint64, bool) { return x & 1, true }},
		opCase{fmt.Sprintf("(int<%d>) X", wide), w, w, fmt.Sprintf("int<%d>", wide), func(x, _ uint64) (uint64, bool) { return x, true }},
		opCase{fmt.Sprintf("(sint<%d>) X", wide), w, w, fmt.Sprintf("int<%d>", wide),
			func(x, _ uint64) (uint64, bool) { return uint64(int64(S(sext(x, w)))) & (1<<wide - 1), true }},
		opCase{fmt.Sprintf("(sint<%d>) X", w), w, w, iw, func(x, _ uint64) (uint64, bool) { return x, true }},
		opCase{"(bool) X", w, w, "bool", func(x, _ uint64) (uint64, bool) { return b2u(x != 0), true }},
		opCase{"(sint<3>) (X < Y)", w, w, "int<3>", func(x, y uint64) (uint64, bool) { return b2u(x < y), true }},
		// conditionals: only the chosen branch is evaluated
		opCase{"X <s Y ? X : Y", w, w, iw, func(x, y uint64) (uint64, bool) {
			if sext(x, w) < sext(y, w) {
				return x, true
			}
			return y, true
		}},
		opCase{"Y == 0 ? X : X / Y", w, w, iw, func(x, y uint64) (uint64, bool) {
			if y == 0 {
				return x, true
			}
			return x / y, true
		}},
		opCase{"Y != 0 ? X %s Y : X / Y", w, w, iw, func(x, y uint64) (uint64, bool) {
			if y == 0 {
				return 0, false
			}
			return uint64(S(sext(x, w))%S(sext(y, w))) & m, true
		}},
		opCase{"X != 0 && (Y /s X == 1 ? true : X < Y)", w, w, "bool", func(x, y uint64) (uint64, bool) {
			if x == 0 {
				return 0, true
			}
			return b2u(S(sext(y, w))/S(sext(x, w)) == 1 || x < y), true
		}},
		// operators combined, with an untyped constant operand
		opCase{"(X + 1) * Y >> 1 ^ ~Y & X | 1", w, w, iw, func(x, y uint64) (uint64, bool) {
			ux, uy := U(x), U(y)
			// C's precedence; the product is cut to w bits before >>
			return uint64((((ux+1)*uy&U(m))>>1)^(^uy&ux)|1) & m, true
		}},
	)
	return cs
}

func b2u(c bool) uint64 {
	if c {
		return 1
	}
	return 0
}

// spell writes a case's expression over the variables x and y.
func (tc opCase) spell() string {
	return strings.NewReplacer("X", "x", "Y", "y").Replace(tc.expr)
}

// opProgram is the program that stores the case's expression into r, in
// one step or in an atomic block.
func opProgram(tc opCase, atomic bool) string {
	body := "r = " + tc.spell() + ";"
	if atomic {
		body = "atomic { " + body + " }"
	}
	return fmt.Sprintf("int<%d> x = ?;\nint<%d> y = ?;\n%s r;\nproc main() {\n  %s\n}\nstart main();\n",
		tc.xw, tc.yw, tc.res, body)
}

var obsRE = regexp.MustCompile(`^G\(([0-9,]*)\) \| (?:main:(\w+)@|$)`)

// outcomes reads what a run reached after the step: per "x,y" the value
// of r, or "div" for a division by zero.
func outcomes(t *testing.T, d *diffResult) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k := range d.reached {
		sub := obsRE.FindStringSubmatch(k)
		if sub == nil {
			t.Fatalf("unexpected configuration %s", k)
		}
		g := strings.Split(sub[1], ",")
		key := g[0] + "," + g[1]
		switch sub[2] {
		case "stmt":
			continue
		case "end", "": // at the end, or returned
			if old, ok := out[key]; ok && old != g[2] {
				t.Fatalf("two outcomes at %s: %s and %s", key, old, g[2])
			}
			out[key] = g[2]
		case "div":
			out[key] = "div"
		default:
			t.Fatalf("unexpected point %s in %s", sub[2], k)
		}
	}
	return out
}

// TestOperatorsExhaustive compiles every case at widths 1, 3 and 4 as one
// step, as an atomic body executed symbolically and as one composed
// (widths 1 and 4), and checks the network's and the interpreter's results
// on every pair of operand values against Go's.
func TestOperatorsExhaustive(t *testing.T) {
	for _, w := range []int{1, 3, 4} {
		for _, tc := range opCases[int8, uint8](w) {
			for _, v := range []struct {
				name          string
				atomic, noSym bool
			}{{"step", false, false}, {"sym", true, false}, {"compose", true, true}} {
				if w == 3 && v.atomic {
					continue
				}
				name := fmt.Sprintf("w%d/%s/%s", w, v.name, tc.expr)
				t.Run(name, func(t *testing.T) {
					src := opProgram(tc, v.atomic)
					o := diffOptions{Contexts: 1, NoSym: v.noSym, COps: true}
					u, err := checkMode("op.pds", []byte(src), parser.AllErrors|parser.COperators)
					if err != nil {
						t.Fatalf("%v\n%s", err, src)
					}
					c, err := compileWith(u, Options{}, v.noSym)
					if err != nil {
						t.Fatal(err)
					}
					net, err := runNet(t, c, o)
					if err != nil {
						t.Fatal(err)
					}
					for side, d := range map[string]*diffResult{"compiled": net, "interpreter": runInterp(u, o)} {
						got := outcomes(t, d)
						for x := uint64(0); x < 1<<tc.xw; x++ {
							for y := uint64(0); y < 1<<tc.yw; y++ {
								want := "div"
								if r, ok := tc.want(x, y); ok {
									want = strconv.FormatUint(r, 10)
								}
								key := fmt.Sprintf("%d,%d", x, y)
								if got[key] != want {
									t.Fatalf("%s: %s at x=%d, y=%d: got %q want %s\n%s", side, tc.expr, x, y, got[key], want, src)
								}
							}
						}
						if len(got) != 1<<(tc.xw+tc.yw) {
							t.Fatalf("%s: %d outcomes, want %d", side, len(got), 1<<(tc.xw+tc.yw))
						}
					}
				})
			}
		}
	}
}

// pickValue draws an operand of w bits: an edge case (0, 1, 2, all ones,
// the most negative and the largest signed value, shift counts around w)
// half of the time, else a random value.
func pickValue(r *rand.Rand, w int) uint64 {
	m := uint64(1)<<w - 1
	if r.Intn(2) == 0 {
		edges := []uint64{0, 1, 2, m, m - 1, 1 << (w - 1), 1<<(w-1) - 1, uint64(w - 1), uint64(w), uint64(w + 1)}
		return edges[r.Intn(len(edges))] & m
	}
	return r.Uint64() & m
}

// TestOperatorsWide checks every case at widths 8, 16 and 32 on random
// and edge values against Go's int8/uint8, int16/uint16 and int32/uint32
// arithmetic: in an atomic body that sets x and y to each pair in turn
// (executed symbolically, so the circuits compute on constant vectors and
// stay small), and with the operands as constants of their width, which
// the checker folds.
func TestOperatorsWide(t *testing.T) {
	const pairs = 12
	widths := []struct {
		w     int
		cases []opCase
	}{{8, opCases[int8, uint8](8)}, {16, opCases[int16, uint16](16)}, {32, opCases[int32, uint32](32)}}
	for _, wc := range widths {
		for i, tc := range wc.cases {
			for _, folded := range []bool{false, true} {
				name := fmt.Sprintf("w%d/%s", wc.w, tc.expr)
				if folded {
					name += "/folded"
				}
				t.Run(name, func(t *testing.T) {
					r := rand.New(rand.NewSource(int64(wc.w*1000 + i)))
					var body strings.Builder
					var want []string
					var xs, ys uint64
					for k := 0; k < pairs; k++ {
						x, y := pickValue(r, tc.xw), pickValue(r, tc.yw)
						v, ok := tc.want(x, y)
						if !ok {
							continue // division by zero: see TestOperatorsExhaustive
						}
						xs, ys = x, y
						want = append(want, strconv.FormatUint(v, 10))
						e := tc.spell()
						if folded {
							e = strings.NewReplacer("X", fmt.Sprintf("(int<%d>) %d", tc.xw, x), "Y", fmt.Sprintf("(int<%d>) %d", tc.yw, y)).Replace(tc.expr)
						}
						fmt.Fprintf(&body, "    x = %d; y = %d; r%d = %s;\n", x, y, len(want)-1, e)
					}
					var decl strings.Builder
					fmt.Fprintf(&decl, "int<%d> x;\nint<%d> y;\n", tc.xw, tc.yw)
					for k := range want {
						fmt.Fprintf(&decl, "%s r%d;\n", tc.res, k)
					}
					src := fmt.Sprintf("%sproc main() {\n  atomic {\n%s  }\n}\nstart main();\n", decl.String(), body.String())
					final := fmt.Sprintf("G(%d,%d,%s) | ", xs, ys, strings.Join(want, ","))
					o := diffOptions{Contexts: 1, COps: true}
					u, err := checkMode("wide.pds", []byte(src), parser.AllErrors|parser.COperators)
					if err != nil {
						t.Fatalf("%v\n%s", err, src)
					}
					c, err := compileWith(u, Options{}, false)
					if err != nil {
						t.Fatal(err)
					}
					net, err := runNet(t, c, o)
					if err != nil {
						t.Fatal(err)
					}
					for side, d := range map[string]*diffResult{"compiled": net, "interpreter": runInterp(u, o)} {
						var ends []string
						for k := range d.reached {
							if strings.HasSuffix(k, "| ") {
								ends = append(ends, k)
							}
						}
						if len(ends) != 1 || ends[0] != final {
							t.Fatalf("%s: final configurations %q, want %q\n%s", side, ends, final, numbered(src))
						}
					}
				})
			}
		}
	}
}

// TestCOperatorErrors: the checker's errors on the nodes only readers
// build, and constants with a width folding as the program computes.
func TestCOperatorErrors(t *testing.T) {
	const decls = "enum E { A, B };\nint<4> x; int<3> y; bool b; E e;\n"
	for _, tc := range []struct{ expr, typ, err string }{
		{"x & y", "int<4>", "operator & needs operands of one width, not int<4> and int<3>"},
		{"x /s y", "int<4>", "operator /s needs operands of one width"},
		{"x / b", "int<4>", "operator / needs integer operands, not int<4> and bool"},
		{"x & b", "int<4>", "operator & needs two integers or two bools, not int<4> and bool"},
		{"x + 1 / 0", "int<4>", "division by zero in constant expression 1 / 0"},
		{"(int<40>) x", "int<4>", "conversion to int<40>: the width must be between 1 and 32"},
		{"(int<4>) e", "int<4>", "cannot convert e (E) to int<4>"},
		{"b ? 1 : 2", "int<4>", "the branches of ?: are constants without a width"},
		{"b ? x : y", "int<4>", "the branches of ?: have different types int<4> and int<3>"},
		{"b ? x : e", "int<4>", "the branches of ?: have different types int<4> and E"},
		{"x ? x : x", "int<4>", "the condition x of ?: must be bool, not int<4>"},
		{"1 << x", "int<4>", "the shifted constant 1 has no width"},
		{"x << 40000000000", "int<4>", "constant shift count 40000000000 is too large"},
		{"x + (1 << 1000)", "int<4>", "constant shift count 1000 is too large"},
		{"x >> (0 - 1)", "int<4>", "negative shift count -1"},
		{"~b", "int<4>", "operator ~ needs an integer operand, not bool"},
		{"x <s b", "bool", "operator <s needs integer operands, not int<4> and bool"},
		{"(int<4>) 3 + 300", "int<4>", "constant 300 does not fit in int<4>"},
		{"e & e", "E", "operator & needs two integers or two bools, not E and E"},
	} {
		src := decls + "proc main() { " + tc.typ + " r = " + tc.expr + "; }\nstart main();\n"
		_, err := checkMode("e.pds", []byte(src), parser.COperators)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: got %v, want %q", tc.expr, err, tc.err)
		}
	}
	// Constants with a width (made by conversions) compute as the program
	// would; constants without one exactly; a division by a constant zero
	// is left to the program.
	for _, tc := range []struct {
		expr, typ string
		want      string // the constant value, or "" for none
	}{
		{"(int<4>) 15 + 1", "int<4>", "0"},
		{"(int<4>) 20", "int<4>", "4"},
		{"(int<8>) (0 - 1)", "int<8>", "255"},
		{"(sint<8>) (int<4>) 8", "int<8>", "248"},
		{"(int<8>) (int<4>) 8", "int<8>", "8"},
		{"(int<4>) 8 /s (int<4>) 15", "int<4>", "8"},
		{"(int<4>) 8 %s (int<4>) 15", "int<4>", "0"},
		{"(int<4>) 9 %s (int<4>) 2", "int<4>", "15"},
		{"(int<4>) 9 >>s 1", "int<4>", "12"},
		{"(int<4>) 9 >> 7", "int<4>", "0"},
		{"(int<4>) 9 >>s 70", "int<4>", "15"},
		{"(int<4>) 9 << 3", "int<4>", "8"},
		{"~(int<4>) 9", "int<4>", "6"},
		{"-(int<4>) 9", "int<4>", "7"},
		{"(int<4>) ((0 - 7) / 2 * 2 + 1 % 2)", "int<4>", "11"},
		{"(int<4>) (~5 & 12)", "int<4>", "8"},
		{"(int<4>) (1 << 3 >> 1)", "int<4>", "4"},
		{"(bool) (int<4>) 16", "bool", "false"},
		{"(int<4>) 9 <s (int<4>) 1", "bool", "true"},
		{"(int<4>) 9 < (int<4>) 1", "bool", "false"},
		{"true ? (int<4>) 3 : 5", "int<4>", "3"},
		{"x / (int<4>) 0", "int<4>", ""},
		{"(int<4>) 3 / (int<4>) 0", "int<4>", ""},
		{"true ? 3 : x", "int<4>", ""},
	} {
		src := decls + "proc main() { " + tc.typ + " r = " + tc.expr + "; }\nstart main();\n"
		u, err := checkMode("c.pds", []byte(src), parser.COperators)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		spec := u.ast.Decls[len(u.ast.Decls)-2].(*ast.ProcDecl).Body.List[0].(*ast.DeclStmt).Decl.Specs[0]
		got := ""
		if v := u.info.Types[spec.Value].Value; v != nil {
			got = v.String()
		}
		if got != tc.want {
			t.Errorf("%s: got constant %q want %q", tc.expr, got, tc.want)
		}
	}
}

// A division by zero is an error label of kind DivZero at the operator,
// which the program reaches like an index out of range: in a step, a
// condition, an argument, a return, an atomic body (after the effects
// before it) and the index of a call's target. CompileTree compiles a
// tree another reader built.
func TestDivisionByZeroLabels(t *testing.T) {
	src := `int<4> g = ?;
int<4> a[2];
proc f(int<4> p) : int<4> { return 8 /s p; }
proc main() {
  int<4> r = 9 % g;
  if (7 / g == 1) { skip; }
  r = f(g - 1);
  atomic { a[0] = 1; r = a[0] / (g - 2); }
  a[1 / (g - 3)] = f(1);
}
start main();
`
	file := token.NewFile("z.pds", len(src))
	f, errs := parser.ParseFile(file, []byte(src), parser.COperators)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	n, err := CompileTree(file, []byte(src), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, l := range n.Labels {
		if l.Kind == pds.DivZero {
			labels = append(labels, fmt.Sprintf("%d:%d %s", l.Pos.Line, l.Pos.Col, l.Message))
		}
	}
	want := []string{"3:38 division by zero: 8 /s p", "5:16 division by zero: 9 % g", "6:9 division by zero: 7 / g",
		"8:31 division by zero: a[0] / (g - 2)", "9:7 division by zero: 1 / (g - 3)"}
	sort.Strings(labels)
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("division labels:\n%s\nwant\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
	res, err := explicit.Explore(n, explicit.Options{Contexts: 1})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, v := range res.Violations {
		found = append(found, fmt.Sprintf("%s@%d", v.Label.Kind, v.Label.Pos.Line))
	}
	sort.Strings(found)
	if got := strings.Join(found, " "); got != "division by zero@3 division by zero@5 division by zero@8 division by zero@9" {
		t.Errorf("violations: %s", got)
	}
	differential(t, "z.pds", src, diffOptions{Contexts: 1, COps: true})
}
