package seq

import (
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// The eager form's network (doc.go, "The construction"): the constructs of
// Lal and Reps' Fig. 1 and Fig. 4, with the threads of their Section 2.3,
// one function each. rules calls them in a fixed order, which is the order
// of the network's labels and rules.

// eager is the state the constructs share while the eager network is
// built: the scheduler's procedure and labels.
type eager struct {
	s      *Net
	b      *pds.Builder
	n      *pds.Network // the network being built
	m      *bdd.Manager
	procOf map[*pds.Proc]*pds.Proc // original procedure -> its copy
	sp     *pds.Proc               // the scheduler's procedure

	base  *pds.Label               // the bottom of thread 1's stack
	woke  *pds.Label               // the bottom of a woken slot's thread
	run   []*pds.Label             // run[j]: the frame a switch to thread j pushes
	after []*pds.Label             // after[j]: where thread j is when it has finished
	dead  map[*pds.Proc]*pds.Label // the return point of a switch: no rules
	end   map[*pds.Proc]*pds.Label // a checked error

	active    []*pds.Label // labels with the round, switch and checker rules
	errLabels []*pds.Label // the original error and cutoff labels
}

// rules adds the labels, the rules and the thread of the eager form's
// network, construct by construct.
func (s *Net) rules(b *pds.Builder) error {
	procOf, err := s.labelsOf(b)
	if err != nil {
		return err
	}
	e := s.schedLabels(b, procOf)
	s.originalRules(b, s.lifter(b), e.woke)
	e.threadEntries()
	for _, l := range e.active {
		if e.m.Poll() != nil {
			// A limit or a cancellation: every operation answers False
			// now, and the loop is quadratic in the threads.
			return e.m.Err()
		}
		e.nextRound(l)
		e.nextThread(l)
		e.checker(l)
	}
	for _, l := range e.errLabels {
		e.recordError(l)
	}
	e.thread()
	return e.m.Err()
}

// schedLabels adds the labels of the scheduler's procedure and of every
// procedure's scheduler frames: $base, $woke, and for every procedure
// $dead (the return point of a switch to the next thread, which the paper
// makes a call in its Section 4 so that the stack of the previous thread
// stays below, never to be returned to) and $end (the checked error, the
// end of the paper's Checker).
func (s *Net) schedLabels(b *pds.Builder, procOf map[*pds.Proc]*pds.Proc) *eager {
	net, nt := s.Orig, s.Threads
	n := b.Net()
	e := &eager{s: s, b: b, n: n, m: n.M, procOf: procOf, sp: n.Procs[len(net.Procs)],
		run: make([]*pds.Label, nt), after: make([]*pds.Label, nt),
		dead: map[*pds.Proc]*pds.Label{}, end: map[*pds.Proc]*pds.Label{}}
	e.base = b.Label(e.sp, "$base", pds.Pos{})
	e.woke = s.wokeLabel(b, procOf)
	for _, l := range net.Labels {
		if l.Kind == pds.Normal {
			e.active = append(e.active, s.labels[l])
		} else {
			e.errLabels = append(e.errLabels, l)
		}
	}
	e.active = append(e.active, e.base)
	if e.woke != nil {
		e.active = append(e.active, e.woke)
	}
	for _, q := range n.Procs {
		if len(q.Labels) == 0 {
			continue
		}
		if nt > 1 {
			e.dead[q] = b.Label(q, "$dead", pds.Pos{})
		}
		e.end[q] = b.ErrorLabel(q, "$end", pds.Assert, "an error whose guesses every round confirmed", pds.Pos{})
		s.ends[e.end[q]] = true
	}
	return e
}

// threadEntries adds, for every thread j after the first, the scheduler
// frame $run_j that starts it: a push of thread j's initial stack (loader)
// above $after_j, where thread j is when it has finished. This is the
// paper's "L_{i+1}: T^s_{i+1}" of Fig. 1 and the e_{j+1} that the third
// rule of Fig. 4 pushes. $after_j is active: a finished thread still
// switches and checks.
func (e *eager) threadEntries() {
	s, b, m := e.s, e.b, e.m
	for j := 1; j < s.Threads; j++ {
		first, firstLocals := s.loader(b, s.Orig.Threads[j], j, e.procOf, e.sp)
		e.run[j] = b.Label(e.sp, fmt.Sprintf("$run%d", j+1), pds.Pos{})
		e.after[j] = b.Label(e.sp, fmt.Sprintf("$after%d", j+1), pds.Pos{})
		e.active = append(e.active, e.after[j])
		b.Push(e.run[j], first, e.after[j], m.And(e.n.Unchanged(), firstLocals), pds.Pos{})
	}
}

// nextRound adds at l the context switch of the running thread into a
// later round of its own: the paper's "if k ≤ K and ∗ then k++" (Fig. 1)
// and the second rule of Fig. 4, several rounds at once (empty contexts).
func (e *eager) nextRound(l *pds.Label) {
	s, m := e.s, e.m
	if s.Rounds <= 1 {
		return
	}
	same := e.n.LocalsUnchanged(l.Proc, pds.LNext)
	inc := m.And(m.Gt(s.round.vec(m, pds.GNext), s.round.vec(m, pds.GCur)), s.round.valid(m, pds.GNext), e.unchanged(s.round), same)
	e.b.Step(l, l, inc, pds.Pos{})
}

// nextThread adds at l the switch to the next thread: the paper's "if
// k = K + 1 then k = 1; goto L_{i+1}" (Fig. 1) as the call of its Section
// 4, the third rule of Fig. 4: a push of $run_j above $dead when thread
// j-1 runs.
func (e *eager) nextThread(l *pds.Label) {
	for j := 1; j < e.s.Threads && e.m.Poll() == nil; j++ {
		e.b.Push(l, e.run[j], e.dead[l.Proc], e.switchTo(j, l.Proc), pds.Pos{})
	}
}

// checker adds at l the step to $end when the last thread runs and an
// error is recorded, under the paper's Checker (Fig. 1, third column) up
// to the error's round.
func (e *eager) checker(l *pds.Label) {
	s, m := e.s, e.m
	same := e.n.LocalsUnchanged(l.Proc, pds.LNext)
	fin := m.And(e.lastThread(), m.Not(s.err.is(m, pds.GCur, 0)), e.check(s.errRound), e.n.Unchanged(), same)
	e.b.Step(l, e.end[l.Proc], fin, pds.Pos{})
}

// recordError adds the rules of an original error or cutoff label el,
// which are no dead ends (Theorem 1 with the error recorded instead of
// the final state): when no error is recorded, it records itself, the
// thread and the round, and switches to the next thread (nextThread); in
// the last thread it records itself and checks (checker) in one step.
func (e *eager) recordError(el *pds.Label) {
	s, m := e.s, e.m
	l := e.s.labels[el]
	q := l.Proc
	for j := 1; j < s.Threads; j++ {
		e.b.Push(l, e.run[j], e.dead[q], m.And(e.switchTo(j, q, s.err, s.errThread, s.errRound), e.flag(el)), pds.Pos{})
	}
	fin := m.And(e.lastThread(), e.flag(el), e.check(s.round), e.unchanged(s.err, s.errThread, s.errRound), e.n.LocalsUnchanged(q, pds.LNext))
	e.b.Step(l, e.end[q], fin, pds.Pos{})
}

// thread adds the network's one thread: P^s starting at L_1 (Fig. 1),
// thread 1's initial stack above $base.
func (e *eager) thread() {
	s := e.s
	stack := []pds.Frame{{Label: e.base}}
	if s.Threads > 0 {
		for _, f := range s.Orig.Threads[0].Stack {
			stack = append(stack, pds.Frame{Label: s.labels[f.Label], Locals: f.Locals})
		}
	}
	e.b.Thread("seq", stack...)
}

// unchanged returns the relation that keeps every global but the given
// scheduler variables.
func (e *eager) unchanged(except ...ctrl) bdd.Node {
	var gs []*pds.Global
	for _, x := range except {
		gs = append(gs, x.bits...)
	}
	return e.n.Unchanged(gs...)
}

// lastThread returns $thread = n-1 (the last thread runs).
func (e *eager) lastThread() bdd.Node {
	return e.s.thread.is(e.m, pds.GCur, uint64(e.s.Threads-1))
}

// check returns the Checker's assumptions (Fig. 1, third column) for the
// rounds before k: the last values of round r are the guessed start of
// round r+1, x@r = x?(r+1), for every r+1 < k.
func (e *eager) check(k ctrl) bdd.Node {
	s, m := e.s, e.m
	cur := func(g *pds.Global) bdd.Vec { return e.n.GlobalVec(g, pds.GCur) }
	c := m.True()
	for r := 0; r+1 < s.Rounds; r++ {
		eq := m.True()
		for i := range s.copies {
			eq = m.And(eq, m.Eq(cur(s.copies[i][r]), cur(s.guess[i][r+1])))
		}
		c = m.And(c, m.Imp(m.Gt(k.vec(m, pds.GCur), m.ConstVec(uint64(r), len(k.bits))), eq))
	}
	return c
}

// flag returns the relation that records the error label l, the running
// thread and round when no error is recorded.
func (e *eager) flag(l *pds.Label) bdd.Node {
	s, m := e.s, e.m
	return m.And(s.err.is(m, pds.GCur, 0), s.err.is(m, pds.GNext, uint64(s.errID[l])),
		m.Eq(s.errThread.vec(m, pds.GNext), s.thread.vec(m, pds.GCur)), m.Eq(s.errRound.vec(m, pds.GNext), s.round.vec(m, pds.GCur)))
}

// switchTo returns the relation of a switch from thread j-1 to thread j
// in round 1 (k = 1 of Fig. 1), at a label of q: every global but
// $thread, $round and extra unchanged, the saved locals those of the
// frame left behind.
func (e *eager) switchTo(j int, q *pds.Proc, extra ...ctrl) bdd.Node {
	s, m := e.s, e.m
	keep := e.unchanged(append([]ctrl{s.thread, s.round}, extra...)...)
	return m.And(s.thread.is(m, pds.GCur, uint64(j-1)), s.thread.is(m, pds.GNext, uint64(j)), s.round.is(m, pds.GNext, 0),
		keep, e.n.LocalsUnchanged(q, pds.LSaved))
}

// loader returns the label that the switch to thread j pushes, with the
// locals of that frame (in LNext): the top of thread j's initial stack
// when it has one frame; otherwise the first of a chain of loader labels
// that push the frames one by one (the frames of a CUBA model); for an
// empty stack, a frame of the scheduler that pops at once.
func (s *Net) loader(b *pds.Builder, t *pds.Thread, j int, procOf map[*pds.Proc]*pds.Proc, sp *pds.Proc) (*pds.Label, bdd.Node) {
	n := b.Net()
	m := n.M
	frame := func(i, c int) bdd.Node {
		f := t.Stack[i]
		return n.FrameRel(pds.Frame{Label: s.labels[f.Label], Locals: f.Locals}, c)
	}
	keep := n.Unchanged()
	switch len(t.Stack) {
	case 0:
		l := b.Label(sp, fmt.Sprintf("$empty%d", j+1), pds.Pos{})
		b.Pop(l, m.And(keep, m.Eq(n.RetVec(n.RetBits), m.ConstVec(0, n.RetBits))), pds.Pos{})
		return l, m.True()
	case 1:
		return s.labels[t.Stack[0].Label], frame(0, pds.LNext)
	}
	var loads []*pds.Label // loads[i] holds frame i while frame i+1 is pushed
	for i := 0; i+1 < len(t.Stack); i++ {
		q := procOf[t.Stack[i].Label.Proc]
		loads = append(loads, b.Label(q, fmt.Sprintf("$load%d.%d", j+1, i), pds.Pos{}))
	}
	for i, l := range loads {
		ret := s.labels[t.Stack[i].Label]
		to := s.labels[t.Stack[i+1].Label]
		if i+1 < len(loads) {
			to = loads[i+1]
		}
		rel := m.And(keep, frame(i+1, pds.LNext), n.LocalsUnchanged(l.Proc, pds.LSaved))
		b.Push(l, to, ret, rel, pds.Pos{})
	}
	return loads[0], frame(0, pds.LNext)
}
