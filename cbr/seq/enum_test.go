package seq_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/stretchr/testify/require"
)

// TestEnumInStartedProc: a started procedure whose parameter and local
// are of an enum of 2 to 5 constants (with unused codes for 3 and 5). The
// sequential network must be well formed (its wake-up rules give the
// locals valid values only), and both forms find the violation of 3
// contexts within 2 rounds, not within 1, as the round-robin reference
// does.
func TestEnumInStartedProc(t *testing.T) {
	for _, c := range reachcases.Cases() {
		if !strings.HasPrefix(c.Name, "enum-slot") {
			continue
		}
		net, err := c.Build()
		require.NoError(t, err, c.Name)
		for K := 1; K <= 2; K++ {
			ref := roundRobin(t, net, K, 8)
			for _, f := range forms {
				name := fmt.Sprintf("%s K %d %s", c.Name, K, f.name)
				res, err := seq.Engine{Eager: !f.lazy}.Analyze(context.Background(), net, cbr.Options{Bound: K, All: true, Traces: true})
				require.NoError(t, err, name)
				require.NoError(t, res.Limit, name)
				require.Equal(t, ref.list(), engineSites(res), name)
				want := cbr.Safe
				if K == 2 {
					want = cbr.Violation
				}
				require.Equal(t, want, res.Verdict, name)
				if K == 2 {
					require.Equal(t, 2, res.Contexts(), name)
					for _, v := range res.Violations {
						require.NoError(t, v.TraceErr, name)
						require.NotNil(t, v.Trace, name)
					}
				}
			}
		}
	}
}
