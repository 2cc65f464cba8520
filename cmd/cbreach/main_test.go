package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// normalize replaces what varies between runs (times, node counts that
// depend on the BDD kernel) so that outputs can be compared.
func normalize(s string) string {
	s = regexp.MustCompile(`\d+\.\d+s\b`).ReplaceAllString(s, "T.TTTs")
	s = regexp.MustCompile(`"timeSeconds": [0-9.e-]+`).ReplaceAllString(s, `"timeSeconds": 0`)
	s = regexp.MustCompile(`"peakNodes": \d+`).ReplaceAllString(s, `"peakNodes": 0`)
	s = regexp.MustCompile(`peak BDD node table occupancy: \d+`).ReplaceAllString(s, "peak BDD node table occupancy: N")
	s = regexp.MustCompile(`"kernel": "\w+"`).ReplaceAllString(s, `"kernel": "K"`)
	return s
}

func TestCommandLine(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	cases := []struct {
		name string
		args []string
		exit int
	}{
		{"violation", []string{"-k", "5", "-split", "lazy", bt}, exitViolation},
		{"violation-eager", []string{"-k", "5", "--split=eager", bt}, exitViolation},
		{"safe", []string{"-k", "4", "-split", "lazy", bt}, exitSafe},
		{"json-violation", []string{"--json", "-k", "5", bt}, exitViolation},
		{"json-safe", []string{"--json", "-k", "4", "--split", "eager", bt}, exitSafe},
		{"stats-all", []string{"--stats", "--all", "--no-dedup", "-k", "5", bt}, exitViolation},
		{"quiet", []string{"-q", "-k", "5", bt}, exitViolation},
		{"bad-input", []string{filepath.Join("testdata", "bad.pds")}, exitUsage},
		{"missing-file", []string{filepath.Join("testdata", "nothing.pds")}, exitUsage},
		{"bad-split", []string{"--split", "sideways", bt}, exitUsage},
		{"bad-contexts", []string{"-k", "0", bt}, exitUsage},
		{"no-file", []string{"-k", "3"}, exitUsage},
		{"unknown-flag", []string{"--frobnicate", bt}, exitUsage},
		{"timeout", []string{"--timeout", "1ns", "-k", "5", bt}, exitUnknown},
		{"json-timeout", []string{"--json", "--timeout", "1ns", "-k", "5", bt}, exitUnknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tc.args, &out, &errb, false)
			got := normalize("$ cbreach " + strings.Join(tc.args, " ") + "\n" + out.String() + "--- stderr\n" + errb.String())
			golden := filepath.Join("testdata", tc.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run with -update to create the golden files")
			require.Equal(t, string(want), got)
			require.Equal(t, tc.exit, code, "exit status")
			if strings.HasPrefix(tc.name, "json") {
				var v map[string]any
				require.NoError(t, json.Unmarshal(out.Bytes(), &v), "--json prints one JSON object")
				for _, k := range []string{"verdict", "bound", "split", "contexts", "viewTuples", "violations", "stats"} {
					require.Contains(t, v, k)
				}
			}
		})
	}
}

func TestNormalizeArgs(t *testing.T) {
	require.Equal(t, []string{"-k", "4", "--split", "lazy", "f.pds"}, normalize_([]string{"-k", "4", "-split", "lazy", "f.pds"}))
	require.Equal(t, []string{"--split=eager", "-q", "--", "-split"}, normalize_([]string{"-split=eager", "-q", "--", "-split"}))
	require.Equal(t, []string{"-kq"}, normalize_([]string{"-kq"}))
}

var normalize_ = func(a []string) []string { return normalizeArgs(a) }
