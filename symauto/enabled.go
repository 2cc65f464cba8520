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

// RestrictMoving returns the automaton restricted to the configurations
// in which the thread can move (moving), or to those in which it cannot:
// the label of every transition p -γ-> q ANDed with Enabled(γ), or with
// its complement (a difference: no negation is built), and the transition
// p -ε-> s of the finished thread kept only among those that cannot move.
func (a *Auto) RestrictMoving(moving bool) *Auto {
	m := a.sp.M
	b := a.clone()
	for _, t := range a.Transitions() { // sorted: the same operations in every run
		l := a.labels[t]
		switch {
		case t.From != Initial:
		case t.Label != nil && moving:
			b.set(t, m.And(l, a.sp.Enabled(t.Label)))
		case t.Label != nil:
			b.set(t, m.Diff(l, a.sp.Enabled(t.Label)))
		case t.To == Final && moving:
			b.set(t, m.False())
		}
	}
	return b.Trim().sane("RestrictMoving")
}

// CanMove reports whether some configuration of the automaton has a rule
// enabled (Enabled on the label on top, at its globals and top locals):
// when not, post* adds nothing and the driver need not saturate. It costs
// one conjunction per transition leaving p, stopping at the first that
// meets a rule.
func (a *Auto) CanMove() bool {
	m := a.sp.M
	for _, t := range a.Transitions() {
		if t.From == Initial && t.Label != nil && !m.And(a.labels[t], a.sp.Enabled(t.Label)).IsFalse() {
			return true
		}
	}
	return false
}
