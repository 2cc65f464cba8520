package benchmarks

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cbreach/cbreach/cbr"
)

// The harness's runs are tasks of `cbreach suite` (docs/tasks.md): each
// experiment becomes a task definition, and the suite's runner runs them,
// each in a cbreach process of its own, --jobs at a time or as one Slurm
// job array, and gives back one JSON row per task with the run's work
// figures (cbreach suite --figures). The harness reads the rows and
// checks and reports them as before. It talks to the suite through its
// files and its JSON, the interface scripts rely on, not through Go: the
// suite belongs to the command (cmd/cbreach), a sibling of this package.

//go:embed tasks/properties/unreach-error.prp
var unreachError []byte

// Suite says how the harness's runs are made.
type Suite struct {
	Exe string // the cbreach binary (BuildCbreach makes one)
	// Jobs is the number of runs at a time on this machine; 0 or 1 runs
	// them one after the other, as timing needs (two runs at once slow
	// each other down).
	Jobs  int
	Slurm bool     // run them as one Slurm job array instead (cbreach suite --slurm)
	Args  []string // more flags of cbreach suite (--slurm-partition P, --slurm-dir DIR, ...)
	// TaskDir is where the task files (and the models they read) are
	// written; "" for a temporary directory, removed afterwards. With
	// Slurm it must be on a filesystem the nodes share.
	TaskDir string
}

// BuildCbreach builds the cbreach command of this module into dir and
// returns the binary's path (go build, so the go tool must be at hand, as
// it is under go run and go test).
func BuildCbreach(ctx context.Context, dir string) (string, error) {
	exe := filepath.Join(dir, "cbreach")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", exe, "github.com/cbreach/cbreach/cmd/cbreach").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build ./cmd/cbreach: %v\n%s", err, out)
	}
	return exe, nil
}

// TaskFile is the name of an experiment's task file: its place in the
// list (so that the suite's rows, sorted by file, come in the harness's
// order) and its ID.
func TaskFile(i int, e Experiment) string {
	return fmt.Sprintf("%03d-%s-k%d-%s.yml", i+1, e.Model, e.Contexts, e.Split)
}

// WriteTasks writes the experiments as task definitions into dir: each
// model's source into dir/models (the generated Vector models too), the
// property file into dir/properties, and one task per experiment
// (TaskFile), with the expected verdict and fewest contexts of the
// model's EXPECTED line at its bound and the harness's settings: the whole
// bound explored (all), every view tuple counted (prune: none), no limit
// on eager splits (max_tuples: 0) and no traces, as the paper counts. The
// task files of an earlier call in dir (named as TaskFile names them) are
// removed first, so that dir holds these experiments only. It returns the
// task files in the order of exps.
func WriteTasks(dir string, exps []Experiment) ([]string, error) {
	for _, d := range []string{"models", "properties"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	old, err := filepath.Glob(filepath.Join(dir, "[0-9][0-9][0-9]-*-k*-*.yml"))
	if err != nil {
		return nil, err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "properties", "unreach-error.prp"), unreachError, 0o644); err != nil {
		return nil, err
	}
	var files []string
	written := map[string]bool{}
	for i, e := range exps {
		_, src, err := e.Source()
		if err != nil {
			return nil, err
		}
		want, err := ParseExpected(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Model, err)
		}
		model := e.Model + ".pds"
		if !written[model] {
			written[model] = true
			if err := os.WriteFile(filepath.Join(dir, "models", model), src, 0o644); err != nil {
				return nil, err
			}
		}
		verdict := "true"
		if v, fewest := want.Within(e.Contexts); v {
			verdict = "false\n    expected_bound: " + strconv.Itoa(fewest)
		}
		task := fmt.Sprintf("# %s: %s, written by the benchmark harness (go run ./benchmarks/cmd/harness)\n"+
			"format_version: '2.0'\ninput_files: 'models/%s'\nproperties:\n  - property_file: properties/unreach-error.prp\n"+
			"    expected_verdict: %s\noptions:\n  engine: cbr\n  split: %s\n  contexts: %d\n"+
			"  all: true\n  prune: none\n  max_tuples: 0\n  traces: false\n",
			e.ID(), want, model, verdict, e.Split, e.Contexts)
		f := filepath.Join(dir, TaskFile(i, e))
		if err := os.WriteFile(f, []byte(task), 0o644); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// suiteRow is a row of `cbreach suite --json --figures` (docs/tasks.md):
// the keys the harness reads.
type suiteRow struct {
	File    string `json:"file"`
	Verdict string `json:"verdict"` // true, false or unknown
	Fewest  *int   `json:"fewest"`
	Status  string `json:"status"` // done, timeout, memory, failed, cancelled
	Message string `json:"message"`
	Figures *struct {
		Reason         string  `json:"reason"`
		AnalysisS      float64 `json:"analysis_s"`
		ViewTuples     *int    `json:"view_tuples"`
		TuplesPerLevel []int   `json:"tuples_per_level"`
		PostStarCalls  *int    `json:"post_star_calls"`
		PeakNodes      *int    `json:"peak_nodes"`
		Kernel         string  `json:"kernel"`
	} `json:"figures"`
}

// runSuite runs the task files (in dir) with `cbreach suite` and returns
// its rows by task file name. The suite's progress line goes to log (a
// terminal shows it); its table goes nowhere, the harness writes its own.
// Cancelling ctx interrupts the suite, which keeps the finished rows.
func runSuite(ctx context.Context, s Suite, dir string, files []string, timeout time.Duration, log io.Writer) (map[string]*suiteRow, error) {
	report := filepath.Join(dir, "suite.json")
	// --allow-failed: a failed row is an experiment's error, which the
	// harness reports (fromRow), so that exit status 2 stays a refusal.
	args := []string{"suite", "--figures", "--allow-failed", "--json-file", report, "--timeout", timeout.String()}
	if s.Slurm {
		args = append(args, "--slurm")
		if !slices.ContainsFunc(s.Args, func(a string) bool { return strings.HasPrefix(a, "--slurm-dir") }) {
			// The script, the jobs and the results beside the tasks (on the
			// shared filesystem they must be on), not in the working directory.
			args = append(args, "--slurm-dir", filepath.Join(dir, "slurm"))
		}
	} else {
		args = append(args, "--jobs", strconv.Itoa(max(1, s.Jobs)))
	}
	args = append(append(args, s.Args...), files...)
	os.Remove(report)
	cmd := exec.Command(s.Exe, args...)
	var stderr bytes.Buffer
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	if f, ok := log.(*os.File); ok {
		cmd.Stderr = f // its progress line, on a terminal
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cbreach suite: %v", err)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			cmd.Process.Signal(os.Interrupt) // the suite keeps the finished rows
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.Exited():
		code = ee.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("cbreach suite: %v", err)
	}
	// 1: a verdict differs from its task's (the harness says which), 3:
	// interrupted, 4: a trace failed its check (the harness builds none);
	// the table was written. 2: bad usage or a malformed task: a bug here.
	if code == 2 {
		return nil, fmt.Errorf("cbreach suite refused the harness's tasks: %s", strings.TrimSpace(stderr.String()))
	}
	b, err := os.ReadFile(report)
	if err != nil {
		return nil, fmt.Errorf("cbreach suite (exit status %d) wrote no table: %v %s", code, err, strings.TrimSpace(stderr.String()))
	}
	var rep struct {
		Tasks []suiteRow `json:"tasks"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", report, err)
	}
	rows := map[string]*suiteRow{}
	for i := range rep.Tasks {
		rows[filepath.Base(rep.Tasks[i].File)] = &rep.Tasks[i]
	}
	return rows, nil
}

// fromRow is the run of experiment e that the suite's row reports. A row
// the suite cancelled is nil: the run was interrupted, not made.
func fromRow(e Experiment, row *suiteRow) *Run {
	r := &Run{Experiment: e, Fewest: -1, Verdict: verdictOf(row)}
	if _, src, err := e.Source(); err == nil {
		r.Expected, _ = ParseExpected(src)
	}
	switch {
	case row == nil:
		r.Status, r.Detail = StatusError, "no row in the suite's table"
		return r
	case row.Status == "cancelled":
		return nil
	case row.Status == "failed":
		r.Status, r.Detail = StatusError, row.Message
		return r
	case row.Figures == nil: // stopped by the suite past its time limit: no figures
		r.Status, r.Detail = StatusTimeout, row.Message
		return r
	}
	f := row.Figures
	if row.Fewest != nil {
		r.Fewest = *row.Fewest
	}
	r.TuplesPerLevel, r.Kernel, r.Time = f.TuplesPerLevel, f.Kernel, time.Duration(f.AnalysisS*float64(time.Second))
	for _, c := range []struct {
		to   *int
		from *int
	}{{&r.ViewTuples, f.ViewTuples}, {&r.PostStarCalls, f.PostStarCalls}, {&r.PeakNodes, f.PeakNodes}} {
		if c.from != nil {
			*c.to = *c.from
		}
	}
	r.Status, r.Detail = check(r, f.Reason)
	return r
}

// verdictOf is the engine's verdict that a row's SV-COMP verdict says.
func verdictOf(row *suiteRow) cbr.Verdict {
	if row != nil {
		switch row.Verdict {
		case "true":
			return cbr.Safe
		case "false":
			return cbr.Violation
		}
	}
	return cbr.Unknown
}
