package tuples_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/stretchr/testify/require"
)

// explicitVisible returns the visible states (globals, every thread's
// top label) of the explicit reference's configurations, each with the
// fewest contexts that reach it.
func explicitVisible(net *pds.Network, ref *explicit.Result) map[string]int {
	out := map[string]int{}
	for _, x := range ref.Reached {
		var b strings.Builder
		for _, g := range net.Globals {
			fmt.Fprintf(&b, "%d,", x.Config.Globals[g.Index])
		}
		b.WriteByte('|')
		for _, s := range x.Config.Threads {
			if len(s) == 0 {
				b.WriteString("-,")
			} else {
				fmt.Fprintf(&b, "%d,", s[len(s)-1].Label.ID)
			}
		}
		k := b.String()
		if old, ok := out[k]; !ok || x.Contexts < old {
			out[k] = x.Contexts
		}
	}
	return out
}

// refDepth caps the stacks of the explicit reference: what it finds is
// reachable, so a visible state it finds beyond a claim disproves it.
const refDepth = 6

// checkVisible checks an unbounded run's claim that the visible states
// stop growing at r.Visible.Level against the explicit reference ref
// with more contexts (reference): no visible state needs more than
// Level contexts, as many are reachable within Level as the run counted
// (when the depth cap was not met), and the violations are those of the
// reference, with the same fewest contexts.
func checkVisible(t *testing.T, name string, net *pds.Network, r *cbr.Result, ref *explicit.Result) {
	t.Helper()
	v := r.Visible
	require.Equal(t, v.Level+1, v.Explored, "%s", name)
	require.Equal(t, -1, r.Converged, "%s: configurations and visible states both claimed", name)
	vis := explicitVisible(net, ref)
	within := 0
	for k, c := range vis {
		require.LessOrEqual(t, c, v.Level, "%s: the visible states were claimed to stop growing at %d, but %s needs %d contexts", name, v.Level, k, c)
		within++
	}
	if ref.DepthCapped {
		require.LessOrEqual(t, within, v.States, "%s: visible states", name)
	} else {
		require.Equal(t, within, v.States, "%s: visible states", name)
	}
	found := map[string]int{}
	for _, f := range r.Violations {
		found[f.Label.Pos.String()] = f.Contexts
	}
	for _, x := range ref.Violations {
		c, ok := found[x.Label.Pos.String()]
		require.True(t, ok, "%s: the reference reaches %s with %d contexts; the run, claiming every bound, does not", name, x.Label.Pos, x.Contexts)
		require.Equal(t, x.Contexts, c, "%s: fewest contexts of %s", name, x.Label.Pos)
	}
	if !ref.DepthCapped {
		require.Len(t, found, len(ref.Violations), "%s: violations", name)
	}
}

// reference explores net explicitly beyond a claim at most: three more
// contexts with stacks of up to refDepth frames, or, where that passes
// 300,000 configurations, fewer contexts (at least one more) and then
// shallower stacks. Every visible state it finds is reachable, so each
// one beyond the claim disproves it.
func reference(t *testing.T, name string, net *pds.Network, most int) *explicit.Result {
	t.Helper()
	for _, o := range []struct{ extra, depth int }{{3, refDepth}, {2, refDepth}, {1, refDepth}, {1, 4}} {
		ref, err := explicit.Explore(net, explicit.Options{Contexts: most + o.extra, MaxDepth: o.depth, MaxConfigs: 300000})
		if err == nil {
			if o.extra < 3 {
				t.Logf("%s: the reference explores %d contexts beyond the claim, stacks of %d frames", name, o.extra, o.depth)
			}
			return ref
		}
		require.ErrorContains(t, err, "more than", "%s", name)
	}
	t.Fatalf("%s: no reference within 300,000 configurations", name)
	return nil
}

// claimsChecked runs every split and pruning unbounded and checks every
// claim against one explicit reference at three contexts beyond the
// latest; it returns the levels claimed.
func claimsChecked(t *testing.T, name string, net *pds.Network) []int {
	t.Helper()
	var claimed []*cbr.Result
	var names []string
	most := -1
	for _, s := range []split.Strategy{split.Eager, split.Lazy} {
		for _, prune := range []tuples.Prune{tuples.PruneSubsumed, tuples.PruneIdentical, tuples.PruneNone} {
			r := unbounded(t, net, s, prune)
			if r.Visible != nil {
				claimed = append(claimed, r)
				names = append(names, fmt.Sprintf("%s %s %s", name, s, prune))
				most = max(most, r.Visible.Level)
			}
		}
	}
	if most < 0 {
		return nil
	}
	ref := reference(t, name, net, most)
	var levels []int
	for i, r := range claimed {
		checkVisible(t, names[i], net, r, ref)
		levels = append(levels, r.Visible.Level)
	}
	return levels
}

// randomCUBA returns a random CUBA system: 2 or 3 shared states, two or
// three threads of 3 or 4 stack symbols, each with pushes, overwrites and
// pops drawn at random (so stacks may grow without end).
func randomCUBA(seed uint64) (pdsSrc, initSrc string) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	states := 2 + rng.IntN(2)
	threads := 2
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", states)
	var init []string
	for i := range threads {
		syms := 3 + rng.IntN(2)
		base := 10 * (i + 1)
		fmt.Fprintf(&b, "PDA %d %d\n", base, base+syms-1)
		sym := func() int { return base + rng.IntN(syms) }
		for range 4 + rng.IntN(5) {
			s, a, s2 := rng.IntN(states), sym(), rng.IntN(states)
			switch x := rng.IntN(10); {
			case x < 3:
				fmt.Fprintf(&b, "%d %d -> %d %d %d\n", s, a, s2, sym(), sym())
			case x < 7:
				fmt.Fprintf(&b, "%d %d -> %d %d\n", s, a, s2, sym())
			default:
				fmt.Fprintf(&b, "%d %d -> %d -\n", s, a, s2)
			}
		}
		stack := []string{fmt.Sprint(sym())}
		if rng.IntN(3) == 0 {
			stack = append([]string{fmt.Sprint(sym())}, stack...)
		}
		init = append(init, strings.Join(stack, "."))
	}
	return b.String(), fmt.Sprintf("0|%s\n", strings.Join(init, ","))
}

// randomPlateau returns a random system of the plateau's family
// (plateauPDS): thread 0 pushes a 2 or a 3 under its 1 (shared state 0
// to 1), one or two helper threads bring the shared state back to 0 (a
// push costs two or three contexts), one of them may move it on to the
// popping state 2, and thread 0 then pops, counting its pops in the
// shared state up to 2+pops; a few random rules are added to the helpers
// and to thread 0. Its visible states often stay the same for a bound or
// more, then grow.
func randomPlateau(seed uint64) (pdsSrc, initSrc string) {
	rng := rand.New(rand.NewPCG(seed, 0x91a7))
	pops := 1 + rng.IntN(3)
	top := 2 + pops // the largest shared state
	mid := top + 1  // the helpers' relay state
	states := mid + 1
	helpers := 1 + rng.IntN(2)
	var b strings.Builder
	fmt.Fprintf(&b, "%d\nPDA 1 3\n0 1 -> 1 1 2\n", states)
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "0 1 -> 1 1 3\n")
	}
	fmt.Fprintf(&b, "2 1 -> 2 -\n")
	for i := range pops {
		fmt.Fprintf(&b, "%d 2 -> %d -\n", 2+i, 3+i)
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "%d 3 -> %d 3\n", 2+i, 3+i)
		}
	}
	noise := func(syms []int) {
		for range rng.IntN(3) {
			s, a, s2 := rng.IntN(states), syms[rng.IntN(len(syms))], rng.IntN(states)
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "%d %d -> %d %d\n", s, a, s2, syms[rng.IntN(len(syms))])
			} else {
				fmt.Fprintf(&b, "%d %d -> %d -\n", s, a, s2)
			}
		}
	}
	if rng.IntN(3) == 0 {
		noise([]int{1, 2, 3})
	}
	init := []string{"1"}
	if helpers == 1 {
		fmt.Fprintf(&b, "PDA 5 6\n1 5 -> 0 5\n0 5 -> 2 5\n")
		noise([]int{5, 6})
		init = append(init, "5")
	} else {
		fmt.Fprintf(&b, "PDA 5 6\n1 5 -> %d 5\n0 5 -> 2 5\n", mid)
		noise([]int{5, 6})
		fmt.Fprintf(&b, "PDA 7 8\n%d 7 -> 0 7\n", mid)
		noise([]int{7, 8})
		init = append(init, "5", "7")
	}
	return b.String(), fmt.Sprintf("0|%s\n", strings.Join(init, ","))
}

func readCUBA(t *testing.T, name, pdsSrc, initSrc string) *pds.Network {
	t.Helper()
	in, err := cuba.Read(name+".pds", []byte(pdsSrc), name+".init", []byte(initSrc), pds.Options{})
	require.NoError(t, err, "%s:\n%s%s", name, pdsSrc, initSrc)
	return in.Net
}

// unbounded runs the unbounded search, cancelled when it takes an item
// of more than 8 contexts (a deadline turns a bug into a failure).
func unbounded(t *testing.T, net *pds.Network, s split.Strategy, prune tuples.Prune) *cbr.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A memory and node limit too: without them one drawn program of the
	// long tier held 12 GiB within 8 contexts. A run they stop claims
	// nothing.
	r, err := tuples.Engine{Split: s, Prune: prune}.Analyze(ctx, net, cbr.Options{Unbounded: true, All: true, Limits: cbr.Limits{MaxMemory: 1 << 30, MaxNodes: 1 << 22}, OnProgress: func(p cbr.Progress) {
		if p.Level > 8 {
			cancel()
		}
	}})
	require.NoError(t, err)
	return r
}

// TestVisibleConvergence: on random programs with unbounded recursion
// (CUBA systems and networks without locals), every claim that the
// reachable visible states stop growing is checked against the explicit
// reference at three more contexts (checkVisible), for both splits and
// every pruning. Claims must occur (the test would test nothing else),
// and among the programs the reference shows some whose visible states
// stay the same for a bound and then grow: the generators keep those
// from being claimed early. Open data: the seeds after those add random
// networks with a global of 2 to 4 bits that starts with any value
// (randnet.Params.OpenBits; named by the seed plus 10^12), whose claims
// are checked alike; the reference enumerates its values at three
// contexts past the claim, which wider data cannot afford.
func TestVisibleConvergence(t *testing.T) {
	claims, plateaus, openClaims := 0, 0, 0
	seeds := tier.Seeds(t, 24, 150, 40)
	open := tier.Seeds(t, 6, 10, 4)
	for n, seed := range append(seeds, open...) {
		var net *pds.Network
		if n >= len(seeds) {
			p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%2), Procs: 2, Labels: 2 + int(seed%2),
				Rules: 3 + int(seed%3), Recursive: true, Errors: seed%2 == 0, OpenBits: 2 + int(seed%3)}
			var err error
			net, err = randnet.Generate(seed, p)
			require.NoError(t, err)
			levels := claimsChecked(t, fmt.Sprintf("seed %d (open data, %d bits)", seed+1_000_000_000_000, p.OpenBits), net)
			openClaims += len(levels)
			continue
		}
		if seed%3 == 1 {
			ps, is := randomPlateau(seed)
			net = readCUBA(t, fmt.Sprintf("plateau%d", seed), ps, is)
		} else if seed%3 == 2 {
			p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%2), Procs: 2, Labels: 2 + int(seed%2),
				Rules: 3 + int(seed%3), Recursive: true, Errors: seed%2 == 0}
			var err error
			net, err = randnet.Generate(seed, p)
			require.NoError(t, err)
		} else {
			ps, is := randomCUBA(seed)
			net = readCUBA(t, fmt.Sprintf("seed%d", seed), ps, is)
		}
		levels := claimsChecked(t, fmt.Sprintf("seed %d", seed), net)
		claims += len(levels)
		// A plateau below the claim: the visible states of the
		// reference stay the same from j to j+1 and grow later.
		if len(levels) > 0 && slices.Max(levels) >= 2 {
			j := slices.Max(levels)
			ref, err := explicit.Explore(net, explicit.Options{Contexts: j, MaxDepth: refDepth, MaxConfigs: 300000})
			if err != nil {
				require.ErrorContains(t, err, "more than")
				continue
			}
			per := make([]int, j+1)
			for _, c := range explicitVisible(net, ref) {
				per[c]++
			}
			for i := 1; i+1 < len(per); i++ {
				if per[i] == 0 && per[i+1] > 0 {
					plateaus++
					break
				}
			}
		}
	}
	require.Positive(t, claims, "no claim: the test tests nothing")
	require.Positive(t, openClaims, "no claim on open data")
	t.Logf("%d claims checked (and %d on open data), %d programs with a plateau before the claim", claims, openClaims, plateaus)
}

// plateau is a CUBA system whose visible states stay the same from 3 to
// 4 contexts and from 5 to 6, and grow at 5 and 7: thread 0 pushes a 2
// under its 1 (shared state 0 to 1), thread 1 sets the shared state back
// to 0 or on to 2; at 2 thread 0 pops its 1, then pops 2s, each pop
// counting in the shared state up to 4. Every 2 pushed costs two
// contexts, and only the pops show it.
const plateauPDS = `5
PDA 1 2
0 1 -> 1 1 2
2 1 -> 2 -
2 2 -> 3 -
3 2 -> 4 -
PDA 5 5
1 5 -> 0 5
0 5 -> 2 5
`

// TestVisiblePlateau: the plateaus of the hand-made system are real (the
// reference shows them), and no claim is made there: the visible states
// stop growing at 7, when every state a pop can produce has been reached.
// Without the generators' condition the claim would come at 3.
func TestVisiblePlateau(t *testing.T) {
	net := readCUBA(t, "plateau", plateauPDS, "0|1,5\n")
	ref, err := explicit.Explore(net, explicit.Options{Contexts: 9, MaxDepth: refDepth})
	require.NoError(t, err)
	per := make([]int, 10)
	for _, c := range explicitVisible(net, ref) {
		per[c]++
	}
	require.Zero(t, per[4], "no new visible state with 4 contexts: %v", per)
	require.Positive(t, per[5], "new visible states with 5 contexts: %v", per)
	require.Zero(t, per[6], "%v", per)
	require.Positive(t, per[7], "%v", per)
	require.Equal(t, []int{7, 7, 7, 7, 7, 7}, claimsChecked(t, "plateau", net))
}
