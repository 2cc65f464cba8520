package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/frontend/readers"
	"github.com/stretchr/testify/require"
)

// runArgs runs the command and returns its exit status and outputs.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb, false)
	return code, out.String(), errb.String()
}

// TestReaderLangs: the language of every reader's traces is one that
// package tracefmt knows.
func TestReaderLangs(t *testing.T) {
	for _, r := range readers.All {
		_, err := tracefmt.ParseLang(r.Lang)
		require.NoError(t, err, "reader %s", r.Name)
	}
}

// TestFormatFlag: --format NAME reads as the reader's own flag does
// (--bp, --cuba), an unknown name and two formats are usage errors, and
// a reader's files go with its format only.
func TestFormatFlag(t *testing.T) {
	two := filepath.Join("testdata", "cuba", "two.pds")
	boolean := filepath.Join("testdata", "bp", "boolean.pds")
	for _, c := range [][2][]string{
		{{"-k", "3", "--cuba", two}, {"-k", "3", "--format", "cuba", two}},
		{{"-k", "3", "-cuba", "-target", "0|0,0", two}, {"-k", "3", "--format=cuba", "--target", "0|0,0", two}},
		{{"-k", "1", "--bp", boolean}, {"-k", "1", "--format", "bp", boolean}},
		{{"-k", "1", "--bp", boolean}, {"-k", "1", "--format", "bp", "--bp", boolean}},
	} {
		wantCode, wantOut, wantErr := runArgs(c[0]...)
		code, out, errb := runArgs(c[1]...)
		require.Equal(t, wantCode, code, "%v: %s", c[1], errb)
		require.Equal(t, normalize(wantOut), normalize(out), "%v", c[1])
		require.Equal(t, wantErr, errb, "%v", c[1])
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "java", two}, `cbreach: --format: want pds, bp, cuba or c, got "java"`},
		{[]string{"--format", "pds", "--cuba", two}, "cbreach: --format pds and --cuba exclude each other"},
		{[]string{"--bp", "--cuba", two}, "cbreach: --bp and --cuba exclude each other"},
		{[]string{"--init", "x.init", two}, "cbreach: --init and --target go with --cuba"},
		{[]string{"--format", "bp", "--target", "0|0", two}, "cbreach: --init and --target go with --cuba"},
		{[]string{"--format", "pds", two}, "cbreach: testdata/cuba/two.pds:1:1: invalid character"}, // read as asked, no hint,
	} {
		code, _, errb := runArgs(c.args...)
		require.Equal(t, exitUsage, code, "%v", c.args)
		require.True(t, strings.HasPrefix(errb, c.want), "%v: got %q want %q", c.args, errb, c.want)
	}
}

// TestHelpFormats: -h has a usage line per reader, with its flags, and
// lists every format with its doc line.
func TestHelpFormats(t *testing.T) {
	code, out, _ := runArgs("-h")
	require.Equal(t, exitSafe, code)
	usage, _, _ := strings.Cut(out, "\n\n")
	lines := strings.Split(usage, "\n")
	require.Len(t, lines, len(readers.All)+1, "a usage line per format, and the suite's")
	for i, r := range readers.All {
		require.Contains(t, out, "  "+r.Name+" ")
		require.Contains(t, out, r.Doc)
		if r.Flag != "" {
			require.Contains(t, lines[i], "--"+r.Flag)
			require.Contains(t, out, "--"+r.Flag+" ")
		}
		for _, c := range r.Companions {
			require.Contains(t, lines[i], "[--"+c.Flag+" FILE"+c.Suffix+"]")
		}
	}
	require.Contains(t, out, "--format FORMAT")
}
