package cuba_test

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
)

// A CUBA system of two threads over shared states 0..2: thread 0 moves
// the shared state from 0 to 1, thread 1 from 1 to 2 (and then pops). The
// target is shared state 2 with thread 1 finished.
func ExampleRead() {
	system := `# two threads
3
PDA 0 1
0 0 -> 1 1
PDA 0 1
1 0 -> 2 -
`
	inst, err := cuba.Read("two.pds", []byte(system), "two.init", []byte("0|0,0\n"), pds.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	tg, err := cuba.ParseTargetString("2|1,-", inst)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tuples.Engine{}.Analyze(context.Background(), inst.Net, cbr.Options{Bound: 3, Targets: []pds.Target{inst.EngineTarget(tg)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, "with", res.Contexts(), "contexts:", res.Violations[0].Message)
	// Output:
	// violation with 2 contexts: visible state 2|1,-
}
