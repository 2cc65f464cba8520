package symauto

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// acceptance computes, for every state q, the set of values from which
// some word is accepted starting in q: for a mid-state, over its callee
// entry copies (Gl, Ll [, Gs]); Final accepts from everything. It is a
// backward fixpoint over states with BDD labels (mid-states can form
// cycles through recursion), never a walk over words.
func (a *Auto) acceptance() map[State]bdd.Node {
	if a.acc != nil {
		return a.acc
	}
	acc := map[State]bdd.Node{}
	ts := a.Transitions()
	for a.acceptStep(ts, acc, acc) {
		// until a pass adds nothing
	}
	a.acc = acc
	return acc
}

// acceptStep is one backward step of the acceptance of mid-states over the
// transitions ts that read a frame from a mid-state: it adds to into[q],
// for each such transition from q to q', the callee entry values from
// which the transition's frame is read and from[q'] accepts the rest
// (Acc(q') renamed to the transition's entry copies Ge, Le, which are
// then quantified). It reports whether into changed. With from and into
// the same map it is a chaotic iteration (acceptance); with two, one
// layer of words by depth (layers).
func (a *Auto) acceptStep(ts []Trans, from, into map[State]bdd.Node) bool {
	m := a.sp.M
	changed := false
	for _, t := range ts {
		if t.From == Initial || t.Label == nil {
			continue
		}
		x := m.AndExists(a.labels[t], a.in(from, t.To), a.sp.lEntry)
		if x.IsFalse() {
			continue
		}
		old, ok := into[t.From]
		if !ok {
			old = m.False()
		}
		if nw := m.Or(old, x); !nw.Equal(old) {
			into[t.From] = nw
			changed = true
		}
	}
	return changed
}

// Accepting returns the globals (G, and Gs when tagged) under which some
// stack is accepted: U'(gs, g) of the paper's Section 3.2 for a tagged
// post* result. A finished thread (empty stack) counts.
func (a *Auto) Accepting() bdd.Node {
	m := a.sp.M
	acc := a.acceptance()
	r := m.False()
	for _, t := range a.Transitions() { // sorted: the same operations in every run
		l := a.labels[t]
		if t.From != Initial {
			continue
		}
		if t.Label == nil {
			if t.To == Final {
				r = m.Or(r, l)
			}
			continue
		}
		r = m.Or(r, a.acceptThrough(l, t.To, acc))
	}
	return r
}

// acceptThrough returns the values of label l, of a transition into q,
// under which the rest of the stack is accepted from q (acc's set of q,
// over the entry copies that l names, quantified).
func (a *Auto) acceptThrough(l bdd.Node, q State, acc map[State]bdd.Node) bdd.Node {
	m := a.sp.M
	if _, ok := acc[q]; !ok && q != Final {
		return m.False()
	}
	return m.AndExists(l, a.in(acc, q), a.sp.lEntry)
}

// TopGlobals returns the globals (G, and Gs when tagged) under which a
// configuration with label l on top of the stack is accepted (error
// detection).
func (a *Auto) TopGlobals(l *pds.Label) bdd.Node {
	m := a.sp.M
	acc := a.acceptance()
	r := m.False()
	for _, t := range a.Transitions() {
		if t.From == Initial && t.Label == l {
			r = m.Or(r, a.acceptThrough(a.labels[t], t.To, acc))
		}
	}
	return r
}

// Top is a label on top of some accepted stack with the globals (G, and
// Gs when tagged) under which it is.
type Top struct {
	Label   *pds.Label
	Globals bdd.Node
}

// Tops returns every label on top of an accepted stack, in label order,
// with its globals; keep selects the labels to compute (nil: all).
func (a *Auto) Tops(keep func(*pds.Label) bool) []Top {
	m := a.sp.M
	acc := a.acceptance()
	var tops []Top
	for _, t := range a.Transitions() {
		if t.From != Initial || t.Label == nil || (keep != nil && !keep(t.Label)) {
			continue
		}
		g := a.acceptThrough(a.labels[t], t.To, acc)
		if g.IsFalse() {
			continue
		}
		if n := len(tops); n > 0 && tops[n-1].Label == t.Label {
			tops[n-1].Globals = m.Or(tops[n-1].Globals, g)
		} else {
			tops = append(tops, Top{t.Label, g})
		}
	}
	return tops
}

// TopLabels returns the labels that are on top of some accepted stack, in
// label order.
func (a *Auto) TopLabels() []*pds.Label {
	acc := a.acceptance()
	var ls []*pds.Label
	for _, t := range a.Transitions() {
		if t.From == Initial && t.Label != nil && (len(ls) == 0 || ls[len(ls)-1] != t.Label) {
			if !a.acceptThrough(a.labels[t], t.To, acc).IsFalse() {
				ls = append(ls, t.Label)
			}
		}
	}
	return ls
}

// tagged reports whether a context at the given level may have tagged t
// with the start global: t leaves p, or leaves a mid-state created at
// that level.
func (a *Auto) tagged(t Trans, level int) bool {
	if t.From == Initial {
		return true
	}
	n := a.names[t.From]
	return n.Init == 0 && n.Level == level
}

// relabel returns a copy in which f replaces the label of every transition
// that sel selects (empty labels dropped); the four relabellings below are
// this loop with their own selection and label function.
func (a *Auto) relabel(sel func(Trans) bool, f func(bdd.Node) bdd.Node) *Auto {
	labels := make(map[Trans]bdd.Node, len(a.labels))
	dropped := false
	for _, t := range a.Transitions() { // in order: the same BDD operations in every run
		l := a.labels[t]
		if sel(t) {
			if l = f(l); l.IsFalse() {
				dropped = true
				continue
			}
		}
		labels[t] = l
	}
	b := a.withLabels(labels)
	b.acc = nil
	if dropped {
		b.ts = nil
	}
	return b
}

func leavesP(t Trans) bool { return t.From == Initial }

// Tag returns the automaton restricted to the globals dom (over G) and
// tagged with the start global: every transition leaving p gets Gs = G
// (the paper's Section 3.2: the first copy of the globals is never changed
// by a rule). Untagged mid-state transitions do not mention G.
func (a *Auto) Tag(dom bdd.Node) *Auto {
	m := a.sp.M
	tag := m.And(dom, a.sp.startEqCur)
	return a.relabel(leavesP, func(l bdd.Node) bdd.Node { return m.And(l, tag) }).sane("Tag")
}

// Restrict returns the automaton for the start globals in class (over
// Gs): the paper's equation (2), V'(g', α') = EXISTS gs in class.
// U(gs, g', α'), applied to every transition a context at this level can
// have tagged (those leaving p and those leaving its mid-states). Empty
// labels are dropped. The result no longer mentions Gs.
func (a *Auto) Restrict(class bdd.Node, level int) *Auto {
	m := a.sp.M
	return a.relabel(func(t Trans) bool { return a.tagged(t, level) },
		func(l bdd.Node) bdd.Node { return m.AndExists(l, class, a.sp.start) }).Trim().sane("Restrict")
}

// Rebase returns the view of a thread that did not run, after the active
// thread moved the globals: the paper's equation (1), V'(g', α) = EXISTS
// gs. V(gs, α) AND rel(gs, g'), where rel (over Gs, G) is the class
// restricted to U'. Only transitions leaving p mention G.
func (a *Auto) Rebase(rel bdd.Node) *Auto {
	m := a.sp.M
	return a.relabel(leavesP, func(l bdd.Node) bdd.Node {
		return m.AndExists(m.Rename(l, a.sp.renCurStart), rel, a.sp.start)
	}).Trim().sane("Rebase")
}

// RestrictGlobals returns the automaton with every transition leaving p
// restricted to the globals g (over G, and Gs when tagged).
func (a *Auto) RestrictGlobals(g bdd.Node) *Auto {
	m := a.sp.M
	return a.relabel(leavesP, func(l bdd.Node) bdd.Node { return m.And(l, g) }).Trim().sane("RestrictGlobals")
}

// Reassign returns the automaton in which the current globals vars (a
// set of G's variables) of every configuration are forgotten and g (over
// G) is imposed: every transition leaving p gets (EXISTS vars. label) AND
// g. Only the top frame's G changes; the entry values (Ge) that the
// frames hold keep what they were. The lazy sequential engine moves a
// thread to its next round with it (package cbr/seq).
func (a *Auto) Reassign(vars bdd.VarSet, g bdd.Node) *Auto {
	m := a.sp.M
	return a.relabel(leavesP, func(l bdd.Node) bdd.Node { return m.And(m.Exists(l, vars), g) }).Trim().sane("Reassign")
}

// Trim removes transitions from which nothing is accepted and states that
// cannot be reached from p, and renumbers the mid-states in order of
// their old numbers, so that equal languages built the same way compare
// Equal.
func (a *Auto) Trim() *Auto {
	acc := a.acceptance()
	live := func(q State) bool {
		if q == Final {
			return true
		}
		_, ok := acc[q]
		return ok && !acc[q].IsFalse()
	}
	reach := map[State]bool{Initial: true}
	ts := a.Transitions()
	for changed := true; changed; {
		changed = false
		for _, t := range ts {
			if reach[t.From] && live(t.To) && !reach[t.To] {
				reach[t.To] = true
				changed = true
			}
		}
	}
	all := true
	for s := State(2); all && int(s) < len(a.names); s++ {
		all = reach[s] && live(s)
	}
	if all {
		// Every state is kept, so is every transition (its target is
		// live), and the numbering stays: a, its caches included, is the
		// result.
		return a
	}
	b := newAuto(a.sp)
	renum := map[State]State{Initial: Initial, Final: Final}
	for s := State(2); int(s) < len(a.names); s++ {
		if reach[s] && live(s) {
			renum[s] = b.state(a.names[s])
		}
	}
	// renum keeps the order of the states, so b's transitions, taken in
	// a's order, are in Transitions' order.
	bts := make([]Trans, 0, len(ts))
	for _, t := range ts {
		from, ok1 := renum[t.From]
		to, ok2 := renum[t.To]
		if ok1 && ok2 && (t.Label == nil || live(t.To)) {
			u := Trans{from, t.Label, to}
			b.labels[u] = a.labels[t]
			bts = append(bts, u)
		}
	}
	b.ts = bts
	return b
}

// Finished returns the globals (G, and Gs when tagged) under which the
// thread has finished: its stack is empty.
func (a *Auto) Finished() bdd.Node { return a.Label(Trans{Initial, nil, Final}) }
