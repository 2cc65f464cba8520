// Command embed is a verifier of its own that embeds cbreach as a
// library: it compiles programs from source and analyses them, with a
// target and with a limit. The test suite builds and runs it as a
// separate module (cbr/tuples/embed_test.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	// The lost update of the bundled examples, compiled from source.
	src := `int<2> counter; int<2> done;
proc worker() { int<2> tmp; tmp = counter; counter = tmp + 1; atomic { done = done + 1; } }
proc check() { assume(done == 2); assert(counter == 2); }
start worker(); start worker(); start check();`
	net, err := frontend.Compile("lost.pds", []byte(src))
	if err != nil {
		return err
	}
	res, err := tuples.Engine{Split: split.Eager}.Analyze(context.Background(), net, cbr.Options{Bound: 4})
	if err != nil {
		return err
	}
	fmt.Println("compiled:", res.Verdict, res.Contexts())

	// A target, given by values and labels, no BDD built by hand: thread
	// 2 at its assertion with the counter at 1.
	var at *pds.Label
	for _, l := range net.Labels {
		if l.Proc.Name == "check" && l.Kind == pds.Assert {
			at = l
		}
	}
	tg := pds.Target{Name: "lost", Globals: []pds.Value{{Global: net.Globals[0], Value: 1}},
		Tops: []pds.Top{{Any: true}, {Any: true}, {Label: at}}}
	res, err = tuples.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 4, All: true, Targets: []pds.Target{tg}})
	if err != nil {
		return err
	}
	fmt.Println("target:", len(res.Violations))

	// A limit is a typed error; the network serves again afterwards.
	wide, err := frontend.Compile("wide.pds", []byte("int<10> a = ?; int<10> b = ?; proc m() { assert(a * b != 1001); } start m();"))
	if err != nil {
		return err
	}
	res, err = tuples.Engine{}.Analyze(context.Background(), wide, cbr.Options{Bound: 1, Limits: cbr.Limits{MaxNodes: 2000}})
	if err != nil {
		return err
	}
	fmt.Println("limit:", res.Verdict, errors.Is(res.Limit, cbr.ErrNodeLimit))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err = tuples.Engine{}.Analyze(ctx, wide, cbr.Options{Bound: 1})
	if err != nil {
		return err
	}
	fmt.Println("again:", res.Verdict, res.Violations[0].Message)
	return nil
}
