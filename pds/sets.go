package pds

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cbreach/cbreach/bdd"
)

// Sets holds the quantification sets of every copy of the network's
// blocks and a cache of renamings between copies: layout helpers for
// whoever builds relations over the network (the front end, the
// analysis). They give the copies no meaning.
type Sets struct {
	n    *Network
	G    [GlobalCopies]bdd.VarSet
	L    [LocalCopies]bdd.VarSet
	R    bdd.VarSet
	ren  map[string]*bdd.Renaming
	keep map[string]bdd.Node
}

func newSets(n *Network) *Sets {
	s := &Sets{n: n, ren: map[string]*bdd.Renaming{}, keep: map[string]bdd.Node{}}
	for c := range s.G {
		s.G[c] = n.M.Set(n.GlobalRefs(c)...)
	}
	for c := range s.L {
		s.L[c] = n.M.Set(n.LocalRefs(c)...)
	}
	s.R = n.M.Set(bdd.Ref{Var: n.RetVar})
	return s
}

// Sets returns the network's quantification sets and renamings.
func (n *Network) Sets() *Sets { return n.sets }

// GlobalRefs returns copy c of every global, hidden ones included.
func (n *Network) GlobalRefs(c int) []bdd.Ref {
	rs := make([]bdd.Ref, len(n.Globals))
	for i, g := range n.Globals {
		rs[i] = bdd.Ref{Var: g.Var, Copy: c}
	}
	return rs
}

// LocalRefs returns copy c of the local block.
func (n *Network) LocalRefs(c int) []bdd.Ref { return bdd.Refs(c, n.LocalBits...) }

// Move renames one block copy to another: 'G' globals, 'L' locals.
type Move struct {
	Block    byte
	From, To int
}

// G returns the move of the globals from copy a to copy b.
func G(a, b int) Move { return Move{'G', a, b} }

// L returns the move of the local block from copy a to copy b.
func L(a, b int) Move { return Move{'L', a, b} }

// Renaming returns the renaming that applies all moves at once (cached).
func (s *Sets) Renaming(moves ...Move) *bdd.Renaming {
	var key strings.Builder
	for _, mv := range moves {
		fmt.Fprintf(&key, "%c%d%d", mv.Block, mv.From, mv.To)
	}
	if r, ok := s.ren[key.String()]; ok {
		return r
	}
	var from, to []bdd.Ref
	for _, mv := range moves {
		switch mv.Block {
		case 'G':
			from = append(from, s.n.GlobalRefs(mv.From)...)
			to = append(to, s.n.GlobalRefs(mv.To)...)
		case 'L':
			from = append(from, s.n.LocalRefs(mv.From)...)
			to = append(to, s.n.LocalRefs(mv.To)...)
		default:
			panic("pds: bad block in move")
		}
	}
	r := s.n.M.Renaming(from, to)
	s.ren[key.String()] = r
	return r
}

// Rename applies the moves to a.
func (s *Sets) Rename(a bdd.Node, moves ...Move) bdd.Node {
	return s.n.M.Rename(a, s.Renaming(moves...))
}

// GlobalsEq returns copy a == copy b for every global (cached).
func (s *Sets) GlobalsEq(a, b int) bdd.Node {
	return s.copyEq(fmt.Sprintf("G%d%d", a, b), a, b, s.n.GlobalVars())
}

// LocalsEq returns copy a == copy b for the whole local block (cached).
func (s *Sets) LocalsEq(a, b int) bdd.Node {
	return s.copyEq(fmt.Sprintf("L%d%d", a, b), a, b, s.n.LocalBits)
}

func (s *Sets) copyEq(key string, a, b int, vars []bdd.Var) bdd.Node {
	if r, ok := s.keep[key]; ok {
		return r
	}
	r := s.n.M.CopyEq(a, b, vars...)
	if s.n.M.Err() == nil { // never remember the False of a failed manager
		s.keep[key] = r
	}
	return r
}

// Unchanged returns G' == G for every global except the given ones: the
// frame condition of a rule that writes only those (cached by the set of
// exceptions: many rules write the same globals, or none).
func (n *Network) Unchanged(except ...*Global) bdd.Node {
	skip := make([]bool, len(n.Globals))
	for _, g := range except {
		skip[g.Index] = true
	}
	var key strings.Builder
	key.WriteString("U")
	var vs []bdd.Var
	for i, g := range n.Globals {
		if skip[i] {
			fmt.Fprintf(&key, " %d", i)
		} else {
			vs = append(vs, g.Var)
		}
	}
	return n.sets.copyEq(key.String(), GCur, GNext, vs)
}

// LocalsUnchanged returns L' == L for every local of p except the given
// ones (copy to of the locals equals copy LCur).
func (n *Network) LocalsUnchanged(p *Proc, to int, except ...*Local) bdd.Node {
	return n.eachLocal(p, except, func(l *Local) []bdd.Node { return n.M.BitEqs(n.LocalVec(l, to), n.LocalVec(l, LCur)) })
}

// LocalsZero returns "every local of p is zero in copy c, except the given
// ones" (fresh locals at a call).
func (n *Network) LocalsZero(p *Proc, c int, except ...*Local) bdd.Node {
	return n.eachLocal(p, except, func(l *Local) []bdd.Node {
		return n.M.BitEqs(n.LocalVec(l, c), n.M.ConstVec(0, l.Type.Bits))
	})
}

// eachLocal returns the conjunction of f's bits over the locals of p but
// except, in one bdd.Manager.Conj: conjoined local after local, the
// locals' bits, which interleave in the order, made it quadratic.
func (n *Network) eachLocal(p *Proc, except []*Local, f func(*Local) []bdd.Node) bdd.Node {
	var fs []bdd.Node
	for _, l := range p.Locals {
		if !slices.Contains(except, l) {
			fs = append(fs, f(l)...)
		}
	}
	return n.M.Conj(fs...)
}

// InitRel returns the initial valuations of the globals, copy c: the
// relation of InitGlobals when there is one, and the Init value of every
// global it does not cover (InitOf). The fixed values are one cube
// (bdd.Manager.Values): conjoined global after global, thousands of
// globals took minutes.
func (n *Network) InitRel(c int) bdd.Node {
	r := n.M.True()
	if n.InitGlobals != nil {
		r = n.InitGlobals.Rel
		if c != GCur {
			r = n.sets.Rename(r, G(GCur, c))
		}
	}
	var refs []bdd.Ref
	var vals []uint64
	for _, g := range n.Globals {
		ref := bdd.Ref{Var: g.Var, Copy: c}
		if init := n.InitOf(g); init.Any {
			r = n.M.And(r, n.validType(n.M.Vec(ref), g.Type))
		} else {
			refs, vals = append(refs, ref), append(vals, init.Value)
		}
	}
	return n.M.And(r, n.M.Values(refs, vals))
}

// FrameRel returns the valuation of a frame's locals in copy c.
func (n *Network) FrameRel(f Frame, c int) bdd.Node {
	p := f.Label.Proc
	r := n.padding(p, c)
	var fs []bdd.Node
	for i, l := range p.Locals {
		v := n.LocalVec(l, c)
		if f.Locals[i].Any {
			r = n.M.And(r, n.validType(v, l.Type))
		} else {
			fs = append(fs, n.M.BitEqs(v, n.M.ConstVec(f.Locals[i].Value, l.Type.Bits))...)
		}
	}
	return n.M.And(r, n.M.Conj(fs...))
}

// validType restricts a Vec of type t to its valid values (enums).
func (n *Network) validType(v bdd.Vec, t Type) bdd.Node {
	if t.Kind != Enum || len(t.Values) == 1<<t.Bits {
		return n.M.True()
	}
	return n.M.Lt(v, n.M.ConstVec(uint64(len(t.Values)), t.Bits))
}

// ValidType restricts a Vec of type t to its valid values: true except for
// an enum whose encoding has unused codes.
func (n *Network) ValidType(v bdd.Vec, t Type) bdd.Node { return n.validType(v, t) }
