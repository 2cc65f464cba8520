package cuba_test

import (
	"github.com/cbreach/cbreach/internal/testkit"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/frontend/cuba"
)

// suiteDir is CUBA's pldi18 suite (testkit.CUBASuite; "" when absent).
var suiteDir = testkit.CUBASuite(filepath.Join("..", ".."))

// suite lists every .pds file of the suite: threads and shared states
// (Bluetooth as in the suite's README table), rules (lines with "->"),
// whether an .init and a .spec come with it.
var suite = map[string]struct {
	threads, states, rules int
	init, spec             bool
}{
	"Bluetooth1-11": {3, 21, 403, true, true},
	"Bluetooth1-12": {4, 21, 580, true, true},
	"Bluetooth1-21": {4, 21, 624, true, true},
	"Bluetooth1":    {5, 7, 48, false, false}, // a .pds without .init
	"Bluetooth2-11": {3, 21, 411, true, true},
	"Bluetooth2-12": {4, 21, 588, true, true},
	"Bluetooth2-21": {4, 21, 640, true, true},
	"Bluetooth3-11": {3, 21, 410, true, true},
	"Bluetooth3-12": {4, 21, 588, true, true},
	"Bluetooth3-21": {4, 21, 639, true, true},
	"bst-11":        {2, 5, 42, true, false},
	"bst-21":        {3, 5, 71, true, false},
	"bst-22":        {4, 5, 80, true, false},
	"filecrawer":    {3, 9, 99, true, false},
	"k-induction":   {2, 2, 24, true, false},
	"proc-2":        {4, 4, 20, true, false},
	"stefan-2":      {2, 3, 10, true, false},
	"stefan-4":      {4, 3, 20, true, false},
	"stefan-8":      {8, 3, 40, true, false},
	"dekker":        {2, 129, 2698, true, false},
}

// TestSuite reads every instance of the suite: each .pds with the .init
// and .spec of the same base name (a .pds without .init is only parsed).
func TestSuite(t *testing.T) {
	if suiteDir == "" {
		t.Skip("CUBA's pldi18 suite is absent (set CBREACH_CUBA_SUITE to it): skipping")
	}
	files := map[string]bool{}
	err := filepath.WalkDir(suiteDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files[path] = true
		}
		return err
	})
	require.NoError(t, err)

	var pdsFiles []string
	for path := range files {
		base, ext := strings.TrimSuffix(path, filepath.Ext(path)), filepath.Ext(path)
		switch ext {
		case ".pds":
			pdsFiles = append(pdsFiles, path)
		case ".init", ".spec":
			require.True(t, files[base+".pds"], "%s: no .pds of the same name", path)
		}
	}
	slices.Sort(pdsFiles)
	seen := map[string]bool{}
	for _, path := range pdsFiles {
		base := strings.TrimSuffix(path, ".pds")
		name := filepath.Base(base)
		t.Run(name, func(t *testing.T) {
			want, ok := suite[name]
			require.True(t, ok, "%s is not in the table", path)
			require.False(t, seen[name], "%s: two files of that name", name)
			seen[name] = true
			require.Equal(t, want.init, files[base+".init"], "has an .init")
			require.Equal(t, want.spec, files[base+".spec"], "has a .spec")

			src, err := os.ReadFile(path)
			require.NoError(t, err)
			sys, err := cuba.ParsePDS(path, src)
			require.NoError(t, err)
			require.Len(t, sys.Blocks, want.threads)
			require.Equal(t, want.states, sys.States)
			rules := 0
			for _, b := range sys.Blocks {
				rules += len(b.Rules)
			}
			require.Equal(t, want.rules, rules)
			if !want.init {
				return
			}

			in, err := cuba.ReadFiles(path, base+".init", testOpts)
			require.NoError(t, err) // Build has validated the network
			require.Len(t, in.Net.Threads, want.threads)
			require.Equal(t, want.states, in.States)
			require.Len(t, in.Net.Rules, want.rules)
			for _, th := range in.Net.Threads {
				require.NotEmpty(t, th.Stack, "thread %s starts finished", th.Name)
			}
			if !want.spec {
				return
			}
			spec, err := os.ReadFile(base + ".spec")
			require.NoError(t, err)
			tg, err := cuba.ParseTarget(base+".spec", spec, in)
			require.NoError(t, err)
			require.False(t, tg.Unreachable, "every top symbol of %s occurs in its thread", tg)
			require.Equal(t, strings.TrimSpace(string(spec)), tg.String())
		})
	}
	for name := range suite {
		require.True(t, seen[name], "%s.pds is missing from the suite", name)
	}
}
