package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cbreach/cbreach/pds/plural"
)

// Slurm runs the jobs of a suite as one Slurm job array. The directory
// holds the script (suite.sbatch), the jobs with their settings
// (jobs.json), one result file per task (results/N.json, N the task's
// index in jobs.json) and the elements' output (logs/). It must be on a
// filesystem that the nodes share with the submitting host, and so must
// the cbreach binary and the task files.
type Slurm struct {
	Dir       string        // absolute
	Partition string        // --partition, "" for the cluster's default
	Args      string        // more #SBATCH options, written on one line
	Chunk     int           // tasks per array element (at least 1)
	CPUs      int           // --cpus-per-task (at least 1)
	Poll      time.Duration // how often squeue is asked
}

// The files of a Slurm run, in its directory.
const (
	ScriptFile = "suite.sbatch"
	JobsFile   = "jobs.json"
	ResultsDir = "results"
	LogsDir    = "logs"
)

// manifest is what the array elements read.
type manifest struct {
	Settings Settings `json:"settings"`
	Chunk    int      `json:"chunk"`
	Jobs     []Job    `json:"jobs"`
}

// Elements is the number of array elements for n tasks.
func (sl *Slurm) Elements(n int) int { return (n + sl.Chunk - 1) / sl.Chunk }

// WriteScript writes the directory: the jobs, the sbatch script, and
// empty results and logs directories (results of an earlier run there
// are removed). It returns the script's path.
func (sl *Slurm) WriteScript(jobs []Job, s Settings) (string, error) {
	if len(jobs) == 0 {
		return "", errors.New("no tasks")
	}
	if err := os.MkdirAll(sl.Dir, 0o755); err != nil {
		return "", err
	}
	if err := os.RemoveAll(filepath.Join(sl.Dir, ResultsDir)); err != nil {
		return "", err
	}
	for _, d := range []string{ResultsDir, LogsDir} {
		if err := os.MkdirAll(filepath.Join(sl.Dir, d), 0o755); err != nil {
			return "", err
		}
	}
	// The tasks keep their paths as given: the elements run in this
	// directory (--chdir), so that their rows and messages are those of a
	// local run.
	m := manifest{Settings: s, Chunk: sl.Chunk, Jobs: jobs}
	m.Settings.GoMaxProcs = 0 // the element takes its CPUs from Slurm
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(sl.Dir, JobsFile), append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	// Each element runs Chunk tasks one after the other, each with its
	// time limit and the grace after it, plus a minute to start.
	perTask := s.Timeout + Grace
	if s.Timeout == 0 {
		perTask = 24 * time.Hour
	}
	limit := time.Duration(sl.Chunk)*perTask + time.Minute
	mem := int64(0)
	if s.MaxMemory > 0 {
		mem = (s.MaxMemory + 512<<20 + 1<<20 - 1) >> 20 // the limit, the runtime and the element itself
	}
	var b2 strings.Builder
	fmt.Fprintf(&b2, "#!/bin/sh\n# cbreach suite: %s, %d per array element. Submit with: sbatch %s\n", plural.Count(len(jobs), "task"), sl.Chunk, shellQuote(filepath.Join(sl.Dir, ScriptFile)))
	fmt.Fprintf(&b2, "#SBATCH --job-name=cbreach-suite\n#SBATCH --array=0-%d\n", sl.Elements(len(jobs))-1)
	fmt.Fprintf(&b2, "#SBATCH --time=%s\n", slurmTime(limit))
	if mem > 0 {
		fmt.Fprintf(&b2, "#SBATCH --mem=%dM\n", mem)
	}
	fmt.Fprintf(&b2, "#SBATCH --cpus-per-task=%d\n#SBATCH --ntasks=1\n", sl.CPUs)
	fmt.Fprintf(&b2, "#SBATCH --chdir=%s\n", cwd)
	fmt.Fprintf(&b2, "#SBATCH --output=%s\n#SBATCH --error=%s\n", filepath.Join(sl.Dir, LogsDir, "%a.out"), filepath.Join(sl.Dir, LogsDir, "%a.err"))
	if sl.Partition != "" {
		fmt.Fprintf(&b2, "#SBATCH --partition=%s\n", sl.Partition)
	}
	if a := strings.TrimSpace(sl.Args); a != "" {
		fmt.Fprintf(&b2, "#SBATCH %s\n", a)
	}
	fmt.Fprintf(&b2, "exec %s suite --slurm-element \"$SLURM_ARRAY_TASK_ID\" --slurm-dir %s\n", shellQuote(s.Exe), shellQuote(sl.Dir))
	script := filepath.Join(sl.Dir, ScriptFile)
	return script, os.WriteFile(script, []byte(b2.String()), 0o755)
}

// slurmTime writes a duration as Slurm's days-hours:minutes:seconds,
// rounded up to the minute.
func slurmTime(d time.Duration) string {
	m := int64((d + time.Minute - 1) / time.Minute)
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), m/60%24, m%60)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Submit submits the script with sbatch --parsable and returns the job
// id.
func Submit(ctx context.Context, script string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "sbatch", "--parsable", script)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sbatch: %v%s", err, firstLine(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster"
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch --parsable answered %q, not a job id", out)
	}
	return id, nil
}

// Wait polls squeue until the job has left the queue (no accounting is
// assumed: sacct is not asked). progress, when not nil, is called after
// each poll with the number of result files written so far. When ctx is
// cancelled the job is cancelled with scancel and Wait returns ctx's
// error once it has left the queue (or after a minute).
func (sl *Slurm) Wait(ctx context.Context, id string, n int, progress func(done, queued int)) error {
	poll := sl.Poll
	if poll <= 0 {
		poll = 2 * time.Second
	}
	cancelled := false
	deadline := time.Time{}
	failures := 0
	for {
		var stderr bytes.Buffer
		cmd := exec.Command("squeue", "-h", "-j", id, "-o", "%i %t")
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		lines := strings.Fields(strings.TrimSpace(string(out)))
		switch {
		case err != nil && strings.Contains(stderr.String(), "Invalid job id"):
			lines = nil // gone from the controller's memory
		case err != nil && failures < 10 && !cancelled:
			// The controller may be busy for a moment: ask again.
			failures++
			select {
			case <-time.After(poll):
			case <-ctx.Done():
			}
			continue
		case err != nil:
			return fmt.Errorf("squeue: %v%s", err, firstLine(stderr.String()))
		}
		failures = 0
		if progress != nil {
			progress(sl.countResults(n), len(lines)/2)
		}
		if len(lines) == 0 {
			if cancelled {
				return ctx.Err()
			}
			// A shared filesystem may show the last results a little
			// after the job has left the queue.
			for i := 0; i < 10 && sl.countResults(n) < n && ctx.Err() == nil; i++ {
				time.Sleep(time.Second)
			}
			return nil
		}
		if ctx.Err() != nil && !cancelled {
			cancelled = true
			deadline = time.Now().Add(time.Minute)
			if out, err := exec.Command("scancel", id).CombinedOutput(); err != nil {
				return fmt.Errorf("scancel %s: %v: %s", id, err, out)
			}
		}
		if cancelled && time.Now().After(deadline) {
			return ctx.Err()
		}
		if cancelled {
			time.Sleep(time.Second)
			continue
		}
		select {
		case <-time.After(poll):
		case <-ctx.Done():
		}
	}
}

func (sl *Slurm) resultFile(i int) string {
	return filepath.Join(sl.Dir, ResultsDir, strconv.Itoa(i)+".json")
}

func (sl *Slurm) countResults(n int) int {
	c := 0
	for i := 0; i < n; i++ {
		if _, err := os.Stat(sl.resultFile(i)); err == nil {
			c++
		}
	}
	return c
}

// Collect reads the result of every job: a job without a result file is
// "failed (no result)", or cancelled when the run was interrupted.
func (sl *Slurm) Collect(jobs []Job, interrupted bool) []Row {
	rows := make([]Row, len(jobs))
	for i := range jobs {
		j := &jobs[i]
		b, err := os.ReadFile(sl.resultFile(i))
		var r Row
		if err == nil {
			err = json.Unmarshal(b, &r)
		}
		if err != nil {
			r = NewRow(j.Task, j.Engine, j.Split)
			r.Status, r.Message = StatusFailed, "no result"
			if interrupted {
				r.Status, r.Message = StatusCancelled, ""
			} else if _, serr := os.Stat(sl.resultFile(i)); serr == nil {
				r.Message = "unreadable result: " + err.Error()
			} else {
				r.Message = fmt.Sprintf("no result (array element %d; see %s)", i/sl.Chunk, filepath.Join(sl.Dir, LogsDir, strconv.Itoa(i/sl.Chunk)+".err"))
			}
		}
		r.File = j.Task.File // as the submitting host named it
		rows[i] = r
	}
	return rows
}

// RunElement runs one array element: the tasks of chunk number elem of
// the directory's jobs, one after the other, each writing its result
// file.
func RunElement(ctx context.Context, dir string, elem int, exe string) error {
	b, err := os.ReadFile(filepath.Join(dir, JobsFile))
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("%s: %v", JobsFile, err)
	}
	if m.Chunk < 1 || elem < 0 || elem*m.Chunk >= len(m.Jobs) {
		return fmt.Errorf("array element %d: out of range (%s, %d per element)", elem, plural.Count(len(m.Jobs), "task"), m.Chunk)
	}
	s := m.Settings
	s.Exe = exe
	if n, err := strconv.Atoi(os.Getenv("SLURM_CPUS_PER_TASK")); err == nil && n > 0 {
		s.GoMaxProcs = n
	}
	sl := &Slurm{Dir: dir, Chunk: m.Chunk}
	for i := elem * m.Chunk; i < len(m.Jobs) && i < (elem+1)*m.Chunk; i++ {
		r := Run(ctx, &m.Jobs[i], s)
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return err
		}
		tmp := sl.resultFile(i) + ".tmp"
		if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, sl.resultFile(i)); err != nil {
			return err
		}
	}
	return ctx.Err()
}
