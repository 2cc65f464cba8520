package pds

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/bdd"
)

// allowed copies per relation: bit masks over the copy numbers.
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

// Validate checks the network's invariants: every label belongs to exactly
// one procedure, rules connect labels as their kind requires (a step stays
// in its procedure, except the wake-up steps of WithThreadSlots' dormant
// slots, which go to a procedure entry), relations mention only the
// variable copies their kind allows and, applied to valid values, produce
// valid enum values in every output copy (globals, the new top's locals,
// the saved frame's or the forked thread's locals), error labels are dead
// ends, threads start on existing labels with well-typed locals. Build
// calls it; tests call it on every network, slotted ones included.
func (n *Network) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }

	blockOf := map[bdd.Var]byte{}
	for _, g := range n.Globals {
		blockOf[g.Var] = 'G'
		if !g.Init.Any && g.Init.Value >= g.Type.numValues() {
			bad("global %s: initial value %d out of range for %s", g.Name, g.Init.Value, g.Type)
		}
	}
	for _, v := range n.LocalBits {
		blockOf[v] = 'L'
	}
	blockOf[n.RetVar] = 'R'

	for i, l := range n.Labels {
		if l.ID != i {
			bad("label %s has ID %d at index %d", l.Name, l.ID, i)
		}
		if l.Proc == nil {
			bad("label %s belongs to no procedure", l.Name)
			continue
		}
		count := 0
		for _, x := range l.Proc.Labels {
			if x == l {
				count++
			}
		}
		if count != 1 {
			bad("label %s appears %d times in procedure %s", l.Name, count, l.Proc.Name)
		}
	}
	inNet := map[*Label]bool{}
	for _, l := range n.Labels {
		inNet[l] = true
	}
	for _, p := range n.Procs {
		if len(p.Labels) > 0 && p.Entry == nil {
			bad("procedure %s has no entry", p.Name)
		}
		if p.Entry != nil && p.Entry.Proc != p {
			bad("procedure %s: entry %s belongs to %s", p.Name, p.Entry.Name, p.Entry.Proc.Name)
		}
		for _, l := range p.Labels {
			if !inNet[l] {
				bad("procedure %s: label %s is not in the network", p.Name, l.Name)
			}
		}
		used := map[int]bool{}
		for _, l := range p.Locals {
			if l.Proc != p || len(l.Block) != l.Type.Bits {
				bad("procedure %s: local %s misplaced", p.Name, l.Name)
				continue
			}
			for _, i := range l.Block {
				if i < 0 || i >= len(n.LocalBits) || used[i] || !p.Uses(i) {
					bad("procedure %s: local %s misplaced in the local block", p.Name, l.Name)
				}
				used[i] = true
			}
		}
	}

	checkSupport := func(what, kind string, rel bdd.Node) {
		a := allowed[kind]
		for _, r := range n.M.Support(rel) {
			ok := false
			switch blockOf[r.Var] {
			case 'G':
				ok = a.g&(1<<r.Copy) != 0
			case 'L':
				ok = a.l&(1<<r.Copy) != 0
			case 'R':
				ok = a.r
			}
			if !ok {
				bad("%s: relation mentions %s copy %d, not allowed in a %s relation", what, n.M.L.Name(r.Var), r.Copy, kind)
			}
		}
	}
	// validOut checks that rel, applied to valid values (the globals and
	// the locals of in, current copies), gives valid values to the globals
	// and to the locals of each output procedure in its copy.
	validOut := func(what string, rel bdd.Node, in *Proc, outs ...procCopy) {
		for _, g := range n.Globals {
			rel = n.M.And(rel, n.validType(n.GlobalVec(g, GCur), g.Type))
		}
		if in != nil {
			for _, l := range in.Locals {
				rel = n.M.And(rel, n.validType(n.LocalVec(l, LCur), l.Type))
			}
		}
		for _, g := range n.Globals {
			if v := n.validType(n.GlobalVec(g, GNext), g.Type); !n.M.Implies(rel, v) {
				bad("%s: relation may give %s an invalid value", what, g.Name)
			}
		}
		for _, o := range outs {
			for _, l := range o.p.Locals {
				if v := n.validType(n.LocalVec(l, o.c), l.Type); !n.M.Implies(rel, v) {
					bad("%s: relation may give local %s.%s an invalid value", what, l.Proc.Name, l.Name)
				}
			}
		}
	}
	sameProc := func(r *Rule, a, b *Label, what string) {
		if a.Proc != b.Proc {
			bad("rule %d (%s %s): %s %s belongs to %s, not %s", r.Index, r.Kind, r.From, what, b.Name, b.Proc.Name, a.Proc.Name)
		}
	}
	for i, r := range n.Rules {
		what := fmt.Sprintf("rule %d (%s from %s)", i, r.Kind, r.From)
		if r.Index != i {
			bad("%s has index %d", what, r.Index)
		}
		if r.From == nil || !inNet[r.From] {
			bad("rule %d: source label missing or foreign", i)
			continue
		}
		if r.From.Kind != Normal {
			bad("%s: %s labels are dead ends and have no rules", what, r.From.Kind)
		}
		switch r.Kind {
		case Step, Fork:
			if r.To == nil || !inNet[r.To] {
				bad("%s: target label missing or foreign", what)
				continue
			}
			if r.Kind == Step && n.IsDormant(r.From) {
				// WithThreadSlots: a dormant slot wakes at the entry of
				// the procedure its thread runs.
				if r.To != r.To.Proc.Entry {
					bad("%s: a dormant slot must wake at a procedure entry, not %s", what, r.To)
				}
			} else {
				sameProc(r, r.From, r.To, "target")
			}
			if r.Kind == Fork {
				if r.Child == nil || r.Child.Entry == nil {
					bad("%s: no child procedure", what)
				} else if n.slots == nil || !contains(n.slots.spawn, r.Child) {
					bad("%s: procedure %s was not declared spawnable", what, r.Child.Name)
				}
			}
			outs := []procCopy{{r.To.Proc, LNext}}
			if r.Kind == Fork && r.Child != nil {
				outs = append(outs, procCopy{r.Child, LSaved})
			}
			validOut(what, r.Rel, r.From.Proc, outs...)
		case Push:
			if r.To == nil || r.Ret == nil || !inNet[r.To] || !inNet[r.Ret] {
				bad("%s: callee entry or return label missing or foreign", what)
				continue
			}
			sameProc(r, r.From, r.Ret, "return point")
			validOut(what, r.Rel, r.From.Proc, procCopy{r.To.Proc, LNext}, procCopy{r.Ret.Proc, LSaved})
		case Pop:
			validOut(what, r.Rel, r.From.Proc)
		}
		checkSupport(what, r.Kind.String(), r.Rel)
	}
	for _, l := range n.Labels {
		if l.Recv != nil {
			what := fmt.Sprintf("receive relation of %s", l.Name)
			checkSupport(what, "recv", *l.Recv)
			validOut(what, *l.Recv, l.Proc, procCopy{l.Proc, LNext})
		}
	}
	if len(n.Threads) == 0 {
		bad("no threads")
	}
	for _, t := range n.Threads {
		for k, f := range t.Stack {
			if f.Label == nil || !inNet[f.Label] {
				bad("thread %s: frame %d has no label of the network", t.Name, k)
				continue
			}
			p := f.Label.Proc
			if len(f.Locals) != len(p.Locals) {
				bad("thread %s: frame %d has %d locals, %s has %d", t.Name, k, len(f.Locals), p.Name, len(p.Locals))
				continue
			}
			for i, v := range f.Locals {
				if !v.Any && v.Value >= p.Locals[i].Type.numValues() {
					bad("thread %s: frame %d: value %d out of range for %s", t.Name, k, v.Value, p.Locals[i].Name)
				}
			}
		}
	}
	if err := n.M.Err(); err != nil {
		return err
	}
	if len(errs) > 0 {
		if len(errs) > 10 {
			errs = append(errs[:10], fmt.Sprintf("and %d more", len(errs)-10))
		}
		return errors.New("pds: invalid network:\n\t" + strings.Join(errs, "\n\t"))
	}
	return nil
}

// procCopy names the locals of a procedure in one copy of the local block.
type procCopy struct {
	p *Proc
	c int
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
