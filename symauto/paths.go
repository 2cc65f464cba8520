package symauto

import (
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Concrete accepted paths, for counterexample traces: choosing one
// configuration of an automaton (PickPath), finding the path of a given
// configuration (FindPath, WordStarts) and reading a path's values
// (Concrete). Every choice is the least one (bdd.Manager.Pick) over
// transitions in their deterministic order, so the same automaton gives
// the same path in every run.

// TopCond says which stacks a path query wants: any, the empty stack (a
// finished thread), or one with Label on top.
type TopCond struct {
	Any   bool
	Empty bool
	Label *pds.Label
}

// in returns the set acc holds for q over the entry copies Ge, Le that a
// transition into q names its frame's entry values with (true for Final).
func (a *Auto) in(acc map[State]bdd.Node, q State) bdd.Node {
	m := a.sp.M
	if q == Final {
		return m.True()
	}
	x, ok := acc[q]
	if !ok {
		return m.False()
	}
	return m.Rename(x, a.sp.renLinkIn)
}

// layers returns the acceptance of the mid-states by depth: layer d holds,
// for every state, the callee entry values (Gl, Ll [, Gs]) from which a
// word of at most d frames is accepted. It stops when a layer adds
// nothing; the last layer is the acceptance of Auto.acceptance.
func (a *Auto) layers() []map[State]bdd.Node {
	ts := a.Transitions()
	out := []map[State]bdd.Node{{}}
	for {
		prev := out[len(out)-1]
		next := make(map[State]bdd.Node, len(prev))
		for q, x := range prev {
			next[q] = x
		}
		if !a.acceptStep(ts, prev, next) {
			return out
		}
		out = append(out, next)
	}
}

// below returns what the rest of a stack must accept for a transition
// into to that reads frame k (0 the bottom), over the entry copies:
// nothing at the bottom, when the transition goes to Final; sets[k] at
// to above the bottom; and it reports false when only one of the two
// holds (no such path).
func (a *Auto) below(sets []map[State]bdd.Node, k int, to State) (bdd.Node, bool) {
	switch {
	case k == 0 && to == Final:
		return a.sp.M.True(), true
	case k == 0 || to == Final:
		return bdd.Node{}, false
	}
	return a.in(sets[k], to), true
}

// linkOf returns the entry values an edge names for the frame below it,
// as that frame's callee entry copies (Gl, Ll), with Gs.
func (a *Auto) linkOf(e Edge) bdd.Node {
	sp, m := a.sp, a.sp.M
	drop := m.Union(sp.S.G[GCur], sp.S.L[LCur], sp.S.G[GLink], sp.S.L[LLink])
	return m.Rename(m.Exists(e.V, drop), sp.renEntryLink())
}

// PickPath returns one accepted path whose top satisfies top and whose
// top edge satisfies cond (over G and Gs): one with the fewest frames,
// the least values and the first transitions. It reports false when there
// is none.
func (a *Auto) PickPath(cond bdd.Node, top TopCond) (Path, bool) {
	sp, m := a.sp, a.sp.M
	w := sp.witness()
	if top.Empty || top.Any {
		eps := Trans{Initial, nil, Final}
		if x := m.And(a.Label(eps), cond); !x.IsFalse() {
			return Path{{eps, m.Pick(x, w.finVars)}}, true
		}
		if top.Empty {
			return nil, false
		}
	}
	ls := a.layers()
	ts := a.Transitions()
	for d := 1; d <= len(ls); d++ {
		for _, t := range ts {
			if t.From != Initial || t.Label == nil || (!top.Any && t.Label != top.Label) {
				continue
			}
			x := m.And(a.labels[t], cond, a.in(ls[d-1], t.To))
			if x.IsFalse() {
				continue
			}
			p := Path{{t, m.Pick(x, w.topVars)}}
			return a.descend(p, ls, ts), true
		}
	}
	return nil, false
}

// descend completes a path from its last edge down to Final, with the
// fewest frames.
func (a *Auto) descend(p Path, ls []map[State]bdd.Node, ts []Trans) Path {
	m := a.sp.M
	for {
		last := p[len(p)-1]
		q := last.T.To
		if q == Final {
			return p
		}
		link := a.linkOf(last)
		j := 1
		for ; j < len(ls); j++ {
			if x, ok := ls[j][q]; ok && !m.And(x, link).IsFalse() {
				break
			}
		}
		e, ok := a.edgeDown(ts, q, nil, func(to State) (bdd.Node, bool) { return a.in(ls[j-1], to), true }, link)
		if !ok {
			// Cannot happen: link lies in layer j of q.
			panic(fmt.Sprintf("symauto: PickPath: no way down from %s", a.stateString(q)))
		}
		p = append(p, e)
	}
}

// edgeDown returns the edge one frame down a path, from the mid-state q
// its last edge leads to: the first transition of ts (in their order)
// that reads a frame of label (any label when nil) from q, under the
// conditions conds (the entry values the edge above names for this frame,
// and this frame's locals), whose target accepts the rest of the stack as
// below says (false: no such path), with the least values over the
// mid-state's variables. It reports false when there is none.
func (a *Auto) edgeDown(ts []Trans, q State, label *pds.Label, below func(to State) (bdd.Node, bool), conds ...bdd.Node) (Edge, bool) {
	m := a.sp.M
	for _, t := range ts {
		if t.From != q || t.Label == nil || (label != nil && t.Label != label) {
			continue
		}
		rest, ok := below(t.To)
		if !ok {
			continue
		}
		x := m.And(append(append([]bdd.Node{a.labels[t]}, conds...), rest)...)
		if x.IsFalse() {
			continue
		}
		return Edge{t, m.Pick(x, a.sp.witness().midVars)}, true
	}
	return Edge{}, false
}

// wordSets returns, for the configuration (globals, stack) with stack
// bottom first, the sets of the backward pass over its frames: sets[i]
// maps a state to the callee entry values (Gl, Ll [, Gs]) from which
// frames 0..i-1 (bottom first) are accepted.
func (a *Auto) wordSets(stack []Frame) []map[State]bdd.Node {
	sp, m := a.sp, a.sp.M
	ts := a.Transitions()
	sets := make([]map[State]bdd.Node, max(len(stack), 1))
	sets[0] = map[State]bdd.Node{}
	for i := 0; i+1 < len(stack); i++ {
		// sets[i+1]: frame i read from a mid-state.
		f := stack[i]
		loc := sp.localsAre(f)
		next := map[State]bdd.Node{}
		for _, t := range ts {
			if t.From == Initial || t.Label != f.Label {
				continue
			}
			below, ok := a.below(sets, i, t.To)
			if !ok {
				continue
			}
			x := m.AndExists(m.And(a.labels[t], loc), below, sp.lEntry)
			if x.IsFalse() {
				continue
			}
			if old, ok := next[t.From]; ok {
				x = m.Or(old, x)
			}
			next[t.From] = x
		}
		sets[i+1] = next
	}
	return sets
}

// topOf returns, for each transition leaving p, the valuations of its
// label (G, L, Ge, Le [, Gs]) under which it reads the top frame of the
// stack (bottom first), the globals satisfy g, and the rest is accepted
// below it.
func (a *Auto) topOf(g bdd.Node, stack []Frame, sets []map[State]bdd.Node) ([]Trans, []bdd.Node) {
	sp, m := a.sp, a.sp.M
	n := len(stack)
	var ts []Trans
	var xs []bdd.Node
	if n == 0 {
		eps := Trans{Initial, nil, Final}
		if x := m.And(a.Label(eps), g); !x.IsFalse() {
			ts, xs = append(ts, eps), append(xs, x)
		}
		return ts, xs
	}
	f := stack[n-1]
	loc := sp.localsAre(f)
	for _, t := range a.Transitions() {
		if t.From != Initial || t.Label != f.Label {
			continue
		}
		below, ok := a.below(sets, n-1, t.To)
		if !ok {
			continue
		}
		if x := m.And(a.labels[t], g, loc, below); !x.IsFalse() {
			ts, xs = append(ts, t), append(xs, x)
		}
	}
	return ts, xs
}

// WordGlobals returns the globals (G, and Gs when tagged) under which the
// stack (bottom first) is accepted.
func (a *Auto) WordGlobals(stack []Frame) bdd.Node {
	sp, m := a.sp, a.sp.M
	_, xs := a.topOf(m.True(), stack, a.wordSets(stack))
	r := m.False()
	for _, x := range xs {
		r = m.Or(r, m.Exists(x, sp.lEntry))
	}
	return r
}

// FindPath returns the accepted path of the configuration (globals, stack
// bottom first) with start globals in cond (over Gs; true for any): the
// least hidden values on the first transitions that accept it.
func (a *Auto) FindPath(cond bdd.Node, globals []uint64, stack []Frame) (Path, error) {
	sp, m := a.sp, a.sp.M
	w := sp.witness()
	sets := a.wordSets(stack)
	ts, xs := a.topOf(sp.globalsAre(globals), stack, sets)
	n := len(stack)
	for i, t := range ts {
		x := m.And(xs[i], cond)
		if x.IsFalse() {
			continue
		}
		if t.Label == nil {
			return Path{{t, m.Pick(x, w.finVars)}}, nil
		}
		p := Path{{t, m.Pick(x, w.topVars)}}
		for k := n - 2; k >= 0; k-- {
			f := stack[k]
			last := p[len(p)-1]
			link := a.linkOf(last)
			loc := sp.localsAre(f)
			below := func(to State) (bdd.Node, bool) { return a.below(sets, k, to) }
			e, ok := a.edgeDown(a.Transitions(), last.T.To, f.Label, below, link, loc)
			if !ok {
				return nil, fmt.Errorf("%w: the path of a configuration breaks at frame %d", ErrNoWitness, n-1-k)
			}
			p = append(p, e)
		}
		return p, nil
	}
	return nil, fmt.Errorf("%w: the configuration is not accepted", ErrNoWitness)
}

// Concrete returns the configuration a path accepts: the globals (by
// Global.Index) and the stack, bottom first.
func (sp *Space) Concrete(p Path) (globals []uint64, stack []Frame) {
	m, n := sp.M, sp.Net
	if len(p) == 0 {
		return nil, nil
	}
	m.Enumerate(p[0].V, sp.GlobalVecs(), func(vals []uint64) bool {
		globals = append([]uint64(nil), vals...)
		return false
	})
	for i := len(p) - 1; i >= 0; i-- {
		e := p[i]
		if e.T.Label == nil {
			continue
		}
		proc := e.T.Label.Proc
		vecs := make([]bdd.Vec, len(proc.Locals))
		for j, l := range proc.Locals {
			vecs[j] = n.LocalVec(l, LCur)
		}
		f := Frame{Label: e.T.Label, Locals: make([]uint64, len(proc.Locals))}
		m.Enumerate(e.V, vecs, func(vals []uint64) bool {
			copy(f.Locals, vals)
			return false
		})
		stack = append(stack, f)
	}
	return globals, stack
}

// StartOf returns the start globals a path's top edge names (over Gs).
func (sp *Space) StartOf(p Path) bdd.Node {
	return sp.M.Exists(p[0].V, sp.notStart)
}
