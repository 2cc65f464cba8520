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
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tests of this file run the commands README.md and docs/tasks.md
// show, as a user would (the real binary, from the repository's root),
// and compare what they print with what the documents say: the output's
// shape, the exit status and every figure the documents give. Left out:
// installing, go test, Slurm and what needs ../shared. The last test holds
// docs/design.md to the file system: its paths and its package list.

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

	// A C program.
	require.Contains(t, readme, "`go run ./cmd/cbreach -k 5 examples/lost-update.c` loses an update")
	out, errb, code = runIn(t, repoRoot, "-k", "5", "examples/lost-update.c")
	require.Equal(t, exitViolation, code, errb)
	require.Regexp(t, `^VIOLATION .* first reached with 5 contexts\n`, out)

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

// TestDesignNamesEveryPackage: docs/design.md names only paths that exist,
// and its package list names every package of the repository. The
// package list is the code block of "Packages and flow", one package per
// line that does not start with a space. A path is a backquoted word with
// a slash (`cbr/seq/doc.go`; a selector such as `pds/explicit.Explore`
// names its package, `frontend/...` its directory), a bare word with a
// slash under a top-level entry of the repository (frontend/doc.go), a
// listed package or a link's target (relative to docs/). A package is a
// directory with a Go file that is not a test, testdata and internal
// ones included; the list comes from the file system, so a package moved
// or added fails the test until the document follows.
func TestDesignNamesEveryPackage(t *testing.T) {
	doc := readDoc(t, filepath.Join("docs", "design.md"))
	listed := designPackages(doc)
	require.NotEmpty(t, listed, `docs/design.md: no package list (a code block after "## Packages and flow")`)

	var missing []string
	for _, p := range append(designPaths(t, doc), listed...) {
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(p))); err != nil {
			missing = append(missing, p)
		}
	}
	for _, p := range designLinks(doc) {
		if _, err := os.Stat(filepath.Join(repoRoot, "docs", filepath.FromSlash(p))); err != nil {
			missing = append(missing, p+" (a link, from docs/)")
		}
	}
	if missing = sortedUnique(missing); len(missing) > 0 {
		t.Errorf("docs/design.md names paths that do not exist:\n\t%s", strings.Join(missing, "\n\t"))
	}

	named := map[string]bool{}
	for _, p := range listed {
		named[p] = true
	}
	var unlisted []string
	for _, p := range goPackageDirs(t) {
		if !named[p] {
			unlisted = append(unlisted, p)
		}
	}
	if len(unlisted) > 0 {
		t.Errorf(`docs/design.md's package list ("Packages and flow") does not name these packages:`+"\n\t%s", strings.Join(unlisted, "\n\t"))
	}
}

// designPackages returns the packages of design.md's list: the first
// word of each line of the first code block after "## Packages and
// flow" that does not start with white space.
func designPackages(doc string) []string {
	_, rest, ok := strings.Cut(doc, "\n## Packages and flow\n")
	if !ok {
		return nil
	}
	_, rest, ok = strings.Cut(rest, "\n```\n")
	if !ok {
		return nil
	}
	block, _, _ := strings.Cut(rest, "\n```")
	var pkgs []string
	for _, line := range strings.Split(block, "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
			pkgs = append(pkgs, f[0])
		}
	}
	return pkgs
}

var (
	backquoted = regexp.MustCompile("`([^`\n]+)`")
	pathWord   = regexp.MustCompile(`[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+`)
	selector   = regexp.MustCompile(`\.[A-Z].*$`)
	mdLink     = regexp.MustCompile(`\]\(([^)\s#:]+)(?:#[^)]*)?\)`)
)

// designPaths returns the path-looking words of doc: backquoted words
// with a slash, and bare words with a slash whose first element is a
// top-level entry of the repository.
func designPaths(t *testing.T, doc string) []string {
	t.Helper()
	top := map[string]bool{}
	entries, err := os.ReadDir(repoRoot)
	require.NoError(t, err)
	for _, e := range entries {
		top[e.Name()] = true
	}
	clean := func(w string) string {
		w = strings.TrimSuffix(w, "/...")
		w = selector.ReplaceAllString(w, "")
		return strings.TrimRight(w, ".")
	}
	var paths []string
	for _, m := range backquoted.FindAllStringSubmatch(doc, -1) {
		if w := m[1]; pathWord.FindString(w) == w {
			paths = append(paths, clean(w))
		}
	}
	for _, w := range pathWord.FindAllString(backquoted.ReplaceAllString(doc, " "), -1) {
		first, _, _ := strings.Cut(w, "/")
		if top[first] {
			paths = append(paths, clean(w))
		}
	}
	return paths
}

// designLinks returns the targets of doc's relative links.
func designLinks(doc string) []string {
	var links []string
	for _, m := range mdLink.FindAllStringSubmatch(doc, -1) {
		links = append(links, m[1])
	}
	return links
}

// goPackageDirs returns every directory of the repository, relative to
// its root and with slashes, that holds a Go file other than a test:
// testdata and internal directories included, hidden ones left out.
func goPackageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != repoRoot && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".go") && !strings.HasSuffix(d.Name(), "_test.go") {
			rel, err := filepath.Rel(repoRoot, filepath.Dir(path))
			if err != nil {
				return err
			}
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	require.NoError(t, err)
	return sortedUnique(dirs)
}

// sortedUnique sorts s and drops repeats.
func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}
