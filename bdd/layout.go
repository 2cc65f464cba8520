package bdd

import (
	"cmp"
	"fmt"
	"slices"
)

// Var names a finite-domain variable of a [Layout]. Its value is an index
// into the layout, in declaration order.
type Var int

// Ref is one copy of a variable: Copy 0 is by convention the current value,
// the others are what the layout's user says they are (after a rule, at
// frame entry, ...).
type Ref struct {
	Var  Var
	Copy int
}

type varDef struct {
	name   string
	bits   int
	copies int
	values int   // number of valid values of an enum; 0 for bool and uint
	sig    int   // significance of bit 0: bit b sorts with the bits b+sig of other variables
	packed bool  // every bit sorts with the bits of significance sig (Packed)
	group  int   // the order group (Group): groups come one after the other
	pos    []int // per bit, the BDD variable of copy 0 (copies follow); set when frozen
}

// Layout declares every variable before the manager exists. The zero value
// is not usable; call [NewLayout].
//
// The BDD variable order is fixed when the manager is created: bits are
// ordered by group ([Layout.Group], 0 unless said otherwise), then by
// significance (least significant first) and, among bits of equal
// significance, by declaration order; the copies of one bit are adjacent.
// Equal bits of the variables of one group are thus close, so that
// relations between them (x == y, x' = y + 1, x < y) stay linear in the
// width, and so are the copies of a variable (renamings, frame
// conditions). Groups come one after the other: k variables in k groups
// incremented in one relation cost the sum of k increments, where k
// variables of one group keep k carries open at every bit (a width of
// 2^k). With every variable in group 0, the order is by significance
// across all variables.
type Layout struct {
	vars   []varDef
	nbits  int
	frozen bool
	owner  []Ref // BDD variable -> variable copy; set when frozen
	bitOf  []int // BDD variable -> bit
}

// NewLayout returns an empty layout.
func NewLayout() *Layout { return &Layout{} }

// Bool declares a one-bit variable with the given number of copies.
func (l *Layout) Bool(name string, copies int) Var { return l.add(name, 1, copies, 0) }

// BoolAt declares a one-bit variable ordered with the bits of significance
// sig of the other variables of its group: for a bit that stands for bit
// sig of some value (a bit of a local block slot).
func (l *Layout) BoolAt(name string, copies, sig int) Var {
	v := l.add(name, 1, copies, 0)
	l.vars[v].sig = sig
	return v
}

// Group puts v into order group g (0 when never said): the bits of the
// groups come one after the other in the BDD order, ascending, each group
// ordered within by significance (see Layout). Variables that relations
// compare or combine bit by bit belong to one group; variables in
// different groups are related only as wholes (a guard on one, an
// assignment to another). It panics once the manager exists.
func (l *Layout) Group(v Var, g int) {
	if l.frozen {
		panic("bdd: group of " + l.vars[v].name + " set after the manager was created")
	}
	l.vars[v].group = g
}

// GroupOf returns the order group of v.
func (l *Layout) GroupOf(v Var) int { return l.vars[v].group }

// Uint declares an unsigned variable of bits bits (1 to 64).
func (l *Layout) Uint(name string, bits, copies int) Var { return l.add(name, bits, copies, 0) }

// Packed declares an unsigned variable of bits bits (1 to 64) whose bits
// are side by side in the BDD order, least significant first, among the
// bits of significance 0 of the other variables of its group (in declaration order),
// instead of spread over the significances. For a variable that no
// relation compares bit by bit with another (only with its own copies):
// the bits of a value that is read as a whole (an enum, a code) are then
// not kept apart by the bits of every other variable.
func (l *Layout) Packed(name string, bits, copies int) Var {
	v := l.add(name, bits, copies, 0)
	l.vars[v].packed = true
	return v
}

// Enum declares a variable with values 0..values-1, encoded in
// ceil(log2(values)) bits (at least one). Its encoding may hold invalid
// values; [Manager.ValidEnum] restricts to the valid ones.
func (l *Layout) Enum(name string, values, copies int) Var {
	if values < 1 {
		panic(fmt.Sprintf("bdd: enum %s with %d values", name, values))
	}
	return l.add(name, BitsFor(values), copies, values)
}

// BitsFor returns the number of bits needed to encode n distinct values
// (at least one).
func BitsFor(n int) int {
	b := 1
	for (1 << b) < n {
		b++
	}
	return b
}

func (l *Layout) add(name string, bits, copies, values int) Var {
	if l.frozen {
		panic("bdd: variable " + name + " declared after the manager was created")
	}
	if bits < 1 || bits > 64 || copies < 1 {
		panic(fmt.Sprintf("bdd: variable %s with %d bits and %d copies", name, bits, copies))
	}
	l.vars = append(l.vars, varDef{name: name, bits: bits, copies: copies, values: values})
	l.nbits += bits * copies
	return Var(len(l.vars) - 1)
}

// freeze fixes the BDD variable order (see Layout).
func (l *Layout) freeze() {
	if l.frozen {
		return
	}
	l.frozen = true
	type bit struct{ group, key, v, b int }
	var bits []bit
	for v := range l.vars {
		d := &l.vars[v]
		d.pos = make([]int, d.bits)
		for b := 0; b < d.bits; b++ {
			key := d.sig + b
			if d.packed {
				key = d.sig
			}
			bits = append(bits, bit{d.group, key, v, b})
		}
	}
	slices.SortStableFunc(bits, func(x, y bit) int {
		return cmp.Or(cmp.Compare(x.group, y.group), cmp.Compare(x.key, y.key))
	})
	l.owner = make([]Ref, l.nbits)
	l.bitOf = make([]int, l.nbits)
	i := 0
	for _, x := range bits {
		d := &l.vars[x.v]
		d.pos[x.b] = i
		for c := 0; c < d.copies; c++ {
			l.owner[i] = Ref{Var(x.v), c}
			l.bitOf[i] = x.b
			i++
		}
	}
}

// NumVars returns the number of declared variables.
func (l *Layout) NumVars() int { return len(l.vars) }

// MaxVars is the most BDD variables (bits of all copies of all variables)
// a manager can have: the kernel encodes a level in 21 bits. New fails for
// a layout with more.
const MaxVars = 1<<21 - 1

// NumBits returns the number of BDD variables the layout needs.
func (l *Layout) NumBits() int { return l.nbits }

// Name returns the declared name of v.
func (l *Layout) Name(v Var) string { return l.vars[v].name }

// Bits returns the width of v.
func (l *Layout) Bits(v Var) int { return l.vars[v].bits }

// Copies returns the number of copies of v.
func (l *Layout) Copies(v Var) int { return l.vars[v].copies }

// EnumValues returns the number of values of an enum variable, 0 for others.
func (l *Layout) EnumValues(v Var) int { return l.vars[v].values }

// index returns the BDD variable of bit b of copy c of v.
func (l *Layout) index(v Var, c, b int) int {
	d := &l.vars[v]
	if c < 0 || c >= d.copies || b < 0 || b >= d.bits {
		panic(fmt.Sprintf("bdd: %s has no copy %d bit %d", d.name, c, b))
	}
	return d.pos[b] + c
}

// locate is the inverse of index.
func (l *Layout) locate(i int) (v Var, c, b int) {
	r := l.owner[i]
	return r.Var, r.Copy, l.bitOf[i]
}

// Refs returns copy c of each variable in vars, a convenience for blocks.
func Refs(c int, vars ...Var) []Ref {
	rs := make([]Ref, len(vars))
	for i, v := range vars {
		rs[i] = Ref{v, c}
	}
	return rs
}
