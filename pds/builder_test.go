package pds_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

func TestBuilderLayout(t *testing.T) {
	s := newBase(true)
	s.wellFormed()
	n, err := s.b.Build()
	require.NoError(t, err)

	// The local block is a grid: row b holds bit b of locals, and every
	// procedure fills each row from slot 0 in declaration order,
	// parameters first. Rows: bit 0 has slots 0 and 1, bit 1 slots 2, 3.
	require.Equal(t, []*pds.Local{s.a}, s.f.Params)
	require.Equal(t, []*pds.Local{s.a, s.c}, s.f.Locals)
	require.Equal(t, []int{0, 2}, s.a.Block)
	require.Equal(t, []int{1, 3}, s.c.Block)
	require.Equal(t, []int{0, 2}, s.x.Block)
	require.Equal(t, []int{0}, s.p.Block)
	require.Equal(t, 4, s.f.Bits)
	require.Equal(t, 2, s.main.Bits)
	require.True(t, s.a.Param)
	require.False(t, s.c.Param)
	// The block is as wide as the widest procedure; the register as the
	// widest result.
	require.Len(t, n.LocalBits, 4)
	require.Equal(t, 2, n.RetBits)
	// Entries, label ids, rule indexes.
	require.Same(t, s.m0, s.main.Entry)
	for i, l := range n.Labels {
		require.Equal(t, i, l.ID)
	}
	for i, r := range n.Rules {
		require.Equal(t, i, r.Index)
		require.Contains(t, n.RulesFrom(r.From), r)
	}
	require.Len(t, n.RulesFrom(s.m0), 2) // step and push
	require.Empty(t, n.RulesFrom(s.merr))
	// User globals come first; hidden slot globals after them.
	require.Same(t, s.g, n.Globals[0])
	require.Same(t, s.e, n.Globals[1])
	for _, g := range n.Globals[2:] {
		require.True(t, g.Hidden, g.Name)
	}
	require.True(t, n.HasForks())
	// Each fork rule has a cutoff label in its source's procedure.
	for _, r := range n.Rules {
		if r.Kind == pds.Fork {
			c := n.CutoffLabel(r)
			require.NotNil(t, c)
			require.Equal(t, pds.Cutoff, c.Kind)
			require.Same(t, r.From.Proc, c.Proc)
			require.False(t, c.Kind.IsError())
		} else {
			require.Nil(t, n.CutoffLabel(r))
		}
	}
}

func TestCall(t *testing.T) {
	s := newBase(false)
	f := pds.Call(s.f, 3)
	require.Same(t, s.f0, f.Label)
	require.Equal(t, []pds.Init{{Value: 3}, {Value: 0}}, f.Locals)
}

func TestSetEntry(t *testing.T) {
	s := newBase(false)
	s.b.SetEntry(s.f1)
	require.Same(t, s.f1, s.f.Entry)
	require.Same(t, s.f1, pds.Call(s.f).Label)
}

func TestBuilderPhases(t *testing.T) {
	tests := []struct {
		name string
		do   func(s *base)
		want string
	}{
		{"global after Manager", func(s *base) { s.m(); s.b.Global("late", pds.BoolType(), pds.Init{}, noPos) }, "Global after Manager"},
		{"local after Manager", func(s *base) { s.m(); s.b.Local(s.main, "late", pds.BoolType(), noPos) }, "Local after Manager"},
		{"spawnable after Manager", func(s *base) { s.m(); s.b.Spawnable(s.f) }, "Spawnable after Manager"},
		{"param after a local", func(s *base) { s.b.Param(s.main, "late", pds.BoolType(), noPos) }, "declared after a local"},
		{"rule after Build", func(s *base) {
			s.b.Thread("T0", pds.Call(s.main))
			if _, err := s.b.Build(); err != nil {
				panic("unexpected: " + err.Error())
			}
			s.b.Step(s.m0, s.m1, s.same(), noPos)
		}, "rule added after Build"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, panicText(t, func() { tc.do(newBase(false)) }), tc.want)
		})
	}
}

// panicText runs f and returns what it panicked with, without the "pds: "
// prefix; the test fails if f does not panic.
func panicText(t *testing.T, f func()) (s string) {
	t.Helper()
	defer func() {
		r := recover()
		require.NotNil(t, r, "no panic")
		str, ok := r.(string)
		require.True(t, ok, "panic with %T", r)
		s = strings.TrimPrefix(str, "pds: ")
	}()
	f()
	return ""
}

// The builder fixes the unused bits of the local block to zero in every
// output copy: a step into a narrow procedure cannot set them.
func TestBuilderPadsOutputs(t *testing.T) {
	s := newBase(true)
	s.b.Thread("T0", pds.Call(s.main))
	m := s.m()
	n := s.n()
	step := s.b.Step(s.m0, s.m1, s.same(), noPos)              // main uses 2 of 4 bits
	push := s.b.Push(s.m0, s.w0, s.m1, s.same(), noPos)        // w uses 1, main 2
	fork := s.b.Fork(s.m1, s.m0, s.w, s.same(), noPos)         // child w uses 1
	s.b.SetRecv(s.m1, m.And(s.same(), m.Eq(s.ret(), s.ret()))) // main
	_, err := s.b.Build()
	require.NoError(t, err)
	zero := func(c int, bits ...int) bdd.Node {
		r := m.True()
		for _, i := range bits {
			r = m.And(r, m.Not(m.Bit(bdd.Ref{Var: n.LocalBits[i], Copy: c}, 0)))
		}
		return r
	}
	// main uses block bits 0 and 2, w uses bit 0.
	require.True(t, m.Implies(step.Rel, zero(pds.LNext, 1, 3)))
	require.True(t, m.Implies(step.Rel, n.Unused(s.main, pds.LNext)))
	require.False(t, m.Implies(step.Rel, zero(pds.LNext, 0)), "main's own bits stay free")
	require.True(t, m.Implies(push.Rel, zero(pds.LNext, 1, 2, 3)))
	require.True(t, m.Implies(push.Rel, zero(pds.LSaved, 1, 3)))
	require.True(t, m.Implies(fork.Rel, zero(pds.LNext, 1, 3)))
	require.True(t, m.Implies(fork.Rel, zero(pds.LSaved, 1, 2, 3)))
	require.True(t, m.Implies(*s.m1.Recv, zero(pds.LNext, 1, 3)))
	// Fork rules and receive relations keep the hidden globals.
	for _, g := range n.Globals {
		if g.Hidden {
			require.True(t, m.Implies(fork.Rel, m.Eq(n.GlobalVec(g, pds.GNext), n.GlobalVec(g, pds.GCur))), g.Name)
			require.True(t, m.Implies(*s.m1.Recv, m.Eq(n.GlobalVec(g, pds.GNext), n.GlobalVec(g, pds.GCur))), g.Name)
		}
	}
}

func TestWithThreadSlots(t *testing.T) {
	s := newBase(true)
	s.wellFormed()
	n, err := s.b.Build()
	require.NoError(t, err)

	_, err = n.WithThreadSlots(4)
	require.ErrorContains(t, err, "built for at most 3 threads")
	_, err = n.WithThreadSlots(0)
	require.ErrorContains(t, err, "the thread bound 0 is below the network's 1 initial thread")

	for max := 1; max <= 3; max++ {
		x, err := n.WithThreadSlots(max)
		require.NoError(t, err)
		require.NoError(t, x.Validate())
		require.Len(t, x.Threads, max, "one dormant slot per thread to come")
		for i, th := range x.Threads {
			require.Equal(t, i, th.Index)
			require.Equal(t, i >= len(n.Threads), th.Slot)
			if th.Slot {
				require.Len(t, th.Stack, 1)
				require.True(t, x.IsDormant(th.Stack[0].Label))
			}
		}
		for _, r := range x.Rules {
			require.NotEqual(t, pds.Fork, r.Kind)
			if x.IsDormant(r.From) {
				require.Same(t, s.w.Entry, r.To)
			}
		}
		// Applying it again changes nothing.
		y, err := x.WithThreadSlots(max)
		require.NoError(t, err)
		require.Same(t, x, y)
		// The original network is untouched.
		require.Len(t, n.Threads, 1)
	}

	// No slot holds a thread initially.
	zero := make([]uint64, len(n.Globals))
	p, locals := n.SlotState(zero, 0)
	require.Nil(t, p)
	require.Nil(t, locals)

	// Without forks WithThreadSlots is the identity.
	s2 := newBase(false)
	s2.b.Thread("T0", pds.Call(s2.main))
	n2, err := s2.b.Build()
	require.NoError(t, err)
	require.False(t, n2.HasForks())
	x2, err := n2.WithThreadSlots(2)
	require.NoError(t, err)
	require.Same(t, n2, x2)
}

// TestBuilderFits: a layout the BDD kernel cannot hold (more than
// bdd.MaxVars variables) is an error of Fits, told before the thread
// slots are declared (a thread bound of a billion answers at once), and
// Manager panics on it; a layout that fits is no error.
func TestBuilderFits(t *testing.T) {
	for _, threads := range []int{1_000_000_000, 1_000_000} {
		b := pds.NewBuilder(pds.Options{MaxThreads: threads})
		w := b.Proc("w", nil, noPos)
		b.Param(w, "p", pds.BoolType(), noPos)
		b.Label(w, "w0", noPos)
		b.Spawnable(w)
		err := b.Fits()
		require.ErrorIs(t, err, pds.ErrTooLarge, "%d threads", threads)
		require.Contains(t, err.Error(), "thread slots")
		require.Panics(t, func() { b.Manager() })
	}
	b := pds.NewBuilder(pds.Options{})
	for i := range bdd.MaxVars/(32*pds.GlobalCopies) + 1 {
		b.Global(fmt.Sprintf("g%d", i), pds.IntType(32), pds.Init{}, noPos)
	}
	require.ErrorIs(t, b.Fits(), pds.ErrTooLarge)
	s := newBase(true)
	require.NoError(t, s.b.Fits())
	require.NotNil(t, s.b.Manager())
}
