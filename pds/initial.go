package pds

import (
	"fmt"

	"github.com/cbreach/cbreach/bdd"
)

// InitGlobals is a set of initial valuations of the globals that no
// product of per-global Init values describes: the final states of an
// initialisation that ran before any thread (Getafix's init procedure, in
// package frontend/bp), say. It replaces the Init values of the globals
// the network had when [Network.WithInitial] set it (their declared
// values are those before the initialisation); globals added later (the
// hidden ones of WithThreadSlots) keep theirs. [Network.InitOf] gives a
// global's own initial value. The threads' initial stacks are as
// Thread.Stack gives them.
type InitGlobals struct {
	// Rel is a BDD over copy GCur of the globals (no other variable).
	Rel bdd.Node
	// By names the initialisation that computed Rel, for traces ("init");
	// empty when the set was given as such.
	By string
	// covers is the number of globals whose Init values Rel replaces.
	covers int
}

// InitOf returns the initial value of g on its own: g.Init, or any value
// when the network's InitGlobals covers g (its value is then in the
// relation).
func (n *Network) InitOf(g *Global) Init {
	if n.InitGlobals != nil && g.Index < n.InitGlobals.covers {
		return Init{Any: true}
	}
	return g.Init
}

// WithInitial returns a copy of n whose initial configurations are the
// given ones: the globals restricted by ig (nil: by their Init values
// alone) and the given threads (their Index set to their position). The
// copy shares globals, procedures, labels and rules with n, and is
// validated as Build validates. Engines read the initial configurations
// through [Network.InitRel] and Thread.Stack (the symbolic ones) or
// package pds/explicit's Initial, which enumerates Rel's valuations.
func (n *Network) WithInitial(ig *InitGlobals, threads []*Thread) (*Network, error) {
	if len(n.Threads) > 0 && n.Threads[len(n.Threads)-1].Slot {
		return nil, fmt.Errorf("pds: WithInitial on a network with thread slots")
	}
	x := *n
	if ig != nil {
		c := *ig
		c.covers = len(n.Globals)
		ig = &c
	}
	x.InitGlobals = ig
	x.Threads = make([]*Thread, len(threads))
	for i, t := range threads {
		c := *t
		c.Index = i
		x.Threads[i] = &c
	}
	if err := x.Validate(); err != nil {
		return nil, err
	}
	return &x, nil
}
