package frontend

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/types"
	"github.com/stretchr/testify/require"
)

// TestOrderGroups: globals that an expression combines bit by bit share a
// group, and groups are numbered by their first global; a global that
// meets a local, a parameter or a returned value joins the locals' group;
// clusters of Booleans join the first group.
func TestOrderGroups(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		globals   []int // per global declaration
		locals    int
	}{
		{"family A", `int<4> g0 = ?; int<4> g1 = ?; int<4> g2 = ?; int<4> g3 = ?; int<4> g4 = ?; int<4> g5 = ?;
proc a() { g0 = g0 + 1; g2 = g2 + 1; g4 = g4 + 1; }
proc b() { g1 = g2; g3 = g4; g5 = g0; assert(g1 == g2 || g1 + 1 == g2); }
start a(); start b();`, []int{0, 1, 1, 2, 2, 0}, 3},
		{"through a local", `int<4> x; int<4> y; int<4> z;
proc p(int<4> a) { int<4> t = x; y = t; z = z + 1; }
start p(0);`, []int{0, 0, 1}, 0},
		{"array and index", `bool f; int<2> i; int<4> a[4]; int<4> v;
proc p() { v = a[i]; if (f) { skip; } }
start p();`, []int{0, 0, 0, 0}, 1},
		{"comparisons and logic carry no bits", `int<4> x; int<4> y; int<4> u; int<4> w; bool b;
proc p() { assert(x == y || u < w); b = !(x != 3) && b; }
start p();`, []int{0, 0, 1, 1, 0}, 2},
		{"returned values and arguments", `int<4> r; int<4> s; int<4> q;
proc f(int<4> a) : int<4> { return a; }
proc p() { s = f(q); r = r + 1; }
start p();`, []int{0, 1, 1}, 1},
		{"index of a target", `int<2> i; int<4> a[4]; int<4> v;
proc p() { a[i] = 3; v = v + 1; }
start p();`, []int{0, 0, 1}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := check(tc.name, []byte(tc.src), false)
			require.NoError(t, err)
			g, l := orderGroups(u.info)
			require.Equal(t, tc.globals, g)
			require.Equal(t, tc.locals, l)

			net, err := Compile(tc.name, []byte(tc.src))
			require.NoError(t, err)
			for _, x := range net.Globals {
				if !x.Hidden {
					name, _, _ := strings.Cut(x.Name, "[")
					i := slices.IndexFunc(u.info.Globals, func(v *types.Var) bool { return v.Name() == name })
					require.Equal(t, tc.globals[i], x.Group, x.Name)
				}
			}
		})
	}
}

// TestOrderGroupsRandom: the random programs of the differential test
// (which compiles them with the order groups) have globals in several
// groups, and the groups depend on the program only.
func TestOrderGroupsRandom(t *testing.T) {
	several := 0
	for seed := int64(1); seed <= 40; seed++ {
		g, _ := randomOptions(seed)
		src := genProgram(rand.New(rand.NewSource(seed)), g)
		name := fmt.Sprintf("seed%d.pds", seed)
		u, err := check(name, []byte(src), false)
		require.NoError(t, err)
		a, la := orderGroups(u.info)
		u, err = check(name, []byte(src), false)
		require.NoError(t, err)
		b, lb := orderGroups(u.info)
		require.Equal(t, a, b)
		require.Equal(t, la, lb)
		if slices.Max(append(a, la)) > 0 {
			several++
		}
	}
	require.GreaterOrEqual(t, several, 5, "programs with more than one group")
}

// TestOrderPublishedModels: the models of the published experiments
// (benchmarks/models, the Bluetooth example) relate every wide global to
// the locals, so their order is the order by significance across all
// variables, as before order groups: the same BDDs, view tuples and times.
func TestOrderPublishedModels(t *testing.T) {
	files, err := filepath.Glob("../benchmarks/models/*.pds")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range append(files, "../examples/bluetooth.pds") {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		u, err := check(f, src, false)
		require.NoError(t, err)
		g, l := orderGroups(u.info)
		require.Equal(t, make([]int, len(g)), g, f)
		require.Zero(t, l, f)
	}
}

// TestOrderGroupsIncrements: the relation of an atomic block that
// increments 8 unrelated globals stays linear in their number with the
// order groups, where the order by significance across all variables
// keeps 8 carries open at every bit.
func TestOrderGroupsIncrements(t *testing.T) {
	var src strings.Builder
	for i := range 8 {
		fmt.Fprintf(&src, "int<8> g%d = ?;\n", i)
	}
	src.WriteString("proc a() { atomic {")
	for i := range 8 {
		fmt.Fprintf(&src, " g%d = g%d + 1;", i, i)
	}
	src.WriteString(" } }\nstart a();\n")
	size := func(oneGroup bool) int {
		u, err := check("incs.pds", []byte(src.String()), false)
		require.NoError(t, err)
		c, err := compile(u, Options{oneGroup: oneGroup})
		require.NoError(t, err)
		n := 0
		for _, r := range c.net.Rules {
			n = max(n, c.net.M.Size(r.Rel))
		}
		return n
	}
	grouped, one := size(false), size(true)
	t.Logf("largest rule: %d nodes in groups, %d in one group", grouped, one)
	require.Less(t, 10*grouped, one)
}
