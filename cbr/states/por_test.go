package states_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/stretchr/testify/require"
)

// TestPORMissedBug: the program on which sleep sets under a context bound
// miss a violation (testdata/sleepset.pds) is found with the reduction,
// with its fewest contexts, and the reduction does leave switches out.
func TestPORMissedBug(t *testing.T) {
	net := compile(t, filepath.Join("testdata", "sleepset.pds"))
	for k := 1; k <= 3; k++ {
		want, err := tuples.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: k, All: true})
		require.NoError(t, err)
		for _, noPOR := range []bool{false, true} {
			r, err := states.Engine{NoPOR: noPOR}.Analyze(context.Background(), net, cbr.Options{Bound: k, All: true})
			require.NoError(t, err)
			require.Equal(t, want.Verdict, r.Verdict, "k %d no-por %v", k, noPOR)
			require.Equal(t, sites(want), sites(r), "k %d no-por %v", k, noPOR)
			if k >= 2 {
				require.Equal(t, cbr.Violation, r.Verdict, "k %d no-por %v", k, noPOR)
				require.Equal(t, 2, r.Contexts(), "k %d no-por %v", k, noPOR)
			}
			if noPOR {
				require.Zero(t, states.Figures(r).Reduced)
			} else if k >= 2 {
				require.Positive(t, states.Figures(r).Reduced, "k %d: the local step x = true should be reduced", k)
			}
		}
	}
}

// naiveSleepSets is the naive combination the POR seed warns against: a
// stateless depth-first search within k contexts, the last thread first,
// with Godefroid's sleep sets (when sleepSets is set), two threads' steps being independent at a
// state when each is deterministic there and both orders lead to the same
// configuration. It reports whether it meets an error label.
func naiveSleepSets(net *pds.Network, k int, sleepSets bool) bool {
	step := explicit.NewStepper(net, 0, 0)
	succ := func(c explicit.Config, t int) []explicit.Config {
		if len(c.Threads[t]) == 0 {
			return nil
		}
		s, _, _, err := step.Successors(c, t)
		if err != nil {
			panic(err)
		}
		return s
	}
	indep := func(c explicit.Config, t, u int) bool {
		a, b := succ(c, t), succ(c, u)
		if len(a) != 1 || len(b) != 1 {
			return false
		}
		ab, ba := succ(a[0], u), succ(b[0], t)
		return len(ab) == 1 && len(ba) == 1 && ab[0].Key() == ba[0].Key()
	}
	var dfs func(c explicit.Config, last, n int, sleep map[int]bool) bool
	dfs = func(c explicit.Config, last, n int, sleep map[int]bool) bool {
		for _, s := range c.Threads {
			if len(s) > 0 && s[len(s)-1].Label.Kind.IsError() {
				return true
			}
		}
		order := []int{}
		if last >= 0 {
			order = append(order, last)
		}
		for t := range c.Threads {
			if t != last {
				order = append(order, t)
			}
		}
		var done []int
		for _, t := range order {
			nn := n
			if t != last {
				nn++
			}
			if sleepSets && sleep[t] || nn > k {
				continue
			}
			for _, d := range succ(c, t) {
				next := map[int]bool{}
				for u := range sleep {
					if indep(c, u, t) {
						next[u] = true
					}
				}
				for _, u := range done {
					if indep(c, u, t) {
						next[u] = true
					}
				}
				if dfs(d, t, nn, next) {
					return true
				}
			}
			done = append(done, t)
		}
		return false
	}
	for _, c := range explicit.Initial(net) {
		if dfs(c, -1, 0, map[int]bool{}) {
			return true
		}
	}
	return false
}

// TestNaiveSleepSetsMiss: the naive combination misses the violation of
// testdata/sleepset.pds within 2 contexts (and finds it with more), which
// TestPORMissedBug finds with 2.
func TestNaiveSleepSetsMiss(t *testing.T) {
	net := compile(t, filepath.Join("testdata", "sleepset.pds"))
	require.True(t, naiveSleepSets(net, 2, false), "without sleep sets the search finds the violation within 2 contexts")
	require.False(t, naiveSleepSets(net, 2, true), "the naive combination should miss the violation within 2 contexts")
	require.True(t, naiveSleepSets(net, 3, true), "the naive combination finds it with 3")
	r, err := states.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 2})
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, r.Verdict)
}
