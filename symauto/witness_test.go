package symauto_test

import (
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// config turns one thread's configuration into an explicit one.
func config(globals []uint64, stack []symauto.Frame) explicit.Config {
	c := explicit.Config{Globals: globals, Threads: [][]explicit.Frame{{}}}
	for _, f := range stack {
		c.Threads[0] = append(c.Threads[0], explicit.Frame{Label: f.Label, Locals: f.Locals})
	}
	return c
}

// TestWitnessReplays: on random single-thread networks (tagged, as the
// analysis saturates them), every configuration of post* with at most 4
// frames gets a path (FindPath), the walk back (Back) ends in the initial
// automaton, and every step it finds is a successor under the explicit
// semantics, ending in the configuration itself.
func TestWitnessReplays(t *testing.T) {
	seeds := tier.Seeds(t, 30, 200, 60)
	walks := 0
	for _, seed := range seeds {
		p := randnet.Params{Threads: 1, GlobalBits: 1 + int(seed%3), Procs: 1 + int(seed%4), Labels: 2 + int(seed%5),
			LocalBits: int(seed % 3), Rules: 6 + int(seed%9), Recursive: seed%3 == 0, Errors: true}
		if seed%4 == 1 {
			p = randnet.Params{Threads: 1, Procs: 1 + int(seed%3), Labels: 2 + int(seed%4), LocalBits: 1 + int(seed%2),
				Rules: 6 + int(seed%7), Recursive: seed%2 == 0, Errors: true, Density: 0.5, Enums: seed%8 == 1, AnyLocals: true}
		}
		net, err := randnet.Generate(seed, p)
		require.NoError(t, err, "seed %d", seed)
		sp := symauto.NewSpace(net)
		init := sp.Init(net.Threads[0])
		tagged := init.Tag(init.Accepting())
		s := symauto.NewSaturation(tagged, 1)
		s.Record()
		require.NoError(t, s.Run(t.Context()), "seed %d", seed)
		post := s.Result()
		stepper := explicit.NewStepper(net, 1, 64)
		post.Enumerate(4, func(globals []uint64, stack []symauto.Frame) {
			walks++
			where := fmt.Sprintf("seed %d, configuration %s", seed, config(globals, stack).Format(net))
			path, err := post.FindPath(sp.M.True(), globals, stack)
			require.NoError(t, err, where)
			start, steps, err := s.Back(t.Context(), path)
			require.NoError(t, err, where)
			g0, st0 := sp.Concrete(start)
			require.True(t, init.Contains(g0, st0), "%s: the walk ends outside the initial automaton", where)
			cur := config(g0, st0)
			for i, step := range steps {
				g, st := sp.Concrete(step.After)
				next := config(g, st)
				succ, _, _, err := stepper.Successors(cur, 0)
				require.NoError(t, err)
				ok := false
				for _, c := range succ {
					ok = ok || c.Key() == next.Key()
				}
				require.True(t, ok, "%s: step %d (rule %d, %s) from %s to %s is no successor", where, i, step.Rule.Index, step.Rule.Kind, cur.Format(net), next.Format(net))
				cur = next
			}
			require.Equal(t, config(globals, stack).Key(), cur.Key(), "%s: the walk does not end in the configuration", where)
		})
	}
	t.Logf("%d configurations walked back", walks)
}
