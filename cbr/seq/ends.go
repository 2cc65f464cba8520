package seq

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
)

// confirmed holds, between the eager networks of 1, 2, ... rounds, the
// sequences of guesses that a complete smaller network confirmed (doc.go,
// "The guesses from the rounds before"): a relation over one copy of
// every original global per guessed round start, x?2 .. x?(known+1), in a
// manager of its own (the networks' managers are one per bound), made
// anew for each network that confirms.
type confirmed struct {
	m     *bdd.Manager
	vars  [][]bdd.Var // [global][r]: the start of round r+2
	known int         // the starts known: x?2 .. x?(known+1)
	seqs  bdd.Node    // the confirmed sequences of starts
}

// newConfirmed returns an empty relation over the starts of rounds 2 to
// known+1 of the globals of net (the network with thread slots), laid out
// as the eager network lays out the guesses (Net.packs).
func newConfirmed(net *pds.Network, known int, lim bdd.Limits) (*confirmed, error) {
	l := bdd.NewLayout()
	h := &confirmed{known: known}
	for _, g := range net.Globals {
		var vs []bdd.Var
		for r := 2; r <= known+1; r++ {
			name := fmt.Sprintf("%s?%d", g.Name, r)
			if g.Hidden || g.Type.Bits <= 2 {
				vs = append(vs, l.Packed(name, g.Type.Bits, 1))
			} else {
				vs = append(vs, l.Uint(name, g.Type.Bits, 1))
			}
			l.Group(vs[len(vs)-1], g.Group)
		}
		h.vars = append(h.vars, vs)
	}
	m, err := bdd.New(l, bdd.Config{Limits: lim})
	if err != nil {
		return nil, err
	}
	h.m, h.seqs = m, m.False()
	return h, nil
}

// confirm returns the sequences of starts that a complete post* result a
// of the eager network s of K rounds confirms: the guesses x?2 .. x?K and,
// as the start of round K+1, the values of the copy x@K, in the
// configurations of the last thread in round K with no error recorded and
// every guess confirmed (x@r = x?(r+1), r < K).
func confirm(ctx context.Context, s *Net, a *symauto.Auto, lim bdd.Limits) (*confirmed, error) {
	h, err := newConfirmed(s.Orig, s.Rounds, lim)
	if err != nil {
		return nil, err
	}
	var seqs bdd.Node
	var to map[bdd.Ref]bdd.Var
	err = s.Net.M.Run(ctx, lim, func() error {
		seqs, to = h.project(s, a)
		return s.Net.M.Err()
	})
	if err != nil {
		return nil, err
	}
	err = h.m.Run(ctx, lim, func() error {
		h.seqs = h.m.Translate(s.Net.M, seqs, func(r bdd.Ref, b int) (bdd.Ref, int) { return bdd.Ref{Var: to[r]}, b })
		return h.m.Err()
	})
	return h, err
}

// project computes confirm's relation in s's manager, and the variables
// here of the copies it mentions.
func (h *confirmed) project(s *Net, a *symauto.Auto) (bdd.Node, map[bdd.Ref]bdd.Var) {
	n := s.Net
	m := n.M
	last := s.Rounds - 1
	cond := m.And(s.thread.is(m, pds.GCur, uint64(s.Threads-1)), s.round.is(m, pds.GCur, uint64(last)), s.err.is(m, pds.GCur, 0))
	for r := 0; r < last; r++ {
		for i := range s.copies {
			cond = m.And(cond, m.Eq(n.GlobalVec(s.copies[i][r], pds.GCur), n.GlobalVec(s.guess[i][r+1], pds.GCur)))
		}
	}
	to := map[bdd.Ref]bdd.Var{} // the copies kept, and their variables here
	for i, cs := range s.copies {
		to[bdd.Ref{Var: cs[last].Var, Copy: pds.GCur}] = h.vars[i][last]
		for r := 1; r <= last; r++ {
			to[bdd.Ref{Var: s.guess[i][r].Var, Copy: pds.GCur}] = h.vars[i][r-1]
		}
	}
	var drop []bdd.Ref
	for _, g := range n.Globals {
		r := bdd.Ref{Var: g.Var, Copy: pds.GCur}
		if _, ok := to[r]; !ok {
			drop = append(drop, r)
		}
	}
	others := m.Set(drop...)
	seqs := m.False()
	for _, top := range a.Tops(nil) {
		seqs = m.Or(seqs, m.AndExists(top.Globals, cond, others))
	}
	drop = drop[:0]
	for _, r := range m.Support(seqs) {
		if _, ok := to[r]; !ok {
			drop = append(drop, r)
		}
	}
	return m.Exists(seqs, m.Set(drop...)), to
}

// guesses returns the constraint on the guesses of s, a network of more
// rounds than h.known: the sequence x?2 .. x?(known+1) is one that was
// confirmed; true when h is nil (nothing confirmed yet).
func (h *confirmed) guesses(s *Net) bdd.Node {
	m := s.Net.M
	if h == nil {
		return m.True()
	}
	if h.known >= s.Rounds {
		return m.True() // not a network of more rounds: nothing to restrict
	}
	to := map[bdd.Var]bdd.Var{}
	for i := range s.copies {
		for r := 1; r <= h.known; r++ {
			to[h.vars[i][r-1]] = s.guess[i][r].Var
		}
	}
	return m.Translate(h.m, h.seqs, func(r bdd.Ref, b int) (bdd.Ref, int) {
		return bdd.Ref{Var: to[r.Var], Copy: pds.GCur}, b
	})
}
