package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// normalize replaces what varies between runs (times, node counts that
// depend on the BDD kernel) so that outputs can be compared.
func normalize(s string) string {
	s = regexp.MustCompile(`\d+\.\d+s\b`).ReplaceAllString(s, "T.TTTs")
	s = regexp.MustCompile(`"timeSeconds": [0-9.e-]+`).ReplaceAllString(s, `"timeSeconds": 0`)
	s = regexp.MustCompile(`"seconds": [0-9.e-]+`).ReplaceAllString(s, `"seconds": 0`)
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
		{"trace-full", []string{"--trace", "-k", "5", bt}, exitViolation},
		{"trace-eager-none", []string{"--trace", "--split", "eager", "--prune", "none", "-k", "5", bt}, exitViolation},
		{"trace-recursion", []string{"--trace", filepath.Join("..", "..", "examples", "recursion.pds")}, exitViolation},
		{"trace-start-loop", []string{"--trace", "-k", "4", filepath.Join("testdata", "startloop.pds")}, exitViolation},
		// A thread bound of 1 thread (not "1 threads"), in every engine's words.
		{"thread-bound-one", []string{"--max-threads", "1", "-k", "3", filepath.Join("testdata", "startloop.pds")}, exitUnknown},
		{"seq-thread-bound-one", []string{"--engine", "seq", "--max-threads", "1", "-k", "3", filepath.Join("testdata", "startloop.pds")}, exitUnknown},
		{"explicit-thread-bound-one", []string{"--engine", "explicit", "--max-threads", "1", "-k", "3", filepath.Join("testdata", "startloop.pds")}, exitUnknown},
		{"json-trace-start-loop", []string{"--json", "-k", "4", filepath.Join("testdata", "startloop.pds")}, exitViolation},
		{"trace-comments", []string{"--trace", "-k", "1", filepath.Join("testdata", "comments.pds")}, exitViolation},
		{"trace-cuba", []string{"--trace", "-k", "3", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitViolation},
		{"no-trace", []string{"--no-trace", "-k", "5", bt}, exitViolation},
		{"trace-flags", []string{"--trace", "--no-trace", bt}, exitUsage},
		{"bad-input", []string{filepath.Join("testdata", "bad.pds")}, exitUsage},
		{"missing-file", []string{filepath.Join("testdata", "nothing.pds")}, exitUsage},
		{"bad-split", []string{"--split", "sideways", bt}, exitUsage},
		{"bad-contexts", []string{"-k", "0", bt}, exitUsage},
		{"no-file", []string{"-k", "3"}, exitUsage},
		{"unknown-flag", []string{"--frobnicate", bt}, exitUsage},
		// Under --json every error is one JSON object on standard output,
		// whatever the order of --json and a bad flag.
		{"json-unknown-flag", []string{"--json", "--frobnicate", bt}, exitUsage},
		{"json-unknown-flag-first", []string{"--frobnicate", "--json", bt}, exitUsage},
		{"json-unknown-shorthand", []string{"--json", "-x", bt}, exitUsage},
		{"json-bad-contexts-value", []string{"--json", "-k", "abc", bt}, exitUsage},
		{"json-no-file", []string{"--json"}, exitUsage},
		{"json-bad-input", []string{"--json", filepath.Join("testdata", "bad.pds")}, exitUsage},
		{"json-missing-file", []string{"--json", filepath.Join("testdata", "nothing.pds")}, exitUsage},
		{"json-print-rules", []string{"--json", "--print-rules", bt}, exitUsage},
		{"bad-contexts-value", []string{"--contexts=abc", bt}, exitUsage},
		{"bad-timeout-value", []string{"--timeout", "5", bt}, exitUsage},
		{"timeout", []string{"--timeout", "1ns", "-k", "5", bt}, exitUnknown},
		{"json-timeout", []string{"--json", "--timeout", "1ns", "-k", "5", bt}, exitUnknown},
		{"one-context", []string{"-k", "1", bt}, exitSafe},
		{"bounds", []string{filepath.Join("testdata", "bounds.pds")}, exitViolation},
		{"stdin", []string{"-k", "5", "-"}, exitViolation},
		{"cuba-target", []string{"-k", "3", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitViolation},
		{"cuba-target-safe", []string{"-k", "1", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitSafe},
		{"cuba-reach-tops", []string{"-k", "3", "--reach-tops", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitViolation},
		{"cuba-no-target", []string{"--cuba", filepath.Join("testdata", "cuba", "notarget.pds")}, exitUsage},
		{"cuba-no-target-tops", []string{"-k", "3", "--reach-tops", "--cuba", filepath.Join("testdata", "cuba", "notarget.pds")}, exitSafe},
		{"cuba-no-target-json", []string{"-k", "3", "--json", "--reach-tops", "--cuba", filepath.Join("testdata", "cuba", "notarget.pds")}, exitSafe},
		{"cuba-no-target-unbounded", []string{"--unbounded", "--cuba", filepath.Join("testdata", "cuba", "notarget.pds")}, exitSafe},
		{"cuba-missing-init", []string{"--cuba", filepath.Join("testdata", "cuba", "noinit.pds")}, exitUsage},
		{"bp", []string{"-k", "3", filepath.Join("testdata", "bp", "race.bp")}, exitViolation},
		{"bp-bad", []string{filepath.Join("testdata", "bp", "bad.bp")}, exitUsage},
		{"bp-wrong-guess", []string{filepath.Join("testdata", "bp", "notbp.bp")}, exitUsage},
		{"bp-without-flag", []string{filepath.Join("testdata", "bp", "boolean.pds")}, exitUsage},
		{"bp-flag", []string{"--bp", "-k", "1", filepath.Join("testdata", "bp", "boolean.pds")}, exitSafe},
		{"cuba-without-flag", []string{filepath.Join("testdata", "cuba", "two.pds")}, exitUsage},
		{"eager-too-many", []string{"--split", "eager", filepath.Join("testdata", "limits", "sub32.pds")}, exitUnknown},
		{"unknown-covered", []string{"-k", "6", "--max-nodes", "7000", bt}, exitUnknown},
		// --all cut off by a limit after a violation: the violation stands, and the list may not be whole.
		{"violation-cut-off", []string{"-k", "6", "--all", "--no-trace", "--max-nodes", "8000", bt}, exitViolation},
		{"converged", []string{"--unbounded", filepath.Join("..", "..", "examples", "spawn.pds")}, exitSafe},
		{"unbounded-violation", []string{"--unbounded", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		// --unbounded cut off: how far it deepened, or nothing when it stopped while compiling.
		{"unbounded-cut-off", []string{"--unbounded", "--max-nodes", "7000", bt}, exitUnknown},
		{"unbounded-timeout", []string{"--unbounded", "--timeout", "1ns", bt}, exitUnknown},
		{"json-unbounded-timeout", []string{"--json", "--unbounded", "--timeout", "1ns", bt}, exitUnknown},
		{"unbounded-with-k", []string{"--unbounded", "-k", "3", bt}, exitUsage},
		{"per-bound", []string{"-k", "5", "--per-bound", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"json-per-bound", []string{"-k", "4", "--json", "--per-bound", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"preempt-violation", []string{"--count", "preemptions", "-k", "1", filepath.Join("testdata", "handover.pds")}, exitViolation},
		{"preempt-safe", []string{"--count", "preemptions", "-k", "0", "--stats", filepath.Join("testdata", "handover.pds")}, exitSafe},
		{"preempt-contexts-safe", []string{"-k", "3", filepath.Join("testdata", "handover.pds")}, exitSafe},
		{"preempt-json", []string{"--json", "--count", "preemptions", "-k", "1", filepath.Join("testdata", "handover.pds")}, exitViolation},
		{"preempt-explicit", []string{"--engine", "explicit", "--count", "preemptions", "-k", "1", filepath.Join("testdata", "handover.pds")}, exitViolation},
		{"preempt-self-check", []string{"--self-check", "--count", "preemptions", "-k", "1", filepath.Join("testdata", "handover.pds")}, exitViolation},
		{"preempt-loop-timeout", []string{"-q", "--count", "preemptions", "-k", "0", "--timeout", "1s", filepath.Join("testdata", "handover-loop.pds")}, exitUnknown},
		{"bad-count", []string{"--count", "switches", filepath.Join("testdata", "handover.pds")}, exitUsage},
		{"explicit-violation", []string{"--engine", "explicit", "-k", "5", bt}, exitViolation},
		{"explicit-safe-stats", []string{"--engine", "explicit", "-k", "4", "--stats", bt}, exitSafe},
		{"explicit-no-por", []string{"-engine", "explicit", "--no-por", "-k", "4", "--stats", bt}, exitSafe},
		{"json-explicit", []string{"--json", "--engine", "explicit", "-k", "5", "--all", bt}, exitViolation},
		{"explicit-depth", []string{"--engine", "explicit", "--max-depth", "5", filepath.Join("testdata", "deep.pds")}, exitUnknown},
		{"explicit-cuba-target", []string{"--engine", "explicit", "-k", "3", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitViolation},
		{"explicit-timeout", []string{"--engine", "explicit", "--timeout", "1ns", "-k", "5", bt}, exitUnknown},
		{"explicit-split", []string{"--engine", "explicit", "--split", "eager", bt}, exitUsage},
		{"explicit-reach-tops", []string{"--engine", "explicit", "--reach-tops", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitUsage},
		{"cbr-max-depth", []string{"--max-depth", "5", bt}, exitUsage},
		{"bad-engine", []string{"--engine", "magic", bt}, exitUsage},
		{"self-check-violation", []string{"--self-check", "-k", "5", bt}, exitViolation},
		{"self-check-safe", []string{"--self-check", "-k", "4", bt}, exitSafe},
		{"self-check-seq", []string{"--self-check", "-k", "2", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitSafe},
		{"self-check-unknown", []string{"--self-check", "--max-depth", "5", filepath.Join("testdata", "deep.pds")}, exitUnknown},
		{"self-check-engine", []string{"--self-check", "--engine", "explicit", bt}, exitUsage},
		{"seq-violation", []string{"--engine", "seq", "-k", "2", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"seq-safe", []string{"--engine", "seq", "-k", "1", "--stats", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitSafe},
		{"seq-json-violation", []string{"--json", "--engine", "seq", "-k", "3", "--all", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		// Stopped at the first violation (round 2): complete up to round 1.
		{"seq-json-first", []string{"--json", "--engine", "seq", "-k", "3", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"seq-no-trace", []string{"--engine", "seq", "--no-trace", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"seq-trace", []string{"--engine", "seq", "--trace", "-k", "2", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"seq-trace-start-loop", []string{"--engine", "seq", "--trace", "--max-threads", "4", "-k", "2", filepath.Join("testdata", "startloop.pds")}, exitViolation},
		{"seq-json-trace-start-loop", []string{"--json", "--engine", "seq", "--max-threads", "4", "-k", "2", filepath.Join("testdata", "startloop.pds")}, exitViolation},
		{"seq-trace-recursion", []string{"--engine", "seq", "--trace", "-k", "2", filepath.Join("..", "..", "examples", "recursion.pds")}, exitViolation},
		{"seq-eager-trace", []string{"--engine", "seq", "--split", "eager", "--trace", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"per-bound-zero-preemptions", []string{"--per-bound", "--count", "preemptions", "-k", "0", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitSafe},
		{"seq-print-rules", []string{"--engine", "seq", "-k", "2", "--print-rules", filepath.Join("testdata", "bounds.pds")}, exitSafe},
		{"seq-lazy", []string{"--engine", "seq", "--split", "lazy", "-k", "3", "--stats", bt}, exitViolation},
		{"seq-eager", []string{"--engine", "seq", "--split", "eager", "-k", "2", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"seq-json-eager", []string{"--json", "--engine", "seq", "--split", "eager", "-k", "3", "--all", filepath.Join("..", "..", "examples", "lostupdate.pds")}, exitViolation},
		{"seq-print-rules-eager", []string{"--engine", "seq", "--split", "eager", "-k", "2", "--print-rules", filepath.Join("testdata", "bounds.pds")}, exitSafe},
		{"seq-bad-split", []string{"--engine", "seq", "--split", "sideways", bt}, exitUsage},
		{"seq-timeout", []string{"--engine", "seq", "--timeout", "1ns", "-k", "2", bt}, exitUnknown},
		{"seq-max-nodes", []string{"--engine", "seq", "--max-nodes", "2000", "-k", "2", bt}, exitUnknown},
		{"seq-cuba-target", []string{"--engine", "seq", "-k", "3", "--cuba", filepath.Join("testdata", "cuba", "two.pds")}, exitUsage},
		// Threads started in a loop: the coverage and the fewest counts
		// assume the thread bound, in every engine.
		{"thread-bound", []string{"-k", "3", "--max-threads", "3", filepath.Join("testdata", "spawnloop.pds")}, exitUnknown},
		{"thread-bound-explicit", []string{"--engine", "explicit", "-k", "3", "--max-threads", "3", filepath.Join("testdata", "spawnloop.pds")}, exitUnknown},
		{"thread-bound-seq", []string{"--engine", "seq", "-k", "3", "--max-threads", "3", filepath.Join("testdata", "spawnloop.pds")}, exitUnknown},
		{"thread-bound-violation", []string{"--no-trace", "-k", "3", "--max-threads", "5", filepath.Join("testdata", "spawnloop.pds")}, exitViolation},
		{"thread-bound-all", []string{"--no-trace", "--all", "-k", "3", "--max-threads", "5", filepath.Join("testdata", "spawnloop.pds")}, exitViolation},
		{"json-thread-bound", []string{"--json", "--no-trace", "-k", "3", "--max-threads", "5", filepath.Join("testdata", "spawnloop.pds")}, exitViolation},
		{"self-check-thread-bound", []string{"--self-check", "-k", "3", "--max-threads", "3", filepath.Join("testdata", "spawnloop.pds")}, exitUnknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if tc.name == "stdin" {
				f, err := os.Open(bt)
				require.NoError(t, err)
				defer f.Close()
				stdin = f
				defer func() { stdin = os.Stdin }()
			}
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
			if slices.Contains(tc.args, "--json") {
				checkSchema(t, out.Bytes(), tc.exit)
			}
		})
	}
}

// TestSelfCheckDisagreement: when one engine's answer differs (injected
// here: the lazy engine reports the violation with one context more), the
// self-check prints every engine's figures, says DISAGREE and exits 4.
func TestSelfCheckDisagreement(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	selfCheckHook = func(engine string, r *cbr.Result) {
		if engine == "cbr lazy" {
			for i := range r.Violations {
				r.Violations[i].Contexts++
			}
		}
	}
	defer func() { selfCheckHook = nil }()
	args := []string{"--self-check", "-k", "5", bt}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, false)
	got := normalize("$ cbreach " + strings.Join(args, " ") + "  (lazy's contexts changed by the test)\n" + out.String() + "--- stderr\n" + errb.String())
	golden := filepath.Join("testdata", "self-check-disagree.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with -update to create the golden files")
	require.Equal(t, string(want), got)
	require.Equal(t, exitDisagree, code)
}

// TestSelfCheckCoverage: engines that agree on the verdict and the
// sites but not on how far they explored (injected here: the explicit
// engine says one context fewer complete, as it did on a program that
// starts threads in a loop) disagree.
func TestSelfCheckCoverage(t *testing.T) {
	selfCheckHook = func(engine string, r *cbr.Result) {
		if engine == "explicit" {
			r.Complete--
		}
	}
	defer func() { selfCheckHook = nil }()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--self-check", "-k", "3", "--max-threads", "3", filepath.Join("testdata", "spawnloop.pds")}, &out, &errb, false)
	require.Equal(t, exitDisagree, code, "stdout:\n%s", out.String())
	require.Contains(t, out.String(), "explicit:  UNKNOWN (a start at testdata/spawnloop.pds:5:41 would exceed the thread bound of 3 threads; complete up to 2 contexts in runs with at most 3 threads)")
	require.Contains(t, out.String(), "DISAGREE: the engines give different answers")
}

// TestUncomment: the statement of a trace step leaves the comments of
// its line out, in each input language's syntax.
func TestUncomment(t *testing.T) {
	for _, tc := range []struct {
		lang      tracefmt.Lang
		line, out string
	}{
		{tracefmt.LangPDS, "x = x + 1; // one more", "x = x + 1; "},
		{tracefmt.LangPDS, "x = /* again */ x + 1 /* twice */; /* done */", "x = x + 1;"},
		{tracefmt.LangPDS, "if (x == 0) { /* open", "if (x == 0) { "},
		{tracefmt.LangPDS, "a[1] = 2;", "a[1] = 2;"},
		{tracefmt.LangBP, "{x//y} := T; // set", "{x//y} := T; "},
		{tracefmt.LangBP, "{a/*b} := F; /* c */", "{a/*b} := F;"},
		{tracefmt.LangCUBA, "0 0 -> 1 1 # move", "0 0 -> 1 1 "},
		{tracefmt.LangCUBA, "0 0 -> 1 1 // not a comment", "0 0 -> 1 1 // not a comment"},
	} {
		require.Equal(t, tc.out, tracefmt.Uncomment(tc.line, tc.lang), "%q", tc.line)
	}
}

func TestNormalizeArgs(t *testing.T) {
	require.Equal(t, []string{"-k", "4", "--split", "lazy", "f.pds"}, normalize_([]string{"-k", "4", "-split", "lazy", "f.pds"}))
	require.Equal(t, []string{"--split=eager", "-q", "--", "-split"}, normalize_([]string{"-split=eager", "-q", "--", "-split"}))
	require.Equal(t, []string{"-kq"}, normalize_([]string{"-kq"}))
}

var normalize_ = func(a []string) []string { return normalizeArgs(a) }

// TestLimits: programs that used to run on for minutes at gigabytes under
// --timeout or --max-nodes answer UNKNOWN (exit 3) with the limit named.
// The wall-clock margin is generous: the point is "not minutes", not a
// timing.
func TestLimits(t *testing.T) {
	dir := filepath.Join("testdata", "limits")
	cases := []struct {
		file   string
		args   []string
		reason string
	}{
		{"mul32.pds", []string{"--timeout", "1s"}, "time limit reached"},
		{"mul32.pds", []string{"--max-nodes", "100000"}, "BDD node limit reached"},
		{"globals2000.pds", []string{"--timeout", "1s"}, "time limit reached"},
		{"globals2000.pds", []string{"--max-nodes", "100000"}, "BDD node limit reached"},
		{"sub32.pds", []string{"--split", "eager", "--timeout", "1s"}, "eager splitting of the initial configurations would create 4294967296 view tuples"},
		{"sub32.pds", []string{"--split", "eager", "--max-nodes", "100000"}, "eager splitting of the initial configurations would create 4294967296 view tuples"},
		{"threads1000.pds", []string{"--timeout", "1s"}, "time limit reached"},
		{"threads1000.pds", []string{"--max-memory", "100MiB"}, "memory limit reached"},
		{"threads1000.pds", []string{"--engine", "explicit", "--timeout", "1s"}, "time limit reached"},
		{"threads1000.pds", []string{"--engine", "explicit", "--max-memory", "100MiB"}, "memory limit reached"},
		{"square2000.pds", []string{"--timeout", "1s"}, "time limit reached"},
		{"square2000.pds", []string{"--max-nodes", "100000"}, "BDD node limit reached"},
	}
	for _, tc := range cases {
		name := tc.file + " " + strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			start := time.Now()
			code := run(context.Background(), append(tc.args, filepath.Join(dir, tc.file)), &out, &errb, false)
			require.Less(t, time.Since(start), 60*time.Second, "the limit must stop the run")
			require.Equal(t, exitUnknown, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			require.Contains(t, out.String(), "UNKNOWN: "+tc.reason)
		})
	}
	// Lazy splitting needs no enumeration: the same program is safe.
	var out, errb bytes.Buffer
	require.Equal(t, exitSafe, run(context.Background(), []string{filepath.Join(dir, "sub32.pds")}, &out, &errb, false), errb.String())
}

// TestAgreement: the comparison of --self-check on made-up answers.
func TestAgreement(t *testing.T) {
	safe := func() *cbr.Result { return &cbr.Result{Verdict: cbr.Safe} }
	viol := func(pos string, n int) *cbr.Result {
		return &cbr.Result{Verdict: cbr.Violation, Violations: []cbr.Found{{Contexts: n, Message: pos}}}
	}
	unknown := &cbr.Result{Verdict: cbr.Unknown, Limit: context.DeadlineExceeded}
	cut := func(complete, threads int) *cbr.Result {
		return &cbr.Result{Verdict: cbr.Unknown, Limit: cbr.ThreadLimit("e", pds.Pos{}, threads), Complete: complete, ThreadBound: threads}
	}
	cases := []struct {
		name string
		res  []*cbr.Result
		want int
	}{
		{"all safe", []*cbr.Result{safe(), safe(), safe()}, exitSafe},
		{"all violation", []*cbr.Result{viol("a", 2), viol("a", 2), viol("a", 2)}, exitViolation},
		{"one unknown", []*cbr.Result{safe(), unknown, safe()}, exitUnknown},
		{"all unknown", []*cbr.Result{unknown, unknown, unknown}, exitUnknown},
		{"verdicts differ", []*cbr.Result{safe(), viol("a", 2), safe()}, exitDisagree},
		{"fewest contexts differ", []*cbr.Result{viol("a", 2), viol("a", 3), viol("a", 2)}, exitDisagree},
		{"cut-off run found more", []*cbr.Result{safe(), safe(), {Verdict: cbr.Violation, Limit: context.DeadlineExceeded, Violations: []cbr.Found{{Contexts: 1, Message: "b"}}}}, exitDisagree},
		{"engine error", []*cbr.Result{safe(), safe(), nil}, exitDisagree},
		{"thread bound alike", []*cbr.Result{cut(3, 3), cut(3, 3), cut(3, 3)}, exitUnknown},
		{"coverage differs", []*cbr.Result{cut(3, 3), cut(3, 3), cut(2, 3)}, exitDisagree},
		{"thread bound met by one", []*cbr.Result{cut(3, 3), cut(3, 3), {Verdict: cbr.Safe, Complete: 3}}, exitDisagree},
	}
	for _, tc := range cases {
		var runs []*checkRun
		for _, r := range tc.res {
			cr := &checkRun{res: r}
			if r != nil {
				for _, v := range r.Violations {
					cr.sites = append(cr.sites, fmt.Sprintf("%s@%d", v.Message, v.Contexts))
				}
			}
			runs = append(runs, cr)
		}
		code, _ := agreement(runs)
		require.Equal(t, tc.want, code, tc.name)
	}
}

// TestInterrupt sends SIGINT to a running cbreach: it stops, prints what
// it covered and exits with 3, as a time limit does.
func TestInterrupt(t *testing.T) {
	bin := cbreachBinary(t)
	cmd := exec.Command(bin, "-k", "6", filepath.Join("testdata", "limits", "threads1000.pds"))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	require.NoError(t, cmd.Start())
	time.Sleep(2 * time.Second)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("cbreach did not stop within 60 s of SIGINT")
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, exitUnknown, exit.ExitCode(), "stdout:\n%s", stdout.String())
	require.Contains(t, stdout.String(), "UNKNOWN: cancelled")
}

// TestCutOffTraces: an --all run that the time limit cuts off after it
// found a violation prints that violation's trace (built in the grace
// period after the cut-off), not "no trace", and says it was cut off
// (every engine: the seq engine did not say it).
// The 3+2 Bluetooth driver reaches its violation with 4 contexts in well
// under a second and explores 8 contexts for much longer than the limit.
func TestCutOffTraces(t *testing.T) {
	model := filepath.Join("..", "..", "benchmarks", "models", "bluetooth-v2-a3s2.pds")
	for _, engine := range [][]string{{"--engine", "cbr", "-k", "8"}, {"--engine", "explicit", "-k", "9"}, {"--engine", "seq", "-k", "12"}} {
		t.Run(engine[1], func(t *testing.T) {
			var out, errb bytes.Buffer
			start := time.Now()
			code := run(context.Background(), append(engine, "--all", "--timeout", "3s", model), &out, &errb, false)
			require.Less(t, time.Since(start), 60*time.Second)
			require.Equal(t, exitViolation, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			require.Contains(t, out.String(), "VIOLATION")
			if engine[1] == "seq" {
				require.Contains(t, out.String(), "  context 6: thread 0 (round 2)")
			} else {
				require.Contains(t, out.String(), "  context 4: thread 0")
			}
			require.NotContains(t, out.String(), "no trace")
			// The list of violation sites may not be whole, and says so
			// (seq did not).
			require.Contains(t, out.String(), "(time limit reached: complete up to ")
		})
	}
}

// TestTooLargeRefused: a bound, a thread bound or a program that needs
// more than the engines can hold (per-unit figures sized by the bound,
// more BDD variables than the kernel has) is refused at once as bad
// input (exit 2) with what is too large, instead of a panic or Go's
// out-of-memory error (exit 2 too, after seconds and gigabytes).
func TestTooLargeRefused(t *testing.T) {
	loop := filepath.Join("testdata", "startloop.pds")
	var wide strings.Builder
	for i := range 11000 {
		fmt.Fprintf(&wide, "int<32> g%d;\n", i)
	}
	wide.WriteString("proc m() { assert(g0 == 0); }\nstart m();\n")
	wideFile := filepath.Join(t.TempDir(), "wide.pds")
	require.NoError(t, os.WriteFile(wideFile, []byte(wide.String()), 0o644))
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--max-threads", "1000000000", loop}, "the thread slots of a thread bound of 1000000000 threads ("},
		{[]string{"--max-threads", "1000000", "--engine", "explicit", loop}, "need more than the 2097151 BDD variables the kernel has"},
		{[]string{"-k", "1000000000", loop}, "--contexts: need at most 1048576 contexts, got 1000000000"},
		{[]string{"-k", "1000000000", "--split", "eager", loop}, "--contexts: need at most 1048576 contexts"},
		{[]string{"-k", "1000000000", "--count", "preemptions", loop}, "need at most 1048576 preemptions"},
		{[]string{"-k", "1000000000", "--self-check", loop}, "need at most 1048576 contexts"},
		{[]string{"-k", "100000", "--engine", "seq", loop}, "the sequential network of 100000 rounds is too large"},
		{[]string{"-k", "1000000", "--engine", "seq", "--split", "eager", loop}, "the sequential network of 1000000 rounds is too large"},
		{[]string{"-k", "1000000", "--engine", "seq", "--split", "eager", "--all", loop}, "the sequential network of 1000000 rounds is too large"},
		{[]string{wideFile}, "the network needs 2112006 BDD variables, more than the 2097151 the kernel has"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			start := time.Now()
			code := run(context.Background(), tc.args, &out, &errb, false)
			require.Less(t, time.Since(start), 10*time.Second)
			require.Equal(t, exitUsage, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			require.Contains(t, errb.String(), tc.msg)
		})
	}
}

// TestOpenDataLimits: the explicit engine on 22 and 32 open bits under a
// time or memory limit answers UNKNOWN (exit 3) promptly, and the message
// names the initial configurations: either the limit was met while they
// were enumerated, or they alone are more than the memory limit allows.
func TestOpenDataLimits(t *testing.T) {
	dir := filepath.Join("testdata", "limits")
	cases := []struct {
		file   string
		args   []string
		reason string
	}{
		{"open22.pds", []string{"--max-memory", "256MiB"}, "UNKNOWN: 2^22 initial configurations: more than the memory limit allows (at least 133 bytes each, 256 MiB in all)"},
		{"open22.pds", []string{"--max-memory", "0", "--timeout", "500ms"}, "UNKNOWN: time limit reached while enumerating the initial configurations ("},
		{"open32.pds", []string{"--max-memory", "256MiB"}, "UNKNOWN: 2^32 initial configurations: more than the memory limit allows"},
		{"open32.pds", []string{"--max-memory", "0", "--timeout", "500ms"}, "of 2^32); nothing was explored"},
		{"open32.pds", []string{"--timeout", "500ms", "--self-check"}, "explicit:  UNKNOWN (2^32 initial configurations: more than the memory limit allows"},
	}
	for _, tc := range cases {
		name := tc.file + " " + strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"--engine", "explicit"}, tc.args...)
			if tc.args[len(tc.args)-1] == "--self-check" {
				args = tc.args
			}
			start := time.Now()
			code := run(context.Background(), append(args, filepath.Join(dir, tc.file)), &out, &errb, false)
			require.Less(t, time.Since(start), 10*time.Second, "the limit must stop the run")
			require.Equal(t, exitUnknown, code, "stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
			require.Contains(t, out.String(), tc.reason)
		})
	}
}

// TestInternalError: an engine error that is not a limit (injected here:
// the seq engine's own check of its network) exits 4 and says it is an
// internal error, in a run and in --self-check, where it is a
// disagreement and not a cut-off; a limit injected in its place stays a
// cut-off (exit 3).
func TestInternalError(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	bug := errors.New("seq: the sequential network is malformed (a bug): injected by the test")
	inject := func(which string, err error) {
		engineHook = func(engine string, r *cbr.Result, e error) (*cbr.Result, error) {
			if engine != which || r == nil {
				return r, e
			}
			return &cbr.Result{Verdict: cbr.Unknown, Bound: r.Bound, Unit: r.Unit, Complete: -1, Converged: -1, Reason: err.Error(),
				Stats: cbr.Stats{TuplesPerLevel: make([]int, r.Bound+1)}}, err
		}
	}
	defer func() { engineHook = nil }()
	for _, engine := range []string{"cbr", "seq", "explicit"} {
		inject(engine, bug)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"--engine", engine, "-k", "3", bt}, &out, &errb, false)
		require.Equal(t, exitInternal, code, "%s: stdout:\n%s\nstderr:\n%s", engine, out.String(), errb.String())
		require.Contains(t, errb.String(), "cbreach: internal error (a bug), not a limit: seq: the sequential network is malformed (a bug)")
		require.Contains(t, out.String(), "UNKNOWN: internal error (a bug): ")
	}
	for _, engine := range []string{"cbr lazy", "explicit", "seq"} {
		inject(engine, bug)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"--self-check", "-k", "3", bt}, &out, &errb, false)
		require.Equal(t, exitDisagree, code, "%s: stdout:\n%s", engine, out.String())
		require.Contains(t, out.String(), "ERROR internal error (a bug), not a limit: seq: the sequential network is malformed")
		require.NotContains(t, out.String(), "cut off by a limit")

		inject(engine, fmt.Errorf("bdd: %w", context.DeadlineExceeded))
		out.Reset()
		code = run(context.Background(), []string{"--self-check", "-k", "3", bt}, &out, &errb, false)
		require.Equal(t, exitUnknown, code, "%s: stdout:\n%s", engine, out.String())
		require.Contains(t, out.String(), "cut off by a limit")
	}
}

// TestEnginePanic: a panic of an engine (a bug) is an internal error,
// exit 4 (Go's own exit status for a panic is 2, "bad input"), in a run
// and in --self-check, where it is a disagreement; the engines after it
// still run.
func TestEnginePanic(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	inject := func(which string) {
		enginePanic = func(engine string) {
			if engine == which {
				var s []int
				_ = s[len(engine)] // index out of range, as a bug would
			}
		}
	}
	defer func() { enginePanic = nil }()
	for _, engine := range []string{"cbr", "seq", "explicit"} {
		inject(engine)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"--engine", engine, "-k", "3", bt}, &out, &errb, false)
		require.Equal(t, exitInternal, code, "%s: stdout:\n%s\nstderr:\n%s", engine, out.String(), errb.String())
		require.Contains(t, errb.String(), "cbreach: internal error (a bug), not a limit: "+engine+": internal error (a bug): panic: runtime error: index out of range")
		require.Contains(t, out.String(), "UNKNOWN: internal error (a bug): ")
	}
	for _, engine := range []string{"cbr eager", "cbr lazy", "explicit", "seq"} {
		inject(engine)
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"--self-check", "-k", "3", bt}, &out, &errb, false)
		require.Equal(t, exitDisagree, code, "%s: stdout:\n%s", engine, out.String())
		require.Contains(t, out.String(), "ERROR internal error (a bug), not a limit: "+engine+": internal error (a bug): panic:")
		require.Contains(t, out.String(), "DISAGREE: an engine failed with an internal error")
		require.Equal(t, 1, strings.Count(out.String(), "panic:"), "only the one engine fails:\n%s", out.String())
	}
}

// TestMemoryLimitRSS runs the command as a process up to its memory
// limit: it stops with UNKNOWN (exit 3) and "memory limit reached", its
// peak resident set at most 1.25 times the limit plus 64 MiB. The
// explicit engine on 20 open bits (the initial configurations fit, the
// search does not), on 1,000 threads, and cbr's lazy splitting on 16
// open bits (the split of the initial view tuple).
func TestMemoryLimitRSS(t *testing.T) {
	tier.SkipUnlessLong(t, "each run allocates up to its limit, 5 to 60 s")
	bin := cbreachBinary(t)
	dir := t.TempDir()
	open := func(bits int) string {
		f := filepath.Join(dir, fmt.Sprintf("open%d.pds", bits))
		src := fmt.Sprintf("int<%d> x = ?; proc init() { x = 0; } proc t2() { assert(x == 0); } start init(); start t2();\n", bits)
		require.NoError(t, os.WriteFile(f, []byte(src), 0o644))
		return f
	}
	cases := []struct {
		args  []string
		limit int64
	}{
		{[]string{"--engine", "explicit", "--max-memory", "256MiB", open(20)}, 256 << 20},
		{[]string{"--engine", "explicit", "--max-memory", "100MiB", filepath.Join("testdata", "limits", "threads1000.pds")}, 100 << 20},
		// cbr compiling a 32-bit multiplication: BDD nodes, not states.
		// (Open data no longer costs cbr lazy memory: the model
		// answers at once.)
		{[]string{"--max-memory", "256MiB", "--timeout", "120s", filepath.Join("testdata", "limits", "mul32.pds")}, 256 << 20},
		// The seq engine's eager network on 1,000 threads: the limit
		// is reached while the network is built.
		{[]string{"--engine", "seq", "--split", "eager", "--all", "-k", "4", "--max-memory", "64MiB", filepath.Join("testdata", "limits", "threads1000.pds")}, 64 << 20},
	}
	// GNU time reports the command's own peak RSS. A child's rusage read
	// here would not: a process forked from this test binary starts its
	// count with the test binary's resident set.
	timebin, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		t.Skip("no /usr/bin/time (GNU time, Debian's package time) to measure the peak RSS")
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			rss := filepath.Join(t.TempDir(), "rss")
			cmd := exec.Command(timebin, append([]string{"-f", "%M", "-o", rss, bin}, tc.args...)...)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			err := cmd.Run()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "stdout:\n%s", stdout.String())
			require.Equal(t, exitUnknown, exit.ExitCode(), "stdout:\n%s", stdout.String())
			require.Contains(t, stdout.String(), "UNKNOWN: memory limit reached")
			b, err := os.ReadFile(rss)
			require.NoError(t, err)
			lines := strings.Fields(string(b))
			require.NotEmpty(t, lines, "GNU time wrote nothing")
			kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
			require.NoError(t, err, "GNU time wrote %q", b)
			peak := kib << 10
			t.Logf("peak RSS %d MiB under %d MiB", peak>>20, tc.limit>>20)
			require.LessOrEqual(t, peak, tc.limit+tc.limit/4+64<<20)
		})
	}
}

// requiredKeys are the keys every --json result has, whatever the engine
// (package schema).
var requiredKeys = []string{"schema", "version", "engine", "verdict", "unit", "bound", "complete", "fewest", "violations", "stats"}

// checkSchema decodes the output of a --json run into the schema, unknown
// fields refused, and checks the required keys: a result, or an error
// object when the run failed before one (exit status 2 or 4).
func checkSchema(t *testing.T, out []byte, exit int) {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(out, &v), "--json prints one JSON object")
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	keys := requiredKeys
	if exit == exitUsage || exit == exitInternal {
		require.NoError(t, dec.Decode(&schema.Error{}))
		keys = []string{"schema", "version", "error", "exit"}
	} else {
		var o schema.Output
		require.NoError(t, dec.Decode(&o))
		require.Contains(t, []string{"contexts", "preemptions", "rounds"}, o.Unit)
	}
	for _, k := range keys {
		require.Contains(t, v, k)
	}
	require.EqualValues(t, schema.Version, v["schema"])
}

// TestJSONSchema: every engine's --json output, and an error's, decodes
// into the schema with unknown fields refused and has the required keys.
func TestJSONSchema(t *testing.T) {
	lost := filepath.Join("..", "..", "examples", "lostupdate.pds")
	for _, tc := range []struct {
		args []string
		exit int
	}{
		{[]string{"--json", "-k", "4", lost}, exitViolation},
		{[]string{"--json", "--engine", "seq", "-k", "2", lost}, exitViolation},
		{[]string{"--json", "--engine", "explicit", "-k", "4", lost}, exitViolation},
		{[]string{"--json", "--engine", "seq", "-k", "1", lost}, exitSafe},
		{[]string{"--json", "--unbounded", filepath.Join("testdata", "cuba", "two.pds"), "--cuba", "--target", "0|0,0"}, -1},
		{[]string{"--json", "-k", "0", lost}, exitUsage},
		{[]string{"--json", filepath.Join("testdata", "bad.pds")}, exitUsage},
		{[]string{"--json", "--engine", "magic", lost}, exitUsage},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb, false)
		if tc.exit >= 0 {
			require.Equal(t, tc.exit, code, "%v: %s", tc.args, errb.String())
		}
		checkSchema(t, out.Bytes(), code)
	}
}

// TestErrorsJSON: every error that ends a run before a result (usage,
// input, internal) prints "cbreach: " and the message on standard error,
// and under --json exactly one JSON object on standard output, whose
// error is the message without the program's name and whose exit is the
// exit status; without --json, nothing on standard output.
func TestErrorsJSON(t *testing.T) {
	bt := filepath.Join("..", "..", "examples", "bluetooth.pds")
	for _, args := range [][]string{
		{"--bogus", bt}, {"-x", bt}, {"-k", "abc", bt}, {"--max-nodes", "lots", bt}, {"--max-threads", "1.5", bt},
		{"--max-tuples", "x", bt}, {"--max-depth", "deep", "--engine", "explicit", bt}, {"--timeout", "soon", bt},
		{"--all=perhaps", bt}, {"--split"}, {}, {bt, bt}, {"--print-rules", bt}, {"--split", "sideways", bt},
		{"-k", "0", bt}, {"--engine", "magic", bt}, {"--self-check", "--engine", "seq", bt}, {"--max-memory", "much", bt},
		{"--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir"), bt},
		{filepath.Join("testdata", "bad.pds")}, {filepath.Join("testdata", "nothing.pds")},
		{filepath.Join("testdata", "bp", "bad.bp")}, {filepath.Join("testdata", "bp", "notbp.bp")},
		{filepath.Join("testdata", "bp", "boolean.pds")}, {filepath.Join("testdata", "cuba", "two.pds")},
		{"--cuba", filepath.Join("testdata", "cuba", "noinit.pds")}, {"--cuba", filepath.Join("testdata", "cuba", "notarget.pds")},
		{"--engine", "seq", "-k", "3", "--cuba", filepath.Join("testdata", "cuba", "two.pds")},
	} {
		for _, where := range []string{"first", "last", "none"} {
			if where == "none" && slices.Contains(args, "--print-rules") {
				continue // an error with --json only
			}
			a := slices.Clone(args)
			switch where {
			case "first":
				a = append([]string{"--json"}, a...)
			case "last":
				a = append(a, "--json")
			}
			var out, errb bytes.Buffer
			code := run(context.Background(), a, &out, &errb, false)
			require.Contains(t, []int{exitUsage, exitInternal}, code, "%v: %s", a, errb.String())
			require.True(t, strings.HasPrefix(errb.String(), "cbreach: "), "%v: stderr %q", a, errb.String())
			require.NotContains(t, errb.String(), "strconv.", "%v", a)
			require.NotContains(t, errb.String(), "time: invalid duration", "%v", a)
			if where == "none" {
				require.Empty(t, out.String(), "%v", a)
				continue
			}
			dec := json.NewDecoder(&out)
			var e schema.Error
			require.NoError(t, dec.Decode(&e), "%v: stdout %q", a, out.String())
			require.False(t, dec.More(), "%v: more than one JSON object", a)
			require.Equal(t, code, e.Exit, "%v", a)
			require.NotEmpty(t, e.Error, "%v", a)
			require.False(t, strings.HasPrefix(e.Error, "cbreach"), "%v: %q", a, e.Error)
			require.True(t, strings.HasPrefix(errb.String(), "cbreach: "+e.Error+"\n"), "%v: stderr %q, error %q", a, errb.String(), e.Error)
		}
	}
}

// TestProgressUnit: on a terminal the progress line counts the bound in
// the engine's unit (rounds for seq).
func TestProgressUnit(t *testing.T) {
	for _, tc := range []struct{ engine, unit string }{{"cbr", "context"}, {"seq", "round"}, {"explicit", "context"}} {
		c, opts, _, done := parse([]string{"--engine", tc.engine, "x.pds"}, io.Discard, io.Discard)
		require.False(t, done)
		line := c.entry.Progress(cbr.Progress{Level: 1}, opts.Unit)
		require.True(t, strings.HasPrefix(line, "1 "+tc.unit+","), "%s: %q", tc.engine, line)
	}
}

// TestLimitsEveryEngine runs the command as a process under a time limit
// and under Ctrl-C (SIGINT, once and twice) with every engine and
// splitting, the self-check too: each stops within 2 s of the limit or
// the first SIGINT (the traces of what it found are built within 1 s of
// it), within 1 s of a second SIGINT, with exit 3 or, when it found a
// violation, 1, and never with a Go runtime error. On the 1,000 threads
// the time limit stops every engine but the seq engine's lazy form (it
// finds the violation at once), in the eager form's network build too;
// on the 3+2 Bluetooth driver
// every engine finds its violation before the SIGINT and explores on.
func TestLimitsEveryEngine(t *testing.T) {
	tier.SkipUnlessLong(t, "about 40 runs of 3 s")
	bin := cbreachBinary(t)
	variants := [][]string{
		{"--split", "eager"}, {"--split", "lazy"}, {"--split", "lazy", "--prune", "none"},
		{"--split", "eager", "--prune", "identical"}, {"--split", "lazy", "--count", "preemptions"},
		{"--engine", "seq"}, {"--engine", "seq", "--split", "eager"},
		{"--engine", "explicit"}, {"--engine", "explicit", "--no-por"}, {"--engine", "auto"}, {"--self-check"},
	}
	threads := filepath.Join("testdata", "limits", "threads1000.pds")
	bt := filepath.Join("..", "..", "benchmarks", "models", "bluetooth-v2-a3s2.pds")
	// run starts the command, sends SIGINT at each of sigs, and returns
	// its exit status, standard output and the time from start to exit.
	run := func(t *testing.T, args []string, sigs ...time.Duration) (int, string, string, time.Duration) {
		cmd := exec.Command(bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		require.NoError(t, cmd.Start())
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		for _, at := range sigs {
			select {
			case err := <-done:
				done <- err
			case <-time.After(time.Until(start.Add(at))):
				cmd.Process.Signal(os.Interrupt)
			}
		}
		var err error
		select {
		case err = <-done:
		case <-time.After(120 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v did not stop within 120 s", args)
		}
		took := time.Since(start)
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		}
		for _, bad := range []string{"panic:", "fatal error:", "goroutine "} {
			require.NotContains(t, stderr.String(), bad, "%v", args)
		}
		return code, stdout.String(), stderr.String(), took
	}
	// The seq engine's eager network on 1,000 threads takes about 10 s
	// to build on the 2-core machine, then as long to validate (its
	// million rules): a deadline of 12 s lands in the validation, which
	// went on 3 to 7 s past it.
	t.Run("timeout seq eager validation", func(t *testing.T) {
		code, stdout, _, took := run(t, []string{"--engine", "seq", "--split", "eager", "--all", "-k", "4", "--timeout", "12s", threads})
		t.Logf("%.2f s", took.Seconds())
		require.Equal(t, exitUnknown, code, stdout)
		require.Contains(t, stdout, "time limit reached")
		require.Less(t, took, 14*time.Second)
	})
	for _, v := range variants {
		name := strings.Join(v, " ")
		t.Run("timeout "+name, func(t *testing.T) {
			code, stdout, _, took := run(t, append(slices.Clone(v), "--all", "-k", "4", "--timeout", "3s", threads))
			t.Logf("%.2f s", took.Seconds())
			// The seq engine's lazy form finds the violation within a
			// round, in under a second: nothing to cut off.
			require.Contains(t, []int{exitViolation, exitUnknown}, code, stdout)
			if code == exitUnknown {
				require.Contains(t, stdout, "time limit reached")
			}
			require.Less(t, took, 5*time.Second)
		})
		t.Run("sigint "+name, func(t *testing.T) {
			code, stdout, _, took := run(t, append(slices.Clone(v), "--all", "-k", "12", bt), 3*time.Second)
			t.Logf("%.2f s", took.Seconds())
			require.Contains(t, []int{exitViolation, exitUnknown}, code, stdout)
			require.Contains(t, stdout, "cancelled")
			require.Less(t, took, 5*time.Second)
		})
		t.Run("sigint twice "+name, func(t *testing.T) {
			code, stdout, _, took := run(t, append(slices.Clone(v), "--all", "-k", "12", bt), 3*time.Second, 3200*time.Millisecond)
			t.Logf("%.2f s", took.Seconds())
			require.Contains(t, []int{exitViolation, exitUnknown}, code, stdout)
			require.Less(t, took, 4200*time.Millisecond)
		})
	}
}

// TestEngineFlagsHelp: the footer of -h says, for every flag that applies
// to some engines only, which ones; each engine it names takes the flag
// and each other refuses it as a usage error (the footer lacked
// --per-bound and --unbounded).
func TestEngineFlagsHelp(t *testing.T) {
	lp := filepath.Join("..", "..", "examples", "lostupdate.pds")
	two := filepath.Join("testdata", "cuba", "two.pds")
	args := map[string][]string{
		"--split": {"--split", "eager", lp}, "--prune": {"--prune", "none", lp}, "--no-dedup": {"--no-dedup", lp},
		"--max-tuples": {"--max-tuples", "9", lp}, "--reach-tops": {"--reach-tops", lp}, "--per-bound": {"--per-bound", lp},
		"--unbounded": {"--unbounded", lp}, "--max-depth": {"--max-depth", "9", lp}, "--no-por": {"--no-por", lp},
		"--count preemptions": {"--count", "preemptions", lp}, "--cuba": {"--cuba", two},
		"--init":   {"--cuba", "--init", filepath.Join("testdata", "cuba", "two.init"), two},
		"--target": {"--cuba", "--target", filepath.Join("testdata", "cuba", "two.spec"), two},
	}
	help := engineFlagsHelp()
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(help), "\n")[1:] {
		flags, names, ok := strings.Cut(strings.TrimSpace(line), ": --engine ")
		require.True(t, ok, line)
		for _, f := range strings.Split(flags, ", ") {
			seen[f] = true
			a, ok := args[f]
			require.True(t, ok, "the test has no arguments for %s", f)
			for _, e := range engines.All {
				takes := slices.Contains(strings.FieldsFunc(names, func(r rune) bool { return r == ',' || r == ' ' }), e.Name)
				var out, errb bytes.Buffer
				bound := "1"
				if f == "--unbounded" && takes {
					bound = ""
				}
				full := append([]string{"--engine", e.Name, "--no-trace"}, a...)
				if bound != "" {
					full = append([]string{"-k", bound}, full...)
				}
				code := run(context.Background(), full, &out, &errb, false)
				if takes {
					require.NotEqual(t, exitUsage, code, "%s with --engine %s: %s", f, e.Name, errb.String())
				} else {
					require.Equal(t, exitUsage, code, "%s with --engine %s: %s", f, e.Name, out.String())
				}
			}
		}
	}
	for f := range args {
		require.True(t, seen[f], "the footer of -h does not name %s:\n%s", f, help)
	}
	// Every setting of the table is a flag (the table named a
	// max-state-bytes flag that does not exist).
	fs := flagSet(&config{})
	for _, e := range engines.All {
		for _, s := range e.Settings {
			require.NotNil(t, fs.Lookup(s.Name), "--engine %s takes setting %q, which is no flag", e.Name, s.Name)
		}
	}
}
