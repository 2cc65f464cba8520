package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/cbreach/cbreach/benchmarks"
	"github.com/stretchr/testify/require"
)

// TestSlotModels runs the models of testdata/slots (programs that start
// threads, of SV-COMP size) against their EXPECTED lines: the view-tuple
// engine finds the violation with its fewest contexts and none with one
// fewer, the sequential engine's lazy form finds it within 2 rounds, and
// every run has room for exactly the threads the program can have (its
// "at most N threads" comment), counted from the program.
func TestSlotModels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "slots", "*.pds"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	threadsRE := regexp.MustCompile(`at most (\d+) threads`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		want, err := benchmarks.ParseExpected(src)
		require.NoError(t, err, f)
		require.True(t, want.Violation, "%s: the corpus has violations", f)
		m := threadsRE.FindSubmatch(src)
		require.NotNil(t, m, "%s: no 'at most N threads' comment", f)
		threads, _ := strconv.Atoi(string(m[1]))
		runs := []struct {
			args []string
			exit int
			out  string
		}{
			{[]string{"-k", fmt.Sprint(want.Contexts)}, exitViolation, fmt.Sprintf("first reached with %d contexts", want.Contexts)},
			{[]string{"-k", fmt.Sprint(want.Contexts - 1)}, exitSafe, "SAFE"},
			{[]string{"--engine", "explicit", "-k", fmt.Sprint(want.Contexts)}, exitViolation, fmt.Sprintf("first reached with %d contexts", want.Contexts)},
			{[]string{"--engine", "seq", "-k", "2"}, exitViolation, "VIOLATION"},
		}
		for _, r := range runs {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append(r.args, f), &out, &errOut, false)
			require.Equal(t, r.exit, code, "%s %v: %s%s", f, r.args, out.String(), errOut.String())
			require.Contains(t, out.String(), r.out, "%s %v", f, r.args)
			require.Contains(t, out.String(), fmt.Sprintf("threads: %d, all the program can have", threads), "%s %v", f, r.args)
		}
	}
}
