package pds_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

var noPos = pds.Pos{}

// base is a small well-formed network that the cases below spoil: a global
// g (int<2>), an enum global e (3 values), procedures main (local x
// int<2>, labels m0 m1 and an error label), f (param a, an enum local c,
// result int<2>, labels f0 f1) and w (spawnable, param p), one thread.
type base struct {
	b          *pds.Builder
	g, e       *pds.Global
	main, f, w *pds.Proc
	x, a, c, p *pds.Local
	m0, m1     *pds.Label
	merr       *pds.Label
	f0, f1     *pds.Label
	w0         *pds.Label
}

func newBase(spawnW bool) *base {
	s := &base{b: pds.NewBuilder(pds.Options{MaxThreads: 3})}
	b := s.b
	tri := pds.EnumType("tri", "u", "v", "w")
	s.g = b.Global("g", pds.IntType(2), pds.Init{Value: 1}, noPos)
	s.e = b.Global("e", tri, pds.Init{Value: 2}, noPos)
	s.main = b.Proc("main", nil, noPos)
	s.x = b.Local(s.main, "x", pds.IntType(2), noPos)
	s.m0, s.m1 = b.Label(s.main, "m0", noPos), b.Label(s.main, "m1", noPos)
	s.merr = b.ErrorLabel(s.main, "m.err", pds.Assert, "x != 3", noPos)
	r := pds.IntType(2)
	s.f = b.Proc("f", &r, noPos)
	s.a = b.Param(s.f, "a", pds.IntType(2), noPos)
	s.c = b.Local(s.f, "c", tri, noPos)
	s.f0, s.f1 = b.Label(s.f, "f0", noPos), b.Label(s.f, "f1", noPos)
	s.w = b.Proc("w", nil, noPos)
	s.p = b.Param(s.w, "p", pds.BoolType(), noPos)
	s.w0 = b.Label(s.w, "w0", noPos)
	if spawnW {
		b.Spawnable(s.w)
	}
	return s
}

func (s *base) n() *pds.Network                 { return s.b.Net() }
func (s *base) m() *bdd.Manager                 { return s.b.Manager() }
func (s *base) same() bdd.Node                  { return s.n().Unchanged() }
func (s *base) ret() bdd.Vec                    { return s.n().RetVec(2) }
func (s *base) lv(l *pds.Local, c int) bdd.Vec  { return s.n().LocalVec(l, c) }
func (s *base) gv(g *pds.Global, c int) bdd.Vec { return s.n().GlobalVec(g, c) }

// wellFormed adds the rules of the valid network.
func (s *base) wellFormed() {
	b, n, m := s.b, s.n(), s.m()
	b.Step(s.m0, s.m1, m.And(s.same(), n.LocalsUnchanged(s.main, pds.LNext)), noPos)
	b.Step(s.m1, s.merr, m.And(s.same(), n.LocalsUnchanged(s.main, pds.LNext), m.Eq(s.lv(s.x, pds.LCur), m.ConstVec(3, 2))), noPos)
	b.Push(s.m0, s.f0, s.m1, m.And(s.same(), m.Eq(s.lv(s.a, pds.LNext), s.lv(s.x, pds.LCur)), n.LocalsZero(s.f, pds.LNext, s.a), n.LocalsUnchanged(s.main, pds.LSaved)), noPos)
	b.SetRecv(s.m1, m.And(s.same(), m.Assign(s.lv(s.x, pds.LNext), s.ret())))
	b.Step(s.f0, s.f1, m.And(s.same(), n.LocalsUnchanged(s.f, pds.LNext)), noPos)
	b.Pop(s.f1, m.And(s.same(), m.Eq(s.ret(), s.lv(s.a, pds.LCur))), noPos)
	b.Fork(s.m1, s.m0, s.w, m.And(s.same(), n.LocalsUnchanged(s.main, pds.LNext), m.Eq(s.lv(s.p, pds.LSaved), m.ConstVec(1, 1))), noPos)
	b.Thread("T0", pds.Call(s.main))
}

func TestValidateAcceptsWellFormed(t *testing.T) {
	s := newBase(true)
	s.wellFormed()
	n, err := s.b.Build()
	require.NoError(t, err)
	require.NoError(t, n.Validate())
	x, err := n.WithThreadSlots(3)
	require.NoError(t, err)
	require.NoError(t, x.Validate(), "the slotted network is valid too")
}

func TestValidateRejects(t *testing.T) {
	tests := []struct {
		name    string
		spawnW  bool
		spoil   func(s *base)
		wantErr string
	}{
		{"step mentions LSaved", true, func(s *base) {
			m := s.m()
			s.b.Step(s.m0, s.m1, m.And(s.same(), m.Eq(s.lv(s.x, pds.LSaved), s.lv(s.x, pds.LCur))), noPos)
		}, "copy 2, not allowed in a step relation"},
		{"step mentions the return register", true, func(s *base) {
			m := s.m()
			s.b.Step(s.m0, s.m1, m.And(s.same(), m.Eq(s.ret(), m.ConstVec(1, 2))), noPos)
		}, "relation mentions ret copy 0, not allowed in a step relation"},
		{"step mentions a copy of a global that no rule uses", true, func(s *base) {
			m := s.m()
			s.b.Step(s.m0, s.m1, m.And(s.same(), m.Eq(s.gv(s.g, pds.GScratch), m.ConstVec(1, 2))), noPos)
		}, "relation mentions g copy 2, not allowed in a step relation"},
		{"pop mentions LNext", true, func(s *base) {
			m := s.m()
			s.b.Pop(s.f0, m.And(s.same(), m.Eq(s.lv(s.a, pds.LNext), m.ConstVec(0, 2))), noPos)
		}, "copy 1, not allowed in a pop relation"},
		{"push mentions the return register", true, func(s *base) {
			m := s.m()
			s.b.Push(s.m0, s.f0, s.m1, m.And(s.same(), m.Eq(s.ret(), m.ConstVec(0, 2))), noPos)
		}, "relation mentions ret copy 0, not allowed in a push relation"},
		{"receive mentions LSaved", true, func(s *base) {
			m := s.m()
			s.b.SetRecv(s.m0, m.And(s.same(), m.Eq(s.lv(s.x, pds.LSaved), s.ret())))
		}, "receive relation of m0: relation mentions"},
		{"rule from an error label", true, func(s *base) {
			s.b.Step(s.merr, s.m0, s.same(), noPos)
		}, "assert labels are dead ends"},
		{"step to another procedure", true, func(s *base) {
			s.b.Step(s.m0, s.f0, s.same(), noPos)
		}, "target f0 belongs to f, not main"},
		{"return point in another procedure", true, func(s *base) {
			s.b.Push(s.m0, s.f0, s.f1, s.same(), noPos)
		}, "return point f1 belongs to f"},
		{"fork of a non-spawnable procedure", true, func(s *base) {
			s.b.Fork(s.m0, s.m1, s.f, s.same(), noPos)
		}, "procedure f was not declared spawnable"},
		{"fork without any spawnable procedure", false, func(s *base) {
			s.b.Fork(s.m0, s.m1, s.w, s.same(), noPos)
		}, "procedure w was not declared spawnable"},
		{"frame with too few locals", true, func(s *base) {
			s.b.Thread("T1", pds.Frame{Label: s.f0, Locals: []pds.Init{{Value: 1}}})
		}, "thread T1: frame 0 has 1 local, f has 2"},
		{"frame with too many locals", true, func(s *base) {
			s.b.Thread("T1", pds.Frame{Label: s.w0, Locals: []pds.Init{{}, {}}})
		}, "thread T1: frame 0 has 2 locals, w has 1"},
		{"int local out of range", true, func(s *base) {
			s.b.Thread("T1", pds.Call(s.m0.Proc), pds.Frame{Label: s.f0, Locals: []pds.Init{{Value: 4}, {}}})
		}, "thread T1: frame 1: value 4 out of range for a"},
		{"enum local out of range", true, func(s *base) {
			s.b.Thread("T1", pds.Frame{Label: s.f0, Locals: []pds.Init{{}, {Value: 3}}})
		}, "thread T1: frame 0: value 3 out of range for c"},
		{"frame label of no network", true, func(s *base) {
			s.b.Thread("T1", pds.Frame{Label: &pds.Label{Name: "stray", Proc: s.main}})
		}, "thread T1: frame 0 has no label of the network"},
		{"int global init out of range", true, func(s *base) {
			s.g.Init = pds.Init{Value: 4}
		}, "global g: initial value 4 out of range for int<2>"},
		{"enum global init out of range", true, func(s *base) {
			s.e.Init = pds.Init{Value: 3}
		}, "global e: initial value 3 out of range for tri"},
		{"step may give an enum global an invalid value", true, func(s *base) {
			s.b.Step(s.m0, s.m1, s.n().Unchanged(s.e), noPos)
		}, "relation may give e an invalid value"},
		{"pop may give an enum global an invalid value", true, func(s *base) {
			m := s.m()
			s.b.Pop(s.f0, m.And(s.n().Unchanged(s.e), m.Eq(s.gv(s.e, pds.GNext), m.ConstVec(3, 2))), noPos)
		}, "rule 0 (pop from f0): relation may give e an invalid value"},
		{"step may give an enum local an invalid value", true, func(s *base) {
			m := s.m()
			s.b.Step(s.f0, s.f1, m.And(s.same(), s.n().LocalsUnchanged(s.f, pds.LNext, s.c)), noPos)
		}, "relation may give local f.c an invalid value"},
		{"push may give the callee an invalid enum", true, func(s *base) {
			m := s.m()
			s.b.Push(s.m0, s.f0, s.m1, m.And(s.same(), m.Eq(s.lv(s.c, pds.LNext), m.ConstVec(3, 2)), s.n().LocalsUnchanged(s.main, pds.LSaved)), noPos)
		}, "relation may give local f.c an invalid value"},
		{"push may save an invalid enum", true, func(s *base) {
			m := s.m()
			s.b.Push(s.f0, s.f0, s.f1, m.And(s.same(), s.n().LocalsZero(s.f, pds.LNext), m.Eq(s.lv(s.c, pds.LSaved), m.ConstVec(3, 2))), noPos)
		}, "relation may give local f.c an invalid value"},
		{"receive may give an invalid enum", true, func(s *base) {
			m := s.m()
			s.b.SetRecv(s.f1, m.And(s.same(), s.n().LocalsUnchanged(s.f, pds.LNext, s.c), m.Assign(s.lv(s.c, pds.LNext), s.ret())))
		}, "receive relation of f1: relation may give local f.c an invalid value"},
		{"no threads", true, func(s *base) {}, "no threads"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newBase(tc.spawnW)
			if tc.name != "no threads" {
				s.b.Thread("T0", pds.Call(s.main))
			}
			tc.spoil(s)
			_, err := s.b.Build()
			require.Error(t, err)
			require.ErrorContains(t, err, "pds: invalid network")
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// Every case above spoils a network that is otherwise valid: check that
// the same builder steps without the spoiling rule do build.
func TestValidateBaseIsValid(t *testing.T) {
	for _, spawn := range []bool{false, true} {
		s := newBase(spawn)
		s.b.Thread("T0", pds.Call(s.main))
		_, err := s.b.Build()
		require.NoError(t, err)
	}
}

func TestValidateAcceptsUnchangedEnums(t *testing.T) {
	// An enum with unused codes kept unchanged is fine: invalid outputs
	// would need invalid inputs.
	s := newBase(false)
	s.b.Thread("T0", pds.Call(s.main))
	m := s.m()
	s.b.Step(s.m0, s.m1, s.same(), noPos)
	s.b.Step(s.f0, s.f1, m.And(s.same(), s.n().LocalsUnchanged(s.f, pds.LNext)), noPos)
	s.b.Pop(s.f1, m.And(s.same(), m.Eq(s.ret(), s.lv(s.a, pds.LCur))), noPos)
	_, err := s.b.Build()
	require.NoError(t, err)
}

func TestValidateReportsAtMostTen(t *testing.T) {
	s := newBase(true)
	s.b.Thread("T0", pds.Call(s.main))
	for i := 0; i < 15; i++ {
		s.b.Step(s.merr, s.m0, s.same(), noPos)
	}
	_, err := s.b.Build()
	require.ErrorContains(t, err, "and 5 more")
}
