package symauto

import (
	"context"
	"errors"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Witnesses: a saturation that records where every label increment came
// from, and a walk that turns a concrete accepted configuration of its
// result into the concrete steps that reach it from the automaton it
// started from (docs/traces.md, "One context backwards"; Schwoon's thesis,
// the section on witness generation, in symbolic form).

// originKind says which part of post* added an increment.
type originKind uint8

const (
	initial  originKind = iota // the label of the automaton saturation started from
	byRule                     // a rule applied to an increment of the transition src
	composed                   // an epsilon into a mid-state composed with the mid-state's transition
)

// origin is where an increment came from: a rule and the increment srcD of
// the transition src it read, or the two labels of a composition as they
// stood when it was made.
type origin struct {
	kind       originKind
	rule       *pds.Rule
	src        Trans
	srcD       bdd.Node
	eps, mid   bdd.Node // composed: the epsilon label E(G, R, Gl, Ll [, Gs]) and the mid-state label
	epsT, midT Trans
}

// increment is one label difference added to a transition, in the order
// saturation added them.
type increment struct {
	d bdd.Node
	origin
}

// Record makes the saturation remember the origin of every label
// increment, for Back; call it before the first Step. The increments and
// the BDDs they came from stay alive as long as the saturation: that is
// the memory a witness costs.
func (s *Saturation) Record() {
	s.rec = map[Trans][]increment{}
	for _, t := range s.a.Transitions() {
		s.rec[t] = []increment{{d: s.a.labels[t]}}
	}
}

func (s *Saturation) record(t Trans, d bdd.Node, o origin) {
	if s.rec != nil {
		s.rec[t] = append(s.rec[t], increment{d: d, origin: o})
	}
}

// earliest returns the first increment of t whose difference holds the
// concrete valuation v, or nil.
func (s *Saturation) earliest(t Trans, v bdd.Node) *increment {
	m := s.sp.M
	incs := s.rec[t]
	for i := range incs {
		if m.Meets(incs[i].d, v) {
			return &incs[i]
		}
	}
	return nil
}

// Edge is one transition of a concrete accepted path with the values of
// the copies its label names, as a cube of the BDD variables:
//
//	p -γ-> q    G, L, Ge, Le, Gs    the top frame
//	m -γ-> q    Gl, Ll, L, Ge, Le, Gs  a frame below: Gl, Ll are the entry values of the frame above
//	p -ε-> s    G, Gs               the thread has finished
//
// Copies a label does not mention are fixed too (to the least value), so
// that equal paths have equal cubes.
type Edge struct {
	T Trans
	V bdd.Node
}

// Path is a concrete accepted path, the top frame's edge first: a
// configuration of one thread with the hidden entry values that make the
// automaton accept it.
type Path []Edge

// BackStep is one step of a thread found by Back: the rule, and the path
// after the rule was applied.
type BackStep struct {
	Rule  *pds.Rule
	After Path
}

// ErrNoWitness is wrapped by the errors of Back and of the path queries
// when the automata do not hold what they must: an internal error.
var ErrNoWitness = errors.New("symauto: no witness")

// Back walks a concrete accepted path of the saturated automaton back to
// one of the automaton saturation started from, and returns that start
// path and the steps from it to p, in order. The saturation must have
// been recorded (Record) and run to the end.
//
// Each step looks up the earliest increment that holds the top edge's
// valuation and undoes the rule that added it: a step rewrites the top
// frame back; a push is undone through the increment of the frame below
// (the pushed frame's values are its entry values, which that frame
// names); a composition is undone into the popped callee frame above the
// caller frame as it stood. The increments a predecessor is chosen from are
// older than the one undone, and the multiset of the edges' increment
// times decreases, so the walk ends, at edges of the start automaton.
func (s *Saturation) Back(ctx context.Context, p Path) (Path, []BackStep, error) {
	if s.rec == nil {
		return nil, nil, fmt.Errorf("%w: the saturation was not recorded", ErrNoWitness)
	}
	var steps []BackStep
	for n := 0; ; n++ {
		if n&255 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			if err := s.sp.M.Err(); err != nil {
				return nil, nil, err
			}
		}
		prev, rule, err := s.back(p)
		if err != nil {
			return nil, nil, err
		}
		if rule == nil {
			break
		}
		steps = append(steps, BackStep{Rule: rule, After: p})
		p = prev
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return p, steps, s.sp.M.Err()
}

// The conjunctions below start with the concrete valuation (a cube), so
// that every intermediate result is small.

// back returns the path before the last step that led to p and that
// step's rule, or a nil rule when p lies in the start automaton.
func (s *Saturation) back(p Path) (Path, *pds.Rule, error) {
	sp, m := s.sp, s.sp.M
	w := sp.witness()
	e0 := p[0]
	inc := s.earliest(e0.T, e0.V)
	if inc == nil {
		return nil, nil, fmt.Errorf("%w: no increment of %s holds the configuration", ErrNoWitness, labelName(e0.T))
	}
	fail := func(what string) (Path, *pds.Rule, error) {
		return nil, nil, fmt.Errorf("%w: %s (transition %s)", ErrNoWitness, what, labelName(e0.T))
	}
	with := func(head ...Edge) Path {
		return append(head, p[1:]...)
	}
	switch {
	case inc.kind == initial:
		return p, nil, nil

	case inc.kind == composed:
		// A return: the callee's top frame above the caller frame as the
		// composition found them; the pop that made the epsilon is the step.
		ret := e0.T.Label
		var c bdd.Node
		if ret.Recv != nil {
			c = m.And(m.Rename(e0.V, w.curNext), *ret.Recv, inc.mid, inc.eps)
		} else {
			c = m.And(e0.V, inc.mid, inc.eps)
		}
		c = m.Pick(c, w.composeVars)
		eVal := m.Exists(c, w.notEps)
		mVal := m.Exists(c, w.notMid)
		incE := s.earliest(inc.epsT, eVal)
		if incE == nil || incE.kind != byRule || incE.rule.Kind != pds.Pop {
			return fail("a return without its pop")
		}
		x := m.And(m.Rename(eVal, w.popInv), incE.rule.Rel, incE.srcD)
		top := m.Pick(m.Exists(x, w.outs), w.topVars)
		if top.IsFalse() {
			return fail("a pop without its source")
		}
		return with(Edge{incE.src, top}, Edge{inc.midT, mVal}), incE.rule, nil

	case inc.rule.Kind == pds.Step:
		x := m.And(m.Rename(e0.V, w.curNext), inc.rule.Rel, inc.srcD)
		top := m.Pick(m.Exists(x, w.outs), w.topVars)
		if top.IsFalse() {
			return fail("a step without its source")
		}
		return with(Edge{inc.src, top}), inc.rule, nil

	case inc.rule.Kind == pds.Push:
		// The frame below names the pushed frame's entry values, which
		// are its values at the push: undo the push that made that frame.
		if len(p) < 2 {
			return fail("a pushed frame without a caller")
		}
		e1 := p[1]
		inc1 := s.earliest(e1.T, e1.V)
		if inc1 == nil || inc1.kind != byRule || inc1.rule.Kind != pds.Push {
			return fail("a caller frame without its push")
		}
		x := m.And(m.Rename(e1.V, w.pushInv), inc1.rule.Rel, inc1.srcD)
		top := m.Pick(m.Exists(x, w.outs), w.topVars)
		if top.IsFalse() {
			return fail("a push without its source")
		}
		return append(Path{{inc1.src, top}}, p[2:]...), inc1.rule, nil

	case inc.rule.Kind == pds.Pop && e0.T.To == Final:
		// The thread finished by popping its last frame.
		x := m.And(m.Rename(e0.V, sp.renCurNext), inc.rule.Rel, inc.srcD)
		top := m.Pick(m.Exists(x, w.outs), w.topVars)
		if top.IsFalse() {
			return fail("a last pop without its source")
		}
		return Path{{inc.src, top}}, inc.rule, nil
	}
	return fail("an increment of an unexpected kind")
}

// witnessSets are the variable sets and renamings of the witness walk.
type witnessSets struct {
	topVars, midVars, finVars, composeVars bdd.VarSet
	notEps, notMid, outs                   bdd.VarSet
	curNext, pushInv, popInv               *bdd.Renaming
}

func (sp *Space) witness() *witnessSets {
	if sp.wit != nil {
		return sp.wit
	}
	m, s := sp.M, sp.S
	G, L, Ge, Le, Gl, Ll, Gs, R := s.G[GCur], s.L[LCur], s.G[GEntry], s.L[LEntry], s.G[GLink], s.L[LLink], s.G[GStart], s.R
	sp.wit = &witnessSets{
		topVars:     m.Union(G, L, Ge, Le, Gs),
		midVars:     m.Union(Gl, Ll, L, Ge, Le, Gs),
		finVars:     m.Union(G, Gs),
		composeVars: m.Union(G, R, Gl, Ll, L, Ge, Le, Gs),
		notEps:      m.Union(L, Ge, Le),
		notMid:      m.Union(G, R),
		outs:        m.Union(s.G[GNext], s.L[LNext], s.L[LSaved], R),
		curNext:     s.Renaming(pds.G(GCur, GNext), pds.L(LCur, LNext)),
		pushInv:     s.Renaming(pds.G(GLink, GNext), pds.L(LLink, LNext), pds.L(LCur, LSaved)),
		popInv:      s.Renaming(pds.G(GCur, GNext), pds.G(GLink, GEntry), pds.L(LLink, LEntry)),
	}
	return sp.wit
}
