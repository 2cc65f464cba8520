package main

import (
	"strings"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"
)

// TestDevSetAnswers (long tier) runs SV-COMP's ConcurrencySafety
// development set (../shared/benchmarks/sv-concurrency) through the C
// reader with the suite as a user would, 15 s a task: no verdict may be
// wrong, every task not answered says why, and the weak-memory tasks
// (each false within a few seconds) are answered.
func TestDevSetAnswers(t *testing.T) {
	if !tier.Long() {
		t.Skip("the long tier (CBREACH_LONG=1) runs the development set")
	}
	dir := testkit.SVConcurrency("../..")
	if dir == "" {
		t.Skip("no SV-COMP development set: ../shared/benchmarks/sv-concurrency is absent (CBREACH_SV_CONCURRENCY names another)")
	}
	out, stderr, code := runSuiteCmd(t, "--json", "--jobs", "2", "--timeout", "15s", "--allow-failed", dir)
	require.Equal(t, 0, code, stderr)
	rep := readReport(t, out)
	correct, wmm := 0, 0
	for _, r := range rep.Tasks {
		switch r.Outcome() {
		case "wrong":
			t.Errorf("wrong verdict: %s %s: expected %s, got %s", r.File, r.Property, r.ExpectedVerdict, r.Verdict)
		case "correct":
			correct++
			if strings.Contains(r.File, "pthread-wmm") {
				wmm++
			}
		default:
			require.NotEmpty(t, r.Message, "%s %s: not answered, and no reason given", r.File, r.Property)
		}
	}
	t.Logf("%d correct, %d of them weak-memory tasks", correct, wmm)
	require.GreaterOrEqual(t, wmm, 30, "the weak-memory tasks are answered within seconds")
}
