package benchmarks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/tier"
)

func TestVarsModelText(t *testing.T) {
	a, err := VarsModel(VarsA, VarsViol, 6, 32)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"int<32> g0 = ?;", "int<32> g5 = ?;",
		"proc a() {\n  g0 = g0 + 1;\n  g2 = g2 + 1;\n  g4 = g4 + 1;\n}",
		"proc b() {\n  g1 = g2;\n  g3 = g4;\n  g5 = g0;\n  assert(g1 == g2);\n}",
		"// EXPECTED: assertion violation, fewest contexts 3",
		"start a();\nstart b();\n",
	} {
		if !strings.Contains(a, s) {
			t.Errorf("A viol, N=6: got text without %q", s)
		}
	}
	b, _ := VarsModel(VarsB, VarsSafe, 4, 8)
	for _, s := range []string{"  g0 = 7;\n  g2 = 7;\n}", "assert(g1 == g2 || g1 == 7 || g2 == 7);", "safe for every bound"} {
		if !strings.Contains(b, s) {
			t.Errorf("B safe: got text without %q", s)
		}
	}
	c, _ := VarsModel(VarsC, VarsSafe, 2000, 32)
	if n := strings.Count(c, " = ?;\n"); n != 2000 {
		t.Errorf("C, N=2000: got %d open globals, want 2000", n)
	}
	if n := strings.Count(c, "assert("); n != 1 {
		t.Errorf("C: got %d assertions, want 1", n)
	}
	for _, c := range []struct {
		f    VarsFamily
		v    VarsVariant
		n, w int
		want string
	}{
		{VarsA, VarsSafe, 5, 8, "even number"}, {VarsA, VarsSafe, 2, 8, "at least 4"},
		{VarsA, VarsSafe, 4, 0, "width 0"}, {VarsA, VarsSafe, 4, 33, "width 33"},
		{VarsB, VarsViol, 4, 8, "no \"viol\""}, {VarsB, VarsSafe, 4, 2, "at least 3"},
		{VarsC, VarsSafe, 1, 8, "at least 2"}, {"D", VarsSafe, 4, 8, "family \"D\""},
		{VarsA, "maybe", 4, 8, "variant \"maybe\""},
	} {
		if _, err := VarsModel(c.f, c.v, c.n, c.w); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("VarsModel(%s, %s, %d, %d): got error %v, want one with %q", c.f, c.v, c.n, c.w, err, c.want)
		}
	}
}

// TestVarsModelVerdicts checks each family's EXPECTED line at small
// sizes, with both splittings of cbr and the explicit engine, bounds 1
// to 4 (A's violation needs exactly 3 contexts: b, a, b), and seq at 3
// rounds. The long tier adds sizes of 1,024 and 4,096 initial valuations
// (B needs 3 bits), which the explicit engine and eager splitting
// enumerate (seconds each).
func TestVarsModelVerdicts(t *testing.T) {
	type size struct {
		f    VarsFamily
		v    VarsVariant
		n, w int
	}
	sizes := []size{{VarsA, VarsSafe, 4, 2}, {VarsA, VarsViol, 4, 2}, {VarsC, VarsSafe, 4, 2}, {VarsC, VarsViol, 4, 2}}
	if tier.Long() {
		sizes = append(sizes, size{VarsA, VarsViol, 4, 3}, size{VarsA, VarsSafe, 6, 2}, size{VarsB, VarsSafe, 4, 3}, size{VarsC, VarsViol, 5, 2})
	}
	for _, c := range sizes {
		name := VarsName(c.f, c.v, c.n, c.w)
		t.Run(name, func(t *testing.T) {
			src, err := VarsModel(c.f, c.v, c.n, c.w)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := ParseExpected([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			net := compileVars(t, c.f, c.v, c.n, c.w)
			for k := 1; k <= 4; k++ {
				want, fewest := exp.Within(k)
				for _, e := range []struct {
					name string
					set  engines.Settings
				}{{tuples.Name, engines.Settings{"split": "lazy"}}, {tuples.Name, engines.Settings{"split": "eager"}}, {states.Name, engines.Settings{}}} {
					r, err := analyze(e.name, e.set, net, cbr.Options{Bound: k})
					if err != nil {
						t.Fatal(err)
					}
					got := fmt.Sprintf("%v %d", r.Verdict, r.Contexts())
					if w := fmt.Sprintf("%v %d", map[bool]cbr.Verdict{true: cbr.Violation, false: cbr.Safe}[want], fewest); got != w {
						t.Errorf("%s %v, k=%d: got %s, want %s (%s)", e.name, e.set["split"], k, got, w, r.Reason)
					}
				}
			}
			r, err := analyze(seq.Name, engines.Settings{"split": "lazy"}, net, cbr.Options{Bound: 3})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]cbr.Verdict{true: cbr.Violation, false: cbr.Safe}[exp.Violation]; r.Verdict != want {
				t.Errorf("seq, 3 rounds: got %v, want %v", r.Verdict, want)
			}
		})
	}
}
