package pds

import (
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds/plural"
)

// Thread creation (docs/design.md, "Threads and forks").
//
// View tuples correlate threads only through the globals, so a forked
// thread must not exist in a tuple where its parent has not forked yet, and
// its arguments must stay paired with the parent state that passed them.
// The exact scheme used here: a fixed number of thread slots. A slot not
// yet started is a dormant thread whose only rules wake it when a hidden
// global says it was created. The fork rule of the parent writes, in the
// same step, the slot counter, the procedure to run and the child's locals
// into hidden per-slot globals; the woken thread reads them into its
// locals and clears them in its first step. A start when every slot is
// taken leads the parent to a Cutoff label: the search is cut off there,
// and the verdict cannot be SAFE.

// slotVars are the hidden globals of the slots.
type slotVars struct {
	created *Global     // number of forked threads so far
	proc    []*Global   // per slot: 0 none, 1+i the i-th spawnable procedure
	args    [][]*Global // per slot: the carried bits of the child's local block, one global each
	bits    []int       // the block bit of each carried bit
	spawn   []*Proc
	dormant []*Label // per slot
	slotPrc *Proc    // the synthetic procedure of the dormant labels
	cutoff  map[*Rule]*Label
	hidden  []*Global
}

func declareSlots(b *Builder, lay *bdd.Layout, rows []int) (*slotVars, error) {
	n := b.net
	capacity := n.MaxThreads - 1
	sv := &slotVars{spawn: b.spawnable, cutoff: map[*Rule]*Label{}}
	add := func(name string, t Type, sig int) *Global {
		g := &Global{Index: len(n.Globals), Name: name, Type: t, Hidden: true}
		if t.Bits == 1 {
			g.Var = lay.BoolAt(name, GlobalCopies, sig)
		} else {
			g.Var = lay.Uint(name, t.Bits, GlobalCopies)
		}
		g.Group = b.localGroup
		lay.Group(g.Var, g.Group)
		n.Globals = append(n.Globals, g)
		sv.hidden = append(sv.hidden, g)
		return g
	}
	sv.created = add("$created", IntType(bdd.BitsFor(capacity+1)), 0)
	names := []string{"-"}
	for _, p := range b.spawnable {
		names = append(names, p.Name)
	}
	// Every code of the type is a value, so that no relation needs to
	// say which are valid: with the bits of equal significance of all
	// globals side by side (bdd.Layout), the validity of many copies of
	// an enum with unused codes (the copies of a sequential network) is
	// exponential in their number. No rule writes the padding codes.
	for len(names) < 1<<bdd.BitsFor(len(names)) {
		names = append(names, fmt.Sprintf("$unused%d", len(names)))
	}
	// The child's local block travels in one hidden bit per block bit, of
	// the same significance: the bits some spawnable procedure's fork
	// rules may set, those of its parameters only for a procedure declared
	// with SpawnableWithParams (its other locals start at 0).
	carried := make([]bool, len(rows))
	for _, p := range b.spawnable {
		for _, l := range p.Locals {
			if l.Param || !b.paramsOnly[p] {
				for _, i := range l.Block {
					carried[i] = true
				}
			}
		}
	}
	for i, c := range carried {
		if c {
			sv.bits = append(sv.bits, i)
		}
	}
	// Every slot takes its code and carried bits in every copy: refuse a
	// count of slots the kernel cannot hold before declaring any.
	per := (bdd.BitsFor(len(names)) + len(sv.bits)) * GlobalCopies
	if need := lay.NumBits() + capacity*per; capacity > bdd.MaxVars || need > bdd.MaxVars {
		return nil, fmt.Errorf("pds: the thread slots of a thread bound of %s (%s, %s each) need more than the %s the kernel has: %w",
			plural.Count(n.MaxThreads, "thread"), plural.Count(capacity, "slot"), plural.Count(per, "BDD variable"), plural.Count(bdd.MaxVars, "BDD variable"), ErrTooLarge)
	}
	for s := 0; s < capacity; s++ {
		sv.proc = append(sv.proc, add(fmt.Sprintf("$slot%d.proc", s), EnumType("$procs", names...), 0))
		var bits []*Global
		for _, i := range sv.bits {
			bits = append(bits, add(fmt.Sprintf("$slot%d.l%d", s, i), BoolType(), rows[i]))
		}
		sv.args = append(sv.args, bits)
	}
	return sv, nil
}

// carriedBit returns the index in a slot's args of block bit i, -1 when
// no slot global carries it (the started thread gets 0 there).
func (sv *slotVars) carriedBit(i int) int {
	for j, b := range sv.bits {
		if b == i {
			return j
		}
	}
	return -1
}

// finishSlots runs at Build: it makes every user relation keep the hidden
// globals, and adds the dormant and cutoff labels.
func (n *Network) finishSlots() {
	sv := n.slots
	if sv == nil {
		return
	}
	vars := make([]bdd.Var, len(sv.hidden))
	for i, g := range sv.hidden {
		vars[i] = g.Var
	}
	keep := n.M.CopyEq(GCur, GNext, vars...)
	for _, r := range n.Rules {
		r.Rel = n.M.And(r.Rel, keep)
	}
	for _, l := range n.Labels {
		if l.Recv != nil {
			rel := n.M.And(*l.Recv, keep)
			l.Recv = &rel
		}
	}
	sv.slotPrc = &Proc{Index: len(n.Procs), Name: "$slot"}
	n.Procs = append(n.Procs, sv.slotPrc)
	newLabel := func(p *Proc, name string, kind LabelKind, pos Pos) *Label {
		l := &Label{ID: len(n.Labels), Name: name, Proc: p, Kind: kind, Pos: pos}
		n.Labels = append(n.Labels, l)
		p.Labels = append(p.Labels, l)
		if p.Entry == nil {
			p.Entry = l
		}
		return l
	}
	for s := range sv.proc {
		sv.dormant = append(sv.dormant, newLabel(sv.slotPrc, fmt.Sprintf("$dormant%d", s), Normal, Pos{}))
	}
	for _, r := range n.Rules {
		if r.Kind == Fork {
			sv.cutoff[r] = newLabel(r.From.Proc, fmt.Sprintf("%s$cutoff%d", r.From.Name, r.Index), Cutoff, r.Pos)
		}
	}
}

// CutoffLabel returns the label a fork rule's thread goes to when every
// thread slot is taken (nil for other rules).
func (n *Network) CutoffLabel(r *Rule) *Label {
	if n.slots == nil {
		return nil
	}
	return n.slots.cutoff[r]
}

// HasForks reports whether the network has fork rules.
func (n *Network) HasForks() bool { return n.slots != nil && len(n.slots.cutoff) > 0 }

// IsDormant reports whether l is the label of a dormant thread slot.
func (n *Network) IsDormant(l *Label) bool {
	return n.slots != nil && l.Proc == n.slots.slotPrc
}

// SlotState decodes, from a valuation of the globals (by Global.Index),
// whether slot s was given a thread that has not started yet, which
// procedure it will run and the values of that procedure's locals (by
// index in Proc.Locals) the thread will start with.
func (n *Network) SlotState(globals []uint64, s int) (pending *Proc, locals []uint64) {
	sv := n.slots
	p := globals[sv.proc[s].Index]
	if p == 0 {
		return nil, nil
	}
	proc := sv.spawn[p-1]
	locals = make([]uint64, len(proc.Locals))
	for i, l := range proc.Locals {
		for b, pos := range l.Block {
			if j := sv.carriedBit(pos); j >= 0 {
				locals[i] |= globals[sv.args[s][j].Index] << b
			}
		}
	}
	return proc, locals
}

// WithThreadSlots returns the network the symbolic engine runs: every fork
// rule replaced by steps on the hidden slot globals, and one dormant thread
// per slot, so that at most maxThreads threads exist (initial ones
// included). Without fork rules it returns n itself. The result shares
// globals, procedures and labels with n.
//
// It is the reduction of thread creation to a fixed set of threads that
// the jMoped paper's Section 2.2 relies on, made exact for view tuples
// (docs/design.md, "Threads and forks"): each fork becomes a fork into a
// free slot and a cutoff (slotting.fork), and each slot a dormant thread
// with its wake-up rules (slotting.wake, slotting.dormant).
func (n *Network) WithThreadSlots(maxThreads int) (*Network, error) {
	forks := false
	for _, r := range n.Rules {
		forks = forks || r.Kind == Fork
	}
	if !forks || n.slots == nil {
		// No forks, or already compiled (HasForks is still true then, but
		// slots must not be added twice).
		return n, nil
	}
	if maxThreads > n.MaxThreads {
		return nil, fmt.Errorf("pds: the network was built for at most %s, not %d", plural.Count(n.MaxThreads, "thread"), maxThreads)
	}
	if maxThreads < len(n.Threads) {
		return nil, fmt.Errorf("pds: the thread bound %d is below the network's %s", maxThreads, plural.Count(len(n.Threads), "initial thread"))
	}
	z := newSlotting(n, maxThreads-len(n.Threads))
	for _, r := range n.Rules {
		if r.Kind != Fork {
			z.add(*r)
			continue
		}
		z.fork(r)
	}
	for s := 0; s < z.d; s++ {
		others := z.othersKept(s)
		for _, p := range z.sv.spawn {
			z.add(Rule{Kind: Step, From: z.sv.dormant[s], To: p.Entry, Rel: z.wake(s, p, others)})
		}
		z.dormant(s)
	}
	z.x.index()
	if err := n.M.Err(); err != nil {
		return nil, err
	}
	return z.x, nil
}

// slotting is one run of WithThreadSlots: the network n, the network x
// it builds (n's globals, procedures and labels, its own rules and
// threads), and the d slots the forks may fill.
type slotting struct {
	n, x          *Network
	sv            *slotVars
	m             *bdd.Manager
	d             int
	hiddenNextSet bdd.VarSet       // the hidden globals' next copies
	slotOf        map[*Proc]uint64 // the code of a spawnable procedure in a slot's proc global
}

func newSlotting(n *Network, d int) *slotting {
	sv, m := n.slots, n.M
	x := *n
	x.Rules = nil
	x.Threads = append([]*Thread(nil), n.Threads...)
	z := &slotting{n: n, x: &x, sv: sv, m: m, d: d, slotOf: map[*Proc]uint64{}}
	hiddenNext := make([]bdd.Ref, len(sv.hidden))
	for i, g := range sv.hidden {
		hiddenNext[i] = bdd.Ref{Var: g.Var, Copy: GNext}
	}
	z.hiddenNextSet = m.Set(hiddenNext...)
	for i, p := range sv.spawn {
		z.slotOf[p] = uint64(i + 1)
	}
	return z
}

// add appends r to x's rules, numbered in order.
func (z *slotting) add(r Rule) {
	r.Index = len(z.x.Rules)
	z.x.Rules = append(z.x.Rules, &r)
}

// eq returns copy c of g == v.
func (z *slotting) eq(g *Global, c int, v uint64) bdd.Node {
	return z.m.Value(bdd.Ref{Var: g.Var, Copy: c}, v)
}

// keepExcept returns hidden' == hidden for every hidden global not in skip.
func (z *slotting) keepExcept(skip ...*Global) bdd.Node {
	m := z.m
	r := m.True()
next:
	for _, g := range z.sv.hidden {
		for _, s := range skip {
			if s == g {
				continue next
			}
		}
		r = m.And(r, m.CopyEq(GCur, GNext, g.Var))
	}
	return r
}

// fork replaces the fork rule r by two steps from its source: the fork
// into the first free slot, which writes the slot counter, the child's
// procedure and its locals (from LSaved) into the slot's hidden globals;
// and, when every slot is taken, the step to r's cutoff label, where the
// parent stops with its globals and locals unchanged.
func (z *slotting) fork(r *Rule) {
	n, m, sv := z.n, z.m, z.sv
	base := m.Exists(r.Rel, z.hiddenNextSet)
	child := r.Child
	alts := m.False()
	for s := 0; s < z.d; s++ {
		c := m.And(z.eq(sv.created, GCur, uint64(s)), z.eq(sv.created, GNext, uint64(s+1)), z.eq(sv.proc[s], GNext, z.slotOf[child]))
		for j, g := range sv.args[s] {
			if i := sv.bits[j]; child.Uses(i) {
				c = m.And(c, m.Equiv(m.Bit(bdd.Ref{Var: g.Var, Copy: GNext}, 0), m.Bit(bdd.Ref{Var: n.LocalBits[i], Copy: LSaved}, 0)))
			} else {
				c = m.And(c, z.eq(g, GNext, 0))
			}
		}
		skip := append([]*Global{sv.created, sv.proc[s]}, sv.args[s]...)
		alts = m.Or(alts, m.And(c, z.keepExcept(skip...)))
	}
	rel := m.AndExists(base, alts, n.sets.L[LSaved])
	z.add(Rule{Kind: Step, From: r.From, To: r.To, Rel: rel, Pos: r.Pos})
	// A start with every slot taken: the parent stops at the cutoff label.
	over := m.Exists(r.Rel, m.Union(n.sets.G[GNext], n.sets.L[LNext], n.sets.L[LSaved]))
	over = m.And(over, z.eq(sv.created, GCur, uint64(z.d)), n.sets.GlobalsEq(GCur, GNext), n.sets.LocalsEq(LCur, LNext))
	z.add(Rule{Kind: Step, From: r.From, To: sv.cutoff[r], Rel: over, Pos: r.Pos})
}

// othersKept returns "every global but slot s's proc and argument
// globals is unchanged", the frame of slot s's wake-up rules.
func (z *slotting) othersKept(s int) bdd.Node {
	skip := append([]*Global{z.sv.proc[s]}, z.sv.args[s]...)
	return z.n.Unchanged(skip...)
}

// wake returns the relation of the wake-up of slot s running p: the step
// of the slot's dormant thread to p's entry when the slot's proc global
// says p, which reads the slot's carried bits into p's locals (the other
// bits of the block at 0, every local a value of its type) and clears
// the slot's globals; the other globals are unchanged (others, from
// othersKept).
func (z *slotting) wake(s int, p *Proc, others bdd.Node) bdd.Node {
	n, m, sv := z.n, z.m, z.sv
	rel := m.And(z.eq(sv.proc[s], GCur, z.slotOf[p]), z.eq(sv.proc[s], GNext, 0), others)
	for j, g := range sv.args[s] {
		rel = m.And(rel, z.eq(g, GNext, 0))
		if i := sv.bits[j]; p.Uses(i) {
			rel = m.And(rel, m.Equiv(m.Bit(bdd.Ref{Var: g.Var, Copy: GCur}, 0), m.Bit(bdd.Ref{Var: n.LocalBits[i], Copy: LNext}, 0)))
		}
	}
	// The bits no slot global carries start at 0.
	for i := range n.LocalBits {
		if p.Uses(i) && sv.carriedBit(i) < 0 {
			rel = m.And(rel, m.Not(m.Bit(bdd.Ref{Var: n.LocalBits[i], Copy: LNext}, 0)))
		}
	}
	// The slot bits hold what a fork rule wrote from the child's
	// valid locals; saying so lets every engine (and Validate)
	// know that an enum local with unused codes gets a constant.
	for _, l := range p.Locals {
		rel = m.And(rel, n.validType(n.LocalVec(l, LNext), l.Type))
	}
	return m.And(rel, n.padding(p, LNext))
}

// dormant appends the thread of slot s: one frame on its dormant label,
// numbered after the threads before it.
func (z *slotting) dormant(s int) {
	x := z.x
	x.Threads = append(x.Threads, &Thread{
		Index: len(x.Threads),
		Name:  fmt.Sprintf("thread%d", len(x.Threads)),
		Stack: []Frame{{Label: z.sv.dormant[s], Locals: nil}},
		Slot:  true,
	})
}
