package explicit_test

import (
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Random small networks with every rule kind (steps, calls with receive
// relations, returns with values, forks, error labels), each relation a
// random finite table. They are explored natively and through
// WithThreadSlots (which must agree), and checked for properties that hold
// for every network: more contexts never lose a configuration nor raise
// its count.

// randomNet builds a random network from seed with table relations,
// bool, int<2> and enum types, recursion and room for 4 threads.
func randomNet(t testing.TB, seed int64) *pds.Network {
	n, err := randnet.Generate(uint64(seed), randnet.Params{Threads: 1 + int(seed%2), Procs: 3, Labels: 3, LocalBits: 1 + int(seed/2%2),
		Rules: 3 + int(seed%4), Recursive: true, Forks: true, Errors: true, MaxThreads: 4, Density: 0.6, Enums: true, AnyLocals: true})
	require.NoError(t, err, "seed %d", seed)
	require.NoError(t, n.Validate(), "seed %d", seed)
	return n
}

// randomBudget bounds the configurations of one random exploration; the
// rare networks that exceed it are skipped (and counted).
const randomBudget = 3000

func TestRandomSlotsAgree(t *testing.T) {
	checked, skipped := 0, 0
	seeds := tier.Seeds(t, 25, 150, 50)
	for _, s := range seeds {
		seed := int64(s)
		// The subtest's name carries the seed into every failure message.
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			switch slotsAgree(t, randomNet(t, seed), seed, randomBudget) {
			case compared:
				checked++
			case overBudget:
				skipped++
			}
		})
	}
	t.Logf("%d networks with forks compared, %d over budget", checked, skipped)
	require.Greater(t, checked, len(seeds)/2, "too few networks compared")
}

// The outcomes of slotsAgree.
const (
	noForks = iota
	compared
	overBudget
)

// slotsAgree compares native forks with thread slots on n, with a thread
// bound and a number of contexts drawn from seed, within budget
// configurations, and fails the test when they disagree.
func slotsAgree(t *testing.T, n *pds.Network, seed int64, budget int) int {
	t.Helper()
	if !n.HasForks() {
		return noForks
	}
	max := len(n.Threads) + 1 + int(seed%2)
	k := 1 + int(seed%3)
	d, ok := crossCheckBudget(t, n, k, max, 3, budget)
	if !ok {
		return overBudget
	}
	if d != "" {
		t.Fatalf("seed %d, k=%d, threads=%d: native forks and thread slots disagree:\n%s", seed, k, max, d)
	}
	return compared
}

// TestRandomSlotsAgreeOpen: native forks and thread slots agree on random
// networks with open data: a global of 3 to 8 bits that starts with any
// value, which threads keep, overwrite, increment and compare, and
// initial locals that start with any value (randnet.Params.OpenBits).
// The explicit semantics enumerates the open values, so the budget of
// configurations is randomBudget's times the widest data's 2^8 / 8.
func TestRandomSlotsAgreeOpen(t *testing.T) {
	const budget = 32 * randomBudget
	checked, skipped := 0, 0
	seeds := tier.Seeds(t, 8, 60, 20)
	for _, seed := range seeds {
		p := randnet.Params{Threads: 1 + int(seed%2), GlobalBits: 1 + int(seed%2), Procs: 3, Labels: 3, LocalBits: 1 + int(seed/2%2),
			Rules: 3 + int(seed%4), Forks: true, Errors: true, MaxThreads: 4, OpenBits: 3 + int(seed%6)}
		t.Run(fmt.Sprintf("bits=%d/seed=%d", p.OpenBits, seed), func(t *testing.T) {
			n, err := randnet.Generate(seed, p)
			require.NoError(t, err)
			switch slotsAgree(t, n, int64(seed), budget) {
			case compared:
				checked++
			case overBudget:
				skipped++
			}
		})
	}
	t.Logf("%d networks with forks and open data compared, %d over budget", checked, skipped)
	require.Greater(t, checked, len(seeds)/2, "too few networks compared")
}

func TestRandomMonotoneInContexts(t *testing.T) {
	checked := 0
	for seed := int64(1000); seed < 1030; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			n := randomNet(t, seed)
			var prev map[string]int
			for k := 1; k <= 3; k++ {
				opts := explicit.Options{Contexts: k, MaxThreads: 3, MaxDepth: 3, MaxConfigs: randomBudget}
				res, err := explicit.Explore(n, opts)
				if err != nil {
					require.ErrorContains(t, err, "more than", "seed %d", seed)
					return
				}
				checkResult(t, n, opts, res)
				checked++
				cur := map[string]int{}
				for _, r := range res.Reached {
					cur[r.Config.Key()] = r.Contexts
				}
				for key, j := range prev {
					jj, ok := cur[key]
					require.True(t, ok, "seed %d: k=%d loses a configuration of k=%d", seed, k, k-1)
					require.Equal(t, j, jj, "seed %d: fewest contexts changed with k=%d", seed, k)
				}
				for key, j := range cur {
					if j < k && k > 1 {
						_, ok := prev[key]
						require.True(t, ok, "seed %d: k=%d finds a configuration with %d contexts that k=%d missed", seed, k, j, k-1)
					}
				}
				// Every successor of a configuration reached with j < k
				// contexts, by any thread, is reached with at most j+1.
				for _, r := range res.Reached {
					if r.Contexts >= k {
						continue
					}
					for th := range r.Config.Threads {
						succ, _, _ := explicit.Successors(n, r.Config, th, 3, 3)
						for _, s := range succ {
							jj, ok := cur[s.Key()]
							require.True(t, ok, "seed %d: successor %s of %s missing", seed, s.Format(n), r.Config.Format(n))
							require.LessOrEqual(t, jj, r.Contexts+1, "seed %d", seed)
						}
					}
				}
				prev = cur
			}
		})
	}
	require.Greater(t, checked, 45)
}
