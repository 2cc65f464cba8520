package benchmarks

import (
	"context"
	"github.com/cbreach/cbreach/internal/testkit"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/stretchr/testify/require"
)

// cubaDir is CUBA's suite (testkit.CUBASuite); the test skips without it.
func cubaDir(t testing.TB) string {
	dir := testkit.CUBASuite("..")
	if dir == "" {
		t.Skip("CUBA's pldi18 suite is absent (set CBREACH_CUBA_SUITE to it): skipping")
	}
	return dir
}

// cubaUnreachableBound is the bound at which the test checks CUBA's two
// unreachable Bluetooth targets, the "every bound up to 10" (a
// target missed within 10 contexts is missed within fewer). It takes
// subsumption (cbr.Options.Subsume): the tuples kept by Dedup alone grow
// 2.5 to 5 times per context there, while the reachable configurations
// stop growing at 8 contexts.
const cubaUnreachableBound = 10

func readCuba(t testing.TB, dir, name string) (*cuba.Instance, []pds.Target) {
	sub := "04_BST-Insert"
	if strings.HasPrefix(name, "Bluetooth") {
		sub = map[string]string{"1": "01_Bluetooth-1", "2": "02_Bluetooth-2", "3": "03_Bluetooth-3"}[name[9:10]]
	}
	base := filepath.Join(dir, sub, name)
	inst, err := cuba.ReadFiles(base+".pds", base+".init", pds.Options{})
	require.NoError(t, err)
	spec, err := os.ReadFile(base + ".spec")
	if err != nil {
		return inst, nil
	}
	tg, err := cuba.ParseTarget(base+".spec", spec, inst)
	require.NoError(t, err)
	target := inst.EngineTarget(tg)
	target.Name = tg.String()
	return inst, []pds.Target{target}
}

// TestCubaBluetooth: for every Bluetooth instance of CUBA's suite, under
// eager and lazy splitting, the target is reached with exactly the fewest
// contexts CUBA reports (and not with one less), with a trace of as many
// contexts that replays, with identical tuples
// dropped and with subsumed ones dropped; the unreachable ones are not
// reached within cubaUnreachableBound contexts (with subsumption).
func TestCubaBluetooth(t *testing.T) {
	dir := cubaDir(t)
	cases := []struct {
		name   string
		fewest int // 0: unreachable
	}{
		{"Bluetooth1-11", 4}, {"Bluetooth1-12", 3}, {"Bluetooth1-21", 4},
		{"Bluetooth2-11", 4}, {"Bluetooth2-12", 3}, {"Bluetooth2-21", 4},
		{"Bluetooth3-11", 7}, {"Bluetooth3-12", 0}, {"Bluetooth3-21", 0},
	}
	for _, tc := range cases {
		for _, s := range []split.Strategy{split.Eager, split.Lazy} {
			t.Run(tc.name+"/"+s.String(), func(t *testing.T) {
				if tc.fewest == 0 {
					inst, targets := readCuba(t, dir, tc.name)
					r, err := tuples.Engine{Split: s, SubsumeAfter: -1}.Analyze(context.Background(), inst.Net, cbr.Options{Bound: cubaUnreachableBound, Targets: targets})
					require.NoError(t, err)
					require.Equal(t, cbr.Safe, r.Verdict, "target reached with %d contexts", r.Contexts())
					return
				}
				for _, k := range []int{tc.fewest - 1, tc.fewest} {
					for _, sub := range []bool{false, true} {
						inst, targets := readCuba(t, dir, tc.name)
						r, err := tuples.Engine{Split: s, Prune: prune(sub), SubsumeAfter: -1}.Analyze(context.Background(), inst.Net, cbr.Options{Bound: k, Targets: targets, Traces: true})
						require.NoError(t, err)
						if k < tc.fewest {
							require.Equal(t, cbr.Safe, r.Verdict, "k=%d subsume=%v: reached before CUBA's fewest contexts", k, sub)
						} else {
							require.Equal(t, cbr.Violation, r.Verdict, "k=%d subsume=%v", k, sub)
							require.Equal(t, tc.fewest, r.Contexts(), "subsume=%v", sub)
							// The target's trace, replayed by Analyze, with the fewest contexts.
							f := r.Violations[0]
							require.NoError(t, f.TraceErr, "subsume=%v", sub)
							require.NotNil(t, f.Trace, "subsume=%v", sub)
							require.Len(t, f.Trace.Contexts, tc.fewest, "subsume=%v", sub)
						}
					}
				}
			})
		}
	}
}

// firstStable returns the first bound from which the counts stop growing.
func firstStable(counts []int) int {
	for j := range counts {
		if !slices.ContainsFunc(counts[j:], func(c int) bool { return c != counts[j] }) {
			return j
		}
	}
	return len(counts)
}

// TestCubaBSTConvergence: the reachable visible states of the BST-Insert
// instances stop growing at 2, 3 and 4 contexts, as CUBA's symbolic engine
// reports (bst-11, bst-21, bst-22), under both splittings, with identical
// or subsumed tuples dropped.
func TestCubaBSTConvergence(t *testing.T) {
	dir := cubaDir(t)
	for _, tc := range []struct {
		name   string
		stable int
	}{{"bst-11", 2}, {"bst-21", 3}, {"bst-22", 4}} {
		var prev []int
		for _, s := range []split.Strategy{split.Eager, split.Lazy} {
			for _, sub := range []bool{false, true} {
				inst, _ := readCuba(t, dir, tc.name)
				counts, _, err := tuples.Engine{Split: s, Prune: prune(sub), SubsumeAfter: -1}.VisibleStates(context.Background(), inst.Net, cbr.Options{Bound: tc.stable + 2})
				require.NoError(t, err)
				require.Equal(t, tc.stable, firstStable(counts), "%s %s subsume=%v: visible states by bound %v", tc.name, s, sub, counts)
				if prev != nil {
					require.Equal(t, prev, counts, "%s: eager, lazy, with and without subsumption count different visible states", tc.name)
				}
				prev = counts
			}
		}
	}
}

// TestCubaExplicitVisible: on instances small enough for it, the explicit
// reference semantics reaches exactly the visible states the symbolic
// engine counts, bound by bound, with and without subsumption; on the two
// unreachable Bluetooth3 instances up to 10 contexts, where the symbolic
// engine needs subsumption.
func TestCubaExplicitVisible(t *testing.T) {
	dir := cubaDir(t)
	for _, tc := range []struct {
		name        string
		k           int
		onlySubsume bool
	}{{"bst-11", 3, false}, {"bst-21", 2, false}, {"Bluetooth1-11", 3, false}, {"Bluetooth2-12", 2, false},
		{"Bluetooth3-12", 10, true}, {"Bluetooth3-21", 10, true}} {
		inst, _ := readCuba(t, dir, tc.name)
		res, err := explicit.Explore(inst.Net, explicit.Options{Contexts: tc.k, MaxDepth: 64, MaxConfigs: 2000000})
		require.NoError(t, err)
		require.False(t, res.DepthCapped, tc.name)
		first := map[string]int{}
		for _, x := range res.Reached {
			tops := make([]string, len(x.Config.Threads))
			for i, st := range x.Config.Threads {
				tops[i] = "-"
				if len(st) > 0 {
					tops[i] = st[len(st)-1].Label.Name
				}
			}
			key := strings.Join(append([]string{inst.Net.Globals[inst.Shared.Index].Type.Format(x.Config.Globals[inst.Shared.Index])}, tops...), "|")
			if old, ok := first[key]; !ok || x.Contexts < old {
				first[key] = x.Contexts
			}
		}
		want := make([]int, tc.k+1)
		for _, j := range first {
			for b := j; b <= tc.k; b++ {
				want[b]++
			}
		}
		for _, s := range []split.Strategy{split.Eager, split.Lazy} {
			for _, sub := range []bool{false, true} {
				if tc.onlySubsume && !sub {
					continue
				}
				inst, _ := readCuba(t, dir, tc.name)
				got, _, err := tuples.Engine{Split: s, Prune: pruneOrNone(sub)}.VisibleStates(context.Background(), inst.Net, cbr.Options{Bound: tc.k})
				require.NoError(t, err)
				require.Equal(t, want, got, "%s %s subsume=%v: visible states by bound", tc.name, s, sub)
				t.Logf("%s %s subsume=%v: visible states by bound %v", tc.name, s, sub, got)
			}
		}
	}
}

// prune is subsumption from the first tuple, or identical tuples only.
func prune(subsume bool) tuples.Prune {
	if subsume {
		return tuples.PruneSubsumed
	}
	return tuples.PruneIdentical
}

// pruneOrNone is subsumption (default threshold), or no pruning.
func pruneOrNone(subsume bool) tuples.Prune {
	if subsume {
		return tuples.PruneSubsumed
	}
	return tuples.PruneNone
}
