package symauto_test

import (
	"slices"
	"testing"

	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

func compile(t *testing.T, src string) *pds.Network {
	net, err := frontend.Compile("case.pds", []byte(src))
	require.NoError(t, err)
	return net
}

func post(t *testing.T, net *pds.Network) *symauto.Auto {
	sp := symauto.NewSpace(net)
	a, _, err := symauto.PostStar(t.Context(), sp.Init(net.Threads[0]), 1)
	require.NoError(t, err)
	return a
}

// errorsReached returns the assertion labels on top of a reachable stack.
func errorsReached(a *symauto.Auto) []string {
	var out []string
	for _, l := range a.TopLabels() {
		if l.Kind.IsError() {
			out = append(out, l.Pos.String())
		}
	}
	return out
}

// TestDepthModFour: a recursive procedure counts its depth modulo 4 in a
// global; at the point after the increment, a stack of n frames of rec has
// d == n mod 4, and no other value, for every n.
func TestDepthModFour(t *testing.T) {
	net := compile(t, `
int<2> d;
proc rec() {
  d = d + 1;
  skip;
  if (?) { rec(); }
}
proc main() { rec(); }
start main();
`)
	a := post(t, net)
	var at, ret, mainRet *pds.Label
	for _, l := range net.Labels {
		if l.Proc.Name == "rec" && l.Pos.Line == 5 {
			at = l // skip, after the increment
		}
	}
	// The caller frames of rec sit at the return point of the recursive
	// call, main's below them at its own return point.
	for _, r := range net.Rules {
		if r.Kind == pds.Push && r.From.Proc.Name == "main" {
			mainRet = r.Ret
		}
		if r.Kind == pds.Push && r.From.Proc.Name == "rec" {
			ret = r.Ret
		}
	}
	require.NotNil(t, at)
	require.NotNil(t, ret)
	require.NotNil(t, mainRet)
	for n := 1; n <= 9; n++ {
		stack := []symauto.Frame{{Label: mainRet}}
		for i := 1; i < n; i++ {
			stack = append(stack, symauto.Frame{Label: ret})
		}
		stack = append(stack, symauto.Frame{Label: at})
		for d := uint64(0); d < 4; d++ {
			require.Equal(t, d == uint64(n%4), a.Contains([]uint64{d}, stack), "depth %d, d = %d", n, d)
		}
	}
}

// TestKnownAnswers: small single-thread programs whose assertions are known
// to hold or fail; post* must find exactly the failing ones, and contain
// every configuration the explicit semantics reaches.
func TestKnownAnswers(t *testing.T) {
	cases := []struct {
		name, src string
		fails     []string // positions of the assertions that fail
	}{
		{"mutual recursion", `
proc even(int<3> n) : bool { bool r; if (n == 0) { return true; } r = odd(n - 1); return r; }
proc odd(int<3> n) : bool { bool r; if (n == 0) { return false; } r = even(n - 1); return r; }
proc main() {
  bool b;
  b = even(5);
  assert(!b);
  b = odd(5);
  assert(b);
  b = even(6);
  assert(!b);
}
start main();
`, []string{"case.pds:11:3"}},
		{"three call levels", `
int<4> g;
proc f3(int<4> a) : int<4> { return a + 1; }
proc f2(int<4> a) : int<4> { int<4> r; r = f3(a * 2); return r + 1; }
proc f1(int<4> a) : int<4> { int<4> r; r = f2(a + 3); return r * 2; }
proc main() {
  int<4> x;
  x = f1(1);          // ((1 + 3) * 2 + 1 + 1) * 2 = 20 = 4 (mod 16)
  assert(x == 4);
  g = f2(x);          // 4 * 2 + 1 + 1 = 10
  assert(g == 10);
  assert(g != 10);
}
start main();
`, []string{"case.pds:12:3"}},
		{"push on a return point", `
int<3> g;
proc inc(int<3> a) : int<3> { return a + 1; }
proc main() {
  int<3> x, y;
  x = inc(2);
  y = inc(x);
  g = inc(y);
  assert(g == 5);
  assert(x == 4);
}
start main();
`, []string{"case.pds:10:3"}},
		{"recursion with a result", `
proc sum(int<4> n) : int<4> { int<4> r; if (n == 0) { return 0; } r = sum(n - 1); return r + n; }
proc main() {
  int<4> s;
  s = sum(4);
  assert(s == 10);
  s = sum(5);
  assert(s == 14);
}
start main();
`, []string{"case.pds:8:3"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			net := compile(t, tc.src)
			a := post(t, net)
			got := errorsReached(a)
			slices.Sort(got)
			require.Equal(t, tc.fails, got)
			sym := symbolic(t, net, 12)
			ref, _ := reference(t, net, 12)
			for _, c := range ref {
				_, ok := slices.BinarySearch(sym, c)
				require.True(t, ok, "%s reachable explicitly, missing from post*", c)
			}
		})
	}
}
