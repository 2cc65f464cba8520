package frontend

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Semantic tests: small programs compiled and run on the explicit
// reference semantics (package pds/explicit). Each case says which errors
// are reachable within k contexts (as "assert@line" or "bounds@line") and,
// optionally, the global valuations of the configurations in which every
// thread has finished (as "name=value ...", sorted).

type semCase struct {
	name string
	k    int
	src  string
	errs []string // reachable error labels; nil: none
	ends []string // global valuations when every thread has finished; nil: not checked
}

var semCases = []semCase{
	{name: "wrap-around", k: 1, src: `
int<3> x = 7;
int<3> y;
bool b;
proc main() {
  b = x + 1 == 0;            // 7 + 1 wraps to 0
  assert(b);
  y = y - 1;                 // 0 - 1 wraps to 7
  assert(y == 7);
  y = x * x;                 // 49 mod 8 = 1
  assert(y == 1);
  y = -x;                    // 1
  assert(y == 1);
  x = x + x + x;             // 21 mod 8 = 5
}
start main();`, ends: []string{"b=true x=5 y=1"}},

	{name: "literal widths and mixed widths", k: 1, src: `
int<2> a = 3;
int<4> w = 15;
int<4> r;
bool c;
proc main() {
  r = a + 1;                 // computed in 2 bits: 0
  assert(r == 0);
  r = a + w;                 // widest operand: 4 bits, 18 mod 16 = 2
  assert(r == 2);
  c = a < w;                 // unsigned, widened
  assert(c);
  r = (a + 1) + w;           // (a + 1) in 2 bits is 0, then 15
  assert(r == 15);
  c = 3 * 3 == 9;            // constants folded exactly
  assert(c);
  r = 20 - 10;               // folded exactly, then fits int<4>
}
start main();`, ends: []string{"a=3 c=true r=10 w=15"}},

	{name: "truncation", k: 1, src: `
int<2> n;
int<5> big = 29;
proc f() : int<5> { return big; }
proc g() : int<2> { return big + 1; }     // 30 truncated to 2
proc main() {
  n = big;                   // 29 = 11101b: keeps 01
  assert(n == 1);
  n = f();                   // also 1
  assert(n == 1);
  big = g();                 // 30 mod 4 = 2, widened
  assert(big == 2);
}
start main();`, ends: []string{"big=2 n=1"}},

	{name: "parallel assignment", k: 1, src: `
int<3> x = 1;
int<3> y = 2;
int<2> a[3];
int<2> i;
proc main() {
  x, y = y, x;               // swap
  assert(x == 2 && y == 1);
  i, a[i] = 2, 3;            // the index is read before any store
  assert(a[0] == 3 && a[2] == 0 && i == 2);
  a[i], a[0] = 1, 2;         // i = 2: both stored
  a[0], a[i - 2] = 3, 1;     // the same element twice: the later store wins
  assert(a[0] == 1 && a[2] == 1);
}
start main();`, ends: []string{"a[0]=1 a[1]=0 a[2]=1 i=2 x=2 y=1"}},

	{name: "enums", k: 1, src: `
enum Color { Red, Green, Blue };
Color c = Green;
Color d = ?;
bool same;
proc next(Color x) : Color {
  if (x == Red) { return Green; }
  if (x == Green) { return Blue; }
  return Red;
}
proc main() {
  c = next(c);
  assert(c == Blue);
  same = d == d;
  d = next(d);
  assert(d != Green || c == Blue);
}
start main();`, ends: []string{"c=Blue d=Green same=true", "c=Blue d=Blue same=true", "c=Blue d=Red same=true"}},

	{name: "enum any value stays valid", k: 1, src: `
enum E { A, B, C };
E e;
proc main() {
  e = ?;
  assert(e == A || e == B || e == C);
}
start main();`, ends: []string{"e=A", "e=B", "e=C"}},

	{name: "arrays in range", k: 1, src: `
int<2> a[4];
int<3> i;
proc main() {
  i = 0;
  while (i < 4) { a[i] = i; i = i + 1; }
  assert(a[3] == 3 && a[0] == 0);
}
start main();`, ends: []string{"a[0]=0 a[1]=1 a[2]=2 a[3]=3 i=4"}},

	{name: "out of range read", k: 1, src: `
int<2> a[3];
int<2> i = 3;
int<2> x;
proc main() {
  x = a[i];                  // 3 is out of range
  x = 1;
}
start main();`, errs: []string{"bounds@6"}, ends: []string{}},

	{name: "out of range store has no effect", k: 1, src: `
int<2> a[3];
int<2> i = ?;
proc main() {
  a[i] = 1;
}
start main();`, errs: []string{"bounds@5"}, ends: []string{"a[0]=1 a[1]=0 a[2]=0 i=0", "a[0]=0 a[1]=1 a[2]=0 i=1", "a[0]=0 a[1]=0 a[2]=1 i=2"}},

	{name: "index that cannot be out of range", k: 1, src: `
int<1> a[2];
int<1> i = ?;
proc main() { a[i] = 1; }
start main();`, ends: []string{"a[0]=0 a[1]=1 i=1", "a[0]=1 a[1]=0 i=0"}},

	{name: "short-circuit", k: 1, src: `
bool a[4];
int<3> i = ?;
bool b;
proc main() {
  b = i < 4 && a[i];         // never out of range
  b = i >= 4 || a[i];        // never out of range
  if (i < 4 && !a[i]) { skip; }
  assert(!(i < 4) || !a[i]);
}
start main();`},

	{name: "no short-circuit", k: 1, src: `
bool a[4];
int<3> i = 5;
bool b;
proc main() {
  b = a[i] && i < 4;         // out of range
}
start main();`, errs: []string{"bounds@6"}, ends: []string{}},

	{name: "recursion into locals, globals and elements", k: 1, src: `
int<4> g;
int<4> arr[3];
int<2> k = 1;
proc fact(int<4> n) : int<4> {
  int<4> r;
  if (n == 0) { return 1; }
  r = fact(n - 1);
  return n * r;
}
proc main() {
  int<4> x;
  x = fact(3);               // into a local
  assert(x == 6);
  g = fact(2);               // into a global
  arr[k + 1] = fact(1);      // into an element, index read at the return
  assert(g == 2 && arr[2] == 1);
}
start main();`, ends: []string{"arr[0]=0 arr[1]=0 arr[2]=1 g=2 k=1"}},

	{name: "element index evaluated at the return", k: 1, src: `
int<2> a[3];
int<2> i;
proc f() : int<2> { i = 2; return 3; }
proc main() { a[i] = f(); }
start main();`, ends: []string{"a[0]=0 a[1]=0 a[2]=3 i=2"}},

	{name: "element index out of range at the return", k: 1, src: `
int<2> a[3];
int<2> i;
proc f() : int<2> { i = 3; return 1; }
proc main() { a[i] = f(); }
start main();`, errs: []string{"bounds@5"}, ends: []string{}},

	{name: "falling off returns zero", k: 1, src: `
enum E { A, B };
int<3> x = 5;
E e = B;
bool b = true;
proc f() : int<3> { skip; }
proc g() : E { skip; }
proc h() : bool { skip; }
proc main() { x = f(); e = g(); b = h(); }
start main();`, ends: []string{"b=false e=A x=0"}},

	{name: "atomic: assert inside fails with earlier effects", k: 1, src: `
int<2> x;
int<2> y;
proc main() {
  atomic { x = 1; assert(y == 1); y = 2; }
}
start main();`, errs: []string{"assert@5"}, ends: []string{}},

	{name: "atomic: assume blocks the whole block", k: 2, src: `
int<2> x;
bool go;
proc main() {
  atomic { x = 1; assume(go); x = 2; }
  assert(x == 2);
}
proc other() { go = true; }
start main();
start other();`, ends: []string{"go=true x=2"}},

	{name: "atomic: no interleaving inside", k: 3, src: `
int<2> x;
proc a() { atomic { x = 1; x = 2; } }
proc b() { assert(x != 1); }
start a();
start b();`},

	{name: "atomic: sequential effects and if", k: 1, src: `
int<3> x = 1;
int<3> y;
proc main() {
  atomic {
    int<3> t = x + 1;
    x = t * 2;               // 4
    if (x == 4) { y = x; } else { y = 7; }
    x, y = y, x + y;         // 4, 8 mod 8 = 0
    { bool z = ?; if (z) { skip; } }
  }
  assert(x == 4 && y == 0);
}
start main();`, ends: []string{"x=4 y=0"}},

	{name: "interleaving without atomic", k: 3, src: `
int<2> x;
proc a() { x = 1; x = 2; }
proc b() { assert(x != 1); }
start a();
start b();`, errs: []string{"assert@4"}},

	{name: "break continue goto", k: 1, src: `
int<3> n;
int<3> sum;
proc main() {
  while (true) {
    n = n + 1;
    if (n == 2) { continue; }
    if (n == 5) { break; }
    sum = sum + 1;
  }
  assert(n == 5 && sum == 3);
  goto done;
  sum = 0;
done:
  n = 0;
  back: n = n + 1;
  if (n < 3) { goto back; }
}
start main();`, ends: []string{"n=3 sum=3"}},

	{name: "nondeterminism", k: 1, src: `
int<2> x;
bool b = ?;
proc main() {
  if (?) { x = 1; } else { x = 2; }
  while (?) { x = 3; }
  if (b) { x = ?; }
}
start main();`, ends: []string{"b=false x=1", "b=false x=2", "b=false x=3", "b=true x=0", "b=true x=1", "b=true x=2", "b=true x=3"}},

	{name: "local declarations reset", k: 1, src: `
int<2> seen;
int<2> i;
proc main() {
  while (i < 3) {
    int<2> t;                // 0 again on every iteration
    t = t + 1;
    seen = seen + t;
    i = i + 1;
  }
}
start main();`, ends: []string{"i=3 seen=3"}},

	{name: "initializers and call initializers", k: 1, src: `
int<3> out;
proc two() : int<3> { return 2; }
proc main() {
  int<3> a = 3, b = a + 1, c = two();
  out = a + b + c;           // 9 mod 8
}
start main();`, ends: []string{"out=1"}},

	{name: "parameters by value", k: 1, src: `
int<3> g = 3;
proc f(int<3> p) { p = p + 1; g = p; }
proc main() {
  int<3> x = 5;
  f(x);
  assert(x == 5 && g == 6);
}
start main();`, ends: []string{"g=6"}},

	{name: "threads and start", k: 3, src: `
int<2> count;
proc worker(int<2> d) { count = count + d; }
proc main() { start worker(1); start worker(2); }
start main();`, ends: []string{"count=3"}},

	{name: "32 bits and hexadecimal", k: 1, src: `
const A = 31;
int<(A + 1)> x = 0xFFFFFFFF;
int<32> y = 0x10;
proc main() {
  x = x + 1;
  assert(x == 0);
  y = y - 0x11;
  assert(y == 4294967295);
}
start main();`, ends: []string{"x=0 y=4294967295"}},

	{name: "parameter with the name of a global", k: 1, src: `
int<2> v = 1;
proc f(int<2> v) : int<2> { return v + 1; }
proc main() { v = f(2); }
start main();`, ends: []string{"v=3"}},

	{name: "goto into a loop body", k: 1, src: `
int<2> n;
proc main() {
  goto inside;
  while (n < 3) {
inside:
    n = n + 1;
  }
}
start main();`, ends: []string{"n=3"}},

	{name: "assume false blocks", k: 1, src: `
bool reached;
proc main() { assume(false); reached = true; }
start main();`, ends: []string{}},
}

// globalsString formats the non-hidden globals of a configuration.
func globalsString(n *pds.Network, c explicit.Config) string {
	var parts []string
	for i, v := range c.Globals {
		g := n.Globals[i]
		if !g.Hidden {
			parts = append(parts, g.Name+"="+g.Type.Format(v))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func TestSemantics(t *testing.T) {
	for _, tc := range semCases {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Compile("sem.pds", []byte(tc.src))
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			res, err := explicit.Explore(n, explicit.Options{Contexts: tc.k, MaxDepth: 8})
			if err != nil {
				t.Fatal(err)
			}
			var errs []string
			for _, v := range res.Violations {
				errs = append(errs, fmt.Sprintf("%s@%d", v.Label.Kind, v.Label.Pos.Line))
			}
			sort.Strings(errs)
			want := append([]string(nil), tc.errs...)
			sort.Strings(want)
			if strings.Join(errs, " ") != strings.Join(want, " ") {
				t.Errorf("errors: got %v want %v", errs, want)
			}
			if tc.ends == nil {
				return
			}
			seen := map[string]bool{}
			var ends []string
			for _, r := range res.Reached {
				done := true
				for _, st := range r.Config.Threads {
					done = done && len(st) == 0
				}
				if g := globalsString(n, r.Config); done && !seen[g] {
					seen[g] = true
					ends = append(ends, g)
				}
			}
			sort.Strings(ends)
			wantEnds := append([]string(nil), tc.ends...)
			sort.Strings(wantEnds)
			if strings.Join(ends, "\n") != strings.Join(wantEnds, "\n") {
				t.Errorf("final globals:\ngot  %q\nwant %q", ends, wantEnds)
			}
		})
	}
}

// TestSemanticsInterpreter runs the same cases through the differential
// comparison with the interpreter.
func TestSemanticsInterpreter(t *testing.T) {
	for _, tc := range semCases {
		t.Run(tc.name, func(t *testing.T) {
			differential(t, "sem.pds", tc.src, diffOptions{Contexts: tc.k, MaxDepth: 8})
		})
	}
}
