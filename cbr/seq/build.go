package seq

import (
	"context"
	"errors"
	"fmt"
	"github.com/cbreach/cbreach/pds/diag"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// Net is the sequential network of a pushdown network and a number of
// rounds (doc.go has the construction and its proof).
type Net struct {
	Net     *pds.Network // the sequential network: one thread, its own manager
	Orig    *pds.Network // the network it was built from, with thread slots
	Rounds  int          // K
	Threads int          // n: threads of the round-robin order (initial and slots)
	Lazy    bool         // the lazy form's network (BuildLazy): one thread per original thread, no scheduler

	copies [][]*pds.Global // by original global index: its copy for each round
	guess  [][]*pds.Global // by original global index: the guess of the start of round r (eager: nil at r = 0)

	thread, round, err, errThread, errRound ctrl

	errs   []*pds.Label              // original error and cutoff labels; $err = 1+i names errs[i]
	errID  map[*pds.Label]int        // original label -> 1+index in errs
	labels map[*pds.Label]*pds.Label // original label -> its copy
	ends   map[*pds.Label]bool       // the $end labels: a checked error

	hidden  bdd.Node // eager: the guesses of the slot globals, reachable round to round (hiddenSteps)
	guessed bdd.Node // eager: the sequences of round starts a smaller network confirmed (confirmed.guesses); true when none did
}

// sched is the name of the procedure of the scheduler's labels.
const sched = "$sched"

// Build returns the sequential network of net (with thread slots, as
// pds.Network.WithThreadSlots returns it) for the given rounds, in a new
// BDD manager with the given configuration. ctx and the configuration's
// limits bound the construction.
func Build(ctx context.Context, net *pds.Network, rounds int, cfg bdd.Config) (*Net, error) {
	return build(ctx, net, rounds, cfg, false)
}

// BuildLazy returns the network of the lazy form (doc.go, "The lazy
// form"): the original rules on the round's copy of the globals, one
// thread per thread of net (with thread slots), the start of every round
// kept in copies of its own, and no scheduler: Analyze moves each thread
// from round to round with the effects of the others.
func BuildLazy(ctx context.Context, net *pds.Network, rounds int, cfg bdd.Config) (*Net, error) {
	return build(ctx, net, rounds, cfg, true)
}

func build(ctx context.Context, net *pds.Network, rounds int, cfg bdd.Config, lazy bool) (*Net, error) {
	if rounds < 1 {
		return nil, fmt.Errorf("seq: round bound %d: need at least 1", rounds)
	}
	if err := checkRounds(net, rounds); err != nil {
		return nil, err
	}
	s := &Net{Orig: net, Rounds: rounds, Threads: len(net.Threads), Lazy: lazy, errID: map[*pds.Label]int{},
		labels: map[*pds.Label]*pds.Label{}, ends: map[*pds.Label]bool{}}
	for _, r := range net.Rules {
		if r.Kind == pds.Fork {
			return nil, fmt.Errorf("seq: the network still has fork rules: build it from WithThreadSlots")
		}
	}
	threads := 1
	if lazy {
		threads = max(1, s.Threads)
	}
	b := pds.NewBuilder(pds.Options{MaxThreads: threads, BDD: cfg})
	s.declare(b)
	if err := b.Fits(); err != nil {
		// Every round copies the globals: the bound of rounds is too
		// large for this network (bad input, as any bound refused).
		return nil, &cbr.OptionError{Engine: Name, Option: "Bound", Problem: fmt.Sprintf("the sequential network of %s is too large: %v", cbr.Rounds.Of(rounds), err)}
	}
	m := b.Manager()
	err := m.Run(ctx, cfg.Limits, func() error {
		rules := s.rules
		if lazy {
			rules = s.lazyRules
		}
		if err := rules(b); err != nil {
			return err
		}
		n, err := b.Build()
		if err := m.Err(); err != nil {
			return err // a limit or a cancellation, also inside the validation
		}
		if err != nil {
			return diag.Internal(fmt.Errorf("seq: the sequential network is malformed (a bug): %w", err))
		}
		s.Net = n
		if !lazy {
			s.hidden, s.guessed = s.hiddenSteps(), m.True()
		}
		return m.Err()
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// checkRounds refuses at once, as a bad bound, a number of rounds whose
// copies of the globals alone (every round copies every global: the lazy
// form twice, the eager one with the guesses) pass the variables the BDD
// kernel has, before millions of them are declared.
func checkRounds(net *pds.Network, rounds int) error {
	bits := 0
	for _, g := range net.Globals {
		bits += g.Type.Bits
	}
	if rounds > bdd.MaxVars || rounds*bits*pds.GlobalCopies > bdd.MaxVars {
		return &cbr.OptionError{Engine: Name, Option: "Bound", Problem: fmt.Sprintf("the sequential network of %s is too large: its copies of the %s need more than the %s the kernel has", cbr.Rounds.Of(rounds), plural.Count(bits, "global bit"), plural.Count(bdd.MaxVars, "BDD variable"))}
	}
	return nil
}

// declare declares the globals, procedures, locals and labels.
func (s *Net) declare(b *pds.Builder) {
	net, K := s.Orig, s.Rounds
	// The scheduler's variables come first in the BDD order, as bits of
	// their own (ctrl): every rule tests the round, and a relation that
	// chooses the copy of the globals after reading them would be the
	// product of the copies.
	for _, l := range net.Labels {
		if l.Kind != pds.Normal {
			s.errs = append(s.errs, l)
			s.errID[l] = len(s.errs)
		}
	}
	if !s.Lazy {
		s.thread = newCtrl(b, "$thread", len(net.Threads))
	}
	s.round = newCtrl(b, "$round", K)
	if !s.Lazy {
		s.err = newCtrl(b, "$err", len(s.errs)+1)
		s.errThread = newCtrl(b, "$errthread", len(net.Threads))
		s.errRound = newCtrl(b, "$errround", K)
	}
	s.declareCopies(b)
	b.LocalGroup(net.LocalGroup)
	for _, p := range net.Procs {
		q := b.Proc(p.Name, p.Result, p.Pos)
		for _, l := range p.Locals {
			if l.Param {
				b.Param(q, l.Name, l.Type, l.Pos)
			} else {
				b.Local(q, l.Name, l.Type, l.Pos)
			}
		}
	}
	if !s.Lazy {
		b.Proc(sched, nil, pds.Pos{})
	}
}

// declareCopies declares the copies x@r of every original global and its
// guesses x?r. Every copy of a global and its guesses are declared
// together, so that the layout puts their bits side by side (the final
// check, and the lazy form's effects, compare them). In the lazy form
// every copy starts with any value: a thread's round r starts where
// Analyze says, and x?r keeps that start.
func (s *Net) declareCopies(b *pds.Builder) {
	net, K := s.Orig, s.Rounds
	firstGuess := 1
	if s.Lazy {
		firstGuess = 0
	}
	for _, g := range net.Globals {
		cs := make([]*pds.Global, K)
		gs := make([]*pds.Global, K)
		for r := range K {
			init := pds.Init{Any: true}
			if r == 0 && !s.Lazy {
				init = net.InitOf(g) // Init() adds InitGlobals' relation
			}
			cs[r] = b.Global(fmt.Sprintf("%s@%d", g.Name, r+1), g.Type, init, g.Pos)
			cs[r].Hidden = g.Hidden
			cs[r].Packed = s.packs(g)
			cs[r].Group = g.Group
		}
		for r := firstGuess; r < K; r++ {
			gs[r] = b.Global(fmt.Sprintf("%s?%d", g.Name, r+1), g.Type, pds.Init{Any: true}, g.Pos)
			gs[r].Hidden = g.Hidden
			gs[r].Packed = s.packs(g)
			gs[r].Group = g.Group
		}
		s.copies = append(s.copies, cs)
		s.guess = append(s.guess, gs)
	}
}

// packs says whether the copies of the original global g are packed, their
// bits side by side in the BDD order (doc.go, "The BDD order"): in the
// eager form, the hidden globals of the thread slots (codes and counters
// that relations compare with their own copies only) and the globals of at
// most 2 bits (a comparison with another variable costs at most 4 nodes a
// level); wider ones keep the order by significance, which keeps x = y and
// x = y + 1 linear in the width.
func (s *Net) packs(g *pds.Global) bool {
	return !s.Lazy && (g.Hidden || g.Type.Bits <= 2)
}

// ctrl is a variable of the scheduler, one hidden Boolean global a bit
// (bits of significance 0 declared first come first in the BDD order).
type ctrl struct {
	bits   []*pds.Global
	values int
}

func newCtrl(b *pds.Builder, name string, values int) ctrl {
	c := ctrl{values: values}
	for i := range bdd.BitsFor(values) {
		g := b.Global(fmt.Sprintf("%s.%d", name, i), pds.BoolType(), pds.Init{}, pds.Pos{})
		g.Hidden = true
		c.bits = append(c.bits, g)
	}
	return c
}

// vec returns copy c of the variable.
func (x ctrl) vec(m *bdd.Manager, c int) bdd.Vec {
	v := make(bdd.Vec, len(x.bits))
	for i, g := range x.bits {
		v[i] = m.Bit(bdd.Ref{Var: g.Var, Copy: c}, 0)
	}
	return v
}

// is returns copy c == v.
func (x ctrl) is(m *bdd.Manager, c int, v uint64) bdd.Node {
	return m.Eq(x.vec(m, c), m.ConstVec(v, len(x.bits)))
}

// valid returns copy c < values.
func (x ctrl) valid(m *bdd.Manager, c int) bdd.Node {
	return m.Lt(x.vec(m, c), m.ConstVec(uint64(x.values), len(x.bits)+1))
}

// labelsOf adds a copy of every original label and returns the copy of
// every original procedure, checking that the locals are laid out as in
// the original (the relations moved by Translate keep their local bits).
func (s *Net) labelsOf(b *pds.Builder) (map[*pds.Proc]*pds.Proc, error) {
	net := s.Orig
	n := b.Net()
	procOf := map[*pds.Proc]*pds.Proc{}
	for i, p := range net.Procs {
		q := n.Procs[i]
		procOf[p] = q
		for j, l := range p.Locals {
			ql := q.Locals[j]
			for k := range l.Block {
				if l.Block[k] != ql.Block[k] {
					return nil, diag.Internal(fmt.Errorf("seq: local %s.%s is laid out differently (a bug)", p.Name, l.Name))
				}
			}
		}
	}
	if len(n.LocalBits) != len(net.LocalBits) || n.RetBits != net.RetBits {
		return nil, diag.Internal(errors.New("seq: the local block is laid out differently (a bug)"))
	}
	for _, l := range net.Labels {
		s.labels[l] = b.Label(procOf[l.Proc], l.Name, l.Pos)
		s.labels[l].Message = l.Message
	}
	for _, p := range net.Procs {
		if p.Entry != nil {
			b.SetEntry(s.labels[p.Entry])
		}
	}
	return procOf, nil
}

// lifter returns the function that moves an original relation into the
// new manager: the disjunction over r of the relation on round r's copies
// of the globals, guarded by $round = r, every other copy unchanged.
func (s *Net) lifter(b *pds.Builder) func(bdd.Node) bdd.Node {
	net, K := s.Orig, s.Rounds
	n := b.Net()
	m := n.M
	keepOthers := make([]bdd.Node, K) // every global but round r's copies unchanged
	for r := range K {
		var skip []*pds.Global
		for _, cs := range s.copies {
			skip = append(skip, cs[r])
		}
		keepOthers[r] = n.Unchanged(skip...)
	}
	return func(rel bdd.Node) bdd.Node {
		out := m.False()
		for r := range K {
			x := m.Translate(net.M, rel, s.mapping(net, n, r))
			x = m.And(x, s.round.is(m, pds.GCur, uint64(r)), keepOthers[r])
			out = m.Or(out, x)
		}
		return out
	}
}

// lazyRules adds the labels, the original rules on the round's copies
// and a thread for every original thread: the lazy form's network (the
// paper's Section 6: each thread's rules of Fig. 1's second column, with
// no scheduler; Analyze moves the threads from round to round).
func (s *Net) lazyRules(b *pds.Builder) error {
	procOf, err := s.labelsOf(b)
	if err != nil {
		return err
	}
	lift := s.lifter(b)
	s.originalRules(b, lift, s.wokeLabel(b, procOf))
	for _, t := range s.Orig.Threads {
		var stack []pds.Frame
		for _, f := range t.Stack {
			stack = append(stack, pds.Frame{Label: s.labels[f.Label], Locals: f.Locals})
		}
		b.Thread(t.Name, stack...)
	}
	return b.Net().M.Err()
}

// wokeLabel adds the label $woke, the bottom of a woken slot's thread, and
// returns it (nil without slots). A slot's thread wakes up with a step
// into another procedure, which a built network cannot hold: it becomes a
// push of the procedure's entry above $woke, a label without rules of the
// original network (the thread is as finished when it returns there).
func (s *Net) wokeLabel(b *pds.Builder, procOf map[*pds.Proc]*pds.Proc) *pds.Label {
	var woke *pds.Label
	for _, p := range s.Orig.Procs {
		if len(p.Labels) > 0 && s.Orig.IsDormant(p.Labels[0]) {
			woke = b.Label(procOf[p], "$woke", pds.Pos{})
		}
	}
	return woke
}

// originalRules adds every original rule and receive relation on the
// running round's copy of the globals (lift): the paper's Fig. 1, second
// column ("if k = 1 then τ(st, 1) else if k = 2 then τ(st, 2) ..."), and
// the first rule of its Fig. 4, in both forms. The step that wakes a
// dormant slot becomes a push of the procedure's entry above woke.
func (s *Net) originalRules(b *pds.Builder, lift func(bdd.Node) bdd.Node, woke *pds.Label) {
	net := s.Orig
	for _, r := range net.Rules {
		from, to := s.labels[r.From], s.labels[r.To]
		switch {
		case r.Kind == pds.Step && net.IsDormant(r.From):
			b.Push(from, to, woke, lift(r.Rel), r.Pos)
		case r.Kind == pds.Step:
			b.Step(from, to, lift(r.Rel), r.Pos)
		case r.Kind == pds.Push:
			b.Push(from, to, s.labels[r.Ret], lift(r.Rel), r.Pos)
		case r.Kind == pds.Pop:
			b.Pop(from, lift(r.Rel), r.Pos)
		}
	}
	for _, l := range net.Labels {
		if l.Recv != nil {
			b.SetRecv(s.labels[l], lift(*l.Recv))
		}
	}
}

// mapping renames the variables of an original relation for round r:
// both copies of a global (GCur, GNext) to those of its copy for round r,
// the local block and the return register to themselves.
func (s *Net) mapping(net, n *pds.Network, r int) func(bdd.Ref, int) (bdd.Ref, int) {
	to := map[bdd.Var]bdd.Var{net.RetVar: n.RetVar}
	for i, g := range net.Globals {
		to[g.Var] = s.copies[i][r].Var
	}
	for i, v := range net.LocalBits {
		to[v] = n.LocalBits[i]
	}
	return func(ref bdd.Ref, b int) (bdd.Ref, int) {
		v, ok := to[ref.Var]
		if !ok {
			panic(fmt.Sprintf("seq: a relation mentions %s, not a global, a local or the register", net.M.L.Name(ref.Var)))
		}
		return bdd.Ref{Var: v, Copy: ref.Copy}, b
	}
}
