package bdd

import "fmt"

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
	values int // number of valid values of an enum; 0 for bool and uint
	base   int // first BDD variable of the interleaved bits
}

// Layout declares every variable before the manager exists. The zero value
// is not usable; call [NewLayout].
type Layout struct {
	vars   []varDef
	nbits  int
	frozen bool
}

// NewLayout returns an empty layout.
func NewLayout() *Layout { return &Layout{} }

// Bool declares a one-bit variable with the given number of copies.
func (l *Layout) Bool(name string, copies int) Var { return l.add(name, 1, copies, 0) }

// Uint declares an unsigned variable of bits bits (1 to 64).
func (l *Layout) Uint(name string, bits, copies int) Var { return l.add(name, bits, copies, 0) }

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
	l.vars = append(l.vars, varDef{name: name, bits: bits, copies: copies, values: values, base: l.nbits})
	l.nbits += bits * copies
	return Var(len(l.vars) - 1)
}

// NumVars returns the number of declared variables.
func (l *Layout) NumVars() int { return len(l.vars) }

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
	return d.base + b*d.copies + c
}

// locate is the inverse of index.
func (l *Layout) locate(i int) (v Var, c, b int) {
	lo, hi := 0, len(l.vars)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if l.vars[mid].base <= i {
			lo = mid
		} else {
			hi = mid
		}
	}
	d := &l.vars[lo]
	off := i - d.base
	return Var(lo), off % d.copies, off / d.copies
}

// Refs returns copy c of each variable in vars, a convenience for blocks.
func Refs(c int, vars ...Var) []Ref {
	rs := make([]Ref, len(vars))
	for i, v := range vars {
		rs[i] = Ref{v, c}
	}
	return rs
}
