package tuples_test

import (
	"context"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"

	"github.com/cbreach/cbreach/internal/testkit/reachcases"
)

// TestSmoke runs the shared counter case (the network of the pds package's
// Example, from source) with eager and lazy splitting and no pruning, and
// logs the figures of each run.
func TestSmoke(t *testing.T) {
	c := reachcases.Lookup("counter")
	for _, v := range reachcases.Variants() {
		if v.CBR == nil || v.CBR.Prune != tuples.PruneNone {
			continue
		}
		for k := 1; k <= c.K; k++ {
			net, err := c.Build()
			if err != nil {
				t.Fatal(err)
			}
			o, err := v.Run(context.Background(), net, k)
			if err != nil {
				t.Fatal(err)
			}
			r := o.Raw.(*cbr.Result)
			t.Logf("%s k=%d: %s contexts=%d tuples=%d perlevel=%v", v.Name, k, r.Verdict, r.Contexts(), r.Stats.ViewTuples, r.Stats.TuplesPerLevel)
			if want := c.At(k); o.Verdict != want.Verdict {
				t.Errorf("%s k=%d: got %s want %s", v.Name, k, o.Verdict, want.Verdict)
			}
		}
	}
}
