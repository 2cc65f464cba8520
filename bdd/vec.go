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
