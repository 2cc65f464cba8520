package symauto

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Alike returns the pairs of global valuations (gs, gt), over the start
// copies Gs and Gt, at which the automaton accepts the same stacks, by a
// sufficient test: every transition leaving p has the same label at G =
// gs as at G = gt, as a relation over everything else (top locals, entry
// values). Only transitions leaving p mention the current globals (the
// labels of mid-states read entry and callee values), so two globals with
// equal labels there have the same accepted words; the converse may fail
// (two different entry values can lead to the same stacks), which only
// makes the relation smaller. It is an equivalence relation on global
// valuations, computed once per automaton (the automaton must be
// untagged: Gs is the copy it is renamed to).
//
// Lazy splitting separates two start globals only where some view of
// another thread tells them apart (package split, "Classes").
func (a *Auto) Alike() bdd.Node {
	if a.alikeOK {
		return a.alike
	}
	sp, m := a.sp, a.sp.M
	w := sp.alikeSets()
	r := m.True()
	for _, t := range a.Transitions() { // in order: the same BDD operations in every run
		if t.From != Initial {
			continue
		}
		l := a.labels[t]
		ls, lt := m.Rename(l, sp.renCurStart), m.Rename(l, w.curStart2)
		r = m.Diff(r, m.Exists(m.Xor(ls, lt), w.rest))
		if r.IsFalse() {
			break
		}
	}
	a.alike, a.alikeOK = r, true
	return r
}

// alikeVars are the sets Alike needs, built by its first call.
type alikeVars struct {
	curStart2 *bdd.Renaming // G->Gt
	start2Cur *bdd.Renaming // Gt->G
	rest      bdd.VarSet    // every copy but Gs and Gt
}

func (sp *Space) alikeSets() *alikeVars {
	if sp.alikeV == nil {
		s := sp.S
		sp.alikeV = &alikeVars{
			curStart2: s.Renaming(pds.G(GCur, GStart2)),
			start2Cur: s.Renaming(pds.G(GStart2, GCur)),
			rest: sp.M.Union(s.G[GCur], s.G[GNext], s.G[GEntry], s.G[GLink],
				s.L[LCur], s.L[LNext], s.L[LSaved], s.L[LEntry], s.L[LLink], s.R),
		}
	}
	return sp.alikeV
}

// TellApart returns c AND NOT Alike: the pairs (gs, gt) of c, over Gs and
// Gt, at which some transition leaving p has different labels. It works
// label by label within c (each label's pairs, EXISTS rest. label[G:=Gs]
// XOR label[G:=Gt], conjoined with what is left of c and quantified in
// one relational product), so Alike itself, a relation over two copies
// of every global that can be far larger than c, is never built; nothing
// is cached (c changes from call to call).
func (a *Auto) TellApart(c bdd.Node) bdd.Node {
	sp, m := a.sp, a.sp.M
	w := sp.alikeSets()
	out := m.False()
	for _, t := range a.Transitions() { // in order: the same BDD operations in every run
		if c.IsFalse() {
			break
		}
		if t.From != Initial {
			continue
		}
		l := a.labels[t]
		ls, lt := m.Rename(l, sp.renCurStart), m.Rename(l, w.curStart2)
		d := m.AndExists(c, m.Xor(ls, lt), w.rest)
		out = m.Or(out, d)
		c = m.Diff(c, d)
	}
	return out
}

// AlikeTo returns the global valuations gs (over Gs) alike to y, one
// global valuation over Gt: EXISTS Gt. Alike AND y, computed over one
// copy of the globals: each label leaving p at G = y is a relation over
// the rest, compared with the label at every G.
func (a *Auto) AlikeTo(y bdd.Node) bdd.Node {
	sp, m := a.sp, a.sp.M
	w := sp.alikeSets()
	cur := sp.S.G[GCur]
	yc := m.Rename(y, w.start2Cur)
	r := m.True()
	for _, t := range a.Transitions() {
		if t.From != Initial {
			continue
		}
		l := a.labels[t]
		at := m.AndExists(l, yc, cur) // the label at G = y
		r = m.Diff(r, m.Exists(m.Xor(m.Rename(l, sp.renCurStart), at), w.rest))
		if r.IsFalse() {
			break
		}
	}
	return r
}
