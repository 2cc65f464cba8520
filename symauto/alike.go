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
	rest      bdd.VarSet    // every copy but Gs and Gt
}

func (sp *Space) alikeSets() *alikeVars {
	if sp.alikeV == nil {
		s := sp.S
		sp.alikeV = &alikeVars{
			curStart2: s.Renaming(pds.G(GCur, GStart2)),
			rest: sp.M.Union(s.G[GCur], s.G[GNext], s.G[GEntry], s.G[GLink],
				s.L[LCur], s.L[LNext], s.L[LSaved], s.L[LEntry], s.L[LLink], s.R),
		}
	}
	return sp.alikeV
}
