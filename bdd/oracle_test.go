package bdd

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// This file holds the fixture and the brute-force oracle the tests of the
// package check every operation against.
//
// The oracle does not use any operation under test: it reads the DAG of a
// node through rudd's Label, Low and High (Support and Size read rudd's
// table directly) and evaluates it by walking from the root under a concrete
// assignment. It fails the test when the walk meets a BDD variable the
// assignment leaves open, so evaluating a result under an assignment of the
// variables it may depend on also checks that it depends on nothing else.

// testConfigs are the manager configurations every exhaustive test runs
// under: the default one, and a node table so small that rudd collects
// garbage and resizes many times during a test (its minimum is 2*varnum+2),
// with Go's collector run every gcEvery checked nodes so that rudd's
// finalizers free nodes in the middle of a test and their slots get reused.
var testConfigs = []struct {
	name    string
	cfg     Config
	gcEvery int
}{
	{"default", Config{}, 0},
	{"tiny", Config{NodeTable: 100, CacheSize: 16}, 500},
}

// fixture is a layout with Uint variables of widths 1 to 4 (three copies
// each), a Bool and enums, and its manager.
type fixture struct {
	m    *Manager
	flag Var    // bool, 2 copies
	u    [5]Var // u[w]: uint of w bits, 3 copies (u[0] unused)
	e3   Var    // enum of 3 values (2 bits), 2 copies
	e5   Var    // enum of 5 values (3 bits), 2 copies
	e4   Var    // enum of 4 values (2 bits, all valid), 1 copy
	e1   Var    // enum of 1 value (1 bit), 1 copy

	gcEvery  int // run Go's collector every gcEvery compiles (0: never)
	compiles int
}

func newFixture(t testing.TB, cfg Config) *fixture {
	t.Helper()
	l := NewLayout()
	f := &fixture{}
	f.flag = l.Bool("flag", 2)
	for w := 1; w <= 4; w++ {
		f.u[w] = l.Uint(fmt.Sprintf("u%d", w), w, 3)
	}
	f.e3 = l.Enum("e3", 3, 2)
	f.e5 = l.Enum("e5", 5, 2)
	f.e4 = l.Enum("e4", 4, 1)
	f.e1 = l.Enum("e1", 1, 1)
	m, err := New(l, cfg)
	require.NoError(t, err)
	f.m = m
	return f
}

// forEachConfig runs body as a subtest under every test configuration, each
// with a fresh fixture, and checks that the manager met no error.
func forEachConfig(t *testing.T, body func(t *testing.T, f *fixture)) {
	for _, tc := range testConfigs {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.cfg)
			f.gcEvery = tc.gcEvery
			body(t, f)
			if tc.gcEvery > 0 {
				t.Logf("rudd collections: %d", f.ruddGCs())
			}
			// Let Go's collector run rudd's finalizers, so that rudd's own
			// collector frees nodes in the next tests.
			runtime.GC()
			require.NoError(t, f.m.Err())
			checkRefs(t, f.m)
		})
	}
}

// ruddGCs returns the number of collections rudd made.
func (f *fixture) ruddGCs() int {
	for _, line := range strings.Split(f.m.b.Stats(), "\n") {
		if rest, ok := strings.CutPrefix(line, "# of GC:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			return n
		}
	}
	return -1
}

// asg is a (partial) assignment of the BDD variables: -1 open, 0 or 1.
type asg []int8

func (f *fixture) newAsg() asg {
	a := make(asg, f.m.L.NumBits())
	for i := range a {
		a[i] = -1
	}
	return a
}

// set assigns val to the variable copy r; val must fit r's width.
func (a asg) set(l *Layout, r Ref, val uint64) {
	for b := 0; b < l.Bits(r.Var); b++ {
		a[l.index(r.Var, r.Copy, b)] = int8(val >> b & 1)
	}
}

// circuit is the DAG of a node read through rudd's Label, Low and High:
// node id -> (variable, low, high).
type circuit struct {
	root  int
	nodes map[int][3]int
}

// compile reads the DAG of n.
func (f *fixture) compile(t testing.TB, n Node) circuit {
	t.Helper()
	require.NotNil(t, n.n, "nil node")
	if f.compiles++; f.gcEvery > 0 && f.compiles%f.gcEvery == 0 {
		runtime.GC()
	}
	c := circuit{root: *n.n, nodes: map[int][3]int{}}
	b := f.m.b
	var walk func(x Node)
	walk = func(x Node) {
		id := *x.n
		if id < 2 {
			return
		}
		if _, ok := c.nodes[id]; ok {
			return
		}
		// Through wrap, so that the nodes rudd returns here are owned like
		// all others (see refs.go).
		lo, hi := f.m.wrap(b.Low(x.n)), f.m.wrap(b.High(x.n))
		require.NotNil(t, lo.n)
		require.NotNil(t, hi.n)
		v := b.Label(x.n)
		c.nodes[id] = [3]int{v, *lo.n, *hi.n}
		walk(lo)
		walk(hi)
	}
	walk(n)
	require.False(t, b.Errored(), "rudd error while reading a node: %s", b.Error())
	return c
}

// eval evaluates the circuit under a; it fails the test if the circuit
// depends on a variable a leaves open.
func (c circuit) eval(t testing.TB, a asg) bool {
	id := c.root
	for id > 1 {
		e := c.nodes[id]
		switch a[e[0]] {
		case 0:
			id = e[1]
		case 1:
			id = e[2]
		default:
			t.Fatalf("node depends on BDD variable %d, which the assignment leaves open", e[0])
		}
	}
	return id == 1
}

type vcircuit []circuit

func (f *fixture) compileVec(t testing.TB, v Vec) vcircuit {
	cs := make(vcircuit, len(v))
	for i, n := range v {
		cs[i] = f.compile(t, n)
	}
	return cs
}

// eval returns the unsigned value of the vector under a.
func (cs vcircuit) eval(t testing.TB, a asg) uint64 {
	var r uint64
	for i, c := range cs {
		if c.eval(t, a) {
			r |= 1 << i
		}
	}
	return r
}

// each calls fn for every valuation of refs (vals[i] is the value of
// refs[i]), with a holding exactly that valuation. A ref given twice
// takes the value of its last occurrence.
func (f *fixture) each(refs []Ref, fn func(vals []uint64, a asg)) {
	vals := make([]uint64, len(refs))
	a := f.newAsg()
	var rec func(i int)
	rec = func(i int) {
		if i == len(refs) {
			for j, r := range refs {
				a.set(f.m.L, r, vals[j])
			}
			fn(vals, a)
			return
		}
		for v := uint64(0); v <= mask(f.m.L.Bits(refs[i].Var)); v++ {
			vals[i] = v
			rec(i + 1)
		}
	}
	rec(0)
}

// checkNode checks n against want for every valuation of refs (which must
// cover n's support).
func (f *fixture) checkNode(t testing.TB, what string, n Node, refs []Ref, want func(vals []uint64) bool) {
	t.Helper()
	c := f.compile(t, n)
	f.each(refs, func(vals []uint64, a asg) {
		if got, w := c.eval(t, a), want(vals); got != w {
			t.Fatalf("%s at %v = %v: got %v want %v", what, refs, vals, got, w)
		}
	})
}

// checkVec checks v against want (taken modulo 2^len(v)) for every
// valuation of refs.
func (f *fixture) checkVec(t testing.TB, what string, v Vec, refs []Ref, want func(vals []uint64) uint64) {
	t.Helper()
	cs := f.compileVec(t, v)
	f.each(refs, func(vals []uint64, a asg) {
		if got, w := cs.eval(t, a), want(vals)&mask(len(v)); got != w {
			t.Fatalf("%s at %v = %v: got %d want %d", what, refs, vals, got, w)
		}
	})
}

// rel is a relation over some variable copies, built with the package (the
// node) and in Go (the predicate), the common input of the tests of
// quantification, renaming, counting and enumeration.
type rel struct {
	name string
	refs []Ref
	node Node
	pred func(vals []uint64) bool
}

// rels returns relations over flag/0, u2/0, u3/0, u3/1 and u4/0 of
// various shapes.
func (f *fixture) rels(t testing.TB) []rel {
	m := f.m
	fl, x, y, z, w := Ref{f.flag, 0}, Ref{f.u[2], 0}, Ref{f.u[3], 0}, Ref{f.u[3], 1}, Ref{f.u[4], 0}
	X, Y, Z, W := m.Vec(x), m.Vec(y), m.Vec(z), m.Vec(w)
	F := m.Bit(fl, 0)
	rs := []rel{
		{"false", []Ref{x}, m.False(), func([]uint64) bool { return false }},
		{"true", []Ref{x}, m.True(), func([]uint64) bool { return true }},
		{"x+y==z && (flag -> x<y)", []Ref{fl, x, y, z},
			m.And(m.Eq(m.Add(X, Y), Z), m.Imp(F, m.Lt(X, Y))),
			func(v []uint64) bool { return (v[1]+v[2])&7 == v[3] && (v[0] == 0 || v[1] < v[2]) }},
		{"x*z != y || flag", []Ref{fl, x, y, z},
			m.Or(m.Ne(m.Mul(X, Z), Y), F),
			func(v []uint64) bool { return (v[1]*v[3])&7 != v[2] || v[0] == 1 }},
		{"w == 3*y+1", []Ref{y, w},
			m.Assign(W, m.Add(m.Mul(Y, m.ConstVec(3, 2)), m.ConstVec(1, 1))),
			func(v []uint64) bool { return v[1] == (3*v[0]+1)&7 }},
		{"y odd, z >= 5, x unused-but-listed", []Ref{x, y, z},
			m.And(m.Bit(y, 0), m.Ge(Z, m.ConstVec(5, 3))),
			func(v []uint64) bool { return v[1]&1 == 1 && v[2] >= 5 }},
		{"w-x > y (wide)", []Ref{x, y, w},
			m.Gt(m.Sub(W, X), Y),
			func(v []uint64) bool { return (v[2]-v[0])&15 > v[1] }},
	}
	for _, r := range rs {
		f.checkNode(t, "relation "+r.name, r.node, r.refs, r.pred)
	}
	return rs
}

// refsUnion returns the refs of as then those of bs not in as.
func refsUnion(as, bs []Ref) []Ref {
	r := append([]Ref(nil), as...)
	for _, b := range bs {
		if indexOf(r, b) < 0 {
			r = append(r, b)
		}
	}
	return r
}

func indexOf(rs []Ref, r Ref) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// subsets returns every subset of rs, in a fixed order.
func subsets(rs []Ref) [][]Ref {
	var out [][]Ref
	for mask := 0; mask < 1<<len(rs); mask++ {
		var s []Ref
		for i, r := range rs {
			if mask>>i&1 == 1 {
				s = append(s, r)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestOracle checks the oracle itself on nodes whose meaning needs no
// operation: constants and single bits.
func TestOracle(t *testing.T) {
	f := newFixture(t, Config{})
	m := f.m
	a := f.newAsg()
	require.True(t, f.compile(t, m.True()).eval(t, a))
	require.False(t, f.compile(t, m.False()).eval(t, a))
	for v := range f.m.L.NumVars() {
		for c := 0; c < m.L.Copies(Var(v)); c++ {
			r := Ref{Var(v), c}
			for b := 0; b < m.L.Bits(r.Var); b++ {
				f.checkNode(t, "bit", m.Bit(r, b), []Ref{r}, func(vals []uint64) bool { return vals[0]>>b&1 == 1 })
			}
			f.checkVec(t, "vec", m.Vec(r), []Ref{r}, func(vals []uint64) uint64 { return vals[0] })
		}
	}
}
