package symauto

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// State is a state of an automaton: Initial (p), Final (s), or a mid-state.
type State int32

const (
	Initial State = 0 // p: every accepted word starts here
	Final   State = 1 // s: every accepted word ends here
)

// StateName names a mid-state: post* creates one per (pushed label,
// context level), so summaries of different contexts never mix. The
// states that hold an initial stack of several frames have Init > 0 (the
// depth of the frame below them) and Level 0.
type StateName struct {
	Label *pds.Label
	Level int
	Init  int
}

// Trans identifies a transition; Label is nil for an epsilon transition.
type Trans struct {
	From  State
	Label *pds.Label
	To    State
}

func labelID(l *pds.Label) int {
	if l == nil {
		return -1
	}
	return l.ID
}

func cmpTrans(a, b Trans) int {
	if c := cmp.Compare(a.From, b.From); c != 0 {
		return c
	}
	if c := cmp.Compare(labelID(a.Label), labelID(b.Label)); c != 0 {
		return c
	}
	return cmp.Compare(a.To, b.To)
}

// Auto is a P-automaton for the view of one thread: a regular set of
// (global valuation, stack) configurations (docs/design.md, "Symbolic automata
// and post*"; docs/poststar.md).
//
// Labels, by the kind of transition:
//
//	p -γ-> q       T(G, L, Ge, Le [, Gs])   current globals and top locals with
//	                                       the entry values of γ's frame
//	m -γ-> q       M(Gl, Ll, L, Ge, Le [, Gs]) for a callee entered with
//	                                       (Gl, Ll): the caller's return point γ,
//	                                       its locals, its own entry values
//	p -ε-> m       E(G, R, Gl, Ll [, Gs])   a return from a frame entered with
//	                                       (Gl, Ll): internal to post*
//	p -ε-> s       F(G [, Gs])              the thread has finished
//
// Gs, the globals at the start of the context, appears only while lazy
// splitting has tagged the automaton. An Auto is a value: operations that
// change it return a new one and leave the receiver alone.
type Auto struct {
	sp     *Space
	names  []StateName // by State; entries 0 and 1 unused
	index  map[StateName]State
	labels map[Trans]bdd.Node
	acc    map[State]bdd.Node // acceptance cache; nil when stale
	sim    *simData           // what Within needs (cache); nil when stale
	// ts caches Transitions (nil when stale): it changes only when a
	// transition is added or dropped, and a copy shares it until then.
	ts []Trans
	// canon caches Canonical and hash Hash (when hashed); both are
	// dropped with any change (noteChange). The covered-tuple test interns
	// the same view again and again where splits share rebased views.
	canon  *Auto
	hash   uint64
	hashed bool
	// alike caches Alike (when alikeOK), dropped with any change.
	alike   bdd.Node
	alikeOK bool
}

// noteChange drops the caches of the structure as a whole.
func (a *Auto) noteChange() {
	a.acc, a.sim, a.canon, a.hashed, a.alikeOK = nil, nil, nil, false, false
}

func newAuto(sp *Space) *Auto {
	return &Auto{sp: sp, names: make([]StateName, 2), labels: map[Trans]bdd.Node{}}
}

// clone returns a copy that can be changed independently. The copy shares
// the receiver's names (their capacity clipped, so that a state added to
// either is appended to a new array) and builds its own index only if it
// needs one.
func (a *Auto) clone() *Auto {
	return a.withLabels(maps.Clone(a.labels))
}

// withLabels returns an automaton with a's states and the given labels
// (over a's states), whose caches the caller sets.
func (a *Auto) withLabels(labels map[Trans]bdd.Node) *Auto {
	return &Auto{sp: a.sp, names: slices.Clip(a.names), labels: labels, acc: a.acc, ts: a.ts}
}

// state returns the mid-state of the given name, creating it.
func (a *Auto) state(n StateName) State {
	if s, ok := a.stateOf(n); ok {
		return s
	}
	s := State(len(a.names))
	a.names = append(a.names, n)
	a.index[n] = s
	a.canon, a.hashed = nil, false
	return s
}

// stateOf returns the mid-state of the given name, if there is one. It
// builds the index of the names on its first call.
func (a *Auto) stateOf(n StateName) (State, bool) {
	if a.index == nil {
		a.index = make(map[StateName]State, len(a.names))
		for s := 2; s < len(a.names); s++ {
			a.index[a.names[s]] = State(s)
		}
	}
	s, ok := a.index[n]
	return s, ok
}

// Name returns the name of a mid-state.
func (a *Auto) Name(s State) StateName { return a.names[s] }

// NumStates returns the number of states, p and s included.
func (a *Auto) NumStates() int { return len(a.names) }

// Transitions returns the transitions with non-empty labels in a
// deterministic order (by source, label, target; epsilon first). The slice
// is shared: the caller must not change it.
func (a *Auto) Transitions() []Trans {
	if a.ts == nil {
		ts := make([]Trans, 0, len(a.labels))
		for t := range a.labels {
			ts = append(ts, t)
		}
		slices.SortFunc(ts, cmpTrans)
		a.ts = ts
	}
	return a.ts
}

// Label returns the label of t (false when absent).
func (a *Auto) Label(t Trans) bdd.Node {
	if l, ok := a.labels[t]; ok {
		return l
	}
	return a.sp.M.False()
}

// Len returns the number of transitions.
func (a *Auto) Len() int { return len(a.labels) }

// set replaces the label of t, dropping it when empty.
func (a *Auto) set(t Trans, l bdd.Node) {
	a.noteChange()
	_, had := a.labels[t]
	if l.IsFalse() {
		if had {
			delete(a.labels, t)
			a.ts = nil
		}
		return
	}
	if !had {
		a.ts = nil
	}
	a.labels[t] = l
}

// add ORs l into the label of t and returns the difference (new AND NOT
// old), false when nothing is new.
func (a *Auto) add(t Trans, l bdd.Node) bdd.Node {
	m := a.sp.M
	old, ok := a.labels[t]
	if !ok {
		if !l.IsFalse() {
			a.labels[t] = l
			a.noteChange()
			a.ts = nil
		}
		return l
	}
	d := m.Diff(l, old)
	if !d.IsFalse() {
		a.labels[t] = m.Or(old, d)
		a.noteChange()
	}
	return d
}

// Equal reports whether a and b have the same mid-states (by name) and
// the same labels: a structural test, so equal automata accept the same
// language (not conversely).
func (a *Auto) Equal(b *Auto) bool {
	if a == b {
		return true
	}
	if len(a.labels) != len(b.labels) {
		return false
	}
	for t, l := range a.labels {
		from, ok1 := b.mapState(a, t.From)
		to, ok2 := b.mapState(a, t.To)
		if !ok1 || !ok2 {
			return false
		}
		bl, ok := b.labels[Trans{from, t.Label, to}]
		if !ok || !bl.Equal(l) {
			return false
		}
	}
	return true
}

// mapState returns b's state with the name a gives s.
func (b *Auto) mapState(a *Auto, s State) (State, bool) {
	if s == Initial || s == Final {
		return s, true
	}
	return b.stateOf(a.names[s])
}

func (a *Auto) stateString(s State) string {
	switch s {
	case Initial:
		return "p"
	case Final:
		return "s"
	}
	n := a.names[s]
	if n.Init > 0 {
		return fmt.Sprintf("i%d", n.Init)
	}
	return fmt.Sprintf("m(%s,%d)", n.Label.Name, n.Level)
}

// Canonical returns the automaton with the context levels of its
// mid-states renumbered -n, ..., -1 in increasing order of level (the
// states post* created in older contexts get the more negative numbers).
// Levels only keep the summaries of different contexts apart; after a
// context has ended their values carry no meaning, so two tuples reached
// along different paths can then compare Equal. The next post* names its
// mid-states with a positive level, which no canonical name uses.
func (a *Auto) Canonical() *Auto {
	if a.canon == nil {
		a.canon = a.canonical()
		a.canon.canon = a.canon
	}
	return a.canon
}

func (a *Auto) canonical() *Auto {
	var levels []int
	for _, n := range a.names[2:] {
		if n.Init == 0 {
			levels = append(levels, n.Level)
		}
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)
	rank := make(map[int]int, len(levels))
	for i, l := range levels {
		rank[l] = i - len(levels)
	}
	same := true
	for l, r := range rank {
		if l != r {
			same = false
		}
	}
	if same {
		return a
	}
	b := &Auto{sp: a.sp, names: slices.Clone(a.names), labels: a.labels, acc: a.acc, ts: a.ts}
	for s := 2; s < len(b.names); s++ {
		if b.names[s].Init == 0 {
			b.names[s].Level = rank[b.names[s].Level]
		}
	}
	return b
}

// Hash returns a hash of the automaton's structure (state names, labels as
// BDD nodes) consistent with Equal: independent of state numbering.
func (a *Auto) Hash() uint64 {
	if !a.hashed {
		a.hash, a.hashed = a.hash0(), true
	}
	return a.hash
}

func (a *Auto) hash0() uint64 {
	var sum uint64
	for t, l := range a.labels {
		h := uint64(14695981039346656037)
		mix := func(x int) {
			h ^= uint64(x)
			h *= 1099511628211
		}
		for _, s := range []State{t.From, t.To} {
			if s <= Final {
				mix(int(s))
				continue
			}
			n := a.names[s]
			mix(labelID(n.Label))
			mix(n.Level)
			mix(n.Init)
		}
		mix(labelID(t.Label))
		mix(l.ID())
		sum += h
	}
	return sum
}
