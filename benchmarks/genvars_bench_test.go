package benchmarks

import (
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
)

// compileVars compiles a program of VarsModel.
func compileVars(tb testing.TB, f VarsFamily, v VarsVariant, n, w int) *pds.Network {
	tb.Helper()
	src, err := VarsModel(f, v, n, w)
	if err != nil {
		tb.Fatal(err)
	}
	net, err := frontend.Compile(VarsName(f, v, n, w)+".pds", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	return net
}

// BenchmarkVarsCompile times the compilation of issue 38's families
// (VarsModel) alone, at their compile-time sizes: A and B with 64
// globals of 32 bits, C with 2,000.
//
//	go test ./benchmarks -run '^$' -bench VarsCompile -benchtime 3x
func BenchmarkVarsCompile(b *testing.B) {
	for _, c := range []struct {
		f    VarsFamily
		v    VarsVariant
		n, w int
	}{
		{VarsA, VarsSafe, 16, 32}, {VarsA, VarsSafe, 64, 32}, {VarsA, VarsViol, 64, 32},
		{VarsB, VarsSafe, 64, 32}, {VarsC, VarsViol, 2000, 32},
	} {
		b.Run(VarsName(c.f, c.v, c.n, c.w), func(b *testing.B) {
			var bits int
			for b.Loop() {
				bits = compileVars(b, c.f, c.v, c.n, c.w).M.L.NumBits()
			}
			b.ReportMetric(float64(bits), "bdd-vars")
		})
	}
}

// BenchmarkVarsAnalyze times the analysis of the families at sizes that
// finish in about a second at most (compile included), with the engines
// and bounds of issue 38: cbr lazy, and seq lazy for B.
//
//	go test ./benchmarks -run '^$' -bench VarsAnalyze -benchtime 3x
func BenchmarkVarsAnalyze(b *testing.B) {
	for _, c := range []struct {
		f      VarsFamily
		v      VarsVariant
		n, w   int
		engine string
		k      int
	}{
		{VarsA, VarsSafe, 8, 8, tuples.Name, 3},
		{VarsA, VarsViol, 8, 8, tuples.Name, 3},
		{VarsA, VarsViol, 8, 32, tuples.Name, 3},
		{VarsB, VarsSafe, 8, 8, tuples.Name, 2},
		{VarsB, VarsSafe, 8, 8, seq.Name, 2},
		{VarsC, VarsViol, 64, 32, tuples.Name, 3},
	} {
		b.Run(fmt.Sprintf("%s/%s/k%d", VarsName(c.f, c.v, c.n, c.w), c.engine, c.k), func(b *testing.B) {
			var st cbr.Stats
			for b.Loop() {
				net := compileVars(b, c.f, c.v, c.n, c.w)
				r, err := analyze(c.engine, engines.Settings{"split": "lazy"}, net, cbr.Options{Bound: c.k})
				if err != nil {
					b.Fatal(err)
				}
				want := cbr.Safe
				if c.v == VarsViol && c.k >= 3 {
					want = cbr.Violation
				}
				if r.Verdict != want {
					b.Fatalf("got %v (%s), want %v", r.Verdict, r.Reason, want)
				}
				st = r.Stats
			}
			b.ReportMetric(float64(st.PeakNodes), "peak-nodes")
		})
	}
}
