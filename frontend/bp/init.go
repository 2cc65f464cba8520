package bp

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
)

// initialise turns the network of a Getafix program, built with init in
// thread 0 at its entry and every other thread at its procedure's entry,
// into the network whose initial configurations are init's final states:
// one post* of thread 0 alone (init runs before any thread starts, so no
// other thread moves meanwhile) gives the globals under which init has
// returned; they become the network's InitGlobals, thread 0's stack is
// empty (init has finished), and every other thread starts at its entry.
//
// When an error label is on top of some configuration of that post*
// (init fails), the initial configurations are instead those where init
// has reached the first such label (in label order): thread 0 at that
// label with any locals, under the globals of the post* there, and every
// other thread at its wait label, which has no rules (init never
// returned, so no thread starts). Every engine then reports that failure
// with 0 contexts; violations of the threads are not searched for.
func (c *compiler) initialise(ctx context.Context, net *pds.Network, lim bdd.Limits) (*pds.Network, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	m := net.M
	var rel bdd.Node
	var failed *pds.Label
	err := m.Run(ctx, lim, func() error {
		sp := symauto.NewSpace(net)
		a, _, err := symauto.PostStar(ctx, sp.Init(net.Threads[0]), 0)
		if err != nil {
			return err
		}
		for _, t := range a.Tops(func(l *pds.Label) bool { return l.Kind.IsError() }) {
			if !t.Globals.IsFalse() {
				failed, rel = t.Label, t.Globals
				break
			}
		}
		if failed == nil {
			rel = a.Finished()
		}
		rel = onlyCur(net, rel)
		return m.Err()
	})
	if err != nil {
		if bdd.IsLimit(err) {
			return nil, fmt.Errorf("bp: computing init's final states: %w", err)
		}
		return nil, err
	}
	name := c.prog.procs[0].name.name
	threads := make([]*pds.Thread, len(net.Threads))
	for i, t := range net.Threads {
		x := *t
		threads[i] = &x
	}
	if failed == nil {
		threads[0].Stack = nil
	} else {
		locals := make([]pds.Init, len(failed.Proc.Locals))
		for i := range locals {
			locals[i] = pds.Init{Any: true}
		}
		threads[0].Stack = []pds.Frame{{Label: failed, Locals: locals}}
		for i, pr := range c.prog.procs[1:] {
			if v := c.orig[pr]; v != nil && v.wait != nil {
				f := threads[i+1].Stack[0]
				threads[i+1].Stack = []pds.Frame{{Label: v.wait, Locals: f.Locals}}
			}
		}
	}
	return net.WithInitial(&pds.InitGlobals{Rel: rel, By: name}, threads)
}

// onlyCur quantifies every variable but the current copy of the globals
// out of a.
func onlyCur(n *pds.Network, a bdd.Node) bdd.Node {
	cur := map[bdd.Ref]bool{}
	for _, r := range n.GlobalRefs(pds.GCur) {
		cur[r] = true
	}
	var other []bdd.Ref
	for _, r := range n.M.Support(a) {
		if !cur[r] {
			other = append(other, r)
		}
	}
	if len(other) == 0 {
		return a
	}
	return n.M.Exists(a, n.M.Set(other...))
}
