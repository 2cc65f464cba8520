package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/cbreach/cbreach/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cmd/cbreach/internal/suite"
	"github.com/cbreach/cbreach/frontend/readers"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// cbreachBinary builds the command once for the tests that run it as a
// separate process (with -trimpath, as TestVersionBuild does, so that the
// two share the compiled packages).
func cbreachBinary(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cbreach-suite-test")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "cbreach")
		out, err := exec.Command(gobin, "build", "-trimpath", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = &buildError{string(out)}
		}
	})
	require.NoError(t, binErr)
	return binPath
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build: " + e.out }

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// runSuiteCmd runs "cbreach suite ARGS" and returns its standard output,
// standard error and exit status.
func runSuiteCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(cbreachBinary(t), append([]string{"suite"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

func readReport(t *testing.T, out string) *suite.Report {
	t.Helper()
	rep, err := suite.ReadJSON(strings.NewReader(out))
	require.NoError(t, err, out)
	return rep
}

// withoutMeasures drops what varies from run to run: time and memory.
func withoutMeasures(rows []suite.Row) []suite.Row {
	out := append([]suite.Row(nil), rows...)
	for i := range out {
		out[i].TimeS, out[i].CPUS, out[i].PeakMiB = 0, 0, 0
	}
	return out
}

const examplesTasks = "../../benchmarks/tasks/examples"

// TestSuiteExamples runs the examples' tasks end to end, two at a time and
// one at a time: every verdict correct, rows sorted by file, the same
// table both times but for time and memory.
func TestSuiteExamples(t *testing.T) {
	out, stderr, code := runSuiteCmd(t, "--json", "--jobs", "2", "--timeout", "60s", examplesTasks)
	require.Equal(t, 0, code, stderr)
	rep := readReport(t, out)
	require.Len(t, rep.Tasks, 12)
	for i, r := range rep.Tasks {
		require.Equal(t, suite.StatusDone, r.Status, "%+v", r)
		require.Equal(t, "correct", r.Outcome(), "%+v", r)
		require.Greater(t, r.PeakMiB, 1.0, "%+v", r)
		if i > 0 {
			require.Less(t, rep.Tasks[i-1].File, r.File)
		}
	}
	require.Equal(t, 6*2+6*1, rep.Score)
	require.Contains(t, stderr, "12 tasks: 12 correct (6 true, 6 false), 0 wrong")

	md, stderr, code := runSuiteCmd(t, "--jobs", "1", "--timeout", "60s", "--csv", filepath.Join(t.TempDir(), "t.csv"), examplesTasks)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, md, "| ../../benchmarks/tasks/examples/bluetooth-k5.yml | unreach-error.prp | cbr lazy | 5 contexts | false | false | correct | 5 | 5 (matches) | done |")
	out2, _, code := runSuiteCmd(t, "--json", "--jobs", "1", "--timeout", "60s", examplesTasks)
	require.Equal(t, 0, code)
	require.Equal(t, withoutMeasures(rep.Tasks), withoutMeasures(readReport(t, out2).Tasks))
}

// writeTask writes a task file into dir.
func writeTask(t *testing.T, dir, name, input, verdict, options string) {
	t.Helper()
	abs, err := filepath.Abs(input)
	require.NoError(t, err)
	props, err := filepath.Abs("../../benchmarks/tasks/properties")
	require.NoError(t, err)
	prop := "unreach-error.prp"
	if strings.HasSuffix(name, "-cuba.yml") {
		prop = "cuba-target.prp"
	}
	src := "format_version: '2.0'\ninput_files: '" + abs + "'\nproperties:\n  - property_file: " + filepath.Join(props, prop) +
		"\n    " + verdict + "\noptions:\n" + options
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
}

// TestSuiteVerdicts: wrong verdicts count as wrong (exit 1, scored, and
// ahead of the failed task), a bound whose unit does not fit the engine
// fails in its row, the flags override the options, a malformed task
// stops the suite (exit 2).
func TestSuiteVerdicts(t *testing.T) {
	dir := t.TempDir()
	bt := "../../examples/bluetooth.pds"
	writeTask(t, dir, "a-wrong-true.yml", bt, "expected_verdict: false", "  contexts: 4\n")
	writeTask(t, dir, "b-wrong-fewest.yml", bt, "expected_verdict: false\n    expected_bound: 4", "  contexts: 5\n")
	writeTask(t, dir, "c-rounds-cbr.yml", bt, "expected_verdict: true", "  engine: cbr\n  rounds: 1\n")
	writeTask(t, dir, "d-right.yml", bt, "expected_verdict: true", "  engine: cbr\n  split: eager\n  contexts: 3\n")
	out, stderr, code := runSuiteCmd(t, "--json", "--timeout", "60s", dir)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "cbreach suite: 1 of 4 tasks failed (status failed; the message says why)\n")
	rep := readReport(t, out)
	require.Len(t, rep.Tasks, 4)
	get := func(i int) *suite.Row { return &rep.Tasks[i] }
	require.Equal(t, "wrong", get(0).Outcome())
	require.Equal(t, -32, get(0).Score)
	require.Equal(t, "wrong", get(1).Outcome())
	require.Equal(t, -16, get(1).Score)
	require.Equal(t, 5, *get(1).Fewest)
	require.False(t, *get(1).FewestMatches)
	require.Equal(t, suite.StatusFailed, get(2).Status)
	require.Equal(t, "a bound in rounds needs engine seq, not cbr", get(2).Message)
	require.Nil(t, get(2).Correct)
	require.Equal(t, "correct", get(3).Outcome())
	require.Equal(t, "eager", get(3).Split)
	require.Equal(t, -32-16+2, rep.Score)

	// --engine explicit for every task: the rounds task still fails, the
	// split of d is refused (explicit takes none), the others run.
	out, _, code = runSuiteCmd(t, "--json", "--engine", "explicit", "--timeout", "60s", dir)
	require.Equal(t, 1, code)
	rep = readReport(t, out)
	require.Equal(t, "explicit", get(0).Engine)
	require.Equal(t, "wrong", get(0).Outcome())
	require.Equal(t, "a bound in rounds needs engine seq, not explicit", get(2).Message)
	require.Equal(t, "engine explicit takes no split", get(3).Message)

	// A malformed task: nothing runs, file:line on standard error.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "e-bad.yml"), []byte("format_version: '2.0'\ninput_files: x.pds\nproperties: []\noptions: {contexts: 1}\nextra: 1\n"), 0o644))
	out, stderr, code = runSuiteCmd(t, "--json", dir)
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, stderr, "e-bad.yml:5: warning: unknown key \"extra\" (ignored)")
	require.Contains(t, stderr, "e-bad.yml:3: properties: want a list of properties")
	require.Contains(t, stderr, "cbreach suite: 1 malformed task file; nothing was run")

	_, stderr, code = runSuiteCmd(t, "--jobs", "0", dir)
	require.Equal(t, 2, code, stderr)
	_, stderr, code = runSuiteCmd(t, "--slurm-chunk", "2", dir)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--slurm-chunk goes with --slurm")
	_, _, code = runSuiteCmd(t)
	require.Equal(t, 2, code)
}

// TestSuiteOutputsChecked: an output file that cannot be written stops
// the suite at once, before any task runs (exit 2, no table, the path and
// the system's reason on standard error); a file the suite made for
// another output is removed again, and an existing one keeps its
// contents.
func TestSuiteOutputsChecked(t *testing.T) {
	dir := t.TempDir()
	// A task that runs to its time limit, were it run.
	writeTask(t, dir, "slow.yml", "testdata/limits/threads1000.pds", "expected_verdict: true", "  contexts: 6\n")
	files := t.TempDir()
	kept, made := filepath.Join(files, "kept.md"), filepath.Join(files, "made.md")
	require.NoError(t, os.WriteFile(kept, []byte("an earlier table\n"), 0o644))
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--csv", "/nonexistent/x.csv"}, "--csv: cannot write /nonexistent/x.csv: no such file or directory"},
		{[]string{"--md", kept, "--csv", filepath.Join(files, "no-dir", "t.csv")}, "--csv: cannot write " + filepath.Join(files, "no-dir", "t.csv") + ": no such file or directory"},
		{[]string{"--md", made, "--json-file", files}, "--json-file: cannot write " + files + ": is a directory"},
	} {
		start := time.Now()
		out, stderr, code := runSuiteCmd(t, append([]string{"--jobs", "1", "--timeout", "60s"}, append(tc.args, dir)...)...)
		require.Equal(t, 2, code, stderr)
		require.Less(t, time.Since(start), 15*time.Second, "a task ran")
		require.Empty(t, out)
		require.Equal(t, "cbreach suite: "+tc.msg+"\n", stderr)
	}
	b, err := os.ReadFile(kept)
	require.NoError(t, err)
	require.Equal(t, "an earlier table\n", string(b))
	require.NoFileExists(t, made)
}

// TestSuiteFailedTask: a task whose program does not parse fails in its
// row while the others run; the table has both rows, a line on standard
// error counts the failure, and the exit status is 2 (0 with
// --allow-failed, 1 when a verdict is wrong too).
func TestSuiteFailedTask(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.pds")
	require.NoError(t, os.WriteFile(broken, []byte("this is not a program\n"), 0o644))
	writeTask(t, dir, "a-broken.yml", broken, "expected_verdict: true", "  contexts: 2\n")
	writeTask(t, dir, "b-good.yml", "../../examples/recursion.pds", "expected_verdict: false\n    expected_bound: 2", "  contexts: 2\n")
	out, stderr, code := runSuiteCmd(t, "--jobs", "1", "--timeout", "60s", dir)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, out, "a-broken.yml | unreach-error.prp | cbr lazy | 2 contexts | true | unknown | unknown |  |  | failed |")
	require.Contains(t, out, "| cbreach refused the task: ")
	require.Contains(t, out, "b-good.yml | unreach-error.prp | cbr lazy | 2 contexts | false | false | correct | 2 | 2 (matches) | done |")
	require.Contains(t, out, "2 tasks: 1 correct (0 true, 1 false), 0 wrong (0 true, 0 false), 1 unknown (1 failed, 0 cancelled); score 1")
	require.Equal(t, "cbreach suite: 1 of 2 tasks failed (status failed; the message says why)\n", stderr)

	out, stderr, code = runSuiteCmd(t, "--json", "--allow-failed", "--jobs", "1", "--timeout", "60s", dir)
	require.Equal(t, 0, code, stderr)
	rep := readReport(t, out)
	require.Len(t, rep.Tasks, 2)
	require.Equal(t, suite.StatusFailed, rep.Tasks[0].Status)
	require.Equal(t, "correct", rep.Tasks[1].Outcome())
	require.Contains(t, stderr, "1 of 2 tasks failed")

	// A wrong verdict comes first: exit status 1.
	writeTask(t, dir, "c-wrong.yml", "../../examples/recursion.pds", "expected_verdict: true", "  contexts: 2\n")
	_, stderr, code = runSuiteCmd(t, "--jobs", "1", "--timeout", "60s", dir)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "1 of 3 tasks failed")
}

// TestSuiteFigures: with --figures each row carries its run's work figures
// from cbreach's JSON, for every engine, and the further options of a
// task reach cbreach (--all explores the whole bound: every level has
// view tuples; without it the run stops at the violation).
func TestSuiteFigures(t *testing.T) {
	dir := t.TempDir()
	bt := "../../examples/bluetooth.pds"
	more := "  all: true\n  prune: none\n  max_tuples: 0\n  traces: false\n  max_threads: 3\n"
	writeTask(t, dir, "a-cbr-all.yml", bt, "expected_verdict: false\n    expected_bound: 5", "  split: eager\n  contexts: 6\n"+more)
	writeTask(t, dir, "b-cbr.yml", bt, "expected_verdict: false\n    expected_bound: 5", "  contexts: 6\n")
	writeTask(t, dir, "c-seq.yml", bt, "expected_verdict: false", "  engine: seq\n  rounds: 3\n")
	writeTask(t, dir, "d-explicit.yml", bt, "expected_verdict: true", "  engine: explicit\n  contexts: 3\n")
	out, stderr, code := runSuiteCmd(t, "--json", "--figures", "--timeout", "60s", dir)
	require.Equal(t, 0, code, stderr)
	rep := readReport(t, out)
	require.Len(t, rep.Tasks, 4)
	for i, r := range rep.Tasks {
		require.Equal(t, "correct", r.Outcome(), "%+v", r)
		f := r.Figures
		require.NotNil(t, f, r.File)
		require.NotNil(t, f.PeakNodes, r.File) // --stats
		if i < 3 {
			require.Greater(t, *f.PeakNodes, 0, r.File) // the symbolic engines
		}
		require.NotEmpty(t, f.Kernel, r.File)
		require.Greater(t, f.AnalysisS, 0.0, r.File)
	}
	all, first := rep.Tasks[0].Figures, rep.Tasks[1].Figures
	require.Len(t, all.TuplesPerLevel, 6)
	require.Len(t, first.TuplesPerLevel, 6)
	require.Equal(t, 6, all.Complete)
	require.Greater(t, all.TuplesPerLevel[5], 0)           // --all: the last level was expanded
	require.Greater(t, *all.ViewTuples, *first.ViewTuples) // eager, no pruning, whole bound
	require.NotNil(t, first.PostStarCalls)
	require.Greater(t, rep.Tasks[2].Figures.Threads, 1) // seq's round-robin order
	require.Nil(t, rep.Tasks[2].Figures.ViewTuples)
	require.NotNil(t, rep.Tasks[3].Figures.States)

	// Without --figures the rows are those of before.
	out, _, code = runSuiteCmd(t, "--json", "--timeout", "60s", dir)
	require.Equal(t, 0, code)
	require.NotContains(t, out, "figures")
}

// TestSuiteLimits: a task stopped by its time limit is a timeout, one
// stopped by its memory limit is memory; both unknown, neither wrong.
func TestSuiteLimits(t *testing.T) {
	dir := t.TempDir()
	writeTask(t, dir, "slow.yml", "testdata/limits/threads1000.pds", "expected_verdict: true", "  contexts: 6\n")
	start := time.Now()
	out, stderr, code := runSuiteCmd(t, "--json", "--timeout", "1s", dir)
	require.Equal(t, 0, code, stderr)
	require.Less(t, time.Since(start), 30*time.Second)
	r := readReport(t, out).Tasks[0]
	require.Equal(t, suite.StatusTimeout, r.Status)
	require.Equal(t, "unknown", r.Outcome())
	require.Contains(t, r.Message, "time limit reached")

	dir = t.TempDir()
	writeTask(t, dir, "big.yml", "../../benchmarks/models/vector-java5-b8.pds", "expected_verdict: true", "  split: eager\n  contexts: 2\n")
	out, stderr, code = runSuiteCmd(t, "--json", "--max-memory", "20MiB", "--timeout", "60s", dir)
	require.Equal(t, 0, code, stderr)
	r = readReport(t, out).Tasks[0]
	require.Equal(t, suite.StatusMemory, r.Status, "%+v", r)
	require.Equal(t, "unknown", r.Outcome())
}

// cubaSuite is CUBA's pldi18 suite (testkit.CUBASuite), or "" when it
// is absent.
func cubaSuite() string { return testkit.CUBASuite(filepath.Join("..", "..")) }

// TestSuiteCUBA runs tasks on CUBA's systems in place (the suite stays
// outside the repository): the fewest contexts of CUBA's table.
func TestSuiteCUBA(t *testing.T) {
	cdir := cubaSuite()
	if cdir == "" {
		t.Skip("CUBA's pldi18 suite is absent (see docs/benchmarks.md): skipping")
	}
	dir := t.TempDir()
	sys := func(n string) string { return filepath.Join(cdir, "01_Bluetooth-1", n+".pds") }
	writeTask(t, dir, "bt11-k4-cuba.yml", sys("Bluetooth1-11"), "expected_verdict: false\n    expected_bound: 4", "  contexts: 4\n")
	writeTask(t, dir, "bt11-k3-cuba.yml", sys("Bluetooth1-11"), "expected_verdict: true", "  engine: explicit\n  contexts: 3\n")
	writeTask(t, dir, "bt12-k3-cuba.yml", sys("Bluetooth1-12"), "expected_verdict: false\n    expected_bound: 3", "  split: eager\n  contexts: 3\n")
	writeTask(t, dir, "bt12-seq-cuba.yml", sys("Bluetooth1-12"), "expected_verdict: false", "  engine: seq\n  rounds: 3\n")
	out, stderr, code := runSuiteCmd(t, "--json", "--timeout", "60s", dir)
	require.Equal(t, 2, code, stderr) // the seq task failed
	require.Contains(t, stderr, "1 of 4 tasks failed")
	rep := readReport(t, out)
	var outcomes []string
	for _, r := range rep.Tasks {
		outcomes = append(outcomes, r.Outcome()+" "+r.Status)
	}
	require.Equal(t, []string{"correct done", "correct done", "correct done", "unknown failed"}, outcomes)
	require.Equal(t, "engine seq checks error labels only, not CUBA targets", rep.Tasks[3].Message)
}

// TestSuiteInterrupt: Ctrl-C stops the running tasks; the finished rows
// are kept, the others are cancelled, and the exit status is 3.
func TestSuiteInterrupt(t *testing.T) {
	dir := t.TempDir()
	writeTask(t, dir, "a-quick.yml", "../../examples/recursion.pds", "expected_verdict: false\n    expected_bound: 2", "  contexts: 2\n")
	for _, n := range []string{"b", "c", "d"} {
		writeTask(t, dir, n+"-slow.yml", "testdata/limits/threads1000.pds", "expected_verdict: true", "  contexts: 6\n")
	}
	cmd := exec.Command(cbreachBinary(t), "suite", "--json", "--jobs", "1", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	time.Sleep(3 * time.Second)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("cbreach suite did not stop within 60 s of SIGINT")
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, stderr.String())
	require.Equal(t, 3, exit.ExitCode(), stderr.String())
	rep := readReport(t, stdout.String())
	require.Len(t, rep.Tasks, 4)
	require.Equal(t, "correct", rep.Tasks[0].Outcome())
	for _, r := range rep.Tasks[1:] {
		require.Equal(t, suite.StatusCancelled, r.Status, "%+v", r)
		require.Nil(t, r.Correct)
	}
}

// TestSuiteSlurm runs the examples' tasks through a real Slurm cluster
// (benchmarks/slurm/local-cluster.sh starts one on this machine) and
// checks that the table is the local one but for time and memory.
func TestSuiteSlurm(t *testing.T) {
	tier.SkipUnlessLong(t, "submits a job array to Slurm and waits for it")
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("no sbatch: start a cluster with benchmarks/slurm/local-cluster.sh")
	}
	local, stderr, code := runSuiteCmd(t, "--json", "--timeout", "60s", examplesTasks)
	require.Equal(t, 0, code, stderr)
	dir := t.TempDir()
	// Two tasks per array element, and one more #SBATCH option passed on.
	slurm, stderr, code := runSuiteCmd(t, "--json", "--slurm", "--timeout", "60s", "--max-memory", "1GiB", "--slurm-dir", dir,
		"--slurm-chunk", "2", "--slurm-poll", "1s", "--slurm-args", "--comment=cbreach-test", examplesTasks)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "cbreach suite: Slurm directory "+dir+" (")
	require.Contains(t, stderr, "submitted job")
	lrep, srep := readReport(t, local), readReport(t, slurm)
	require.Equal(t, withoutMeasures(lrep.Tasks), withoutMeasures(srep.Tasks))
	require.Equal(t, lrep.Score, srep.Score)
	for _, r := range srep.Tasks {
		require.Greater(t, r.PeakMiB, 1.0, "%+v", r)
	}
	script, err := os.ReadFile(filepath.Join(dir, "suite.sbatch"))
	require.NoError(t, err)
	require.Contains(t, string(script), "#SBATCH --array=0-5\n")
	require.Contains(t, string(script), "#SBATCH --mem=1536M\n")
	var m struct{ Jobs []json.RawMessage }
	b, err := os.ReadFile(filepath.Join(dir, "jobs.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &m))
	require.Len(t, m.Jobs, 12)

	// --slurm-script-only writes the script and prints its path.
	script2 := filepath.Join(t.TempDir(), "by-hand")
	out, stderr, code := runSuiteCmd(t, "--slurm", "--slurm-script-only", "--slurm-dir", script2, examplesTasks)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, filepath.Join(script2, "suite.sbatch")+"\n", out)
	require.FileExists(t, filepath.Join(script2, "jobs.json"))
}

// TestSuiteSlurmDir: the directory of a Slurm run is --slurm-dir, or a
// new one beside the first output file, or in $TMPDIR; never in the
// working directory.
func TestSuiteSlurmDir(t *testing.T) {
	bin := cbreachBinary(t) // before TMPDIR and the working directory change
	tasks, err := filepath.Abs(examplesTasks)
	require.NoError(t, err)
	tmp, work := t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Chdir(work)
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	prefix := "cbreach-slurm-20260304-050607-"

	dir, err := slurmDir(&suiteConfig{slurmDir: "mine"}, now)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(work, "mine"), dir)
	require.NoDirExists(t, dir) // WriteScript makes it

	dir, err = slurmDir(&suiteConfig{}, now)
	require.NoError(t, err)
	require.Equal(t, tmp, filepath.Dir(dir))
	require.True(t, strings.HasPrefix(filepath.Base(dir), prefix), dir)
	require.DirExists(t, dir)
	again, err := slurmDir(&suiteConfig{}, now)
	require.NoError(t, err)
	require.NotEqual(t, dir, again) // a new one each run

	out, other := t.TempDir(), t.TempDir()
	for _, c := range []suiteConfig{
		{csv: filepath.Join(out, "r.csv")},
		{md: filepath.Join(out, "r.md"), csv: filepath.Join(other, "r.csv"), jsonFile: filepath.Join(other, "r.json")},
		{jsonFile: filepath.Join(out, "r.json")},
	} {
		dir, err = slurmDir(&c, now)
		require.NoError(t, err)
		require.Equal(t, out, filepath.Dir(dir), "%+v", c)
		require.True(t, strings.HasPrefix(filepath.Base(dir), prefix), dir)
	}
	// A relative output: the directory is still absolute.
	require.NoError(t, os.Mkdir(filepath.Join(work, "res"), 0o755))
	dir, err = slurmDir(&suiteConfig{csv: "res/r.csv"}, now)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(work, "res"), filepath.Dir(dir))

	_, err = slurmDir(&suiteConfig{csv: filepath.Join(out, "no-dir", "r.csv")}, now)
	require.Error(t, err)

	entries, err := os.ReadDir(work)
	require.NoError(t, err)
	require.Len(t, entries, 1) // res/ only

	// The command, without Slurm: --slurm-script-only writes the
	// directory in $TMPDIR, not in the working directory.
	tmp2, work2 := t.TempDir(), t.TempDir()
	cmd := exec.Command(bin, "suite", "--slurm", "--slurm-script-only", tasks)
	cmd.Dir = work2
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp2)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	script := strings.TrimSuffix(stdout.String(), "\n")
	require.Equal(t, suite.ScriptFile, filepath.Base(script))
	require.Equal(t, tmp2, filepath.Dir(filepath.Dir(script)))
	require.True(t, strings.HasPrefix(filepath.Base(filepath.Dir(script)), "cbreach-slurm-"), script)
	require.FileExists(t, filepath.Join(filepath.Dir(script), "jobs.json"))
	entries, err = os.ReadDir(work2)
	require.NoError(t, err)
	require.Empty(t, entries)
}

// TestSuiteProgressAndFiles runs the command in this process on tasks
// that fail before they start (their bound does not fit the engine), so
// that no task process is needed: the progress line shows only on a
// terminal, the failed tasks make exit status 2 but with --allow-failed,
// and --md, --csv and --json-file write the table.
func TestSuiteProgressAndFiles(t *testing.T) {
	dir := t.TempDir()
	bt := "../../examples/bluetooth.pds"
	writeTask(t, dir, "a.yml", bt, "expected_verdict: true", "  rounds: 1\n")
	writeTask(t, dir, "b.yml", bt, "expected_verdict: true", "  engine: seq\n  contexts: 1\n")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, runSuite(context.Background(), []string{"--jobs", "1", dir}, &stdout, &stderr, true))
	require.Contains(t, stderr.String(), "\r\033[Kcbreach suite: 0 done, 1 running, 1 remaining, 0 wrong")
	require.Contains(t, stderr.String(), "\r\033[Kcbreach suite: 2 done, 0 running, 0 remaining, 0 wrong")
	require.True(t, strings.HasSuffix(stderr.String(), "\r\033[Kcbreach suite: 2 of 2 tasks failed (status failed; the message says why)\n"), "%q", stderr.String())
	require.Contains(t, stdout.String(), "2 tasks: 0 correct (0 true, 0 false), 0 wrong (0 true, 0 false), 2 unknown (2 failed, 0 cancelled); score 0")

	files := t.TempDir()
	md, csv, js := filepath.Join(files, "t.md"), filepath.Join(files, "t.csv"), filepath.Join(files, "t.json")
	// An earlier, longer table is replaced whole.
	require.NoError(t, os.WriteFile(md, bytes.Repeat([]byte("an earlier table\n"), 100), 0o644))
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, 0, runSuite(context.Background(), []string{"--allow-failed", "--md", md, "--csv", csv, "--json-file", js, dir}, &stdout, &stderr, false))
	require.Equal(t, "cbreach suite: 2 of 2 tasks failed (status failed; the message says why)\n", stderr.String())
	b, err := os.ReadFile(md)
	require.NoError(t, err)
	require.Equal(t, stdout.String(), string(b))
	b, err = os.ReadFile(csv)
	require.NoError(t, err)
	require.Contains(t, string(b), "b.yml,unreach-error.prp,seq lazy,1 contexts,true,unknown,unknown,,,failed,0.000,0.000,0.0,0,\"engine seq counts rounds, not contexts\"\n")
	f, err := os.Open(js)
	require.NoError(t, err)
	defer f.Close()
	rep, err := suite.ReadJSON(f)
	require.NoError(t, err)
	require.Equal(t, "a bound in rounds needs engine seq, not cbr", rep.Tasks[0].Message)
}

// TestSuiteFlagValues: a flag value cbreach suite cannot parse is said in
// its words, not Go's ("strconv.ParseInt: parsing ...").
func TestSuiteFlagValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--jobs", "all", "x"}, `cbreach suite: invalid argument "all" for --jobs: want a whole number of tasks at a time`},
		{[]string{"-j", "all", "x"}, `cbreach suite: invalid argument "all" for -j: want a whole number of tasks at a time`},
		{[]string{"--timeout", "60", "x"}, `cbreach suite: invalid argument "60" for --timeout: want a duration such as 15m or 90s (0: no limit)`},
		{[]string{"--slurm-cpus", "two", "x"}, `cbreach suite: invalid argument "two" for --slurm-cpus: want a whole number of CPUs`},
		{[]string{"--json=yes please", "x"}, `cbreach suite: invalid argument "yes please" for --json: want true or false`},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"suite"}, tc.args...), &out, &errb, false)
		require.Equal(t, suiteUsage, code, "%v", tc.args)
		require.Equal(t, tc.msg+"\nRun 'cbreach suite -h' for usage.\n", errb.String(), "%v", tc.args)
	}
}

// TestSuiteSVCOMP runs the task files of testdata/svcomp, in SV-COMP's
// formats 1.0 and 2.0 with and without options, none with a bound: one row
// per property with an expected verdict; unreach-call is checked by
// deepening the bound (true only with a proof for every bound, false with
// a trace), the other properties and the C program (until a reader of C)
// are unknown rows; the table by directory adds them up. Unknown rows
// leave the exit status 0.
func TestSuiteSVCOMP(t *testing.T) {
	out, stderr, code := runSuiteCmd(t, "--json", "--jobs", "2", "--timeout", "60s", "testdata/svcomp")
	require.Equal(t, 0, code, stderr)
	cReader := readers.BySuffix(".i") != nil // the C program runs
	if !cReader {
		require.Contains(t, stderr, "9 tasks: 5 correct (2 true, 3 false), 0 wrong (0 true, 0 false), 4 unknown (0 failed, 0 cancelled); score 7")
	}
	rep := readReport(t, out)
	type line struct{ file, property, verdict, outcome, status, message string }
	var got []line
	for _, r := range rep.Tasks {
		require.Equal(t, "cbr", r.Engine)
		require.True(t, r.Unbounded || strings.HasSuffix(r.File, "fmt2-bounded.yml"), "%+v", r)
		got = append(got, line{strings.TrimPrefix(r.File, "testdata/svcomp/"), r.Property, r.Verdict, r.Outcome(), r.Status, r.Message})
		if r.Status == suite.StatusDone {
			require.Greater(t, r.CPUS, 0.0, "%+v", r)
			require.Greater(t, r.TimeS, 0.0, "%+v", r)
		}
	}
	noData := "property not checked: CHECK( init(main()), LTL(G ! data-race) )"
	want := []line{
		{"c/tiny.yml", "unreach-call.prp", "unknown", "unknown", "unsupported", "no reader reads tiny.i (cbreach reads .pds or .bp)"},
		{"fmt1-safe.yml", "unreach-call.prp", "true", "correct", "done", ""},
		{"fmt1-violation.yml", "unreach-call.prp", "false", "correct", "done", ""},
		{"fmt2-bounded.yml", "unreach-call.prp", "unknown", "unknown", "done", "safe within 2 contexts, not proved for every bound"},
		{"fmt2-ilp32.yml", "unreach-call.prp", "true", "correct", "done", ""},
		{"fmt2-ilp32.yml", "no-data-race.prp", "unknown", "unknown", "unsupported", noData},
		{"fmt2-lp64.yml", "unreach-call.prp", "false", "correct", "done", ""},
		{"fmt2-plain.yml", "termination.prp", "unknown", "unknown", "unsupported", "property not checked: CHECK( init(main()), LTL(F end) )"},
		{"fmt2-plain.yml", "unreach-call.prp", "false", "correct", "done", ""},
	}
	if cReader {
		require.NotEqual(t, want[0].message, got[0].message)
		got, want = got[1:], want[1:]
	}
	require.Equal(t, want, got)
	require.Equal(t, 2*2+3*1, rep.Score-rep.Tasks[0].Score)
	dirs := rep.Directories
	require.Len(t, dirs, 2)
	require.Equal(t, "testdata/svcomp", dirs[0].Dir)
	s := dirs[0].Summary
	require.Equal(t, suite.Summary{Tasks: 8, CorrectTrue: 2, CorrectFalse: 3, Unknown: 3, Score: 7, TimeS: s.TimeS, CPUS: s.CPUS}, s)
	require.Equal(t, "testdata/svcomp/c", dirs[1].Dir)

	md, _, code := runSuiteCmd(t, "--jobs", "2", "--timeout", "60s", "testdata/svcomp")
	require.Equal(t, 0, code)
	require.Contains(t, md, "| testdata/svcomp/fmt1-safe.yml | unreach-call.prp | cbr lazy | none (deepened to 4 contexts) | true | true | correct |  |  | done |")
	require.Contains(t, md, "\n| directory | tasks | correct true | correct false | unknown | failed | wrong | score | cpu (s) | wall (s) |\n")
	require.Regexp(t, `\n\| testdata/svcomp \| 8 \| 2 \| 3 \| 3 \| 0 \| 0 \| 7 \| [0-9.]+ \| [0-9.]+ \|\n`, md)
	if !cReader {
		require.Regexp(t, `\n\| total \| 9 \| 2 \| 3 \| 4 \| 0 \| 0 \| 7 \| [0-9.]+ \| [0-9.]+ \|\n\n9 tasks: `, md)
	}
}
