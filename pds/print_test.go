package pds_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

func TestPrintDeterministic(t *testing.T) {
	build := func() *pds.Network {
		s := newBase(true)
		s.wellFormed()
		n, err := s.b.Build()
		require.NoError(t, err)
		return n
	}
	print := func(n *pds.Network) string {
		var buf bytes.Buffer
		require.NoError(t, n.Print(&buf))
		return buf.String()
	}
	n := build()
	first := print(n)
	require.Equal(t, first, print(n), "printing twice")
	require.Equal(t, first, print(build()), "printing an identical network")
	for _, want := range []string{
		"global int<2> g = 1\n",
		"global tri e = w\n",
		"global int<2> $created = 0 (hidden)\n",
		"proc f : int<2>\n  param int<2> a\n  local tri c\n",
		"  label m.err @- assert \"x != 3\"\n",
		"    receive: ret=0 main.x'=0 | ret=1 main.x'=1 | ret=2 main.x'=2 | ret=3 main.x'=3\n",
		"rule 1 step m1 -> m.err @-\n    x=3\n",
		"rule 4 pop f1 @-\n    a=0 ret=0 | a=1 ret=1 | a=2 ret=2 | a=3 ret=3\n",
		"fork m1 -> m0 start w @-\n    w.p''=true\n",
		"thread T0: m0(0)\n",
	} {
		require.Contains(t, first, want)
	}

	x, err := n.WithThreadSlots(3)
	require.NoError(t, err)
	slotted := print(x)
	require.Equal(t, slotted, print(x))
	require.Contains(t, slotted, "thread thread2: $dormant1\n")
}

// formatNet: globals x (int<2>) and b (bool), procedure p with local y
// (int<1>) and result int<2>.
func formatNet(t *testing.T) (*pds.Network, *pds.Global, *pds.Global, *pds.Local) {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{}, noPos)
	bb := b.Global("b", pds.BoolType(), pds.Init{}, noPos)
	r := pds.IntType(2)
	p := b.Proc("p", &r, noPos)
	y := b.Local(p, "y", pds.IntType(1), noPos)
	b.Label(p, "p0", noPos)
	b.Thread("T0", pds.Call(p))
	n, err := b.Build()
	require.NoError(t, err)
	return n, x, bb, y
}

func TestFormatRelation(t *testing.T) {
	n, x, b, y := formatNet(t)
	m := n.M
	p := y.Proc
	xv, xn := n.GlobalVec(x, pds.GCur), n.GlobalVec(x, pds.GNext)
	bv, bn := n.GlobalVec(b, pds.GCur), n.GlobalVec(b, pds.GNext)
	keep := m.And(n.Unchanged(), n.LocalsUnchanged(p, pds.LNext))
	tests := []struct {
		name string
		rel  bdd.Node
		ret  bool
		want string
	}{
		{"identity", keep, false, "true"},
		{"empty", m.False(), false, "false"},
		{"guard", m.And(keep, m.Eq(xv, m.ConstVec(2, 2))), false, "x=2"},
		{"increment", m.And(m.Assign(xn, m.Add(xv, m.ConstVec(1, 2))), n.Unchanged(x), n.LocalsUnchanged(p, pds.LNext)), false,
			"x=0 x'=1 | x=1 x'=2 | x=2 x'=3 | x=3 x'=0"},
		{"local from global", m.And(n.Unchanged(), m.Assign(n.LocalVec(y, pds.LNext), bv)), false,
			"b=false p.y'=0 | b=true p.y'=1"},
		{"return value", m.And(n.Unchanged(), m.Eq(n.RetVec(2), xv)), true,
			"x=0 ret=0 | x=1 ret=1 | x=2 ret=2 | x=3 ret=3"},
		{"swap", m.And(m.Eq(xn, m.Resize(bv, 2)), m.Eq(bn, m.Resize(xv, 1)), n.LocalsUnchanged(p, pds.LNext)), false,
			"x=0 b=false x'=0 b'=false | x=0 b=true x'=1 b'=false | x=1 b=false x'=0 b'=true | x=1 b=true x'=1 b'=true | " +
				"x=2 b=false x'=0 b'=false | x=2 b=true x'=1 b'=false | x=3 b=false x'=0 b'=true | x=3 b=true x'=1 b'=true"},
		{"too many", m.And(m.Ne(xn, xv), m.Ne(bn, bv), n.LocalsUnchanged(p, pds.LNext)), false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := n.FormatRelation(tc.rel, p, p, nil, tc.ret)
			require.Equal(t, got, n.FormatRelation(tc.rel, p, p, nil, tc.ret), "deterministic")
			if tc.name == "too many" {
				require.True(t, strings.HasSuffix(got, " | ... (24 assignments)"), got)
				require.Equal(t, pds.MaxPrintedAssignments, strings.Count(got, "|"), got)
				return
			}
			require.Equal(t, tc.want, got)
		})
	}
}

// TestFormatRelationWide: a relation with more assignments than can be
// listed one at a time is printed with its first ones and their exact
// number, counted (a sequential network of package cbr/seq relates many
// copies of the globals; listing them all to count them did not finish).
func TestFormatRelationWide(t *testing.T) {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(64), pds.Init{}, noPos)
	y := b.Global("y", pds.IntType(64), pds.Init{}, noPos)
	p := b.Proc("p", nil, noPos)
	b.Label(p, "p0", noPos)
	b.Thread("T0", pds.Call(p))
	n, err := b.Build()
	require.NoError(t, err)
	m := n.M
	// x' != x, y' = y + x: 2^64 values of y, 2^64 of x and 2^64-1 of x'.
	rel := m.And(m.Ne(n.GlobalVec(x, pds.GNext), n.GlobalVec(x, pds.GCur)),
		m.Eq(n.GlobalVec(y, pds.GNext), m.Add(n.GlobalVec(y, pds.GCur), n.GlobalVec(x, pds.GCur))))
	got := n.FormatRelation(rel, nil, nil, nil, false)
	require.True(t, strings.HasSuffix(got, " | ... (6277101735386680763495507056286727952638980837032266301440 assignments)"), got)
	require.Equal(t, pds.MaxPrintedAssignments, strings.Count(got, "|"), got)
}

// TestFormatFields: a relation printed over fields named by the caller,
// in any copy: only the fields it mentions, one assignment a line, and
// beyond MaxPrintedAssignments their number.
func TestFormatFields(t *testing.T) {
	n, x, b, y := formatNet(t)
	m := n.M
	xv, xn := n.GlobalVec(x, pds.GCur), n.GlobalVec(x, pds.GNext)
	fields := []pds.Field{n.GlobalField(x, pds.GCur, "x"), n.GlobalField(b, pds.GCur, "b"),
		n.GlobalField(x, pds.GNext, "x@2"), n.LocalField(y, pds.LNext, "p.y@1"), n.RetField("r")}
	tests := []struct {
		name string
		rel  bdd.Node
		want []string
	}{
		{"false", m.False(), []string{"false"}},
		{"true", m.True(), []string{"true"}},
		{"not a field", m.Eq(n.LocalVec(y, pds.LCur), m.ConstVec(1, 1)), []string{"true"}},
		{"two copies", m.And(m.Eq(xn, m.Add(xv, m.ConstVec(1, 2))), m.Eq(xv, m.ConstVec(1, 2))), []string{"x=1 x@2=2"}},
		{"local and ret", m.And(m.Eq(n.LocalVec(y, pds.LNext), m.ConstVec(1, 1)), m.Eq(n.RetVec(2), m.ConstVec(3, 2))), []string{"p.y@1=1 r=3"}},
		{"bool", m.Eq(n.GlobalVec(b, pds.GCur), m.ConstVec(0, 1)), []string{"b=false"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, n.FormatFields(tc.rel, fields))
		})
	}
	// x = x@2 with r = 0 (4 assignments), or x != x@2 with any r (12*4).
	many := m.Or(m.And(m.Eq(xv, xn), m.Eq(n.RetVec(2), m.ConstVec(0, 2))), m.Ne(xv, xn))
	got := n.FormatFields(many, fields)
	require.Len(t, got, pds.MaxPrintedAssignments+1)
	require.Equal(t, "x=0 x@2=0 r=0", got[0])
	require.Equal(t, "... (52 assignments)", got[len(got)-1])
}
