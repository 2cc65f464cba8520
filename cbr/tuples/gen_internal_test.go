package tuples

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

// TestGeneratorsTable: the generators computed with the rules' table of
// solutions are those computed with the explicit semantics' successor
// function, on random CUBA systems (pushes, overwrites and pops drawn at
// random) of one to three threads.
func TestGeneratorsTable(t *testing.T) {
	tables := 0
	for _, seed := range tier.Seeds(t, 30, 300, 60) {
		rng := rand.New(rand.NewPCG(seed, 0x7ab1e))
		states, threads := 2+rng.IntN(3), 1+rng.IntN(3)
		var b strings.Builder
		fmt.Fprintf(&b, "%d\n", states)
		var init []string
		for i := range threads {
			base := 10 * (i + 1)
			fmt.Fprintf(&b, "PDA %d %d\n", base, base+3)
			sym := func() int { return base + rng.IntN(4) }
			for range 3 + rng.IntN(6) {
				s, a, s2 := rng.IntN(states), sym(), rng.IntN(states)
				switch x := rng.IntN(3); x {
				case 0:
					fmt.Fprintf(&b, "%d %d -> %d %d %d\n", s, a, s2, sym(), sym())
				case 1:
					fmt.Fprintf(&b, "%d %d -> %d %d\n", s, a, s2, sym())
				default:
					fmt.Fprintf(&b, "%d %d -> %d -\n", s, a, s2)
				}
			}
			init = append(init, fmt.Sprintf("%d.%d", sym(), sym()))
		}
		in, err := cuba.Read("g.pds", []byte(b.String()), "g.init", []byte(fmt.Sprintf("%d|%s", rng.IntN(states), strings.Join(init, ","))), pds.Options{})
		require.NoError(t, err, "seed %d", seed)
		net := in.Net
		tab := newRuleTable(net)
		require.NotNil(t, tab, "seed %d: a CUBA system has no locals and no receive relations", seed)
		v := newVisibleTracker(context.Background(), net)
		for _, depth := range []int{1, 2} {
			a, err := generatorsBy(context.Background(), net, depth, v.key, tab)
			require.NoError(t, err)
			e, err := generatorsBy(context.Background(), net, depth, v.key, nil)
			require.NoError(t, err)
			require.Equal(t, e, a, "seed %d depth %d:\n%s", seed, depth, b.String())
			tables += len(a)
		}
	}
	require.Positive(t, tables, "no generators at all: the test tests nothing")
}
