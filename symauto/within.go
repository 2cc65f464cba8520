package symauto

import (
	"maps"
	"slices"

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
//
// Within is a.Simulate(b).At(true): see Simulation to evaluate the
// relation at some globals only.
func (a *Auto) Within(b *Auto) bdd.Node {
	return a.Simulate(b).At(a.sp.M.True())
}

// Simulation answers Within for a pair of views, at the globals asked
// (At), computing what it needs once. It has two relations between the
// mid-states of a and those of b, each a greatest fixpoint:
//
//   - same relates a parameter x of qa to the same x of qb only: every
//     move of qa with entry values e is matched by a move of qb with the
//     same entry values e. It is over one copy of the parameter, and its
//     steps quantify nothing but the moves' locals and entry values.
//   - sim relates x to any x' (Within's relation), over two copies.
//
// same is a simulation too, so it is contained in sim, and what it
// proves at the initial states holds: At tries it first, and computes
// sim (and evaluates it) only at the globals same leaves unproven. The
// answer is sim's either way. On the binary search trees with a searcher
// (lazy splitting, 6 contexts), sim's relations reach 54,000 nodes where
// the views' labels have a few thousand, and same decides more than half
// of the tests. Without mid-states to relate (no calls), same is skipped:
// it would only repeat sim's last step, and on CUBA's Dekker that cost
// 1.1 times the time.
//
// Neither relation depends on the current globals (a mid-state's
// parameter is the callee's entry values): At restricts the labels out
// of the initial states to the globals asked, so its cost falls with
// them.
type Simulation struct {
	a, b   *Auto
	same   map[simPair]bdd.Node // over x (link copies), for the pairs
	sameIn map[simPair]bdd.Node // same renamed to e (entry copies)
	sim    map[simPair]bdd.Node // over (x, x'); nil until needed
	simIn  map[simPair]bdd.Node // sim renamed to (e, e')
	pairs  []simPair            // the live mid-state pairs, in a fixed order
}

type simPair struct{ qa, qb State }

// Simulate returns the simulation between a and b (Within), both
// untagged; it computes the relations when At first needs them.
func (a *Auto) Simulate(b *Auto) *Simulation {
	s := &Simulation{a: a, b: b}
	live := a.simData().live
	// The pairs of mid-states named by the same pushed label.
	for qa := State(2); int(qa) < len(a.names); qa++ {
		if !live[qa] {
			continue
		}
		for qb := State(2); int(qb) < len(b.names); qb++ {
			if a.names[qa].Label == b.names[qb].Label {
				s.pairs = append(s.pairs, simPair{qa, qb})
			}
		}
	}
	return s
}

// fixpoint refines rel, every pair related at first, by unmatched until
// nothing changes; in's cache (renamed relations) loses what changed.
func (s *Simulation) fixpoint(rel, in map[simPair]bdd.Node, unmatched func(qa, qb State, at bdd.Node) bdd.Node) {
	m := s.a.sp.M
	for _, p := range s.pairs {
		rel[p] = m.True()
	}
	for changed := true; changed; {
		changed = false
		for _, p := range s.pairs {
			old := rel[p]
			if old.IsFalse() {
				continue
			}
			nw := m.Diff(old, unmatched(p.qa, p.qb, m.True()))
			if !nw.Equal(old) {
				rel[p] = nw
				delete(in, p)
				changed = true
			}
		}
	}
}

// At returns the globals of x (over G) at which every configuration of a
// is one of b (Within's answer, restricted to x).
func (s *Simulation) At(x bdd.Node) bdd.Node {
	return s.at(x, len(s.pairs) > 0)
}

// atSim is At by sim alone, without same first (for the tests: At must
// give the same answer).
func (s *Simulation) atSim(x bdd.Node) bdd.Node { return s.at(x, false) }

// at is At, trying same first when trySame (without mid-states to
// relate, same would only repeat sim's own step).
func (s *Simulation) at(x bdd.Node, trySame bool) bdd.Node {
	m := s.a.sp.M
	r := m.Diff(x, m.Diff(s.a.Finished(), s.b.Finished()))
	if r.IsFalse() {
		return r
	}
	rest := r
	if trySame {
		if s.same == nil {
			s.same, s.sameIn = map[simPair]bdd.Node{}, map[simPair]bdd.Node{}
			s.fixpoint(s.same, s.sameIn, s.unmatchedSame)
		}
		if rest = m.And(r, s.unmatchedSame(Initial, Initial, r)); rest.IsFalse() {
			return r
		}
	}
	if s.sim == nil {
		s.sim, s.simIn = map[simPair]bdd.Node{}, map[simPair]bdd.Node{}
		s.fixpoint(s.sim, s.simIn, s.unmatched)
	}
	return m.Diff(r, s.unmatched(Initial, Initial, rest))
}

// inSame is same(qa', qb') over e.
func (s *Simulation) inSame(qa, qb State) bdd.Node {
	return s.renamed(s.same, s.sameIn, s.a.sp.renLinkIn, qa, qb)
}

// renamed returns rel(qa', qb') renamed by ren into the entry copies,
// made once per pair and kept in cache (fixpoint drops what changed). A
// final state is related to itself only, and everything else to nothing.
func (s *Simulation) renamed(rel, cache map[simPair]bdd.Node, ren *bdd.Renaming, qa, qb State) bdd.Node {
	m := s.a.sp.M
	if qa == Final || qb == Final {
		if qa == qb {
			return m.True()
		}
		return m.False()
	}
	p := simPair{qa, qb}
	if x, ok := cache[p]; ok {
		return x
	}
	x, ok := rel[p]
	if !ok {
		x = m.False()
	} else if !x.IsFalse() && !x.IsTrue() {
		x = m.Rename(x, ren)
	}
	cache[p] = x
	return x
}

// unmatchedSame returns the parameters x at which some move of qa has no
// move of qb with the same locals and entry values whose targets are
// related by same there; for the initial states, only at the globals of
// at (true elsewhere).
func (s *Simulation) unmatchedSame(qa, qb State, at bdd.Node) bdd.Node {
	return s.unmatchedBy(qa, qb, at, func(mv move, e edge, _ bool) bdd.Node {
		return s.a.sp.M.And(e.raw, s.inSame(mv.to, e.to))
	})
}

// unmatchedBy returns the parameters at which some move of qa (with its
// label restricted to at, unless at is true) is not matched by the union
// of match over qb's moves of the same label; restrict says whether at
// restricts.
func (s *Simulation) unmatchedBy(qa, qb State, at bdd.Node, match func(mv move, e edge, restrict bool) bdd.Node) bdd.Node {
	sp, m := s.a.sp, s.a.sp.M
	outA, outB := s.a.simData().moves, s.b.simData().edges
	restrict := !at.IsTrue()
	bad := m.False()
	for _, mv := range outA[qa] {
		label := mv.label
		if restrict {
			if label = m.And(label, at); label.IsFalse() {
				continue
			}
		}
		matched := m.False()
		for _, e := range outB[qb][mv.gamma] {
			matched = m.Or(matched, match(mv, e, restrict))
		}
		bad = m.Or(bad, m.DiffExists(label, matched, sp.lEntry))
	}
	return bad
}

// in is sim(qa', qb') over (e, e').
func (s *Simulation) in(qa, qb State) bdd.Node {
	return s.renamed(s.sim, s.simIn, s.a.sp.within().in, qa, qb)
}

// unmatched returns the parameters (x, x') at which some move of qa has
// no matching move of qb (Within); for the initial states, only at the
// globals of at (over G, which is the parameter of both there; true
// elsewhere).
func (s *Simulation) unmatched(qa, qb State, at bdd.Node) bdd.Node {
	m := s.a.sp.M
	entry2 := s.a.sp.within().entry2
	return s.unmatchedBy(qa, qb, at, func(mv move, e edge, restrict bool) bdd.Node {
		l := e.label
		if restrict {
			l = m.And(l, at)
		}
		return m.AndExists(l, s.in(mv.to, e.to), entry2)
	})
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
	raw   bdd.Node // b's label over G or x, L, e (as a's)
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
	for _, q := range slices.Sorted(maps.Keys(acc)) { // the same operations in every run
		if x := acc[q]; !x.IsFalse() {
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
		d.edges[t.From][t.Label.ID] = append(d.edges[t.From][t.Label.ID], edge{m.Rename(l, w.prime), l, t.To})
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
