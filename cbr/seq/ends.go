package seq

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
)

// roundEnds returns the ends of the last round of a complete post* result
// a of the eager network of K rounds (doc.go, "The guesses from the
// rounds before"): the values of the globals' copy of round K in every
// configuration of the last thread in round K with no error recorded and
// every earlier round's guess confirmed (x@r = x?(r+1), r < K). It is a
// set of valuations of to's globals (the network with thread slots the
// sequential network was built from), current copy, in to's manager.
func (s *Net) roundEnds(a *symauto.Auto, to *pds.Network) bdd.Node {
	n := s.Net
	m := n.M
	last := s.Rounds - 1
	cond := m.And(s.thread.is(m, pds.GCur, uint64(s.Threads-1)), s.round.is(m, pds.GCur, uint64(last)), s.err.is(m, pds.GCur, 0))
	for r := 0; r < last; r++ {
		for i := range s.copies {
			cond = m.And(cond, m.Eq(n.GlobalVec(s.copies[i][r], pds.GCur), n.GlobalVec(s.guess[i][r+1], pds.GCur)))
		}
	}
	keep := map[bdd.Ref]bool{}
	back := map[bdd.Var]bdd.Var{}
	for i, cs := range s.copies {
		keep[bdd.Ref{Var: cs[last].Var, Copy: pds.GCur}] = true
		back[cs[last].Var] = to.Globals[i].Var
	}
	var drop []bdd.Ref
	for _, g := range n.Globals {
		if r := (bdd.Ref{Var: g.Var, Copy: pds.GCur}); !keep[r] {
			drop = append(drop, r)
		}
	}
	others := m.Set(drop...)
	ends := m.False()
	for _, top := range a.Tops(nil) {
		ends = m.Or(ends, m.AndExists(top.Globals, cond, others))
	}
	drop = drop[:0]
	for _, r := range m.Support(ends) {
		if !keep[r] {
			drop = append(drop, r)
		}
	}
	ends = m.Exists(ends, m.Set(drop...))
	return to.M.Translate(m, ends, func(r bdd.Ref, b int) (bdd.Ref, int) {
		return bdd.Ref{Var: back[r.Var], Copy: r.Copy}, b
	})
}

// guessesFrom returns the constraint on the guesses that the ends of the
// rounds before give (roundEnds of the networks of 1, 2, ... rounds, in
// the manager of the network with thread slots): x?(r+1) is one of the
// ends of round r, for every r with its ends known.
func (s *Net) guessesFrom(ends []bdd.Node) bdd.Node {
	n := s.Net
	m := n.M
	out := m.True()
	for r, e := range ends {
		if r+1 >= s.Rounds {
			break
		}
		to := map[bdd.Var]bdd.Var{}
		for i, g := range s.Orig.Globals {
			to[g.Var] = s.guess[i][r+1].Var
		}
		out = m.And(out, m.Translate(s.Orig.M, e, func(ref bdd.Ref, b int) (bdd.Ref, int) {
			return bdd.Ref{Var: to[ref.Var], Copy: ref.Copy}, b
		}))
	}
	return out
}
