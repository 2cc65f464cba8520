package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tests of this file run the commands README.md and docs/tasks.md
// show, as a user would (the real binary, from the repository's root),
// and compare what they print with what the documents say: the output's
// shape, the exit status and every figure the documents give. Left out:
// installing, go test, Slurm and what needs ../shared.

// repoRoot is the repository's root, from this package's directory.
var repoRoot = filepath.Join("..", "..")

// readDoc returns a document of the repository, or skips the test.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Skip("no "+name+":", err)
	}
	return string(b)
}

// runIn runs the binary with args in dir and returns its output and exit
// status.
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(cbreachBinary(t), args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errb.String(), code
}

// TestReadmeCommands: the commands of README's "Run it", "Exit status"
// and "Input formats" print what README says they print.
func TestReadmeCommands(t *testing.T) {
	readme := readDoc(t, "README.md")

	// The first example: every line of its output as README shows it
	// (but for the time), and a violation's exit status.
	out, errb, code := runIn(t, repoRoot, "-k", "5", "-split", "lazy", "examples/bluetooth.pds")
	require.Equal(t, exitViolation, code, errb)
	require.Contains(t, readme, "exits with status 1, a violation found")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "lazy splitting:") {
			line = line[:strings.LastIndex(line, ",")] // the time varies
		}
		require.Contains(t, readme, "    "+line, "README.md shows this line of the example's output")
	}
	out, _, code = runIn(t, repoRoot, "-k", "4", "-split", "lazy", "examples/bluetooth.pds")
	require.Equal(t, exitSafe, code)
	require.True(t, strings.HasPrefix(out, "SAFE within 4 contexts"), out)
	require.Contains(t, readme, "With `-k 4` it answers `SAFE within 4 contexts`")

	// Exit status: the example of a missing file, as README prints it.
	_, errb, code = runIn(t, t.TempDir(), "-k", "5", "no-such.pds")
	require.Contains(t, readme, "    $ cbreach -k 5 no-such.pds; echo $?\n    "+strings.TrimSpace(errb)+"\n    "+strconv.Itoa(code)+"\n")

	// A Boolean program.
	require.Contains(t, readme, "`go run ./cmd/cbreach -k 4 benchmarks/boolean/bluetooth-v2.bp`\n  reports the Bluetooth driver's violation with 4 contexts")
	out, errb, code = runIn(t, repoRoot, "-k", "4", "benchmarks/boolean/bluetooth-v2.bp")
	require.Equal(t, exitViolation, code, errb)
	require.Regexp(t, `^VIOLATION .* first reached with 4 contexts\n`, out)

	// --dot writes a chart; --version prints one line.
	dir := t.TempDir()
	require.Contains(t, readme, "`--dot chart.dot` writes the trace")
	_, errb, code = runIn(t, dir, "--dot", "chart.dot", "-k", "5", filepath.Join(absRoot(t), "examples", "bluetooth.pds"))
	require.Equal(t, exitViolation, code, errb)
	chart, err := os.ReadFile(filepath.Join(dir, "chart.dot"))
	require.NoError(t, err)
	require.Contains(t, string(chart), "digraph ")
	out, _, code = runIn(t, repoRoot, "--version")
	require.Equal(t, exitSafe, code)
	require.Regexp(t, `^cbreach \S+ \(.*\)\n$`, out)
}

// absRoot is the repository's root as an absolute path.
func absRoot(t *testing.T) string {
	abs, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	return abs
}

// TestReadmeResults: the table of README's "Results" gives the view
// tuples the harness counts (whole bound, no pruning): each row's model
// run at its bound with each splitting.
func TestReadmeResults(t *testing.T) {
	readme := readDoc(t, "README.md")
	models := map[string]string{
		"Bluetooth v1, 1 adder + 1 stopper":  "bluetooth-v1-a1s1",
		"Bluetooth v2, 2 adders + 1 stopper": "bluetooth-v2-a2s1",
		"Bluetooth v3, 1 adder + 2 stoppers": "bluetooth-v3-a1s2",
		"Vector Java 5, x of 1 bit":          "vector-java5-b1",
		"Vector Java 5, x of 8 bits":         "vector-java5-b8",
	}
	row := regexp.MustCompile(`(?m)^\| ([^|]+) \| (\d+) \| (\d+) / (\d+) \| \d+ / \d+ \|$`)
	rows := row.FindAllStringSubmatch(readme, -1)
	require.Len(t, rows, len(models), "the rows of README's Results table")
	for _, r := range rows {
		model, ok := models[r[1]]
		require.True(t, ok, "README's Results names %q, which this test does not know", r[1])
		for i, split := range []string{"eager", "lazy"} {
			out, errb, _ := runIn(t, repoRoot, "--json", "--all", "--no-trace", "--prune", "none", "--split", split, "-k", r[2],
				filepath.Join("benchmarks", "models", model+".pds"))
			var res struct{ ViewTuples int }
			require.NoError(t, json.Unmarshal([]byte(out), &res), errb)
			require.Equal(t, r[3+i], fmt.Sprint(res.ViewTuples), "%s at k=%s, %s splitting", r[1], r[2], split)
		}
	}
}

// TestTasksDoc: docs/tasks.md gives the shipped suite's count of tasks
// and its summary line as cbreach suite prints them.
func TestTasksDoc(t *testing.T) {
	doc := readDoc(t, filepath.Join("docs", "tasks.md"))
	out, errb, code := runIn(t, repoRoot, "suite", "benchmarks/tasks")
	require.Equal(t, exitSafe, code, errb)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	require.Contains(t, doc, "\n    "+last+"\n", "docs/tasks.md shows the suite's last line")
	n, _, ok := strings.Cut(last, " tasks:")
	require.True(t, ok, last)
	require.Contains(t, doc, "`benchmarks/tasks/models`, `examples` and `boolean` hold "+n+" tasks.")
}
