package pds

import (
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds/plural"
)

// The sanity checker behind Network.Validate (after x/tools/go/ssa's
// sanity.go): a sanity value walks the network one concern at a time,
// global variables, labels, procedures, rules by kind, receive relations,
// threads, and collects every broken invariant into an ErrorList instead
// of stopping at the first. The order of the checks is the order of the
// errors.

// invalidNetwork starts every message of Validate.
const invalidNetwork = "pds: invalid network"

// maxSanityErrors is the number of errors Validate reports before "and N
// more".
const maxSanityErrors = 10

// copies are the variable copies a kind of relation may mention: bit masks
// over the global and the local copy numbers, and whether it may mention
// the return register.
type copies struct {
	g, l uint
	r    bool
}

var allowed = map[string]copies{
	"step": {g: 1<<GCur | 1<<GNext, l: 1<<LCur | 1<<LNext},
	"push": {g: 1<<GCur | 1<<GNext, l: 1<<LCur | 1<<LNext | 1<<LSaved},
	"pop":  {g: 1<<GCur | 1<<GNext, l: 1 << LCur, r: true},
	"fork": {g: 1<<GCur | 1<<GNext, l: 1<<LCur | 1<<LNext | 1<<LSaved},
	"recv": {g: 1<<GCur | 1<<GNext, l: 1<<LCur | 1<<LNext, r: true},
}

// sanity is the state of one Validate run.
type sanity struct {
	n       *Network
	errs    ErrorList
	blockOf map[bdd.Var]byte // 'G' global, 'L' local block, 'R' return register
	inNet   map[*Label]bool  // the labels of n.Labels
	// inProc counts, per procedure met, the occurrences of each label in
	// its Labels; it is filled once per procedure, so that checking every
	// label takes linear time.
	inProc map[*Proc]map[*Label]int
	// valid caches, per variable (a global or a local) and copy, the
	// values of its type (validOf): every rule asks for the same ones.
	valid map[validKey]bdd.Node
	// clean holds the relations (node, kind) whose support was found
	// allowed: rules with the same relation need no second walk (CUBA's
	// Dekker has 2,698 rules over 129 shared states). The rules hold
	// their relations, so the node ids stay theirs.
	clean map[cleanKey]bool
}

type cleanKey struct {
	rel  int
	kind string
}

type validKey struct {
	v any // *Global or *Local
	c int
}

// validOf returns validType of copy c of v, a *Global or a *Local,
// computed once per sanity check.
func (s *sanity) validOf(v any, c int) bdd.Node {
	k := validKey{v, c}
	if x, ok := s.valid[k]; ok {
		return x
	}
	var x bdd.Node
	switch v := v.(type) {
	case *Global:
		x = s.n.validType(s.n.GlobalVec(v, c), v.Type)
	case *Local:
		x = s.n.validType(s.n.LocalVec(v, c), v.Type)
	default:
		panic(fmt.Sprintf("pds: validOf(%T)", v))
	}
	s.valid[k] = x
	return x
}

func newSanity(n *Network) *sanity {
	s := &sanity{n: n, blockOf: map[bdd.Var]byte{}, inNet: map[*Label]bool{}, inProc: map[*Proc]map[*Label]int{}, valid: map[validKey]bdd.Node{}, clean: map[cleanKey]bool{}}
	for _, g := range n.Globals {
		s.blockOf[g.Var] = 'G'
	}
	for _, v := range n.LocalBits {
		s.blockOf[v] = 'L'
	}
	s.blockOf[n.RetVar] = 'R'
	for _, l := range n.Labels {
		s.inNet[l] = true
	}
	return s
}

// errorf records a broken invariant at pos (the zero Pos when unknown).
func (s *sanity) errorf(pos Pos, format string, args ...any) {
	s.errs.Add(pos, invalidNetwork+": "+fmt.Sprintf(format, args...))
}

// check runs every check in order.
func (s *sanity) check() {
	for _, g := range s.n.Globals {
		s.checkGlobal(g)
	}
	for i, l := range s.n.Labels {
		s.checkLabel(i, l)
	}
	for _, p := range s.n.Procs {
		s.checkProc(p)
	}
	for i, r := range s.n.Rules {
		// A limit or a cancellation (Validate returns it) ends the
		// checks: they may run long on the validity relations the
		// checker keeps, without a BDD operation that would notice.
		if s.n.M.Poll() != nil || i%4096 == 4095 && s.n.M.Check() != nil {
			return
		}
		s.checkRule(i, r)
	}
	for _, l := range s.n.Labels {
		if l.Recv != nil {
			s.checkRecv(l)
		}
	}
	s.checkThreads()
	s.checkInitGlobals()
}

// checkInitGlobals checks that the initial relation of the globals, when
// there is one, mentions only their current copy.
func (s *sanity) checkInitGlobals() {
	ig := s.n.InitGlobals
	if ig == nil {
		return
	}
	for _, r := range s.n.M.Support(ig.Rel) {
		if s.blockOf[r.Var] != 'G' || r.Copy != GCur {
			s.errorf(Pos{}, "initial globals: relation mentions %s copy %d, not a global's current copy", s.n.M.L.Name(r.Var), r.Copy)
		}
	}
}

// checkGlobal checks that an initial value fits the global's type.
func (s *sanity) checkGlobal(g *Global) {
	if !g.Init.Any && !g.Type.holds(g.Init.Value) {
		s.errorf(g.Pos, "global %s: initial value %d out of range for %s", g.Name, g.Init.Value, g.Type)
	}
}

// checkLabel checks that label l, at index i of the network, has ID i and
// appears once in the labels of its procedure.
func (s *sanity) checkLabel(i int, l *Label) {
	if l.ID != i {
		s.errorf(l.Pos, "label %s has ID %d at index %d", l.Name, l.ID, i)
	}
	if l.Proc == nil {
		s.errorf(l.Pos, "label %s belongs to no procedure", l.Name)
		return
	}
	count, ok := s.inProc[l.Proc]
	if !ok {
		count = map[*Label]int{}
		for _, x := range l.Proc.Labels {
			count[x]++
		}
		s.inProc[l.Proc] = count
	}
	if count := count[l]; count != 1 {
		s.errorf(l.Pos, "label %s appears %s in procedure %s", l.Name, plural.Count(count, "time"), l.Proc.Name)
	}
}

// checkProc checks a procedure's entry and labels, and that its locals
// occupy distinct bits of the local block that the procedure uses.
func (s *sanity) checkProc(p *Proc) {
	if len(p.Labels) > 0 && p.Entry == nil {
		s.errorf(p.Pos, "procedure %s has no entry", p.Name)
	}
	if p.Entry != nil && p.Entry.Proc != p {
		s.errorf(p.Pos, "procedure %s: entry %s belongs to %s", p.Name, p.Entry.Name, p.Entry.Proc.Name)
	}
	for _, l := range p.Labels {
		if !s.inNet[l] {
			s.errorf(l.Pos, "procedure %s: label %s is not in the network", p.Name, l.Name)
		}
	}
	used := map[int]bool{}
	for _, l := range p.Locals {
		if l.Proc != p || len(l.Block) != l.Type.Bits {
			s.errorf(l.Pos, "procedure %s: local %s misplaced", p.Name, l.Name)
			continue
		}
		for _, i := range l.Block {
			if i < 0 || i >= len(s.n.LocalBits) || used[i] || !p.Uses(i) {
				s.errorf(l.Pos, "procedure %s: local %s misplaced in the local block", p.Name, l.Name)
			}
			used[i] = true
		}
	}
}

// describe names what is checked, formatted only for an error message
// (most networks have none, and formatting every rule's name was a few
// per cent of compiling one).
type describe func() string

func (d describe) String() string { return d() }

// checkRule checks rule r, at index i of the network: its index, that its
// source is a live label of the network, its targets by kind, the validity
// of its outputs and the copies its relation mentions.
func (s *sanity) checkRule(i int, r *Rule) {
	what := describe(func() string { return fmt.Sprintf("rule %d (%s from %s)", i, r.Kind, r.From) })
	if r.Index != i {
		s.errorf(r.Pos, "%s has index %d", what, r.Index)
	}
	if r.From == nil || !s.inNet[r.From] {
		s.errorf(r.Pos, "rule %d: source label missing or foreign", i)
		return
	}
	if r.From.Kind != Normal {
		s.errorf(r.Pos, "%s: %s labels are dead ends and have no rules", what, r.From.Kind)
	}
	switch r.Kind {
	case Step, Fork:
		if !s.checkStepOrFork(what, r) {
			return
		}
	case Push:
		if !s.checkPush(what, r) {
			return
		}
	case Pop:
		s.checkOutputs(what, r.Pos, r.Rel, r.From.Proc)
	}
	s.checkSupport(what, r.Pos, r.Kind.String(), r.Rel)
}

// checkStepOrFork checks the target of a step or fork rule (in the source's
// procedure, or a procedure entry for a dormant slot's wake-up step), a
// fork's child, and the outputs. It reports false when the target is
// missing and the rule cannot be checked further.
func (s *sanity) checkStepOrFork(what describe, r *Rule) bool {
	if r.To == nil || !s.inNet[r.To] {
		s.errorf(r.Pos, "%s: target label missing or foreign", what)
		return false
	}
	if r.Kind == Step && s.n.IsDormant(r.From) {
		// WithThreadSlots: a dormant slot wakes at the entry of the
		// procedure its thread runs.
		if r.To != r.To.Proc.Entry {
			s.errorf(r.Pos, "%s: a dormant slot must wake at a procedure entry, not %s", what, r.To)
		}
	} else {
		s.checkSameProc(r, r.From, r.To, "target")
	}
	if r.Kind == Fork {
		if r.Child == nil || r.Child.Entry == nil {
			s.errorf(r.Pos, "%s: no child procedure", what)
		} else if s.n.slots == nil || !contains(s.n.slots.spawn, r.Child) {
			s.errorf(r.Pos, "%s: procedure %s was not declared spawnable", what, r.Child.Name)
		}
	}
	outs := []procCopy{{r.To.Proc, LNext}}
	if r.Kind == Fork && r.Child != nil {
		outs = append(outs, procCopy{r.Child, LSaved})
	}
	s.checkOutputs(what, r.Pos, r.Rel, r.From.Proc, outs...)
	return true
}

// checkPush checks a push rule's callee entry and return point (in the
// caller's procedure) and its outputs: the callee's locals in LNext, the
// caller's saved frame in LSaved. It reports false when a label is missing
// and the rule cannot be checked further.
func (s *sanity) checkPush(what describe, r *Rule) bool {
	if r.To == nil || r.Ret == nil || !s.inNet[r.To] || !s.inNet[r.Ret] {
		s.errorf(r.Pos, "%s: callee entry or return label missing or foreign", what)
		return false
	}
	s.checkSameProc(r, r.From, r.Ret, "return point")
	s.checkOutputs(what, r.Pos, r.Rel, r.From.Proc, procCopy{r.To.Proc, LNext}, procCopy{r.Ret.Proc, LSaved})
	return true
}

// checkSameProc checks that label b of rule r (its what) is in a's
// procedure.
func (s *sanity) checkSameProc(r *Rule, a, b *Label, what string) {
	if a.Proc != b.Proc {
		s.errorf(r.Pos, "rule %d (%s %s): %s %s belongs to %s, not %s", r.Index, r.Kind, r.From, what, b.Name, b.Proc.Name, a.Proc.Name)
	}
}

// checkRecv checks the receive relation of return point l: its copies and
// its outputs (globals, and l's procedure's locals in LNext).
func (s *sanity) checkRecv(l *Label) {
	what := describe(func() string { return fmt.Sprintf("receive relation of %s", l.Name) })
	s.checkSupport(what, l.Pos, "recv", *l.Recv)
	s.checkOutputs(what, l.Pos, *l.Recv, l.Proc, procCopy{l.Proc, LNext})
}

// checkSupport checks that rel, the relation of a rule or receive of the
// given kind ("step", ..., "recv"), mentions only the copies allowed.
func (s *sanity) checkSupport(what describe, pos Pos, kind string, rel bdd.Node) {
	k := cleanKey{rel.ID(), kind}
	if s.clean[k] {
		return
	}
	a, errs := allowed[kind], len(s.errs)
	defer func() {
		if len(s.errs) == errs {
			s.clean[k] = true
		}
	}()
	for _, r := range s.n.M.Support(rel) {
		ok := false
		switch s.blockOf[r.Var] {
		case 'G':
			ok = a.g&(1<<r.Copy) != 0
		case 'L':
			ok = a.l&(1<<r.Copy) != 0
		case 'R':
			ok = a.r
		}
		if !ok {
			s.errorf(pos, "%s: relation mentions %s copy %d, not allowed in a %s relation", what, s.n.M.L.Name(r.Var), r.Copy, kind)
		}
	}
}

// checkOutputs checks that rel, applied to valid values (the globals and
// the locals of in, current copies), gives valid values to the globals and
// to the locals of each output procedure in its copy. Each output is
// checked on its own: the relation's values that make it invalid,
// restricted to valid inputs one input at a time, the input of the same
// variable first, until none is left. (Conjoining the validity of every
// input with the relation up front costs the product of the constraints
// when the variables' bits interleave, as they do in the layout: seconds
// on the sequential networks of package cbr/seq.)
func (s *sanity) checkOutputs(what describe, pos Pos, rel bdd.Node, in *Proc, outs ...procCopy) {
	n := s.n
	var inputs []bdd.Node
	own := map[any]bdd.Node{}
	for _, g := range n.Globals {
		v := s.validOf(g, GCur)
		if !v.IsTrue() {
			inputs = append(inputs, v)
			own[g] = v
		}
	}
	if in != nil {
		for _, l := range in.Locals {
			v := s.validOf(l, LCur)
			if !v.IsTrue() {
				inputs = append(inputs, v)
				own[l] = v
			}
		}
	}
	valid := func(out bdd.Node, self any) bool {
		if out.IsTrue() {
			return true
		}
		bad := n.M.Diff(rel, out)
		if v, ok := own[self]; ok {
			bad = n.M.And(bad, v)
		}
		for _, v := range inputs {
			if bad.IsFalse() {
				return true
			}
			bad = n.M.And(bad, v)
		}
		return bad.IsFalse()
	}
	for _, g := range n.Globals {
		if !valid(s.validOf(g, GNext), g) {
			s.errorf(pos, "%s: relation may give %s an invalid value", what, g.Name)
		}
	}
	for _, o := range outs {
		for _, l := range o.p.Locals {
			var self any
			if o.p == in {
				self = l
			}
			if !valid(s.validOf(l, o.c), self) {
				s.errorf(pos, "%s: relation may give local %s.%s an invalid value", what, l.Proc.Name, l.Name)
			}
		}
	}
}

// checkThreads checks that there is a thread and that every frame of every
// thread is on a label of the network with values of its locals' types.
func (s *sanity) checkThreads() {
	if len(s.n.Threads) == 0 {
		s.errorf(Pos{}, "no threads")
	}
	for _, t := range s.n.Threads {
		for k, f := range t.Stack {
			if f.Label == nil || !s.inNet[f.Label] {
				s.errorf(Pos{}, "thread %s: frame %d has no label of the network", t.Name, k)
				continue
			}
			p := f.Label.Proc
			if len(f.Locals) != len(p.Locals) {
				s.errorf(Pos{}, "thread %s: frame %d has %s, %s has %d", t.Name, k, plural.Count(len(f.Locals), "local"), p.Name, len(p.Locals))
				continue
			}
			for i, v := range f.Locals {
				if !v.Any && !p.Locals[i].Type.holds(v.Value) {
					s.errorf(Pos{}, "thread %s: frame %d: value %d out of range for %s", t.Name, k, v.Value, p.Locals[i].Name)
				}
			}
		}
	}
}
