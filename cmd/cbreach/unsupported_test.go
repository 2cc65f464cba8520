package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/pds/diag"
	"github.com/stretchr/testify/require"
)

// TestLoadUnsupported: a construct a reader refuses to analyse
// (diag.Unsupported) is answered UNKNOWN (exit 3) with the construct and
// its position as the reason, never as bad input; bad input stays exit 2.
func TestLoadUnsupported(t *testing.T) {
	refused := &diag.Unsupported{Pos: diag.Pos{File: "p.i", Line: 7, Col: 3}, What: "floating point"}
	for _, c := range []struct {
		name string
		err  error
		exit int
		want string
	}{
		{"unsupported", refused, exitUnknown, "p.i:7:3: not supported: floating point"},
		{"wrapped", errors.Join(errors.New("reading p.i"), refused), exitUnknown, "not supported: floating point"},
		{"bad input", &diag.Error{Pos: diag.Pos{File: "p.i", Line: 1, Col: 1}, Msg: "syntax error"}, exitUsage, "p.i:1:1: syntax error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cfg, opts, _, done := parse([]string{"--json", "--unbounded", "--data-model", "LP64", "p.i"}, &stdout, &stderr)
			require.False(t, done, stderr.String())
			require.Equal(t, "LP64", cfg.readers.dataModel)
			got := cfg.loadFailed(&stdout, &stderr, &input{file: "p.i"}, opts, c.err)
			require.Equal(t, c.exit, got, stderr.String())
			if c.exit == exitUsage {
				require.Contains(t, stdout.String(), c.want)
				return
			}
			var out schema.Output
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), stdout.String())
			require.Equal(t, "unknown", out.Verdict)
			require.Contains(t, out.Reason, c.want)
			require.Equal(t, -1, out.Complete)
		})
	}
	var stdout, stderr bytes.Buffer
	_, _, code, done := parse([]string{"--data-model", "LLP64", "p.i"}, &stdout, &stderr)
	require.True(t, done)
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr.String(), `--data-model: want ILP32 or LP64, got "LLP64"`)
}
