package frontend

import (
	"testing"

	"github.com/cbreach/cbreach/pds"
)

// TestCountThreads: the network of a program has room for exactly the
// threads the program can have when that number is finite, counted over
// sequences, branches, calls, started threads and gotos; a start under a
// loop or in recursion leaves the bound to Options.MaxThreads (default 8).
func TestCountThreads(t *testing.T) {
	cases := []struct {
		name, src string
		want      int // pds.Unbounded for a start that can repeat
	}{
		{"no start", `bool g; proc m() { g = true; } start m(); start m();`, 2},
		{"sequence", `proc w() { skip; } proc m() { start w(); start w(); start w(); } start m();`, 4},
		{"branches", `proc w() { skip; }
proc m() { if (?) { start w(); } else { start w(); start w(); } start w(); } start m();`, 4},
		{"calls", `proc w() { skip; } proc two() { start w(); start w(); }
proc m() { bool b; two(); two(); b = f(); } proc f() : bool { start w(); return true; } start m();`, 6},
		{"started threads", `proc w() { skip; } proc v() { start w(); start w(); }
proc m() { start v(); start v(); } start m();`, 7},
		{"loop without start", `proc w() { skip; } proc m() { while (?) { skip; } start w(); } start m();`, 2},
		{"break out of a loop", `proc w() { skip; } proc m() { while (true) { break; } start w(); } start m();`, 2},
		{"recursion without start", `proc w() { skip; } proc r() { if (?) { r(); } }
proc m() { r(); start w(); } start m();`, 2},
		{"start in a loop", `proc w() { skip; } proc m() { while (?) { start w(); } } start m();`, pds.Unbounded},
		{"call in a loop", `proc w() { skip; } proc s() { start w(); } proc m() { while (?) { s(); } } start m();`, pds.Unbounded},
		{"backward goto", `proc w() { skip; } proc m() { L: start w(); if (?) { goto L; } } start m();`, pds.Unbounded},
		{"forward goto", `proc w() { skip; } proc m() { if (?) { goto L; } start w(); L: start w(); } start m();`, 3},
		{"a start jumped over", `proc w() { skip; } proc m() { goto L; start w(); L: start w(); } start m();`, 2},
		{"start in recursion", `proc w() { skip; } proc r() { start w(); if (?) { r(); } } start r();`, pds.Unbounded},
		{"a thread starting itself", `proc r() { start r(); } start r();`, pds.Unbounded},
	}
	for _, c := range cases {
		for _, max := range []int{0, 3} {
			net, err := CompileWith(c.name+".pds", []byte(c.src), Options{MaxThreads: max})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if net.ProgramThreads != c.want {
				t.Errorf("%s: the program has %d threads, want %d", c.name, net.ProgramThreads, c.want)
			}
			want, source := c.want, pds.ThreadsFromProgram
			switch {
			case c.want == pds.Unbounded && max == 0:
				want, source = pds.DefaultMaxThreads, pds.ThreadsDefault
			case c.want == pds.Unbounded || c.want > max && max > 0:
				want, source = max, pds.ThreadsFromOption
			}
			if net.MaxThreads != want || net.ThreadSource != source {
				t.Errorf("%s, MaxThreads %d: room for %d threads (%s), want %d (%s)", c.name, max, net.MaxThreads, net.ThreadSource, want, source)
			}
		}
	}
}
