package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/frontend/readers"
	"github.com/stretchr/testify/require"
)

// sampleAnswers are the answers of the tables' samples within 3 units of
// each bound's unit: "safe", or "violation N" with the fewest N; "" for a
// run refused because the engine does not check the reader's targets.
var sampleAnswers = map[string]map[cbr.Unit]string{
	"examples/bluetooth.pds":             {cbr.Contexts: "safe", cbr.Rounds: "violation 3"},
	"examples/lostupdate.pds":            {cbr.Contexts: "safe", cbr.Rounds: "violation 2"},
	"examples/recursion.pds":             {cbr.Contexts: "violation 2", cbr.Rounds: "violation 2"},
	"benchmarks/boolean/bluetooth-v1.bp": {cbr.Contexts: "violation 3", cbr.Rounds: "violation 2"},
	"cmd/cbreach/testdata/cuba/two.pds":  {cbr.Contexts: "violation 2", cbr.Rounds: ""},
	"examples/lost-update.c":             {cbr.Contexts: "safe", cbr.Rounds: "violation 3"},
}

// TestEveryEngineAndReader runs every row of both tables through the
// real binary: every engine (cbr/engines) on every reader's sample and on
// every engine's sample (frontend/readers), within 3 units of its bound,
// in text and with --json. Each run gives the sample's answer (the
// verdict and the fewest count), or, for an engine that checks no
// targets on a reader's targets, the usage error that says so; the JSON
// names the engine and carries its figures under the engine's own key
// with the engine's own field names (those of the figures the library
// returns for the same run). A row without a sample, or a sample
// without an answer here, fails.
func TestEveryEngineAndReader(t *testing.T) {
	bin := cbreachBinary(t)
	root := filepath.Join("..", "..")
	type sample struct {
		path   string
		reader *readers.Reader // nil: chosen by the path
	}
	var samples []sample
	for _, r := range readers.All {
		require.NotEmpty(t, r.Sample, "reader %s names no sample", r.Name)
		samples = append(samples, sample{r.Sample, r})
	}
	for _, e := range engines.All {
		require.NotEmpty(t, e.Sample, "engine %s names no sample", e.Name)
		samples = append(samples, sample{e.Sample, nil})
	}
	for _, s := range samples {
		_, err := os.Stat(filepath.Join(root, s.path))
		require.NoError(t, err, "the sample %s", s.path)
		answers, ok := sampleAnswers[s.path]
		require.True(t, ok, "the sample %s has no answer in sampleAnswers: add it", s.path)
		for _, e := range engines.All {
			unit := e.Units[0]
			want, ok := answers[unit]
			require.True(t, ok, "the sample %s has no answer in %s: add it", s.path, unit)
			args := []string{"--engine", e.Name, "--no-trace", "-k", "3"}
			if s.reader != nil {
				args = append(args, "--format", s.reader.Name)
			}
			args = append(args, filepath.Join(root, s.path))
			name := strings.Join(args, " ")

			text, code := runBinary(t, bin, args...)
			js, jcode := runBinary(t, bin, append([]string{"--json"}, args...)...)
			require.Equal(t, code, jcode, "%s: exit status with and without --json", name)
			if want == "" {
				require.Equal(t, exitUsage, code, "%s: %s", name, text)
				require.Contains(t, text, "checks error labels only", name)
				continue
			}
			var out struct {
				Engine  string                     `json:"engine"`
				Verdict string                     `json:"verdict"`
				Fewest  *int                       `json:"fewest"`
				Stats   map[string]json.RawMessage `json:"stats"`
			}
			require.NoError(t, json.Unmarshal([]byte(js), &out), "%s: %s", name, js)
			got := out.Verdict
			if out.Fewest != nil {
				got += " " + itoa(*out.Fewest)
			}
			require.Equal(t, want, got, name)
			require.Equal(t, e.Name, out.Engine, name)
			verdictWord := strings.ToUpper(strings.Fields(want)[0])
			require.True(t, strings.HasPrefix(text, verdictWord), "%s: %s", name, text)
			require.Equal(t, map[string]int{"safe": exitSafe, "violation": exitViolation}[strings.Fields(want)[0]], code, name)

			// The portfolio's figures are those of the engine that
			// answered (either, with the timing): compare with that one's.
			fe := e
			var named struct {
				Answered string `json:"answered"`
			}
			require.NoError(t, json.Unmarshal([]byte(js), &named))
			if named.Answered != "" {
				fe, err = engines.Lookup(named.Answered)
				require.NoError(t, err, name)
			}
			key, fields := libraryFigures(t, fe, s.path, s.reader, root)
			raw, ok := out.Stats[key]
			require.True(t, ok, "%s: no stats.%s in %s", name, key, js)
			var m map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(raw, &m))
			require.ElementsMatch(t, fields, keysOf(m), "%s: the fields of stats.%s", name, key)
		}
	}
}

// runBinary runs the command and returns its standard output and
// standard error together, and its exit status.
func runBinary(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return string(out), code
}

// libraryFigures runs the engine as a library on the sample (3 units)
// and returns the key and field names of its figures in JSON.
func libraryFigures(t *testing.T, e engines.Entry, path string, r *readers.Reader, root string) (string, []string) {
	t.Helper()
	in, err := readers.Load(filepath.Join(root, path), os.ReadFile, r, readers.Options{})
	require.NoError(t, err, path)
	res, err := e.MustNew(nil).Analyze(context.Background(), in.Net, cbr.Options{Bound: 3, Unit: e.Units[0], Targets: in.Targets})
	require.NoError(t, err, path)
	key, v := res.Figures.Stats()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &m))
	return key, keysOf(m)
}

func keysOf(m map[string]json.RawMessage) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
