package symauto_test

import (
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// TestWithinRandom checks Auto.Within on automata built from random
// single-thread networks (initial views, post* results, restrictions to
// some globals, post* of those, in two contexts): at every global it
// returns, every configuration of the first automaton (enumerated up to a
// depth) is accepted by the second; every automaton is within itself;
// and the inclusions that hold by construction (a restriction in its
// source, an automaton in its post*) are found at every global.
// Simulation.At gives Within's answer at some globals, and so does the
// simulation without its identity shortcut.
func TestWithinRandom(t *testing.T) {
	seeds := tier.Seeds(t, 40, 300, 100)
	found, included := 0, 0
	for _, seed := range seeds {
		p := randnet.Params{Threads: 1, GlobalBits: 1 + int(seed%3), Procs: 1 + int(seed%4), Labels: 2 + int(seed%5),
			LocalBits: int(seed % 3), Rules: 6 + int(seed%9), Recursive: seed%3 == 0}
		net, err := randnet.Generate(seed, p)
		require.NoError(t, err, "seed %d", seed)
		m := net.M
		sp := symauto.NewSpace(net)
		g0 := net.Globals[0]
		h := m.Value(bdd.Ref{Var: g0.Var, Copy: pds.GCur}, seed%2)
		a0 := sp.Init(net.Threads[0])
		a1, _, err := symauto.PostStar(t.Context(), a0, 1)
		require.NoError(t, err)
		a1h := a1.RestrictGlobals(h)
		a1n := a1.RestrictGlobals(m.Not(h))
		p2, _, err := symauto.PostStar(t.Context(), a1h, 2)
		require.NoError(t, err)
		p3, _, err := symauto.PostStar(t.Context(), a0.RestrictGlobals(h), 1)
		require.NoError(t, err)
		autos := []*symauto.Auto{a0, a1, a1h, a1n, p2, p3}
		names := []string{"init", "post", "post|h", "post|!h", "post(post|h)", "post(init|h)"}
		for _, sub := range [][2]int{{0, 1}, {2, 1}, {3, 1}, {2, 4}, {5, 1}} {
			w := autos[sub[0]].Within(autos[sub[1]])
			require.True(t, w.IsTrue(), "seed %d: %s not found within %s", seed, names[sub[0]], names[sub[1]])
		}
		const depth = 4
		for i, x := range autos {
			require.True(t, x.Within(x).IsTrue(), "seed %d: %s not within itself", seed, names[i])
			for j, y := range autos {
				w := x.Within(y)
				// At the globals of h, of not h, at all: the same answer
				// as Within there, and as the simulation alone.
				for _, at := range []bdd.Node{h, m.Not(h), m.True()} {
					require.True(t, x.Simulate(y).At(at).Equal(m.And(w, at)), "seed %d: %s within %s: At differs from Within", seed, names[i], names[j])
					require.True(t, x.Simulate(y).AtSim(at).Equal(m.And(w, at)), "seed %d: %s within %s: the simulation alone differs", seed, names[i], names[j])
				}
				x.RestrictGlobals(w).Enumerate(depth, func(g []uint64, st []symauto.Frame) {
					require.True(t, y.Contains(g, st), "seed %d: %s within %s at %v, but %v is not in it", seed, names[i], names[j], g, st)
				})
				// How often inclusion holds and is found, for the log.
				all := true
				x.Enumerate(depth, func(g []uint64, st []symauto.Frame) {
					if !y.Contains(g, st) {
						all = false
					}
				})
				if all {
					included++
					if w.IsTrue() {
						found++
					}
				}
			}
		}
	}
	t.Logf("%d pairs included up to the depth, %d of them found at every global", included, found)
}
