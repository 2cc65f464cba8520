package symauto

import "github.com/cbreach/cbreach/bdd"

// Within returns the globals (over G, and Gs when both are tagged) at
// which every configuration a accepts is also accepted by b: a sufficient
// test of language inclusion, by the greatest simulation between the
// states of a and those of b.
//
// A state's language depends on its parameter: the current globals for p,
// the callee's entry values (Gl, Ll) for a mid-state. Sim(qa, qb) is the
// set of parameters x at which qa is simulated by qb: every transition
// qa -γ-> qa' with locals l and entry values e (Ge, Le) at x, whose
// target accepts something at e, is matched by a transition qb -γ-> qb'
// with the same l and e at x and Sim(qa', qb') at e. Only s accepts the
// empty stack, so s is simulated by s alone. The hidden entry values are
// matched exactly; two views that reach the same stack with different
// entry values are not related, which only makes the test more
// conservative. Mid-states are paired only when they are named by the
// same pushed label: summaries of different labels are never related.
//
// The result is exact when b is a and never claims inclusion where there
// is none: configurations of a at the globals returned are configurations
// of b (the subsumption test of package cbr relies on it).
func (a *Auto) Within(b *Auto) bdd.Node {
	sp, m := a.sp, a.sp.M
	accA := a.acceptance()
	type pair struct{ qa, qb State }
	type edge struct {
		label bdd.Node
		to    State
	}
	// Outgoing transitions of b's states by label, for matching.
	outB := map[State]map[int][]edge{}
	for _, t := range b.Transitions() {
		if t.Label == nil {
			continue
		}
		if outB[t.From] == nil {
			outB[t.From] = map[int][]edge{}
		}
		outB[t.From][t.Label.ID] = append(outB[t.From][t.Label.ID], edge{b.labels[t], t.To})
	}
	// accIn(q) is what q accepts, over the entry copies a transition into
	// q names: true for s.
	accIn := map[State]bdd.Node{}
	liveA := func(q State) (bdd.Node, bool) {
		if q == Final {
			return m.True(), true
		}
		if x, ok := accIn[q]; ok {
			return x, !x.IsFalse()
		}
		x, ok := accA[q]
		if !ok || x.IsFalse() {
			accIn[q] = m.False()
			return m.False(), false
		}
		x = m.Rename(x, sp.renLinkIn)
		accIn[q] = x
		return x, true
	}
	type move struct {
		label bdd.Node // a's label AND what its target accepts
		gamma int
		to    State
	}
	outA := map[State][]move{}
	for _, t := range a.Transitions() {
		if t.Label == nil {
			continue
		}
		in, ok := liveA(t.To)
		if !ok {
			continue
		}
		outA[t.From] = append(outA[t.From], move{m.And(a.labels[t], in), t.Label.ID, t.To})
	}
	// The pairs of mid-states, in a fixed order, all related at first.
	sim := map[pair]bdd.Node{}
	var pairs []pair
	for qa := State(2); int(qa) < len(a.names); qa++ {
		if _, ok := liveA(qa); !ok {
			continue
		}
		for qb := State(2); int(qb) < len(b.names); qb++ {
			if a.names[qa].Label == b.names[qb].Label {
				p := pair{qa, qb}
				sim[p] = m.True()
				pairs = append(pairs, p)
			}
		}
	}
	// simIn is Sim(qa', qb') over the entry copies.
	simIn := map[pair]bdd.Node{}
	in := func(qa, qb State) bdd.Node {
		if qa == Final || qb == Final {
			if qa == qb {
				return m.True()
			}
			return m.False()
		}
		p := pair{qa, qb}
		if x, ok := simIn[p]; ok {
			return x
		}
		x, ok := sim[p]
		if !ok {
			x = m.False()
		} else if !x.IsFalse() && !x.IsTrue() {
			x = m.Rename(x, sp.renLinkIn)
		}
		simIn[p] = x
		return x
	}
	// unmatched returns the parameters of qa at which some move of qa has
	// no matching move of qb.
	unmatched := func(qa, qb State) bdd.Node {
		bad := m.False()
		for _, mv := range outA[qa] {
			match := m.False()
			for _, e := range outB[qb][mv.gamma] {
				match = m.Or(match, m.And(e.label, in(mv.to, e.to)))
			}
			bad = m.Or(bad, m.Exists(m.Diff(mv.label, match), sp.lEntry))
		}
		return bad
	}
	for changed := true; changed; {
		changed = false
		for _, p := range pairs {
			old := sim[p]
			if old.IsFalse() {
				continue
			}
			nw := m.Diff(old, unmatched(p.qa, p.qb))
			if !nw.Equal(old) {
				sim[p] = nw
				delete(simIn, p)
				changed = true
			}
		}
	}
	r := m.Not(m.Diff(a.Finished(), b.Finished()))
	return m.Diff(r, unmatched(Initial, Initial))
}
