// Command embed is a verifier of its own that embeds cbreach as a
// library: it builds a network with the builder API, compiles another
// from source, and analyses both. The test suite builds and runs it as a
// separate module (cbr/embed_test.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	b := pds.NewBuilder(pds.Options{})
	x := b.Global("x", pds.IntType(2), pds.Init{Value: 0}, pds.Pos{})
	inc := b.Proc("inc", nil, pds.Pos{})
	i0 := b.Label(inc, "inc.0", pds.Pos{})
	check := b.Proc("check", nil, pds.Pos{})
	c0 := b.Label(check, "check.0", pds.Pos{})
	bad := b.ErrorLabel(check, "check.err", pds.Assert, "x != 2", pds.Pos{File: "model", Line: 1})
	b.Thread("t0", pds.Call(inc))
	b.Thread("t1", pds.Call(check))
	n, m := b.Net(), b.Manager()
	xv, xn := n.GlobalVec(x, pds.GCur), n.GlobalVec(x, pds.GNext)
	b.Step(i0, i0, m.And(m.Assign(xn, m.Add(xv, m.ConstVec(1, 2))), n.Unchanged(x)), pds.Pos{})
	b.Step(c0, bad, m.And(m.Eq(xv, m.ConstVec(2, 2)), n.Unchanged()), pds.Pos{})
	net, err := b.Build()
	if err != nil {
		return err
	}
	res, err := cbr.Analyze(context.Background(), net, cbr.Options{Contexts: 3, Split: cbr.Lazy})
	if err != nil {
		return err
	}
	fmt.Println("builder:", res.Verdict, res.Contexts())

	// A limit is a typed error; the network serves again afterwards.
	wide, err := frontend.Compile("wide.pds", []byte("int<16> a = ?; int<16> b = ?; proc m() { assert(a * b != 12345); } start m();"))
	if err != nil {
		return err
	}
	res, err = cbr.Analyze(context.Background(), wide, cbr.Options{Contexts: 1, Limits: cbr.Limits{MaxNodes: 2000}})
	if err != nil {
		return err
	}
	fmt.Println("limit:", res.Verdict, errors.Is(res.Limit, cbr.ErrNodeLimit))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err = cbr.Analyze(ctx, wide, cbr.Options{Contexts: 1})
	if err != nil {
		return err
	}
	fmt.Println("again:", res.Verdict, res.Violations[0].Message)
	return nil
}
