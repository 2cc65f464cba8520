package seq_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync/atomic"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	pexp "github.com/cbreach/cbreach/pds/explicit"
	"github.com/stretchr/testify/require"
)

// rrAnswer is what the round-robin reference finds within K rounds.
type rrAnswer struct {
	sites  map[string]int // error label name -> fewest rounds
	cutoff bool           // a start met the thread bound
	capped bool           // a push met the depth cap
	full   bool           // the search met its cap on states (rrMaxStates): no answer
	states int
}

// rrMaxStates caps the round-robin reference's states; past it the
// reference gives no answer (open data of many bits).
const rrMaxStates = 400000

func (a rrAnswer) verdict() cbr.Verdict {
	switch {
	case len(a.sites) > 0:
		return cbr.Violation
	case a.cutoff || a.capped:
		return cbr.Unknown
	}
	return cbr.Safe
}

func (a rrAnswer) list() []string { return siteList(a.sites) }

func siteList(m map[string]int) []string {
	var out []string
	for l, r := range m {
		out = append(out, fmt.Sprintf("%s@%d", l, r))
	}
	sort.Strings(out)
	return out
}

// threadsOf is n, the threads of the round-robin order: the initial ones
// and, when the network forks, a slot for every thread it may start (the
// i-th thread started is thread len(initial)+i, in the order of the
// explicit semantics and of pds.WithThreadSlots).
func threadsOf(net *pds.Network) int {
	for _, r := range net.Rules {
		if r.Kind == pds.Fork {
			return net.MaxThreads
		}
	}
	return len(net.Threads)
}

// roundRobin is the reference: a breadth-first search, on the explicit
// semantics (pds/explicit.Successors, native forks), over states
// (configuration, round r, active thread i). Thread i takes steps; a switch
// goes to thread i+1 in the same round, or after the last thread to
// thread 0 of round r+1 if r+1 < K. A context may be empty, and a thread
// not started yet (or finished) has none. An error label on top of a
// thread's stack in a state of round r is reached within r+1 rounds.
func roundRobin(t *testing.T, net *pds.Network, K, depth int) rrAnswer {
	n := threadsOf(net)
	st := pexp.NewStepper(net, net.MaxThreads, depth)
	type state struct {
		c    pexp.Config
		r, i int
	}
	ans := rrAnswer{sites: map[string]int{}}
	seen := map[string]bool{}
	var queue []state
	push := func(s state) {
		key := fmt.Sprintf("%s#%d#%d", s.c.Key(), s.r, s.i)
		if !seen[key] {
			seen[key] = true
			queue = append(queue, s)
		}
	}
	for _, c := range pexp.Initial(net) {
		push(state{c, 0, 0})
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		ans.states++
		if ans.states >= rrMaxStates {
			ans.full = true
			return ans
		}
		for _, stack := range s.c.Threads {
			if len(stack) > 0 {
				if l := stack[len(stack)-1].Label; l.Kind.IsError() {
					if old, ok := ans.sites[l.Name]; !ok || s.r+1 < old {
						ans.sites[l.Name] = s.r + 1
					}
				}
			}
		}
		if s.i < len(s.c.Threads) {
			succ, cutoff, capped, err := st.Successors(s.c, s.i)
			require.NoError(t, err)
			ans.cutoff = ans.cutoff || cutoff
			ans.capped = ans.capped || capped
			for _, d := range succ {
				push(state{d, s.r, s.i})
			}
		}
		switch {
		case s.i+1 < n:
			push(state{s.c, s.r, s.i + 1})
		case s.r+1 < K:
			push(state{s.c, s.r + 1, 0})
		}
	}
	return ans
}

func engineSites(r *cbr.Result) []string {
	m := map[string]int{}
	for _, f := range r.Violations {
		if f.Label != nil {
			m[f.Label.Name] = f.Contexts
		}
	}
	return siteList(m)
}

// randomParams are the differential test's programs: 2 or 3 threads,
// forks in two seeds of three, recursion every fourth.
func randomParams(seed uint64) randnet.Params {
	return randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%3), Procs: 2 + int(seed%2), Labels: 2 + int(seed%3),
		LocalBits: int(seed % 3), Rules: 3 + int(seed%4), Forks: seed%3 != 0, Errors: true, MaxThreads: 3, Recursive: seed%4 == 0}
}

// forms are the engine's two forms.
var forms = []struct {
	name string
	lazy bool
}{{"eager", false}, {"lazy", true}}

// TestRandomDifferential: on random programs with 2 or 3 threads, forks
// and recursion, for K = 1..3 rounds, both forms agree with the
// round-robin reference on the verdict and on every violation site with
// its fewest rounds; and they report a start beyond the thread bound when
// the reference meets one. (The eager form skips three rounds of three
// threads that fork.)
func TestRandomDifferential(t *testing.T) {
	seeds := tier.Seeds(t, 8, 80, 30)
	// Open data: programs with a global that starts with any value
	// (randnet.Params.OpenBits).
	open, widths := tier.Seeds(t, 3, 6, 4), reachcases.OpenWidths()
	const depth = 8
	ctx := context.Background()
	var compared, violations, limited, full, plainFull atomic.Int32
	t.Run("seeds", func(t *testing.T) { // returns when every seed is done
		for _, seed := range seeds {
			t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
				t.Parallel() // each network has a BDD manager of its own
				randomDifferential(t, ctx, seed, randomParams(seed), depth, &compared, &violations, &limited, &full, &plainFull)
			})
		}
		for _, seed := range open {
			p := randomParams(seed)
			p.OpenBits = widths[int(seed%uint64(len(widths)))]
			t.Run(fmt.Sprintf("open/bits=%d/seed=%d", p.OpenBits, seed), func(t *testing.T) {
				t.Parallel()
				randomDifferential(t, ctx, seed, p, depth, &compared, &violations, &limited, &full, &plainFull)
			})
		}
	})
	t.Logf("%d comparisons, %d with violations, %d cut off by the node limit; %d open-data programs past the reference's cap", compared.Load(), violations.Load(), limited.Load(), full.Load())
	require.LessOrEqual(t, int(full.Load()), len(open)/5+1, "too many open-data programs past the reference's cap")
	t.Logf("%d programs without open data past the reference's cap", plainFull.Load())
	require.LessOrEqual(t, int(plainFull.Load()), len(seeds)/50+1, "too many programs past the reference's cap")
	require.Less(t, limited.Load(), compared.Load()/10+1, "too many runs cut off")
	require.Greater(t, violations.Load(), compared.Load()/10, "too few violations to test anything")
	require.Less(t, violations.Load(), compared.Load()*4/5, "too few safe programs to test anything")
}

// randomDifferential is TestRandomDifferential on one seed.
func randomDifferential(t *testing.T, ctx context.Context, seed uint64, p randnet.Params, depth int, compared, violations, limited, full, plainFull *atomic.Int32) {
	{
		net, err := randnet.Generate(seed, p)
		require.NoError(t, err, "seed %d", seed)
		for K := 1; K <= 3; K++ {
			ref := roundRobin(t, net, K, depth)
			if ref.full && p.OpenBits == 0 {
				// A drawn program can be large without open data too (a
				// start in a loop): no answer, larger bounds left out and
				// counted (a few in fifty at most).
				t.Logf("seed %d K %d: round-robin reference past %d states; larger bounds left out", seed, K, rrMaxStates)
				plainFull.Add(1)
				return
			}
			if ref.full {
				// No answer: larger bounds are left out, and counted.
				t.Logf("seed %d K %d: round-robin reference past %d states; larger bounds left out", seed, K, rrMaxStates)
				full.Add(1)
				return
			}
			if ref.capped {
				continue // the reference did not see every run
			}
			for _, f := range forms {
				if !f.lazy && K == 3 && p.Threads == 3 && p.Forks {
					// Three rounds of three threads with thread slots
					// hold 60 bits of globals in 2K copies in the eager
					// summaries: seconds to minutes each (the paper's
					// |P|^2K). The lazy form takes milliseconds.
					continue
				}
				res, err := seq.Engine{Eager: !f.lazy}.Analyze(ctx, net, cbr.Options{Bound: K, All: true, Limits: cbr.Limits{MaxNodes: 1 << 21}})
				require.NoError(t, err, "seed %d K %d %s", seed, K, f.name)
				if errors.Is(res.Limit, cbr.ErrNodeLimit) {
					limited.Add(1)
					continue
				}
				require.Equal(t, cbr.Rounds, res.Unit)
				require.Equal(t, ref.list(), engineSites(res), "seed %d K %d %s: violation sites", seed, K, f.name)
				require.Equal(t, ref.verdict(), res.Verdict, "seed %d K %d %s: verdict (%s)", seed, K, f.name, res.Reason)
				require.Equal(t, ref.cutoff, res.Limit != nil, "seed %d K %d %s: thread bound (%v)", seed, K, f.name, res.Limit)
				compared.Add(1)
				if len(ref.sites) > 0 {
					violations.Add(1)
				}

				// Stopping at the first violation (eager: deepening,
				// post* stopped early; lazy: after the first thread
				// that reaches one) reports one with the fewest rounds.
				first, err := seq.Engine{Eager: !f.lazy}.Analyze(ctx, net, cbr.Options{Bound: K, Limits: cbr.Limits{MaxNodes: 1 << 21}})
				require.NoError(t, err, "seed %d K %d %s", seed, K, f.name)
				if errors.Is(first.Limit, cbr.ErrNodeLimit) {
					continue
				}
				require.Equal(t, ref.verdict(), first.Verdict, "seed %d K %d %s: verdict stopping at the first violation", seed, K, f.name)
				if len(ref.sites) > 0 {
					fewest := K
					for _, r := range ref.sites {
						fewest = min(fewest, r)
					}
					require.Len(t, first.Violations, 1)
					require.Equal(t, fewest, first.Contexts(), "seed %d K %d %s: rounds of the first violation", seed, K, f.name)
					require.Equal(t, fewest-1, first.Complete, "seed %d K %d %s: rounds explored completely", seed, K, f.name)
				}
			}
		}
	}
}

// TestBoundsAgainstCBR checks the relation between the two bounds on the
// same random programs, against the view-tuple engine (package cbr/tuples): a
// schedule of c contexts fits in c rounds, and K rounds of n threads fit
// in n*K contexts. So SAFE at n*K contexts implies SAFE at K rounds,
// which implies SAFE at K contexts; a violation with c <= K contexts is
// found within c rounds; and one within r rounds is found with at most
// n*r contexts.
// openSeed is added to the seed of an open-data program in
// TestBoundsAgainstCBR's messages.
const openSeed = 1_000_000_000_000

func TestBoundsAgainstCBR(t *testing.T) {
	seeds := tier.Seeds(t, 8, 40, 15)
	// Open data, as in TestRandomDifferential: the seeds after len(seeds)
	// add a global that starts with any value (the seed in messages is
	// the program's plus openSeed).
	open, widths := tier.Seeds(t, 3, 6, 4), reachcases.OpenWidths()
	ctx := context.Background()
	checked, cut := 0, 0
	for i, seed := range append(seeds, open...) {
		p := randomParams(seed)
		if i >= len(seeds) {
			p.OpenBits = widths[int(seed%uint64(len(widths)))]
		}
		net, err := randnet.Generate(seed, p)
		if i >= len(seeds) {
			seed += openSeed
		}
		require.NoError(t, err, "seed %d", seed)
		n := threadsOf(net)
		for K := 1; K <= 2; K++ {
			// Under limits: on open data the wide bound's runs (n*K
			// contexts) can grow without end in the memory of the Go
			// heap (a thread counting through 2^w values), which a
			// node limit does not bound; a run cut off is no answer.
			lim := cbr.Limits{MaxNodes: 1 << 22, MaxMemory: boundsMemory}
			byCtx, err := tuples.Engine{}.Analyze(ctx, net, cbr.Options{Bound: K, All: true, Limits: lim})
			require.NoError(t, err)
			wide, err := tuples.Engine{}.Analyze(ctx, net, cbr.Options{Bound: n * K, All: true, Limits: lim})
			require.NoError(t, err)
			res, err := seq.Engine{Eager: seed%2 != 0}.Analyze(ctx, net, cbr.Options{Bound: K, All: true, Limits: lim})
			require.NoError(t, err)
			if byCtx.Verdict == cbr.Unknown || wide.Verdict == cbr.Unknown || res.Verdict == cbr.Unknown {
				cut++
				continue
			}
			checked++
			if wide.Verdict == cbr.Safe {
				require.Equal(t, cbr.Safe, res.Verdict, "seed %d: safe at %d contexts, not at %d rounds", seed, n*K, K)
			}
			if res.Verdict == cbr.Safe {
				require.Equal(t, cbr.Safe, byCtx.Verdict, "seed %d: safe at %d rounds, not at %d contexts", seed, K, K)
			}
			rounds := map[*pds.Label]int{}
			for _, f := range res.Violations {
				rounds[f.Label] = f.Contexts
			}
			contexts := map[*pds.Label]int{}
			for _, f := range wide.Violations {
				contexts[f.Label] = f.Contexts
			}
			for _, f := range byCtx.Violations {
				r, ok := rounds[f.Label]
				require.True(t, ok && r <= f.Contexts, "seed %d: %s with %d contexts, not within %d rounds", seed, f.Label, f.Contexts, f.Contexts)
			}
			for l, r := range rounds {
				c, ok := contexts[l]
				require.True(t, ok && c <= n*r, "seed %d: %s within %d rounds, not with %d contexts", seed, l, r, n*r)
			}
		}
	}
	t.Logf("%d comparisons, %d left out (a run cut off by a limit)", checked, cut)
	require.Greater(t, checked, len(seeds)/2)
}

// boundsMemory is the memory TestBoundsAgainstCBR's runs may hold: the
// test runs alone (no parallel subtests), so the process's live heap is
// theirs.
const boundsMemory = 2 << 30
