package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/frontend/readers"
)

// Settings are what every task of a run shares: the binary, the
// command's overrides and the per-task limits.
type Settings struct {
	Exe        string        `json:"exe"`        // the cbreach binary each task runs in
	Engine     string        `json:"engine"`     // --engine for every task; "" keeps each task's
	Split      string        `json:"split"`      // --split for every task; "" keeps each task's
	Timeout    time.Duration `json:"timeout"`    // per task; 0 is none
	MaxMemory  int64         `json:"max_memory"` // bytes per task; 0 is none
	GoMaxProcs int           `json:"gomaxprocs"` // GOMAXPROCS of each task; 0 leaves it
	// Figures adds each run's work figures to its row (Row.Figures), with
	// the peak BDD nodes (cbreach --stats).
	Figures bool `json:"figures,omitempty"`
}

// Grace is how long past its time limit a task may take to stop by
// itself (cbreach keeps its limits within about a second) before it is
// interrupted, and then killed.
const Grace = 30 * time.Second

// Job is a task with the engine and split it runs with.
type Job struct {
	Task   *Task  `json:"task"`
	Engine string `json:"engine"`
	Split  string `json:"split"` // "" for the explicit engine
	Err    string `json:"error,omitempty"`
}

// Prepare applies the command's overrides to a task and checks that its
// bound fits the engine; a task that does not fit keeps its error, to be
// reported in its row.
func Prepare(t *Task, s Settings) Job {
	j := Job{Task: t, Engine: t.Engine, Split: t.Split}
	if s.Engine != "" {
		j.Engine = s.Engine
	}
	if s.Split != "" {
		j.Split = s.Split
	}
	if t.Skip == "" {
		j.Err = Check(j.Engine, j.Split, t)
	}
	if j.Split == "" && j.Engine != "explicit" {
		j.Split = "lazy"
	}
	return j
}

// Args is the command line of the task's run (without the binary).
func (j *Job) Args(s Settings) []string {
	t := j.Task
	args := []string{"--json", "--engine", j.Engine}
	if t.Unbounded {
		args = append(args, "--unbounded")
	} else {
		args = append(args, "-k", strconv.Itoa(t.Bound))
	}
	if t.Unit == Preemptions {
		args = append(args, "--count", "preemptions")
	}
	if j.Split != "" {
		args = append(args, "--split", j.Split)
	}
	if s.Timeout > 0 {
		args = append(args, "--timeout", s.Timeout.String())
	}
	args = append(args, "--max-memory", strconv.FormatInt(s.MaxMemory, 10)+"B")
	if s.Figures {
		args = append(args, "--stats")
	}
	m := t.More
	if m.All {
		args = append(args, "--all")
	}
	if m.Prune != "" {
		args = append(args, "--prune", m.Prune)
	}
	if m.MaxTuples != nil {
		args = append(args, "--max-tuples", strconv.Itoa(*m.MaxTuples))
	}
	if m.NoTraces {
		args = append(args, "--no-trace")
	}
	if m.MaxThreads > 0 {
		args = append(args, "--max-threads", strconv.Itoa(m.MaxThreads))
	}
	if t.DataModel != "" {
		args = append(args, "--data-model", t.DataModel)
	}
	return append(append(args, readerArgs(t)...), "--", t.Input)
}

// readerArgs are the flags that read the task's input as its kind says:
// the reader's own flag (--format NAME when it has none), but for the
// first row of the table, which reads what no flag names; then the files
// that go with the input, in the reader's order (--init, --target).
func readerArgs(t *Task) []string {
	rd, err := readers.Lookup(t.Kind)
	if err != nil {
		panic(fmt.Sprintf("suite: task %s of kind %q, which no reader reads", t.File, t.Kind)) // tasks are read by Parse
	}
	var args []string
	if rd != readers.All[0] {
		args = strings.Fields(rd.Flags())
	}
	for _, c := range rd.Companions {
		if f := t.Files[c.Flag]; f != "" {
			args = append(args, "--"+c.Flag, f)
		}
	}
	return args
}

// Run runs one job in a process of its own and returns its row. When ctx
// is cancelled the process is interrupted and the row is cancelled,
// unless it finished with a verdict. A task cbreach does not check (its
// Skip) is not run: its row is unknown, status unsupported.
func Run(ctx context.Context, j *Job, s Settings) Row {
	row := NewRow(j.Task, j.Engine, j.Split)
	if j.Task.Skip != "" {
		row.Status, row.Message = StatusUnsupported, j.Task.Skip
		return row
	}
	if j.Err != "" {
		row.Status, row.Message = StatusFailed, j.Err
		return row
	}
	if ctx.Err() != nil {
		row.Status = StatusCancelled
		return row
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if s.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, s.Timeout+Grace)
	}
	defer cancel()
	cmd := exec.CommandContext(runCtx, s.Exe, j.Args(s)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Env = os.Environ()
	if s.GoMaxProcs > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(s.GoMaxProcs))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	row.TimeS = time.Since(start).Seconds()
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			row.PeakMiB = float64(ru.Maxrss) / 1024 // kilobytes on Linux
		}
		row.CPUS = (st.UserTime() + st.SystemTime()).Seconds()
	}
	// The exit status decides, even when the run was interrupted: a
	// verdict that came in time stands.
	code := 0
	switch st := cmd.ProcessState; {
	case st != nil && st.Exited():
		code = st.ExitCode()
	case ctx.Err() != nil:
		row.Status = StatusCancelled
		return row
	case runCtx.Err() != nil:
		row.Status, row.Message = StatusTimeout, fmt.Sprintf("did not stop within %s of its time limit", Grace)
		return row
	default:
		row.Status, row.Message = StatusFailed, fmt.Sprintf("%v%s", err, firstLine(stderr.String()))
		return row
	}
	switch code {
	case 0, 1, 3:
	case 2:
		row.Status, row.Message = StatusFailed, "cbreach refused the task"+firstLine(stderr.String())
		return row
	case 4:
		row.Status, row.Message = StatusFailed, "internal inconsistency"+firstLine(stderr.String())
		return row
	default:
		row.Status, row.Message = StatusFailed, fmt.Sprintf("exit status %d%s", code, firstLine(stderr.String()))
		return row
	}
	var out schema.Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		row.Status, row.Message = StatusFailed, "cannot read cbreach's JSON: "+err.Error()
		return row
	}
	row.Status = StatusDone
	if s.Figures {
		row.Figures = figures(&out)
	}
	if j.Task.Unbounded {
		row.Bound = out.Bound // how far the run deepened
	}
	switch out.Verdict {
	case "safe":
		row.Verdict = VerdictTrue
		if why := unproved(j.Task, &out); why != "" {
			row.Verdict, row.Message = VerdictUnknown, why
		}
	case "violation":
		row.Verdict = VerdictFalse
		row.Fewest = out.Fewest
		if why := untraced(j.Task, &out); why != "" {
			row.Verdict, row.Fewest, row.Message = VerdictUnknown, nil, why
		}
	case "unknown":
		row.Message = out.Reason
		switch {
		case strings.HasPrefix(out.Reason, "time limit"):
			row.Status = StatusTimeout
		case strings.HasPrefix(out.Reason, "memory limit"):
			row.Status = StatusMemory
		case strings.HasPrefix(out.Reason, "cancelled"):
			row.Status = StatusCancelled
		case unsupportedRE.MatchString(out.Reason):
			row.Status = StatusUnsupported
		}
	default:
		row.Status, row.Message = StatusFailed, fmt.Sprintf("cbreach answered %q", out.Verdict)
	}
	if row.Status == StatusCancelled && ctx.Err() == nil && runCtx.Err() != nil {
		// Interrupted by the suite, past its time limit and the grace.
		row.Status, row.Message = StatusTimeout, fmt.Sprintf("did not stop within %s of its time limit", Grace)
	}
	row.Judge()
	return row
}

// unsupportedRE matches the reason of an unknown answer for a construct
// the reader refused (diag.Unsupported: "FILE:LINE:COL: not supported:
// WHAT", or without a position).
var unsupportedRE = regexp.MustCompile(`(^|: )not supported: `)

// unproved says why a safe answer is not the verdict true, or "" when it
// is: a task that needs a proof for every bound (Task.NeedsProof) is
// true only when cbreach proved convergence (the reachable
// configurations or visible states stopped growing) for every number of
// threads the program can start; safety within a bound, or for a thread
// bound the program exceeds, is not a proof.
func unproved(t *Task, out *schema.Output) string {
	switch {
	case !t.NeedsProof():
		return ""
	case out.CompleteThreads != nil:
		return fmt.Sprintf("safe for at most %d threads only: the program can start more", *out.CompleteThreads)
	case out.Convergence == nil:
		return fmt.Sprintf("safe within %d %s, not proved for every bound", out.Bound, out.Unit)
	}
	return ""
}

// untraced says why a violation is not the verdict false, or "" when it
// is: false needs a violation with a trace (replayed by cbreach on the
// explicit semantics), unless the task turned traces off (traces: false,
// for experiments that measure the engines) and asks for safety within
// a bound; SV-COMP's unreach-call always needs one.
func untraced(t *Task, out *schema.Output) string {
	if t.More.NoTraces && !t.NeedsProof() {
		return ""
	}
	why := ""
	for _, v := range out.Violations {
		if v.Trace != nil {
			return ""
		}
		if why == "" && v.TraceError != "" {
			why = ": " + v.TraceError
		}
	}
	if t.More.NoTraces {
		return "a violation without a trace (traces: false): not a verdict for " + t.PropertyFile
	}
	return "a violation without a trace" + why
}

// figures are the work figures of cbreach's JSON.
func figures(out *schema.Output) *Figures {
	st := out.Stats
	f := &Figures{Reason: out.Reason, Complete: out.Complete, AnalysisS: st.TimeSeconds, ViewTuples: out.ViewTuples, States: out.States,
		PostStarSteps: st.PostStarSteps, PeakNodes: st.PeakNodes, Kernel: st.Kernel}
	// The engines' own figures, by the names their JSON gives them.
	var calls int
	if st.Figure("postStarCalls", &calls) {
		f.PostStarCalls = &calls
	}
	st.Figure("tuplesPerLevel", &f.TuplesPerLevel)
	st.Figure("threads", &f.Threads)
	return f
}

// firstLine is ": " and the first line of a message, or "".
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return ""
	}
	return ": " + strings.TrimPrefix(s, "cbreach: ")
}

// Progress is the state of a run, for the progress line.
type Progress struct {
	Done, Running, Remaining, Wrong int
}

func (p Progress) String() string {
	return fmt.Sprintf("%d done, %d running, %d remaining, %d wrong", p.Done, p.Running, p.Remaining, p.Wrong)
}

// RunLocal runs the jobs on n workers, each job in a process of its own,
// and returns their rows in the order of the jobs. onProgress, when not
// nil, is called (from one goroutine at a time) whenever a job starts or
// ends. Cancelling ctx interrupts the running jobs; those not started are
// cancelled.
func RunLocal(ctx context.Context, jobs []Job, s Settings, n int, onProgress func(Progress)) []Row {
	if n < 1 {
		n = 1
	}
	rows := make([]Row, len(jobs))
	var mu sync.Mutex
	p := Progress{Remaining: len(jobs)}
	report := func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
		if onProgress != nil {
			onProgress(p)
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				report(func() { p.Remaining--; p.Running++ })
				r := Run(ctx, &jobs[i], s)
				report(func() {
					rows[i] = r
					p.Running--
					p.Done++
					if r.Correct != nil && !*r.Correct {
						p.Wrong++
					}
				})
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			rows[i] = NewRow(jobs[i].Task, jobs[i].Engine, jobs[i].Split)
			rows[i].Status = StatusCancelled
			continue
		}
		select {
		case next <- i:
		case <-ctx.Done():
			rows[i] = NewRow(jobs[i].Task, jobs[i].Engine, jobs[i].Split)
			rows[i].Status = StatusCancelled
		}
	}
	close(next)
	wg.Wait()
	return rows
}
