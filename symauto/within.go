package symauto

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Within returns the globals (over G) at which every configuration a
// accepts is also accepted by b: a sufficient test of language inclusion,
// by the greatest simulation between the states of a and those of b. Both
// automata must be untagged (no start globals), as the views of a tuple
// are.
//
// A state's language depends on its parameter: the current globals for p,
// the callee's entry values (Gl, Ll) for a mid-state. The entry values
// are hidden: they only tie a frame to the frame below, and two views can
// hold the same stack with different entry values (the call was made under
// different globals on two paths). So Sim(qa, qb) relates a parameter x of
// qa to a parameter x' of qb: every transition qa -γ-> qa' with locals l
// and entry values e at x, whose target accepts something at e, is matched
// by a transition qb -γ-> qb' with the same l and some entry values e' at
// x', with Sim(qa', qb') holding for (e, e'). Only s accepts the empty
// stack, so s is simulated by s alone. Mid-states are paired only when
// they are named by the same pushed label, which keeps the relation small.
//
// b's copies are renamed for the relation: its link copies to the next
// copies (GNext, LNext), its entry copies to (GStart, LSaved), copies no
// untagged label uses.
//
// The result never claims inclusion where there is none: configurations
// of a at the globals returned are configurations of b (the subsumption
// test of package cbr relies on it). It is all globals when b is a.
func (a *Auto) Within(b *Auto) bdd.Node {
	sp, m := a.sp, a.sp.M
	w := sp.within()
	type pair struct{ qa, qb State }
	da, db := a.simData(), b.simData()
	outA, outB := da.moves, db.edges
	live := func(q State) bool { return da.live[q] }
	// The pairs of mid-states, in a fixed order, all related at first.
	sim := map[pair]bdd.Node{}
	var pairs []pair
	for qa := State(2); int(qa) < len(a.names); qa++ {
		if !live(qa) {
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
	// in is Sim(qa', qb') over (e, e').
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
			x = m.Rename(x, w.in)
		}
		simIn[p] = x
		return x
	}
	// unmatched returns the parameters (x, x') at which some move of qa
	// has no matching move of qb.
	unmatched := func(qa, qb State) bdd.Node {
		bad := m.False()
		for _, mv := range outA[qa] {
			match := m.False()
			for _, e := range outB[qb][mv.gamma] {
				match = m.Or(match, m.AndExists(e.label, in(mv.to, e.to), w.entry2))
			}
			bad = m.Or(bad, m.DiffExists(mv.label, match, sp.lEntry))
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

// simData is what Within needs of an automaton, whichever side it is on,
// computed once per automaton: as a, its moves (labels conjoined with
// what their targets accept, over the entry copies) and its live
// mid-states; as b, its transitions by label with the copies renamed.
type simData struct {
	moves map[State][]move
	live  map[State]bool
	edges map[State]map[int][]edge
}

type move struct {
	label bdd.Node // a's label AND what its target accepts
	gamma int
	to    State
}

type edge struct {
	label bdd.Node // b's label over G or x', L, e'
	to    State
}

func (a *Auto) simData() *simData {
	if a.sim != nil {
		return a.sim
	}
	sp, m := a.sp, a.sp.M
	w := sp.within()
	acc := a.acceptance()
	d := &simData{moves: map[State][]move{}, live: map[State]bool{}, edges: map[State]map[int][]edge{}}
	// in[q] is what a live q accepts over the entry copies.
	in := map[State]bdd.Node{Final: m.True()}
	for q, x := range acc {
		if !x.IsFalse() {
			d.live[q] = true
			in[q] = m.Rename(x, sp.renLinkIn)
		}
	}
	for _, t := range a.Transitions() {
		if t.Label == nil {
			continue
		}
		if d.edges[t.From] == nil {
			d.edges[t.From] = map[int][]edge{}
		}
		l := a.labels[t]
		d.edges[t.From][t.Label.ID] = append(d.edges[t.From][t.Label.ID], edge{m.Rename(l, w.prime), t.To})
		if x, ok := in[t.To]; ok {
			d.moves[t.From] = append(d.moves[t.From], move{m.And(l, x), t.Label.ID, t.To})
		}
	}
	a.sim = d
	return d
}

// Within needs b's parameters apart from a's, so it renames b's labels
// into copies that no untagged label uses (docs: the table in doc.go):
// b's link copies, its parameter x', to these ...
const (
	simLinkG = GNext
	simLinkL = LNext
	// ... and b's entry copies, e', to these.
	simEntryG = GStart
	simEntryL = LSaved
)

// withinSets are the renamings and sets of Within, built once per space.
type withinSets struct {
	prime  *bdd.Renaming // link -> (GNext, LNext), entry -> (GStart, LSaved)
	in     *bdd.Renaming // (x, x') -> (e, e')
	entry2 bdd.VarSet    // (GStart, LSaved)
}

func (sp *Space) within() *withinSets {
	if sp.win == nil {
		s := sp.S
		sp.win = &withinSets{
			prime: s.Renaming(pds.G(GLink, simLinkG), pds.L(LLink, simLinkL),
				pds.G(GEntry, simEntryG), pds.L(LEntry, simEntryL)),
			in: s.Renaming(pds.G(GLink, GEntry), pds.L(LLink, LEntry),
				pds.G(simLinkG, simEntryG), pds.L(simLinkL, simEntryL)),
			entry2: sp.M.Union(s.G[simEntryG], s.L[simEntryL]),
		}
	}
	return sp.win
}
