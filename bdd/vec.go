package bdd

import "slices"

// Vec is the bit-level circuit of an unsigned integer: one Node per bit,
// least significant first. Its length is its width.
type Vec []Node

// ConstVec returns val as a Vec of width bits (the low bits of val).
func (m *Manager) ConstVec(val uint64, width int) Vec {
	v := make(Vec, width)
	for b := range v {
		v[b] = m.Const(b < 64 && val>>b&1 == 1)
	}
	return v
}

// Resize truncates v to width bits or widens it with zeros.
func (m *Manager) Resize(v Vec, width int) Vec {
	r := make(Vec, width)
	for b := range r {
		if b < len(v) {
			r[b] = v[b]
		} else {
			r[b] = m.fls
		}
	}
	return r
}

// widen brings a and b to the wider of their widths.
func (m *Manager) widen(a, b Vec) (Vec, Vec) {
	w := max(len(a), len(b))
	return m.Resize(a, w), m.Resize(b, w)
}

// Add returns a + b modulo 2^w, w the wider width.
func (m *Manager) Add(a, b Vec) Vec {
	a, b = m.widen(a, b)
	r := make(Vec, len(a))
	c := m.fls
	for i := range a {
		r[i] = m.Xor(m.Xor(a[i], b[i]), c)
		c = m.Or(m.And(a[i], b[i]), m.And(c, m.Xor(a[i], b[i])))
	}
	return r
}

// Sub returns a - b modulo 2^w, w the wider width.
func (m *Manager) Sub(a, b Vec) Vec {
	a, b = m.widen(a, b)
	r := make(Vec, len(a))
	borrow := m.fls
	for i := range a {
		r[i] = m.Xor(m.Xor(a[i], b[i]), borrow)
		// borrow out: (!a & b) | (!(a ^ b) & borrow)
		borrow = m.Or(m.Diff(b[i], a[i]), m.Diff(borrow, m.Xor(a[i], b[i])))
	}
	return r
}

// Mul returns a * b modulo 2^w, w the wider width (shift and add).
func (m *Manager) Mul(a, b Vec) Vec {
	a, b = m.widen(a, b)
	if c, ok := m.constOf(b); ok {
		return m.mulConst(a, c)
	}
	if c, ok := m.constOf(a); ok {
		return m.mulConst(b, c)
	}
	w := len(a)
	acc := m.ConstVec(0, w)
	for i := 0; i < w; i++ {
		// partial product: (a << i) AND b[i]
		pp := make(Vec, w)
		for j := range pp {
			if j < i {
				pp[j] = m.fls
			} else {
				pp[j] = m.And(a[j-i], b[i])
			}
		}
		acc = m.Add(acc, pp)
	}
	return acc
}

// constOf returns the value of v when every bit of it is a constant.
func (m *Manager) constOf(v Vec) (uint64, bool) {
	if len(v) > 64 {
		return 0, false
	}
	var c uint64
	for i, b := range v {
		switch {
		case b.IsTrue():
			c |= 1 << uint(i)
		case !b.IsFalse():
			return 0, false
		}
	}
	return c, true
}

// mulConst returns a * c in a's width by the non-adjacent form of c: one
// addition or subtraction of a shifted copy of a per nonzero digit, at
// most half of the bits plus one, where the shift-and-add of Mul adds one
// per set bit (a * -3 in 32 bits: 2 terms instead of 31, seconds instead
// of minutes).
func (m *Manager) mulConst(a Vec, c uint64) Vec {
	w := len(a)
	if w < 64 {
		c &= 1<<uint(w) - 1
	}
	acc := m.ConstVec(0, w)
	for k := 0; c != 0 && k < w; k++ {
		if c&1 == 1 {
			if c&3 == 1 { // digit +1
				acc = m.Add(acc, m.ShlConst(a, uint64(k)))
				c--
			} else { // digit -1: c ends in ...11
				acc = m.Sub(acc, m.ShlConst(a, uint64(k)))
				c++
			}
		}
		c >>= 1
	}
	return acc
}

// IteVec returns the bitwise if-then-else, in the wider width.
func (m *Manager) IteVec(c Node, t, e Vec) Vec {
	t, e = m.widen(t, e)
	r := make(Vec, len(t))
	for i := range r {
		r[i] = m.Ite(c, t[i], e[i])
	}
	return r
}

// Eq returns a == b (after widening).
func (m *Manager) Eq(a, b Vec) Node {
	fs := m.BitEqs(a, b)
	slices.Reverse(fs) // ties in Conj: the most significant bit first
	return m.Conj(fs...)
}

// Ne returns a != b.
func (m *Manager) Ne(a, b Vec) Node { return m.Not(m.Eq(a, b)) }

// Lt returns a < b, unsigned.
func (m *Manager) Lt(a, b Vec) Node {
	a, b = m.widen(a, b)
	lt := m.fls
	// From the least significant bit up: a < b on bits 0..i iff
	// (!a_i & b_i) | (a_i == b_i & a < b on bits 0..i-1).
	for i := range a {
		lt = m.Or(m.Diff(b[i], a[i]), m.And(m.Equiv(a[i], b[i]), lt))
	}
	return lt
}

// Le returns a <= b, unsigned.
func (m *Manager) Le(a, b Vec) Node { return m.Not(m.Lt(b, a)) }

// Gt returns a > b, unsigned.
func (m *Manager) Gt(a, b Vec) Node { return m.Lt(b, a) }

// Ge returns a >= b, unsigned.
func (m *Manager) Ge(a, b Vec) Node { return m.Not(m.Lt(a, b)) }

// Assign returns dst == src with src truncated or widened to dst's width:
// the relation of an assignment.
func (m *Manager) Assign(dst, src Vec) Node { return m.Eq(dst, m.Resize(src, len(dst))) }

// The operations below serve the C reader's operators (frontend/doc.go,
// "Nodes only readers build"). Widths follow Add's rule unless a doc
// comment says otherwise; a width-0 vector is the empty value.

// SignExtend truncates v to width bits or widens it with copies of its
// most significant bit (v read as two's complement). It is wiring only:
// the result's nodes are v's. An empty v widens with zeros.
func (m *Manager) SignExtend(v Vec, width int) Vec {
	if len(v) == 0 || width <= len(v) {
		return m.Resize(v, width)
	}
	r := make(Vec, width)
	copy(r, v)
	for b := len(v); b < width; b++ {
		r[b] = v[len(v)-1]
	}
	return r
}

// NotVec returns the bitwise complement of v, in v's width.
func (m *Manager) NotVec(v Vec) Vec {
	r := make(Vec, len(v))
	for i, n := range v {
		r[i] = m.Not(n)
	}
	return r
}

// AndVec, OrVec and XorVec return the bitwise and, or and exclusive or
// of a and b, in the wider width.
func (m *Manager) AndVec(a, b Vec) Vec { return m.bitwise(a, b, m.and2) }

// OrVec returns the bitwise or of a and b (see AndVec).
func (m *Manager) OrVec(a, b Vec) Vec { return m.bitwise(a, b, m.or2) }

// XorVec returns the bitwise exclusive or of a and b (see AndVec).
func (m *Manager) XorVec(a, b Vec) Vec { return m.bitwise(a, b, m.Xor) }

func (m *Manager) and2(a, b Node) Node { return m.And(a, b) }
func (m *Manager) or2(a, b Node) Node  { return m.Or(a, b) }

func (m *Manager) bitwise(a, b Vec, op func(x, y Node) Node) Vec {
	a, b = m.widen(a, b)
	r := make(Vec, len(a))
	for i := range r {
		r[i] = op(a[i], b[i])
	}
	return r
}

// Neg returns -v modulo 2^w, w v's width.
func (m *Manager) Neg(v Vec) Vec { return m.Sub(m.ConstVec(0, len(v)), v) }

// ShlConst returns v shifted left by k bits, in v's width (0 when k >=
// width). It is wiring only.
func (m *Manager) ShlConst(v Vec, k uint64) Vec {
	r := make(Vec, len(v))
	for i := range r {
		if uint64(i) >= k {
			r[i] = v[uint64(i)-k]
		} else {
			r[i] = m.fls
		}
	}
	return r
}

// ShrConst returns v shifted right by k bits, in v's width: zeros come in,
// or copies of the most significant bit when arith (an arithmetic shift of
// a two's complement number). A shift by k >= width gives 0, or all sign
// bits when arith. It is wiring only.
func (m *Manager) ShrConst(v Vec, k uint64, arith bool) Vec {
	r := make(Vec, len(v))
	fill := m.fls
	if arith && len(v) > 0 {
		fill = v[len(v)-1]
	}
	for i := range r {
		if j := uint64(i) + k; j >= uint64(i) && j < uint64(len(v)) {
			r[i] = v[j]
		} else {
			r[i] = fill
		}
	}
	return r
}

// Shl returns a shifted left by the unsigned amount n, in a's width: 0
// when n >= width. A barrel shifter: one multiplexer stage per bit of n
// below log2(width), then one stage that clears the result when a higher
// bit of n is set.
func (m *Manager) Shl(a, n Vec) Vec {
	return m.shift(a, n, m.fls, func(v Vec, k uint64) Vec { return m.ShlConst(v, k) })
}

// Shr returns a shifted right by the unsigned amount n, in a's width:
// zeros come in, or copies of a's most significant bit when arith. A
// shift by n >= width gives 0, or all sign bits when arith.
func (m *Manager) Shr(a, n Vec, arith bool) Vec {
	fill := m.fls
	if arith && len(a) > 0 {
		fill = a[len(a)-1]
	}
	return m.shift(a, n, fill, func(v Vec, k uint64) Vec { return m.ShrConst(v, k, arith) })
}

func (m *Manager) shift(a, n Vec, fill Node, by func(Vec, uint64) Vec) Vec {
	r := a
	big := m.fls // some bit of n worth width or more is set
	for i, bit := range n {
		if i < 63 && uint64(1)<<i < uint64(len(a)) {
			r = m.IteVec(bit, by(r, uint64(1)<<i), r)
		} else {
			big = m.Or(big, bit)
		}
	}
	out := make(Vec, len(r))
	for i := range out {
		out[i] = m.Ite(big, fill, r[i])
	}
	return out
}

// DivMod returns the unsigned quotient and remainder of a by b, in the
// wider width (restoring division, one subtract-and-compare stage per
// bit). For b = 0 it returns q = 2^w - 1 and r = a, which the caller
// treats as an error.
func (m *Manager) DivMod(a, b Vec) (q, r Vec) {
	a, b = m.widen(a, b)
	w := len(a)
	q = make(Vec, w)
	rem := m.ConstVec(0, w+1) // the partial remainder, below 2b
	bw := m.Resize(b, w+1)
	for i := w - 1; i >= 0; i-- {
		// rem = 2*rem + a[i]
		rem = append(Vec{a[i]}, rem[:w]...)
		ge := m.Ge(rem, bw)
		q[i] = ge
		rem = m.IteVec(ge, m.Sub(rem, bw), rem)
	}
	return q, rem[:w]
}

// SDivMod returns the quotient and remainder of a by b read as two's
// complement numbers, in the wider width (the narrower sign-extended):
// the quotient truncated toward zero, the remainder with the sign of a.
// The most negative value divided by -1 wraps around (quotient the most
// negative value, remainder 0). For b = 0 the result is what DivMod gives
// on the magnitudes, which the caller treats as an error.
func (m *Manager) SDivMod(a, b Vec) (q, r Vec) {
	w := max(len(a), len(b))
	a, b = m.SignExtend(a, w), m.SignExtend(b, w)
	if w == 0 {
		return Vec{}, Vec{}
	}
	sa, sb := a[w-1], b[w-1]
	abs := func(v Vec, s Node) Vec { return m.IteVec(s, m.Neg(v), v) }
	q, r = m.DivMod(abs(a, sa), abs(b, sb))
	return abs(q, m.Xor(sa, sb)), abs(r, sa)
}

// flipSign returns v with its most significant bit negated: the unsigned
// order of the results is the signed order of the operands.
func (m *Manager) flipSign(v Vec) Vec {
	r := slices.Clone(v)
	if len(r) > 0 {
		r[len(r)-1] = m.Not(r[len(r)-1])
	}
	return r
}

// signed brings a and b to the wider width by sign extension and flips
// their sign bits.
func (m *Manager) signed(a, b Vec) (Vec, Vec) {
	w := max(len(a), len(b))
	return m.flipSign(m.SignExtend(a, w)), m.flipSign(m.SignExtend(b, w))
}

// SLt returns a < b, both read as two's complement numbers (the narrower
// sign-extended).
func (m *Manager) SLt(a, b Vec) Node { return m.Lt(m.signed(a, b)) }

// SLe returns a <= b, signed (see SLt).
func (m *Manager) SLe(a, b Vec) Node { return m.Le(m.signed(a, b)) }

// SGt returns a > b, signed (see SLt).
func (m *Manager) SGt(a, b Vec) Node { return m.Gt(m.signed(a, b)) }

// SGe returns a >= b, signed (see SLt).
func (m *Manager) SGe(a, b Vec) Node { return m.Ge(m.signed(a, b)) }
