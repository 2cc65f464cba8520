package benchmarks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
)

// Status is how a run ended, as checked against the model's EXPECTED line.
type Status string

const (
	StatusOK       Status = "ok"       // complete, verdict and fewest contexts as expected
	StatusMismatch Status = "MISMATCH" // the verdict or the fewest contexts differ from the expected ones
	StatusTimeout  Status = "timeout"  // the per-run time limit cut the analysis off
	StatusLimit    Status = "limit"    // another limit (BDD nodes, thread bound) cut it off
	StatusError    Status = "error"    // the model did not load or the analysis failed
)

// Run is the outcome of one experiment.
type Run struct {
	Experiment
	Expected Expected
	Status   Status
	Detail   string // why, for a status other than ok

	Verdict        cbr.Verdict
	Fewest         int // fewest contexts of a violation; -1 for none
	ViewTuples     int
	TuplesPerLevel []int
	PostStarCalls  int
	PeakNodes      int
	Time           time.Duration // the analysis alone (cbreach's stats.timeSeconds)
	Kernel         string        // the BDD kernel of the run ("" when unknown)
}

// Complete tells whether the analysis explored the whole bound, so that its
// counts are the deterministic ones.
func (r *Run) Complete() bool { return r.Status == StatusOK || r.Status == StatusMismatch }

// VerdictText is the verdict for tables: safe, violation, timeout, ...
func (r *Run) VerdictText() string {
	switch r.Status {
	case StatusError:
		return "error"
	case StatusTimeout, StatusLimit:
		if r.Verdict == cbr.Violation {
			return "violation (" + string(r.Status) + ")"
		}
		return string(r.Status)
	}
	return r.Verdict.String()
}

// load compiles the experiment's model into a fresh network (with its
// own BDD manager) and reads its EXPECTED line.
func (e Experiment) load() (*pds.Network, Expected, error) {
	name, src, err := e.Source()
	if err != nil {
		return nil, Expected{}, err
	}
	want, err := ParseExpected(src)
	if err != nil {
		return nil, Expected{}, fmt.Errorf("%s: %v", name, err)
	}
	net, err := frontend.CompileWith(name, src, frontend.Options{})
	return net, want, err
}

// check compares a run's verdict and fewest contexts with the expected
// ones; reason is what cut the run short ("" when nothing did). A run cut
// off by a limit is still checked as far as it went: breadth-first search
// finds the first violation with the fewest contexts, so a violation found
// before the limit must be the expected one.
func check(r *Run, reason string) (Status, string) {
	wantViolation, wantFewest := r.Expected.Within(r.Contexts)
	want := "safe"
	if wantViolation {
		want = "violation with " + cbr.Contexts.Of(wantFewest)
	}
	cut := Status("")
	switch {
	case strings.HasPrefix(reason, "time limit"):
		cut = StatusTimeout
	case r.Verdict == cbr.Unknown:
		cut = StatusLimit
	}
	if r.Verdict == cbr.Violation && (!wantViolation || r.Fewest != wantFewest) {
		return StatusMismatch, fmt.Sprintf("got a violation with %s, want %s (EXPECTED: %s)", cbr.Contexts.Of(r.Fewest), want, r.Expected)
	}
	if cut != "" {
		if reason == "" {
			reason = "time limit reached"
		}
		return cut, reason
	}
	if r.Verdict == cbr.Safe && wantViolation {
		return StatusMismatch, fmt.Sprintf("got safe, want %s (EXPECTED: %s)", want, r.Expected)
	}
	return StatusOK, ""
}

// Options configure a harness run.
type Options struct {
	Experiments []Experiment  // what to run, in this order
	Timeout     time.Duration // per run; 0 means none
	OutDir      string        // where to write results.md, results.csv and vector.svg
	Set         string        // the name of the selection, for the report's header
	Log         io.Writer     // the suite's progress line, then one line per run; nil for none
	Suite       Suite         // how the runs are made: the cbreach binary, jobs or Slurm
}

// Report is the outcome of a harness run.
type Report struct {
	Runs      []Run
	Env       Env
	Files     []string // the files written
	Mismatch  int      // runs with status MISMATCH or error
	Cutoff    int      // runs cut off by a limit
	Cancelled bool     // ctx ended before every experiment ran
}

// Env describes the machine and the build, for the report's header.
type Env struct {
	Kernel    string // bdd.Kernel
	GoVersion string
	GOOS      string
	GOARCH    string
	NumCPU    int
	Set       string
	Timeout   time.Duration
	Jobs      int  // runs at a time (cbreach suite --jobs)
	Slurm     bool // the runs were a Slurm job array
	Started   time.Time
	Wall      time.Duration // the whole harness run, compilation included
}

// Harness writes the experiments as task definitions (WriteTasks) and
// runs them with `cbreach suite` (opts.Suite): each run in a cbreach
// process of its own, on a freshly compiled network, one after the other
// unless opts.Suite says otherwise. It then checks every run against its
// model's EXPECTED line and writes results.md, results.csv and, when
// complete Vector runs are among them, vector.svg into opts.OutDir (else
// it removes an earlier vector.svg there). When ctx ends, the suite is
// interrupted and the runs done so far are written.
func Harness(ctx context.Context, opts Options) (*Report, error) {
	rep := &Report{Env: Env{Kernel: bdd.Kernel, GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		NumCPU: runtime.NumCPU(), Set: opts.Set, Timeout: opts.Timeout, Jobs: max(1, opts.Suite.Jobs), Slurm: opts.Suite.Slurm, Started: time.Now()}}
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	dir := opts.Suite.TaskDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "harness-tasks-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	files, err := WriteTasks(dir, opts.Experiments)
	if err != nil {
		return nil, err
	}
	rows, err := runSuite(ctx, opts.Suite, dir, files, opts.Timeout, log)
	if err != nil {
		return nil, err
	}
	n := len(opts.Experiments)
	for i, e := range opts.Experiments {
		r := fromRow(e, rows[filepath.Base(files[i])])
		if r == nil {
			rep.Cancelled = true // interrupted, not timed out: no run
			continue
		}
		if r.Kernel != "" {
			rep.Env.Kernel = r.Kernel // the kernel of the runs, not of this process
		}
		rep.Runs = append(rep.Runs, *r)
		switch r.Status {
		case StatusMismatch, StatusError:
			rep.Mismatch++
		case StatusTimeout, StatusLimit:
			rep.Cutoff++
		}
		fmt.Fprintf(log, "[%*d/%d] %-36s %s\n", len(fmt.Sprint(n)), i+1, n, e.ID(), summary(r))
	}
	rep.Cancelled = rep.Cancelled || ctx.Err() != nil
	rep.Env.Wall = time.Since(rep.Env.Started)
	write := func(name string, f func(io.Writer) error) error {
		path := filepath.Join(opts.OutDir, name)
		var b strings.Builder
		if err := f(&b); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return err
		}
		rep.Files = append(rep.Files, path)
		return nil
	}
	if err := write("results.md", func(w io.Writer) error { return WriteMarkdown(w, rep) }); err != nil {
		return rep, err
	}
	if err := write("results.csv", func(w io.Writer) error { return WriteCSV(w, rep.Runs, rep.Env) }); err != nil {
		return rep, err
	}
	if hasVector(rep.Runs) {
		if err := write("vector.svg", func(w io.Writer) error { return WriteVectorPlot(w, rep.Runs, rep.Env) }); err != nil {
			return rep, err
		}
	} else if err := os.Remove(filepath.Join(opts.OutDir, "vector.svg")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rep, err // an earlier run's plot would not match these results
	}
	return rep, nil
}

// Replot redraws dir/vector.svg from dir/results.csv (ReadCSV), without
// running anything, and returns the file written; with no complete Vector
// run in the results it removes an earlier vector.svg and returns "".
func Replot(dir string) (string, error) {
	f, err := os.Open(filepath.Join(dir, "results.csv"))
	if err != nil {
		return "", err
	}
	runs, env, err := ReadCSV(f)
	f.Close()
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "vector.svg")
	if !hasVector(runs) {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", nil
	}
	var b strings.Builder
	if err := WriteVectorPlot(&b, runs, env); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

func summary(r *Run) string {
	s := r.VerdictText()
	if r.Fewest >= 0 {
		s += fmt.Sprintf(" at %d", r.Fewest)
	}
	s = fmt.Sprintf("%-22s %7d tuples %9.3fs %9d nodes", s, r.ViewTuples, r.Time.Seconds(), r.PeakNodes)
	if r.Status != StatusOK {
		s += "  " + string(r.Status) + ": " + r.Detail
	}
	return s
}

// CompileOnly compiles the harness's --only pattern: a regular expression
// in Go's syntax (package regexp) that must match a whole name, not a part
// of one. [Experiment.Matches] tries it on the experiment's model name,
// on MODEL/kK and on the ID MODEL/kK/SPLIT, so "vector-java5-b1" selects
// both runs of that model and not vector-java5-b10 to b16, and
// "vector-java5-b1.*" selects them all. The error is regexp's, for a
// pattern that does not compile.
func CompileOnly(pattern string) (*regexp.Regexp, error) {
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, err // checked alone: "a)|(b" must not compile once wrapped
	}
	return regexp.Compile(`^(?:` + pattern + `)$`)
}

// Matches tells whether re matches e's model name, MODEL/kK or ID
// (MODEL/kK/SPLIT). With a pattern from [CompileOnly], anchored at both
// ends, only a whole name matches.
func (e Experiment) Matches(re *regexp.Regexp) bool {
	mk := fmt.Sprintf("%s/k%d", e.Model, e.Contexts)
	return re.MatchString(e.Model) || re.MatchString(mk) || re.MatchString(e.ID())
}

// Select returns the experiments of the named set (default, large or all)
// that match only (nil: every one; see [Experiment.Matches] and
// [CompileOnly]), in the order of Experiments.
func Select(set string, only *regexp.Regexp) ([]Experiment, error) {
	var out []Experiment
	for _, e := range Experiments() {
		switch set {
		case "default":
			if e.Set != Default {
				continue
			}
		case "large":
			if e.Set != Large {
				continue
			}
		case "all":
		default:
			return nil, fmt.Errorf("unknown set %q: want default, large or all", set)
		}
		if only != nil && !e.Matches(only) {
			continue
		}
		out = append(out, e)
	}
	return out, nil
}
