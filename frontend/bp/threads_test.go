package bp

import (
	"testing"

	"github.com/cbreach/cbreach/pds"
)

// TestCountThreads: a Boolean program's network has room for exactly the
// threads it can have when that number is finite (starts in sequence,
// in branches, through calls, by started threads, a start jumped over);
// a start_thread in a loop, behind a backward goto or in recursion
// leaves the bound to the options.
func TestCountThreads(t *testing.T) {
	cases := []struct {
		name, src string
		want      int
	}{
		{"no start", `void main() begin skip; end`, 1},
		{"race", `decl d;
void main() begin
  start_thread goto W;
  goto E;
W: d := 1;
E: skip;
end`, 2},
		{"sequence and branches", `decl d;
void main() begin
  start_thread goto W;
  if * then start_thread goto W; else skip; fi
  start_thread goto W;
  return;
W: d := 1;
end`, 4},
		{"calls", `decl d;
void two() begin
  start_thread goto W;
  start_thread goto W;
  return;
W: d := 1;
end
void main() begin
  two();
  two();
end`, 5},
		{"started threads start", `decl d;
void main() begin
  start_thread goto W;
  return;
W: start_thread goto V;
  return;
V: d := 1;
end`, 3},
		{"start in a loop", `decl d;
void main() begin
  while * do start_thread goto W; od
  return;
W: d := 1;
end`, pds.Unbounded},
		{"backward goto", `decl d;
void main() begin
L: start_thread goto W;
  goto L, E;
W: d := 1;
E: skip;
end`, pds.Unbounded},
		{"a thread starting its own copy", `decl d;
void main() begin
W: start_thread goto W;
end`, pds.Unbounded},
		{"start in recursion", `decl d;
void r() begin
  start_thread goto W;
  if * then r(); fi
  return;
W: d := 1;
end
void main() begin
  r();
end`, pds.Unbounded},
	}
	for _, c := range cases {
		net, err := Read(c.name+".bp", []byte(c.src), pds.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, source := c.want, pds.ThreadsFromProgram
		if c.want == pds.Unbounded {
			want, source = pds.DefaultMaxThreads, pds.ThreadsDefault
		}
		if net.ProgramThreads != c.want || net.MaxThreads != want || net.ThreadSource != source {
			t.Errorf("%s: the program has %d threads, room for %d (%s); want %d, room for %d (%s)",
				c.name, net.ProgramThreads, net.MaxThreads, net.ThreadSource, c.want, want, source)
		}
	}
}
