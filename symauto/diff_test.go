package symauto_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

func key(g []uint64, stack []symauto.Frame) string {
	s := fmt.Sprint(g, "|")
	for _, f := range stack {
		s += fmt.Sprintf("%s%v;", f.Label.Name, f.Locals)
	}
	return s
}

func explicitKey(c explicit.Config) string {
	st := make([]symauto.Frame, len(c.Threads[0]))
	for i, f := range c.Threads[0] {
		st[i] = symauto.Frame{Label: f.Label, Locals: f.Locals}
	}
	return key(c.Globals, st)
}

// symbolic returns the configurations of post* of thread 0's initial
// configuration, up to depth.
func symbolic(t *testing.T, net *pds.Network, depth int) []string {
	sp := symauto.NewSpace(net)
	post, _, err := symauto.PostStar(t.Context(), sp.Init(net.Threads[0]), 1)
	require.NoError(t, err)
	var out []string
	post.Enumerate(depth, func(g []uint64, st []symauto.Frame) { out = append(out, key(g, st)) })
	slices.Sort(out)
	return out
}

func reference(t *testing.T, net *pds.Network, depth int) ([]string, bool) {
	res, err := explicit.Explore(net, explicit.Options{Contexts: 1, MaxDepth: depth})
	require.NoError(t, err)
	var out []string
	for _, r := range res.Reached {
		out = append(out, explicitKey(r.Config))
	}
	slices.Sort(out)
	return slices.Compact(out), res.DepthCapped
}

// TestRandomPostStar compares post* with the explicit semantics on random
// single-thread networks: equal reachable sets without recursion, and
// inclusion of everything the depth-capped explorer finds with it.
func TestRandomPostStar(t *testing.T) {
	seeds := tier.Seeds(t, 100, 600, 200)
	// Open data: the seeds after len(seeds) add a global of 3 to 6 bits
	// that starts with any value (randnet.Params.OpenBits); messages name
	// them by the seed plus 10^12.
	open := tier.Seeds(t, 30, 200, 60)
	for i, seed := range append(seeds, open...) {
		rec := seed%3 == 0
		p := randnet.Params{Threads: 1, GlobalBits: 1 + int(seed%3), Procs: 1 + int(seed%4), Labels: 2 + int(seed%5),
			LocalBits: int(seed % 3), Rules: 6 + int(seed%9), Recursive: rec, Errors: true}
		if i >= len(seeds) {
			p.OpenBits = 3 + int(seed%4)
		}
		net, err := randnet.Generate(seed, p)
		if i >= len(seeds) {
			seed += 1_000_000_000_000
		}
		require.NoError(t, err, "seed %d", seed)
		const depth = 5
		sym := symbolic(t, net, depth)
		ref, capped := reference(t, net, depth)
		if !rec {
			require.False(t, capped, "seed %d: depth cap reached without recursion", seed)
			require.Equal(t, ref, sym, "seed %d (non-recursive): post* differs from the explicit semantics", seed)
			continue
		}
		for _, c := range ref {
			_, found := slices.BinarySearch(sym, c)
			require.True(t, found, "seed %d (recursive): %s reachable explicitly, missing from post*", seed, c)
		}
	}
}

func TestRandomPostStarSizes(t *testing.T) {
	total, maxn := 0, 0
	for seed := uint64(1); seed <= 100; seed++ {
		p := randnet.Params{Threads: 1, GlobalBits: 1 + int(seed%3), Procs: 1 + int(seed%4), Labels: 2 + int(seed%5),
			LocalBits: int(seed % 3), Rules: 6 + int(seed%9), Recursive: false, Errors: true}
		net, _ := randnet.Generate(seed, p)
		ref, _ := reference(t, net, 5)
		total += len(ref)
		maxn = max(maxn, len(ref))
	}
	t.Logf("avg %d max %d", total/100, maxn)
}
