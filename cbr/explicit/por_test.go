package explicit_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/cbr/explicit"
	"github.com/stretchr/testify/require"
)

// TestPORMissedBug: the program on which sleep sets under a context bound
// miss a violation (testdata/sleepset.pds) is found with the reduction,
// with its fewest contexts, and the reduction does leave switches out.
func TestPORMissedBug(t *testing.T) {
	net := compile(t, filepath.Join("testdata", "sleepset.pds"))
	for k := 1; k <= 3; k++ {
		want, err := cbr.Analyze(context.Background(), net, cbr.Options{Contexts: k, All: true})
		require.NoError(t, err)
		for _, noPOR := range []bool{false, true} {
			r, err := explicit.Run(context.Background(), net, explicit.Options{Contexts: k, All: true, NoPOR: noPOR})
			require.NoError(t, err)
			require.Equal(t, want.Verdict, r.Verdict, "k %d no-por %v", k, noPOR)
			require.Equal(t, sites(want), sites(&r.Result), "k %d no-por %v", k, noPOR)
			if k >= 2 {
				require.Equal(t, engine.Violation, r.Verdict, "k %d no-por %v", k, noPOR)
				require.Equal(t, 2, r.Contexts(), "k %d no-por %v", k, noPOR)
			}
			if noPOR {
				require.Zero(t, r.Explicit.Reduced)
			} else if k >= 2 {
				require.Positive(t, r.Explicit.Reduced, "k %d: the local step x = true should be reduced", k)
			}
		}
	}
}
