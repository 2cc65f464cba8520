package pds

import (
	"fmt"

	"github.com/cbreach/cbreach/bdd"
)

// CopyTo returns a copy of n whose BDDs live in m, a manager of n's own
// layout (made by bdd.New(n.M.L, cfg)), so that the two networks can be
// analysed at the same time on two goroutines: a BDD manager is not safe
// for concurrent use (docs/design.md, "BDD variable layout"), and neither
// is the cache of renamings and frame conditions a network keeps
// (Network.Sets).
//
// The copy has procedures, locals, labels, rules and threads of its own,
// numbered as n's (Label.ID, Rule.Index, Proc.Index, Thread.Index), with
// the same names and positions, so that n.Labels[l.ID] is the label of n
// that a label l of the copy stands for; its relations (the rules', the
// receive relations, the initial globals') are n's translated into m
// (bdd.Manager.Translate, linear in their size: the layout, hence the
// variable order, is the same). It shares with n what holds no BDD and
// never changes once built: the globals, whose variables are the same in
// both managers, the types and the locals' block positions.
//
// n's manager must not run operations while CopyTo reads its table. A
// limit of m reached while copying (m's limits, or those of a
// bdd.Manager.Run around the call) is returned as m's error, with no
// network. It panics when m is not a manager of n's layout.
func (n *Network) CopyTo(m *bdd.Manager) (*Network, error) {
	if m.L != n.M.L {
		panic("pds: CopyTo a manager of another layout")
	}
	if err := n.M.Err(); err != nil {
		return nil, fmt.Errorf("pds: CopyTo from a failed manager: %w", err)
	}
	same := func(r bdd.Ref, b int) (bdd.Ref, int) { return r, b }
	tr := func(a bdd.Node) bdd.Node { return m.Translate(n.M, a, same) }

	x := *n
	x.M = m
	x.Globals = append([]*Global(nil), n.Globals...)
	x.LocalBits = append([]bdd.Var(nil), n.LocalBits...)
	procs := make(map[*Proc]*Proc, len(n.Procs))
	labels := make(map[*Label]*Label, len(n.Labels))
	rules := make(map[*Rule]*Rule, len(n.Rules))
	x.Labels = make([]*Label, len(n.Labels))
	for i, l := range n.Labels {
		c := *l
		if l.Recv != nil {
			recv := tr(*l.Recv)
			c.Recv = &recv
		}
		x.Labels[i] = &c
		labels[l] = &c
	}
	label := func(l *Label) *Label {
		if l == nil {
			return nil
		}
		c, ok := labels[l]
		if !ok {
			panic(fmt.Sprintf("pds: CopyTo: label %s is not among the network's", l.Name))
		}
		return c
	}
	x.Procs = make([]*Proc, len(n.Procs))
	for i, p := range n.Procs {
		c := *p
		c.Entry = label(p.Entry)
		c.Labels = make([]*Label, len(p.Labels))
		for j, l := range p.Labels {
			c.Labels[j] = label(l)
		}
		locals := make(map[*Local]*Local, len(p.Locals))
		c.Locals = make([]*Local, len(p.Locals))
		for j, l := range p.Locals {
			lc := *l
			lc.Proc = &c
			c.Locals[j] = &lc
			locals[l] = &lc
		}
		c.Params = make([]*Local, len(p.Params))
		for j, l := range p.Params {
			c.Params[j] = locals[l]
		}
		x.Procs[i] = &c
		procs[p] = &c
	}
	proc := func(p *Proc) *Proc {
		if p == nil {
			return nil
		}
		return procs[p]
	}
	for _, l := range x.Labels {
		l.Proc = proc(l.Proc)
	}
	x.Rules = make([]*Rule, len(n.Rules))
	for i, r := range n.Rules {
		c := *r
		c.From, c.To, c.Ret, c.Child = label(r.From), label(r.To), label(r.Ret), proc(r.Child)
		c.Rel = tr(r.Rel)
		x.Rules[i] = &c
		rules[r] = &c
	}
	x.Threads = make([]*Thread, len(n.Threads))
	for i, t := range n.Threads {
		c := *t
		c.Stack = make([]Frame, len(t.Stack))
		for j, f := range t.Stack {
			c.Stack[j] = Frame{Label: label(f.Label), Locals: f.Locals}
		}
		x.Threads[i] = &c
	}
	if ig := n.InitGlobals; ig != nil {
		c := *ig
		c.Rel = tr(ig.Rel)
		x.InitGlobals = &c
	}
	if sv := n.slots; sv != nil {
		c := *sv
		c.spawn = make([]*Proc, len(sv.spawn))
		for i, p := range sv.spawn {
			c.spawn[i] = proc(p)
		}
		c.dormant = make([]*Label, len(sv.dormant))
		for i, l := range sv.dormant {
			c.dormant[i] = label(l)
		}
		c.slotPrc = proc(sv.slotPrc)
		c.cutoff = make(map[*Rule]*Label, len(sv.cutoff))
		for r, l := range sv.cutoff {
			// The fork rules of the network before WithThreadSlots, when
			// n is the slotted one: its own rules have no forks, and the
			// keys only name the rules (CutoffLabel).
			key := r
			if cr, ok := rules[r]; ok {
				key = cr
			}
			c.cutoff[key] = label(l)
		}
		x.slots = &c
	}
	x.index()
	x.sets = newSets(&x)
	if err := m.Err(); err != nil {
		return nil, err
	}
	return &x, nil
}
