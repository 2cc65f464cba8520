package seq_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/stretchr/testify/require"
)

// TestOpenCases runs both forms on the hand-made cases of open data of
// the shared table (reachcases.Cases with OpenBits set: 8 bits every
// day, the 16-bit ones of reachcases.Wide in the long tier), whose
// answers are known by construction, within K = 1 and 2 rounds, and
// compares them through the relation between rounds and contexts (as
// TestBoundsAgainstCBR does with the view-tuple engine, which runs here
// too): every violation of the case with c <= K contexts is found within
// c rounds or fewer; every violation found within r rounds is one of the
// case's with at most n*r contexts (n threads) when n*r is within the
// case's bound; and where the case is safe within n*K contexts the form
// is safe within K rounds. No run may stop at a limit: these programs are
// small, and an UNKNOWN from a limit would be no answer.
func TestOpenCases(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, c := range reachcases.Cases() {
		if c.OpenBits == 0 {
			continue
		}
		net, err := c.Build()
		require.NoError(t, err, c.Name)
		n := threadsOf(net)
		for K := 1; K <= 2; K++ {
			for _, f := range forms {
				name := fmt.Sprintf("%s K %d %s", c.Name, K, f.name)
				res, err := seq.Engine{Eager: !f.lazy}.Analyze(ctx, net, cbr.Options{Bound: K, All: true, Traces: true})
				require.NoError(t, err, name)
				require.NoError(t, res.Limit, name)
				rounds := map[string]int{}
				for _, v := range res.Violations {
					require.NoError(t, v.TraceErr, name)
					rounds[v.Label.Name] = v.Contexts
				}
				for _, s := range c.Want.Sites {
					l, cs := site(t, s)
					if cs <= K {
						r, ok := rounds[l]
						require.True(t, ok && r <= cs, "%s: %s with %d contexts, not within %d rounds (%v)", name, l, cs, cs, rounds)
					}
				}
				if n*K <= c.K {
					want := c.At(n * K)
					for l, r := range rounds {
						found := false
						for _, s := range want.Sites {
							if wl, cs := site(t, s); wl == l && cs <= n*r {
								found = true
							}
						}
						require.True(t, found, "%s: %s within %d rounds, not among %v", name, l, r, want.Sites)
					}
					if want.Verdict == cbr.Safe {
						require.Equal(t, cbr.Safe, res.Verdict, "%s: safe at %d contexts", name, n*K)
					}
				}
				// The view-tuple engine (lazy) at K contexts answers as
				// the case does.
				byCtx, err := tuples.Engine{}.Analyze(ctx, net, cbr.Options{Bound: min(K, c.K), All: true})
				require.NoError(t, err, name)
				require.NoError(t, byCtx.Limit, name)
				require.Equal(t, c.At(min(K, c.K)).Verdict, byCtx.Verdict, "%s: cbr", name)
				if res.Verdict == cbr.Safe {
					require.Equal(t, cbr.Safe, byCtx.Verdict, "%s: safe within %d rounds, not at %d contexts", name, K, K)
				}
				checked++
			}
		}
	}
	require.Positive(t, checked, "no case of open data")
}

// site splits label@contexts.
func site(t *testing.T, s string) (string, int) {
	var l string
	var c int
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' {
			l = s[:i]
			_, err := fmt.Sscan(s[i+1:], &c)
			require.NoError(t, err, s)
			break
		}
	}
	return l, c
}
