package states_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/stretchr/testify/require"
)

// verdict is what the engines must agree on: the verdict and the
// violation sites with their fewest contexts.
type verdict struct {
	v     cbr.Verdict
	sites []string
}

func (v verdict) String() string { return fmt.Sprintf("%v %v", v.v, v.sites) }

func referenceVerdict(res *explicit.Result) verdict {
	var v verdict
	for _, x := range res.Violations {
		v.sites = append(v.sites, fmt.Sprintf("%s@%d", x.Label.Name, x.Contexts))
	}
	sort.Strings(v.sites)
	switch {
	case len(v.sites) > 0:
		v.v = cbr.Violation
	case res.CutOff || res.DepthCapped:
		v.v = cbr.Unknown
	default:
		v.v = cbr.Safe
	}
	return v
}

func engineVerdict(r *cbr.Result) verdict { return verdict{r.Verdict, sites(r)} }

// reachDiff compares the reference's reachable configurations with those
// the engine expanded, with their fewest contexts.
func reachDiff(net *pds.Network, ref *explicit.Result, got map[string]int) string {
	want := map[string]int{}
	for _, x := range ref.Reached {
		want[x.Config.Key()] = x.Contexts
	}
	return reachcases.DiffReach(want, got, "the reference", "the engine")
}

// TestRandomDifferential: on random programs with 2 or 3 threads, forks
// and (every fourth seed) recursion, for k from 1 to 4 (3 with three
// threads), the engine agrees with the reference semantics
// (pds/states.Explore) on the verdict, the violation sites with their
// fewest contexts and, without the reduction, the reachable
// configurations with the fewest contexts of each; with the reduction on
// the verdict and sites, and fewer states over all programs. Without recursion it
// agrees with the symbolic engine, eager and lazy (every fifth seed).
func TestRandomDifferential(t *testing.T) {
	seeds := tier.Seeds(t, 12, 150, 50)
	const depth = 8
	ctx := context.Background()
	// A state may be expanded twice with the reduction, reduced and then
	// unreduced, so a program can take more states with it; over all the
	// programs it must take fewer.
	statesFull, statesReduced := 0, 0
	defer func() {
		t.Logf("states expanded: %d without the reduction, %d with it", statesFull, statesReduced)
		require.Less(t, statesReduced, statesFull)
	}()
	// Open data: a third as many programs with a global of
	// reachcases.OpenWidths's bits that starts with any value
	// (randnet.Params.OpenBits).
	open := tier.Seeds(t, 4, 20, 6)
	widths := reachcases.OpenWidths()
	openCapped, plainCapped, eagerRefused := 0, 0, 0
	const maxTuples, eagerMemory = 1 << 14, 2 << 30
	defer func() {
		t.Logf("open data: %d programs beyond the reference's cap; %d eager runs past %d tuples in one split", openCapped, eagerRefused, maxTuples)
		require.LessOrEqual(t, openCapped, len(open)/5+1, "too many open-data programs beyond the reference's cap")
		t.Logf("%d programs without open data beyond the reference's cap", plainCapped)
		require.LessOrEqual(t, plainCapped, len(seeds)/50+1, "too many programs beyond the reference's cap")
	}()
	for i, seed := range append(seeds, open...) {
		recursive := seed%4 == 0
		p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%3), Procs: 2 + int(seed%2), Labels: 2 + int(seed%3),
			LocalBits: int(seed % 3), Rules: 3 + int(seed%4), Forks: seed%3 != 0, Errors: true, MaxThreads: 3 + int(seed%2), Recursive: recursive}
		name := fmt.Sprint(seed)
		if i >= len(seeds) {
			p.OpenBits = widths[int(seed%uint64(len(widths)))]
			name = fmt.Sprintf("%d (open data, %d bits)", seed, p.OpenBits)
		}
		net, err := randnet.Generate(seed, p)
		require.NoError(t, err, "seed %s", name)
		maxK := 4
		if p.Threads == 3 {
			maxK = 3
		}
		for k := 1; k <= maxK; k++ {
			ref, err := explicit.Explore(net, explicit.Options{Contexts: k, MaxDepth: depth, MaxConfigs: 200000})
			if i >= len(seeds) && errors.Is(err, explicit.ErrTooManyConfigs) {
				// Open data multiplies the reference's configurations by
				// the open values: larger bounds of this program are left
				// out, and counted.
				t.Logf("seed %s: the reference holds more than 200000 configurations with %d contexts; larger bounds left out", name, k)
				openCapped++
				break
			}
			if errors.Is(err, explicit.ErrTooManyConfigs) {
				// A drawn program can be large without open data too (a
				// start in a loop): no answer to compare with, so larger
				// bounds are left out, and counted (a few in fifty at most).
				t.Logf("seed %s: the reference holds more than 200000 configurations with %d contexts; larger bounds left out", name, k)
				plainCapped++
				break
			}
			require.NoError(t, err, "seed %s k %d", name, k)
			want := referenceVerdict(ref)

			got := map[string]int{}
			full, err := states.Engine{MaxDepth: depth, NoPOR: true, OnConfig: func(j int, c explicit.Config) {
				key := c.Key()
				_, dup := got[key]
				require.False(t, dup, "seed %s k %d: configuration expanded twice as new: %s", name, k, key)
				got[key] = j
			}}.Analyze(ctx, net, cbr.Options{Bound: k, All: true})
			require.NoError(t, err, "seed %s k %d", name, k)
			require.Equal(t, want, engineVerdict(full), "seed %s k %d: verdict without reduction", name, k)
			if d := reachDiff(net, ref, got); d != "" {
				t.Fatalf("seed %s k %d: reachable configurations differ:\n%s", name, k, d)
			}
			// Complete and Converged, as cbr.Result defines them.
			if !ref.CutOff && !ref.DepthCapped {
				require.Equal(t, k, full.Complete, "seed %s k %d: complete", name, k)
			}
			if full.Converged >= 0 {
				more, err := explicit.Explore(net, explicit.Options{Contexts: k + 2, MaxDepth: depth, MaxConfigs: 200000})
				require.NoError(t, err)
				require.Equal(t, len(ref.Reached), len(more.Reached), "seed %s k %d: converged at %d, but more configurations with k+2", name, k, full.Converged)
				fewest := 0
				for _, x := range ref.Reached {
					fewest = max(fewest, x.Contexts)
				}
				require.Equal(t, fewest, full.Converged, "seed %s k %d: converged", name, k)
			}
			perLevel := 0
			for _, n := range states.Figures(full).ConfigsPerLevel {
				perLevel += n
			}
			require.Equal(t, len(ref.Reached), perLevel, "seed %s k %d: coverage by bound", name, k)

			red, err := states.Engine{MaxDepth: depth}.Analyze(ctx, net, cbr.Options{Bound: k, All: true})
			require.NoError(t, err, "seed %s k %d", name, k)
			require.Equal(t, want, engineVerdict(red), "seed %s k %d: verdict with the reduction", name, k)
			statesFull += states.Figures(full).States
			statesReduced += states.Figures(red).States

			// A visible state of a reachable configuration, as a target:
			// reached with the fewest contexts of any configuration that
			// satisfies it, with the reduction on.
			if len(ref.Reached) > 0 {
				tg, fewest := pickTarget(net, ref, int(seed*7+uint64(k)))
				tr, err := states.Engine{MaxDepth: depth}.Analyze(ctx, net, cbr.Options{Bound: k, Targets: []pds.Target{tg}, All: true})
				require.NoError(t, err, "seed %s k %d", name, k)
				got := -1
				for _, v := range tr.Violations {
					if v.Target != nil {
						got = v.Contexts
					}
				}
				require.Equal(t, fewest, got, "seed %s k %d: target %s", name, k, tg.Name)
			}

			// Stopping at the first violation reports one with the fewest contexts.
			first, err := states.Engine{MaxDepth: depth}.Analyze(ctx, net, cbr.Options{Bound: k})
			require.NoError(t, err, "seed %s k %d", name, k)
			require.Equal(t, want.v, first.Verdict, "seed %s k %d: verdict stopping at the first violation", name, k)
			if want.v == cbr.Violation {
				require.Len(t, first.Violations, 1)
				require.Equal(t, ref.Violations[0].Contexts, first.Contexts(), "seed %s k %d: first violation", name, k)
			}

			// cbr's own differential test compares it with the reference on
			// the same programs; a fifth of them here is a direct check.
			if recursive || seed%5 != 0 {
				continue
			}
			for _, s := range []split.Strategy{split.Eager, split.Lazy} {
				// Eager splitting enumerates the open values, one view
				// tuple each: past maxTuples in one split it refuses
				// (cbr.ErrTupleLimit), which is no answer.
				// Its many tuples also hold memory that no node limit
				// bounds: past eagerMemory it stops, which is no answer
				// either (the test runs alone, so the heap is its).
				r, err := tuples.Engine{Split: s}.Analyze(ctx, net, cbr.Options{Bound: k, All: true, Limits: cbr.Limits{MaxTuples: maxTuples, MaxMemory: eagerMemory}})
				require.NoError(t, err, "seed %s k %d %s", name, k, s)
				if errors.Is(r.Limit, cbr.ErrTupleLimit) || errors.Is(r.Limit, cbr.ErrMemoryLimit) && i >= len(seeds) {
					require.Equal(t, split.Eager, s, "seed %s k %d: lazy splitting met the tuple limit", name, k)
					require.NotEqual(t, cbr.Safe, r.Verdict, "seed %s k %d: SAFE past the tuple limit", name, k)
					eagerRefused++
					continue
				}
				require.Equal(t, engineVerdict(r), engineVerdict(red), "seed %s k %d: explicit against cbr %s", name, k, s)
			}
		}
	}
}

// pickTarget makes a target of the visible state (globals, every thread's
// top) of the i-th reachable configuration, every other one leaving some
// threads unconstrained, and returns it with the fewest contexts of the
// reachable configurations that satisfy it.
func pickTarget(net *pds.Network, ref *explicit.Result, i int) (pds.Target, int) {
	c := ref.Reached[i%len(ref.Reached)].Config
	tg := pds.Target{Name: fmt.Sprintf("visible state of configuration %d", i%len(ref.Reached))}
	for i, v := range c.Globals {
		tg.Globals = append(tg.Globals, pds.Value{Global: net.Globals[i], Value: v})
	}
	for t, s := range c.Threads {
		switch {
		case i%2 == 1 && t%2 == 0:
			tg.Tops = append(tg.Tops, pds.Top{Any: true})
		case len(s) == 0:
			tg.Tops = append(tg.Tops, pds.Top{Empty: true})
		default:
			tg.Tops = append(tg.Tops, pds.Top{Label: s[len(s)-1].Label})
		}
	}
	fewest := -1
	for _, x := range ref.Reached {
		if satisfies(x.Config, c, &tg) && (fewest < 0 || x.Contexts < fewest) {
			fewest = x.Contexts
		}
	}
	return tg, fewest
}

// satisfies reports whether d has the globals of c and the tops tg asks
// for; threads d lacks satisfy only Any.
func satisfies(d, c explicit.Config, tg *pds.Target) bool {
	for i := range c.Globals {
		if d.Globals[i] != c.Globals[i] {
			return false
		}
	}
	for t, top := range tg.Tops {
		if top.Any {
			continue
		}
		if t >= len(d.Threads) {
			return false
		}
		s := d.Threads[t]
		if top.Empty != (len(s) == 0) || !top.Empty && s[len(s)-1].Label != top.Label {
			return false
		}
	}
	return true
}
