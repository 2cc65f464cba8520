package symauto

import (
	"context"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Saturation computes post* of one automaton as a stepwise object: each
// Step takes one transition off the worklist and applies every rule whose
// left-hand side is its label. It follows Schwoon's symbolic post*
// ("Model-Checking Pushdown Systems", 2002, Algorithm 2 of ch. 3 and its
// symbolic form in ch. 4), with jMoped's summary labels (docs/poststar.md):
//
//   - the worklist holds label differences d = new AND NOT old of
//     transitions leaving p (Schwoon's "trans"; lines 1-4 put every
//     initial transition from p on it);
//   - a step rule rewrites the top: p -γ'-> q gets image(d) (lines 9-10);
//   - a push rule γ -> γe γr adds p -γe-> m and m -γr-> q with m the
//     mid-state of (γe, level) (lines 11-15), and composes the new
//     m -γr-> q with every epsilon transition already leading into m, so a
//     summary that exists is reused (lines 16-17);
//   - a pop rule adds p -ε-> q (lines 7-8); when q is a mid-state the
//     epsilon transition is composed with every m -γr-> q' (lines 18-20),
//     applying γr's receive relation in the same composition, so the
//     returned value never reaches a label a context switch can see
//     (docs/design.md, "Return values").
type Saturation struct {
	sp      *Space
	init    *Auto // the automaton saturation started from
	a       *Auto
	level   int
	queue   []Trans
	pending map[Trans]bdd.Node
	outMid  map[State][]Trans // transitions leaving each mid-state
	steps   int
	stopped bool
	rec     map[Trans][]increment // provenance, when Record was called (witness.go)

	// OnAdd, when set, is called with every non-empty label difference
	// added to a transition leaving p (epsilon into Final included); if
	// it returns false the saturation stops early.
	OnAdd func(t Trans, diff bdd.Node) bool
}

// NewSaturation prepares post* of a; a itself is not changed. Mid-states
// created are named with the given context level.
func NewSaturation(a *Auto, level int) *Saturation {
	s := &Saturation{sp: a.sp, init: a, a: a.clone(), level: level, pending: map[Trans]bdd.Node{}, outMid: map[State][]Trans{}}
	// Schwoon, lines 1-4: every transition leaving p is on the worklist.
	for _, t := range s.a.Transitions() {
		switch {
		case t.From == Initial && t.Label != nil:
			s.enqueue(t, s.a.labels[t])
		case t.From != Initial:
			s.outMid[t.From] = append(s.outMid[t.From], t)
		}
	}
	return s
}

func (s *Saturation) enqueue(t Trans, d bdd.Node) {
	if old, ok := s.pending[t]; ok {
		s.pending[t] = s.sp.M.Or(old, d)
		return
	}
	s.pending[t] = d
	s.queue = append(s.queue, t)
}

// note passes a non-empty difference added by a rule to the early-stop
// hook.
func (s *Saturation) note(t Trans, d bdd.Node) {
	if s.OnAdd != nil && t.From == Initial && !s.OnAdd(t, d) {
		s.stopped = true
	}
}

// addTop adds x to a transition leaving p and queues the difference
// (Schwoon's "add", lines 21-22); o says where x came from.
func (s *Saturation) addTop(t Trans, x bdd.Node, o origin) {
	if t.To == Final {
		x = s.sp.M.Exists(x, s.sp.entry) // see finalEntry
	}
	if d := s.a.add(t, x); !d.IsFalse() {
		s.record(t, d, o)
		s.note(t, d)
		if t.Label != nil {
			s.enqueue(t, d)
		}
	}
}

// finalEntry: a transition into Final reads the bottom frame, which has
// no caller to return to, so the entry values on its label (Ge, Le) are
// never matched by anything; they are quantified away, which keeps the
// labels of shallow stacks small (they would otherwise relate the current
// globals to those at the thread's start: a whole transition relation).

// Done reports whether the worklist is empty or the hook stopped the
// saturation.
func (s *Saturation) Done() bool { return len(s.queue) == 0 || s.stopped }

// Stopped reports whether the early-stop hook ended the saturation.
func (s *Saturation) Stopped() bool { return s.stopped }

// Steps returns the number of steps taken.
func (s *Saturation) Steps() int { return s.steps }

// Step processes one worklist item (line 6: pop t from the worklist).
func (s *Saturation) Step() {
	if s.Done() {
		return
	}
	t := s.queue[0]
	s.queue = s.queue[1:]
	d := s.pending[t]
	delete(s.pending, t)
	s.steps++
	sp, m := s.sp, s.sp.M
	for _, r := range sp.Net.RulesFrom(t.Label) {
		if s.stopped {
			return
		}
		x := m.AndExists(d, r.Rel, sp.gl) // over the rule's outputs, Ge, Le [, Gs]
		if x.IsFalse() {
			continue
		}
		o := origin{kind: byRule, rule: r, src: t, srcD: d}
		switch r.Kind {
		case pds.Step:
			// Lines 9-10: <p, γ> -> <p', γ'>: add p -γ'-> q.
			s.addTop(Trans{Initial, r.To, t.To}, m.Rename(x, sp.renNext), o)
		case pds.Push:
			// Lines 11-17: <p, γ> -> <p', γe γr>.
			mid := s.a.state(StateName{Label: r.To, Level: s.level})
			top := m.And(m.Rename(m.Exists(x, sp.savedEntry), sp.renNext), sp.entryEqCur)
			s.addTop(Trans{Initial, r.To, mid}, top, o)
			mt := Trans{mid, r.Ret, t.To}
			if _, ok := s.a.labels[mt]; !ok {
				s.outMid[mid] = append(s.outMid[mid], mt)
			}
			ml := m.Rename(x, sp.renPushMid)
			if t.To == Final {
				ml = m.Exists(ml, sp.entry) // see finalEntry
			}
			dm := s.a.add(mt, ml)
			if !dm.IsFalse() {
				s.record(mt, dm, o)
				s.note(mt, dm)
				if e, ok := s.a.labels[Trans{Initial, nil, mid}]; ok {
					s.compose(e, dm, mid, r.Ret, t.To)
				}
			}
		case pds.Pop:
			// Lines 7-8: <p, γ> -> <p', ε>: add p -ε-> q.
			e := m.Rename(x, sp.renPop) // E(G, R, Gl, Ll [, Gs])
			if t.To == Final {
				s.addTop(Trans{Initial, nil, Final}, m.Exists(e, sp.retLink), o)
				continue
			}
			et := Trans{Initial, nil, t.To}
			de := s.a.add(et, e)
			if de.IsFalse() {
				continue
			}
			s.record(et, de, o)
			// Lines 18-20: compose with every transition leaving the mid-state.
			for _, u := range s.outMid[t.To] {
				if l, ok := s.a.labels[u]; ok {
					s.compose(de, l, t.To, u.Label, u.To)
				}
			}
		case pds.Fork:
			panic("symauto: fork rule reached post*; run pds.Network.WithThreadSlots first")
		}
	}
}

// compose adds p -γr-> q for an epsilon label e into the mid-state ms and
// the label mid of ms's transition -γr-> q: EXISTS Gl, Ll. e AND mid, then
// γr's receive relation stores R and R is quantified away.
func (s *Saturation) compose(e, mid bdd.Node, ms State, ret *pds.Label, q State) {
	sp, m := s.sp, s.sp.M
	x := m.AndExists(e, mid, sp.link) // over G, R, L, Ge, Le [, Gs]
	if x.IsFalse() {
		return
	}
	if ret.Recv != nil {
		x = m.Rename(m.AndExists(x, *ret.Recv, sp.grl), sp.renNext)
	} else {
		x = m.Exists(x, sp.ret)
	}
	s.addTop(Trans{Initial, ret, q}, x, origin{kind: composed, eps: e, mid: mid, epsT: Trans{Initial, nil, ms}, midT: Trans{ms, ret, q}})
}

// Result returns the saturated automaton without its internal epsilon
// transitions into mid-states (they are only needed during saturation, and
// they carry the return register). Call it when Done; the saturation hands
// its automaton over and must not Step again.
func (s *Saturation) Result() *Auto {
	s.a.sane("saturation") // the epsilons into mid-states included
	for t := range s.a.labels {
		if t.Label == nil && t.To != Final {
			delete(s.a.labels, t)
			s.a.noteChange()
			s.a.ts = nil
		}
	}
	return s.a
}

// Changed returns the start globals whose post* added something (over Gs
// when the automaton was tagged; true or false otherwise). It
// over-approximates the non-stale start globals (docs/design.md, "Stale start
// globals"): every difference a rule added, projected onto Gs.
//
// It is computed once, from the labels' growth: the union over transitions
// of EXISTS (all but Gs). (label AND NOT initial label).
func (s *Saturation) Changed() bdd.Node {
	m := s.sp.M
	grown := m.False()
	for _, t := range s.a.Transitions() {
		if t.Label == nil && t.To != Final {
			continue // internal epsilon transitions are not configurations
		}
		d := s.a.labels[t]
		if old, ok := s.init.labels[t]; ok {
			d = m.Diff(d, old)
		}
		grown = m.Or(grown, m.Exists(d, s.sp.notStart))
	}
	return grown
}

// Run saturates until Done: the one saturation loop of the module. It
// checks ctx and the BDD manager every 64 steps (the manager's own
// limits and Run context stop a long operation inside it) and returns
// their error.
func (s *Saturation) Run(ctx context.Context) error {
	for !s.Done() {
		s.Step()
		if s.steps&63 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := s.sp.M.Err(); err != nil {
				return err
			}
		}
	}
	return s.sp.M.Err()
}

// PostStar saturates a completely. It returns the result, the changed
// start globals, and an error when cancelled or out of BDD resources.
func PostStar(ctx context.Context, a *Auto, level int) (*Auto, bdd.Node, error) {
	s := NewSaturation(a, level)
	if err := s.Run(ctx); err != nil {
		return nil, bdd.Node{}, err
	}
	return s.Result(), s.Changed(), nil
}
