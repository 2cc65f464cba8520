package bp

import (
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

var (
	seedFlag  = flag.Int64("seed", 0, "TestDifferential: run this seed only")
	diffCount = flag.Int("diffcount", 100, "TestDifferential: the number of random programs")
)

// gen writes a random Boolean program and, side by side, its translation
// to the .pds language (docs/language.md), which frontend.Compile reads
// independently of this package. The programs use every construct the
// translation can express: parallel assignments, * as a whole right-hand
// side or condition, if/elsif/else, while, assume, assert, calls with a
// parameter and a result, goto with a choice, start_thread goto (a .pds
// procedure that copies main and jumps to the label, the locals passed as
// arguments), end_thread (assume(false)) and atomic_begin/atomic_end around
// an assume and an assignment (an atomic block).
type gen struct {
	r        *rand.Rand
	bp, pds  strings.Builder
	globals  int
	labels   int // main's top-level statements M0 .. M(labels-1)
	starts   []int
	inAtomic bool
}

func (g *gen) vars(scope []string) string { return scope[g.r.Intn(len(scope))] }

// expr returns an expression in both syntaxes.
func (g *gen) expr(scope []string, depth int) (string, string) {
	switch n := g.r.Intn(10); {
	case depth == 0 || n < 3:
		v := g.vars(scope)
		return v, v
	case n == 3:
		if g.r.Intn(2) == 0 {
			return []string{"T", "1"}[g.r.Intn(2)], "true"
		}
		return []string{"F", "0"}[g.r.Intn(2)], "false"
	case n == 4:
		b, p := g.expr(scope, depth-1)
		return "!" + b, "!" + p
	}
	b1, p1 := g.expr(scope, depth-1)
	b2, p2 := g.expr(scope, depth-1)
	switch g.r.Intn(6) {
	case 0:
		return "(" + b1 + " & " + b2 + ")", "(" + p1 + " && " + p2 + ")"
	case 1:
		return "(" + b1 + " | " + b2 + ")", "(" + p1 + " || " + p2 + ")"
	case 2:
		return "(" + b1 + " ^ " + b2 + ")", "(" + p1 + " != " + p2 + ")"
	case 3:
		return "(" + b1 + " = " + b2 + ")", "(" + p1 + " == " + p2 + ")"
	case 4:
		return "(" + b1 + " != " + b2 + ")", "(" + p1 + " != " + p2 + ")"
	}
	return "(" + b1 + " => " + b2 + ")", "(!" + p1 + " || " + p2 + ")"
}

func (g *gen) cond(scope []string) (string, string) {
	if g.r.Intn(4) == 0 {
		return "*", "?"
	}
	return g.expr(scope, 2)
}

func (g *gen) emit(b, p string) {
	g.bp.WriteString(b)
	g.pds.WriteString(p)
}

// stmt writes one statement of procedure proc.
func (g *gen) stmt(proc string, scope []string, depth int) {
	switch n := g.r.Intn(14); {
	case n < 4:
		if g.r.Intn(3) == 0 {
			x := g.vars(scope)
			g.emit(x+" := *;\n", x+" = ?;\n")
			return
		}
		x, y := g.vars(scope), g.vars(scope)
		e1, f1 := g.expr(scope, 2)
		if x == y || g.r.Intn(2) == 0 {
			g.emit(x+" := "+e1+";\n", x+" = "+f1+";\n")
			return
		}
		e2, f2 := g.expr(scope, 2)
		g.emit(x+", "+y+" := "+e1+", "+e2+";\n", x+", "+y+" = "+f1+", "+f2+";\n")
	case n < 6 && depth > 0:
		c, d := g.cond(scope)
		g.emit("if "+c+" then\n", "if ("+d+") {\n")
		g.block(proc, scope, depth-1)
		switch g.r.Intn(3) {
		case 0:
			c2, d2 := g.expr(scope, 1)
			g.emit("elsif "+c2+" then\n", "} else if ("+d2+") {\n")
			g.block(proc, scope, depth-1)
			g.emit("else\n", "} else {\n")
			g.block(proc, scope, depth-1)
		case 1:
			g.emit("else\n", "} else {\n")
			g.block(proc, scope, depth-1)
		}
		g.emit("fi\n", "}\n")
	case n == 6 && depth > 0:
		c, d := g.cond(scope)
		g.emit("while "+c+" do\n", "while ("+d+") {\n")
		g.block(proc, scope, depth-1)
		g.emit("od\n", "}\n")
	case n == 7:
		e, f := g.expr(scope, 1)
		g.emit("assume("+e+");\n", "assume("+f+");\n")
	case n == 8:
		e, f := g.expr(scope, 2)
		g.emit("assert("+e+");\n", "assert("+f+");\n")
	case n == 9 && proc != "h":
		e, f := g.expr(scope, 1)
		if proc == "f" || g.r.Intn(2) == 0 {
			g.emit("h("+e+");\n", "h("+f+");\n")
			return
		}
		x := g.vars(scope)
		g.emit(x+" := f("+e+");\n", x+" = f("+f+");\n")
	case n == 10:
		// Boppo's atomic section is a run of steps whose intermediate
		// states are reachable (a failing assume blocks after what came
		// before), a .pds atomic block one step: the section tests first
		// and then writes once, where both agree.
		x, y := g.vars(scope), g.vars(scope)
		e1, f1 := g.expr(scope, 1)
		e2, f2 := g.expr(scope, 1)
		e3, f3 := g.expr(scope, 1)
		g.emit("atomic_begin;\nassume("+e2+");\n", "atomic {\nassume("+f2+");\n")
		if x == y {
			g.emit(x+" := "+e1+";\n", x+" = "+f1+";\n")
		} else {
			g.emit(x+", "+y+" := "+e1+", "+e3+";\n", x+", "+y+" = "+f1+", "+f3+";\n")
		}
		g.emit("atomic_end;\n", "}\n")
	case n == 11 && g.r.Intn(4) == 0:
		g.emit("end_thread;\n", "assume(false);\n")
	default:
		g.emit("skip;\n", "skip;\n")
	}
}

func (g *gen) block(proc string, scope []string, depth int) {
	for i, n := 0, 1+g.r.Intn(2); i < n; i++ {
		g.stmt(proc, scope, depth)
	}
}

// program returns a random Boolean program and its .pds translation.
func genProgram(seed int64) (string, string) {
	g := &gen{r: rand.New(rand.NewSource(seed)), globals: 2 + rand.New(rand.NewSource(seed)).Intn(2)}
	var gl []string
	for i := 0; i < g.globals; i++ {
		gl = append(gl, fmt.Sprintf("g%d", i))
	}
	// Globals start at 0 (arbitrary values would make every valuation
	// reachable at once); locals start arbitrary.
	g.bp.WriteString("decl " + strings.Join(gl, " := 0, ") + " := 0;\n")
	for _, x := range gl {
		g.pds.WriteString("bool " + x + ";\n")
	}
	// h(p0): void; f(p0): bool, returns at its end.
	g.emit("void h(p0) begin\n", "proc h(bool p0) {\n")
	g.block("h", append([]string{"p0"}, gl...), 1)
	g.emit("end\n", "}\n")
	g.emit("bool f(p0) begin\ndecl q0;\n", "proc f(bool p0) : bool {\nbool q0 = ?;\n")
	scope := append([]string{"p0", "q0"}, gl...)
	g.block("f", scope, 1)
	e, f := g.expr(scope, 1)
	g.emit("return "+e+";\nend\n", "return "+f+";\n}\n")
	// main: labelled top-level statements, some gotos and start_threads.
	headB, headP := g.bp.String(), g.pds.String()
	g.bp.Reset()
	g.pds.Reset()
	scope = append([]string{"l0", "l1"}, gl...)
	n := 4 + g.r.Intn(5)
	for i := 0; i < n; i++ {
		g.emit(fmt.Sprintf("M%d: ", i), fmt.Sprintf("M%d: {\n", i))
		switch k := g.r.Intn(8); {
		case k == 0 && len(g.starts) < 2:
			t := g.r.Intn(n)
			g.starts = append(g.starts, t)
			g.emit(fmt.Sprintf("start_thread goto M%d;\n", t), fmt.Sprintf("start main_M%d(l0, l1);\n", t))
		case k == 1:
			a, b := g.r.Intn(n), g.r.Intn(n)
			g.emit(fmt.Sprintf("goto M%d, M%d;\n", a, b), fmt.Sprintf("if (?) goto M%d; else goto M%d;\n", a, b))
		default:
			g.stmt("main", scope, 2)
		}
		g.emit("", "}\n")
	}
	bodyB, bodyP := g.bp.String(), g.pds.String()
	bp := headB + "void main() begin\ndecl l0, l1;\n" + bodyB + "end\n"
	pd := headP + "proc main() {\nbool l0 = ?, l1 = ?;\n" + bodyP + "}\n"
	done := map[int]bool{}
	for _, t := range g.starts {
		if !done[t] {
			done[t] = true
			pd += fmt.Sprintf("proc main_M%d(bool l0, bool l1) {\ngoto M%d;\n%s}\n", t, t, bodyP)
		}
	}
	return bp, pd + "start main();\n"
}

// reach maps every reachable valuation of the first globals to its fewest
// contexts, with "error" for the fewest contexts of a violation.
func reach(t *testing.T, n *pds.Network, k, globals int) map[string]int {
	t.Helper()
	res, err := explicit.Explore(n, explicit.Options{Contexts: k, MaxConfigs: 500000})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range res.Reached {
		key := fmt.Sprint(r.Config.Globals[:globals])
		if c, ok := out[key]; !ok || r.Contexts < c {
			out[key] = r.Contexts
		}
	}
	for _, v := range res.Violations {
		if c, ok := out["error"]; !ok || v.Contexts < c {
			out["error"] = v.Contexts
		}
	}
	return out
}

// TestDifferential compares, on random programs and for k = 1..3, the
// network Read compiles with the one frontend.Compile makes of the .pds
// translation: the same reachable global valuations with the same fewest
// contexts, and the same fewest contexts of a violation.
func TestDifferential(t *testing.T) {
	seeds := make([]int64, *diffCount)
	for i := range seeds {
		seeds[i] = int64(i + 1)
	}
	if *seedFlag != 0 {
		seeds = []int64{*seedFlag}
	}
	if !tier.Long() {
		seeds = seeds[:min(len(seeds), 15)]
	}
	for _, seed := range seeds {
		src, pdsSrc := genProgram(seed)
		globals := strings.Count(strings.SplitN(pdsSrc, "proc", 2)[0], "bool ")
		a, err := Read("gen.bp", []byte(src), pds.Options{MaxThreads: 3})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		b, err := frontend.CompileWith("gen.pds", []byte(pdsSrc), frontend.Options{MaxThreads: 3})
		if err != nil {
			t.Fatalf("seed %d: the translation: %v\n%s", seed, err, pdsSrc)
		}
		for k := 1; k <= 3; k++ {
			ra, rb := reach(t, a, k, globals), reach(t, b, k, globals)
			if fmt.Sprint(ra) != fmt.Sprint(rb) {
				t.Fatalf("seed %d, k=%d: got %v, the .pds translation %v (go test -run TestDifferential -seed %d)\n%s\n%s", seed, k, ra, rb, seed, src, pdsSrc)
			}
		}
	}
}
