package seq

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// hiddenSteps returns the guesses' constraint of the eager form on the
// hidden globals of the thread slots (doc.go, "The guesses of the slot
// globals"): for every round r < K, the start of round r+1 is reachable
// from the start of round r in the abstraction of the network to its
// hidden globals, every rule's relation with everything else quantified
// away (round 1's start is the initial values). It mentions the guesses
// only, and is true when the network has no hidden globals.
func (s *Net) hiddenSteps() bdd.Node {
	net, n := s.Orig, s.Net
	m := n.M
	var hid []int // indices of the hidden globals
	for i, g := range net.Globals {
		if g.Hidden {
			hid = append(hid, i)
		}
	}
	if len(hid) == 0 || s.Rounds < 2 {
		return m.True()
	}
	ref := func(i, r, c int) bdd.Ref { return bdd.Ref{Var: s.copies[i][r].Var, Copy: c} }
	keep := map[bdd.Ref]bool{}
	var cur, next, mid []bdd.Ref
	for _, i := range hid {
		keep[ref(i, 0, pds.GCur)], keep[ref(i, 0, pds.GNext)] = true, true
		cur, next, mid = append(cur, ref(i, 0, pds.GCur)), append(next, ref(i, 0, pds.GNext)), append(mid, ref(i, 0, pds.GScratch))
	}
	// project moves an original relation onto round 1's copies and keeps
	// only the hidden globals, current and next.
	project := func(rel bdd.Node) bdd.Node {
		x := m.Translate(net.M, rel, s.mapping(net, n, 0))
		var drop []bdd.Ref
		for _, r := range m.Support(x) {
			if !keep[r] {
				drop = append(drop, r)
			}
		}
		return m.Exists(x, m.Set(drop...))
	}
	step := m.False()
	for _, r := range net.Rules {
		step = m.Or(step, project(r.Rel))
	}
	for _, l := range net.Labels {
		if l.Recv != nil {
			step = m.Or(step, project(*l.Recv))
		}
	}
	// The reflexive and transitive closure, by squaring: cur -> mid, mid -> next.
	id := m.True()
	for k := range cur {
		id = m.And(id, m.Eq(m.Vec(cur[k]), m.Vec(next[k])))
	}
	nextToMid, curToMid := m.Renaming(next, mid), m.Renaming(cur, mid)
	midSet := m.Set(mid...)
	star := m.Or(id, step)
	for m.Err() == nil {
		more := m.Or(star, m.AndExists(m.Rename(star, nextToMid), m.Rename(star, curToMid), midSet))
		if more.Equal(star) {
			break
		}
		star = more
	}
	// Round r+1's guess is reachable from round r's start: from the
	// initial values for r = 1, from the guess x?r after.
	out := m.True()
	for r := 0; r+1 < s.Rounds; r++ {
		var from, to []bdd.Ref
		for k, i := range hid {
			if r > 0 {
				from, to = append(from, cur[k]), append(to, bdd.Ref{Var: s.guess[i][r].Var, Copy: pds.GCur})
			}
			from, to = append(from, next[k]), append(to, bdd.Ref{Var: s.guess[i][r+1].Var, Copy: pds.GCur})
		}
		x := star
		if r == 0 {
			x = m.AndExists(m.Exists(project(net.InitRel(pds.GCur)), m.Set(next...)), star, m.Set(cur...))
		}
		out = m.And(out, m.Rename(x, m.Renaming(from, to)))
	}
	return out
}
