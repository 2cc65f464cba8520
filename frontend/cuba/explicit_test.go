package cuba_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// fewestContexts returns the fewest contexts of a reached configuration
// with the target's visible state (0 for an initial one), or -1 when none
// is reached.
func fewestContexts(in *cuba.Instance, res *explicit.Result, tg *cuba.Target) int {
	best := -1
	for _, r := range res.Reached {
		if r.Config.Globals[in.Shared.Index] != tg.Shared {
			continue
		}
		match := true
		for i, stack := range r.Config.Threads {
			var top *pds.Label
			if len(stack) > 0 {
				top = stack[len(stack)-1].Label
			}
			match = match && top == tg.Tops[i]
		}
		if match && (best < 0 || r.Contexts < best) {
			best = r.Contexts
		}
	}
	return best
}

// TestExplicit runs the explicit reference on a small system with known
// answers, checking that the network means what the CUBA files say.
func TestExplicit(t *testing.T) {
	const system = `4
PDA 1 4
0 1 -> 1 2 4   # push 2 on 4, shared 0 -> 1
2 2 -> 2 -     # pop when shared is 2, exposing 4
2 4 -> 3 3     # overwrite 4 by 3, shared 2 -> 3
PDA 5 6
1 5 -> 2 6     # shared 1 -> 2
2 6 -> 2 -     # finish
`
	in := read(t, system, "0|1,5")
	res, err := explicit.Explore(in.Net, explicit.Options{Contexts: 4, MaxDepth: 8})
	require.NoError(t, err)
	tests := []struct {
		target string
		want   int // fewest contexts; -1: not reached within 4
	}{
		{"0|1,5", 0}, // the initial state
		{"1|2,5", 1},
		{"2|2,6", 2},
		{"2|2,-", 2},
		{"2|4,6", 3},
		{"3|3,6", 3},
		{"3|3,-", 3},
		{"1|1,6", -1}, // T1 needs shared 1, which T0 leaves only by moving
		{"0|7,5", -1}, // 7 never occurs: Unreachable
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			tg, err := cuba.ParseTargetString(tc.target, in)
			require.NoError(t, err)
			got := fewestContexts(in, res, tg)
			require.Equal(t, tc.want, got)
			if tg.Unreachable {
				require.Equal(t, -1, got)
			}
		})
	}
}

// TestExplicitBluetooth checks the fewest contexts CUBA reports for three
// Bluetooth instances of the suite (its README table; the slower ones are
// left out to keep the test fast).
func TestExplicitBluetooth(t *testing.T) {
	if _, err := os.Stat(suiteDir); err != nil {
		t.Skipf("CUBA suite not available (%v): it lives in the shared data next to the module", err)
	}
	for _, tc := range []struct {
		name string
		k    int
	}{
		{"01_Bluetooth-1/Bluetooth1-11", 4},
		{"01_Bluetooth-1/Bluetooth1-12", 3},
		{"03_Bluetooth-3/Bluetooth3-11", 7},
	} {
		t.Run(filepath.Base(tc.name), func(t *testing.T) {
			base := filepath.Join(suiteDir, tc.name)
			in, err := cuba.ReadFiles(base+".pds", base+".init", testOpts)
			require.NoError(t, err)
			spec, err := os.ReadFile(base + ".spec")
			require.NoError(t, err)
			tg, err := cuba.ParseTarget(base+".spec", spec, in)
			require.NoError(t, err)
			res, err := explicit.Explore(in.Net, explicit.Options{Contexts: tc.k, MaxDepth: 16})
			require.NoError(t, err)
			require.False(t, res.DepthCapped, "the depth cap cut the exploration")
			require.Equal(t, tc.k, fewestContexts(in, res, tg))
		})
	}
}
