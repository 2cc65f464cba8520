package bdd

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// The operations of C's operators (vec.go), checked against Go's own
// arithmetic on every valuation of the fixture's operands.

// sext reads the low w bits of v as a two's complement number.
func sext(v uint64, w int) int64 {
	v &= mask(w)
	if w > 0 && v>>(w-1)&1 == 1 {
		return int64(v) - int64(1)<<w
	}
	return int64(v)
}

func TestBitwiseVec(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		ops := []struct {
			name string
			op   func(a, b Vec) Vec
			f    func(a, b uint64) uint64
		}{
			{"AndVec", m.AndVec, func(a, b uint64) uint64 { return a & b }},
			{"OrVec", m.OrVec, func(a, b uint64) uint64 { return a | b }},
			{"XorVec", m.XorVec, func(a, b uint64) uint64 { return a ^ b }},
		}
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			for _, op := range ops {
				what := fmt.Sprintf("%s(%s, %s)", op.name, x.name, y.name)
				r := op.op(x.vec, y.vec)
				require.Len(t, r, max(x.width, y.width), what)
				f.checkVec(t, what, r, refs, func(vals []uint64) uint64 { return op.f(split(vals)) })
			}
		}
		for _, x := range f.operands(0) {
			var refs []Ref
			if x.ref != nil {
				refs = []Ref{*x.ref}
			}
			val := func(vals []uint64) uint64 {
				if x.ref != nil {
					return x.value(vals[0])
				}
				return x.value(0)
			}
			f.checkVec(t, "NotVec("+x.name+")", m.NotVec(x.vec), refs, func(v []uint64) uint64 { return ^val(v) })
			f.checkVec(t, "Neg("+x.name+")", m.Neg(x.vec), refs, func(v []uint64) uint64 { return -val(v) })
			for w := 0; w <= 6; w++ {
				what := fmt.Sprintf("SignExtend(%s, %d)", x.name, w)
				r := m.SignExtend(x.vec, w)
				require.Len(t, r, w, what)
				f.checkVec(t, what, r, refs, func(v []uint64) uint64 { return uint64(sext(val(v), x.width)) })
			}
		}
		// Sign extension and complement are wiring: the result's nodes are
		// the operand's (or their negations).
		v := m.Vec(Ref{f.u[3], 0})
		r := m.SignExtend(v, 8)
		for i := 3; i < 8; i++ {
			require.True(t, r[i].Equal(v[2]))
		}
		require.Empty(t, m.SignExtend(nil, 3)[0:0])
		require.True(t, m.SignExtend(nil, 3)[2].IsFalse())
	})
}

func TestShiftVec(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		ops := []struct {
			name string
			op   func(a, n Vec) Vec
			f    func(a uint64, w int, n uint64) uint64
		}{
			{"Shl", m.Shl, func(a uint64, w int, n uint64) uint64 { return a << n }},
			{"Shr", func(a, n Vec) Vec { return m.Shr(a, n, false) }, func(a uint64, w int, n uint64) uint64 { return (a & mask(w)) >> n }},
			{"Sar", func(a, n Vec) Vec { return m.Shr(a, n, true) }, func(a uint64, w int, n uint64) uint64 { return uint64(sext(a, w) >> n) }},
		}
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			for _, op := range ops {
				what := fmt.Sprintf("%s(%s, %s)", op.name, x.name, y.name)
				r := op.op(x.vec, y.vec)
				require.Len(t, r, x.width, what)
				f.checkVec(t, what, r, refs, func(vals []uint64) uint64 {
					a, n := split(vals)
					return op.f(a, x.width, min(n, 63))
				})
			}
		}
		// Shifts by constant amounts are wiring, up to and past the width.
		x := Ref{f.u[4], 0}
		v := m.Vec(x)
		for k := uint64(0); k <= 6; k++ {
			for _, arith := range []bool{false, true} {
				what := fmt.Sprintf("ShrConst(u4, %d, %v)", k, arith)
				r := m.ShrConst(v, k, arith)
				f.checkVec(t, what, r, []Ref{x}, func(vals []uint64) uint64 {
					if arith {
						return uint64(sext(vals[0], 4) >> k)
					}
					return vals[0] >> k
				})
				for _, n := range r {
					require.True(t, n.IsFalse() || n.Equal(v[0]) || n.Equal(v[1]) || n.Equal(v[2]) || n.Equal(v[3]), what)
				}
			}
			r := m.ShlConst(v, k)
			f.checkVec(t, fmt.Sprintf("ShlConst(u4, %d)", k), r, []Ref{x}, func(vals []uint64) uint64 { return vals[0] << k })
		}
		require.Len(t, m.ShrConst(v, ^uint64(0), true), 4)
		f.checkVec(t, "ShrConst(u4, max, true)", m.ShrConst(v, ^uint64(0), true), []Ref{x},
			func(vals []uint64) uint64 { return uint64(sext(vals[0], 4) >> 63) })
		// A wide amount: every bit of it counts.
		n := m.Add(m.Vec(Ref{f.u[4], 1}), m.ConstVec(0, 40))
		f.checkVec(t, "Shl(u4, wide)", m.Shl(v, n), []Ref{x, {f.u[4], 1}}, func(vals []uint64) uint64 { return vals[0] << vals[1] })
		n = m.ShlConst(n, 36) // only bits 36..39 can be set: always >= width
		f.checkVec(t, "Shl(u4, wide<<36)", m.Shl(v, n), []Ref{x, {f.u[4], 1}}, func(vals []uint64) uint64 {
			if vals[1] != 0 {
				return 0
			}
			return vals[0]
		})
	})
}

func TestDivModVec(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			w := max(x.width, y.width)
			what := fmt.Sprintf("(%s, %s)", x.name, y.name)
			q, r := m.DivMod(x.vec, y.vec)
			require.Len(t, q, w)
			require.Len(t, r, w)
			f.checkVec(t, "DivMod.q"+what, q, refs, func(vals []uint64) uint64 {
				a, b := split(vals)
				if b == 0 {
					return mask(w)
				}
				return a / b
			})
			f.checkVec(t, "DivMod.r"+what, r, refs, func(vals []uint64) uint64 {
				a, b := split(vals)
				if b == 0 {
					return a
				}
				return a % b
			})
			q, r = m.SDivMod(x.vec, y.vec)
			require.Len(t, q, w)
			require.Len(t, r, w)
			sdiv := func(vals []uint64) (int64, int64, bool) {
				a, b := split(vals)
				sa, sb := sext(a, x.width), sext(b, y.width)
				if sb == 0 {
					return 0, 0, false
				}
				if sb == -1 { // the most negative value wraps around
					return -sa, 0, true
				}
				return sa / sb, sa % sb, true
			}
			f.checkVec(t, "SDivMod.q"+what, q, refs, func(vals []uint64) uint64 {
				if d, _, ok := sdiv(vals); ok {
					return uint64(d)
				}
				// by zero: the unsigned quotient of the magnitudes, negated
				// for a negative dividend
				a, _ := split(vals)
				if sext(a, x.width) < 0 {
					return 1
				}
				return mask(w)
			})
			f.checkVec(t, "SDivMod.r"+what, r, refs, func(vals []uint64) uint64 {
				if _, md, ok := sdiv(vals); ok {
					return uint64(md)
				}
				a, _ := split(vals)
				return uint64(sext(a, x.width))
			})
		}
		require.Empty(t, func() Vec { q, _ := m.SDivMod(nil, nil); return q }())
	})
}

func TestSignedCompare(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		ops := []struct {
			name string
			op   func(a, b Vec) Node
			f    func(a, b int64) bool
		}{
			{"SLt", m.SLt, func(a, b int64) bool { return a < b }},
			{"SLe", m.SLe, func(a, b int64) bool { return a <= b }},
			{"SGt", m.SGt, func(a, b int64) bool { return a > b }},
			{"SGe", m.SGe, func(a, b int64) bool { return a >= b }},
		}
		for _, p := range f.pairs() {
			x, y := p[0], p[1]
			refs, split := pairRefs(x, y)
			for _, op := range ops {
				f.checkNode(t, fmt.Sprintf("%s(%s, %s)", op.name, x.name, y.name), op.op(x.vec, y.vec), refs,
					func(vals []uint64) bool {
						a, b := split(vals)
						return op.f(sext(a, x.width), sext(b, y.width))
					})
			}
		}
	})
}

// TestMulConst: a product with a constant (Mul's non-adjacent form) is the
// product, for every constant of the operand's width, on either side.
func TestMulConst(t *testing.T) {
	forEachConfig(t, func(t *testing.T, f *fixture) {
		m := f.m
		for _, x := range f.operands(0) {
			if x.ref == nil || x.width > 6 {
				continue
			}
			for c := uint64(0); c < 1<<x.width; c++ {
				k := m.ConstVec(c, x.width)
				val := func(v []uint64) uint64 { return x.value(v[0]) * c }
				f.checkVec(t, fmt.Sprintf("Mul(%s, %d)", x.name, c), m.Mul(x.vec, k), []Ref{*x.ref}, val)
				f.checkVec(t, fmt.Sprintf("Mul(%d, %s)", c, x.name), m.Mul(k, x.vec), []Ref{*x.ref}, val)
			}
		}
	})
}
