package frontend

import (
	"strings"
	"testing"
)

// manySkips is a program whose main runs n skip statements, separated by
// sep: one control point per statement, a long chain of step rules.
func manySkips(n int, sep string) []byte {
	return []byte("proc main() { " + strings.Repeat("skip;"+sep, n) + "}\nstart main();\n")
}

// compileBench compiles src b.N times.
func compileBench(b *testing.B, src []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Compile("many.pds", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileManySkips compiles 170,000 skip statements on one line
// and on as many lines: the cost of compiling and validating a long
// procedure must grow linearly with its length.
func BenchmarkCompileManySkips(b *testing.B) {
	for _, tc := range []struct {
		name, sep string
	}{{"OneLine", " "}, {"Lines", "\n"}} {
		src := manySkips(170000, tc.sep)
		b.Run(tc.name, func(b *testing.B) { compileBench(b, src) })
	}
}
