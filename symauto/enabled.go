package symauto

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Enabled returns the current globals and top locals (G, L) at which a
// thread with l on top of its stack can move: EXISTS outputs. OR of the
// relations of the rules from l (false for a label without rules: an
// error, cutoff or final label). A pop counts when its relation has a
// solution, whatever the receive relation of the frame below does with
// the value (as pds/explicit.Enabled). The result is cached per label.
func (sp *Space) Enabled(l *pds.Label) bdd.Node {
	if sp.enabled == nil {
		sp.enabled = map[*pds.Label]bdd.Node{}
		m, s := sp.M, sp.S
		var outs []bdd.VarSet
		for c := range s.G {
			if c != GCur {
				outs = append(outs, s.G[c])
			}
		}
		for c := range s.L {
			if c != LCur {
				outs = append(outs, s.L[c])
			}
		}
		sp.outputs = m.Union(append(outs, s.R)...)
	}
	if e, ok := sp.enabled[l]; ok {
		return e
	}
	m := sp.M
	e := m.False()
	for _, r := range sp.Net.RulesFrom(l) {
		e = m.Or(e, m.Exists(r.Rel, sp.outputs))
	}
	sp.enabled[l] = e
	return e
}

// RestrictTops returns the automaton with the label of every transition
// p -γ-> q ANDed with top(γ) (over G and L, the top frame's current
// values), and the transition p -ε-> s of the finished thread kept only
// when finished is true. With top = Space.Enabled, it keeps the
// configurations in which the thread can move; with its complement
// (finished true), those in which it cannot.
func (a *Auto) RestrictTops(top func(*pds.Label) bdd.Node, finished bool) *Auto {
	m := a.sp.M
	b := a.clone()
	for t, l := range a.labels {
		switch {
		case t.From != Initial:
		case t.Label != nil:
			b.set(t, m.And(l, top(t.Label)))
		case t.To == Final && !finished:
			b.set(t, m.False())
		}
	}
	return b.Trim().sane("RestrictTops")
}
