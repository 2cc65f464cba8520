package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/suite"
	"github.com/cbreach/cbreach/pds/plural"
	"github.com/spf13/pflag"
)

// `cbreach suite` runs task definitions (docs/tasks.md): on the local
// cores, each task in a process of its own, or as one Slurm job array.
// The task reader, the runs, the scoring and the tables are in package
// internal/suite.

// Exit status of cbreach suite. When several apply, the status is the
// first of 1 (a wrong verdict), 3 (interrupted), 4 (an internal
// inconsistency) and 2 (a failed task, an output not written).
const (
	suiteOK          = 0 // no verdict is wrong, no task failed
	suiteWrong       = 1 // a verdict is wrong
	suiteUsage       = 2 // bad usage, a malformed task file, an output that cannot be written; or, after the table, a task that failed (status failed)
	suiteInterrupted = 3 // interrupted (Ctrl-C); the finished results are kept
	suiteInternal    = 4 // a task's trace failed its replay (an internal inconsistency), nothing wrong
)

type suiteConfig struct {
	jobs       int
	timeout    time.Duration
	maxMemory  string
	engine     string
	split      string
	json       bool
	csv        string
	md         string
	jsonFile   string
	allowFail  bool
	figures    bool
	slurm      bool
	slurmDir   string
	partition  string
	slurmArgs  string
	chunk      int
	cpus       int
	scriptOnly bool
	poll       time.Duration
	element    int
}

func suiteUsageText(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, `Usage: cbreach suite [flags] FILES-or-DIRS...

Runs task definitions (SV-COMP's format 1.0 or 2.0, docs/tasks.md):
each .yml or .yaml file named, or found under a directory named, is a
program, its properties with the expected verdicts, and optionally
options (SV-COMP's language and data_model; cbreach's engine, split, and
the bound in contexts, rounds or preemptions). Each property with an
expected verdict is one task, one row. Without a bound (SV-COMP's tasks)
the run deepens it (--unbounded): true only with a proof for every
bound, false only with a trace. A property cbreach does not check
(no-data-race, termination, ...), an input no reader reads, or a
construct the reader refuses gives an unknown row, status unsupported.
The tasks run on every core by default, each in a process of its own
under the time and memory limits, or with --slurm as one Slurm job
array. The table of results (task, property, expected and actual
verdict, correct, wrong or unknown, fewest count against the expected
one, wall-clock and CPU time, peak memory), then a table by directory
of task files, goes to standard output as Markdown, or as JSON with
--json; rows are sorted by task file. Scores as SV-COMP: a correct true
+2, a correct false +1, a wrong false -16, a wrong true -32, unknown
and failed 0; a false verdict with the wrong fewest count is wrong.

Examples:
  cbreach suite benchmarks/tasks
  cbreach suite --jobs 1 --timeout 60s --csv results.csv benchmarks/tasks/models
  cbreach suite --slurm --slurm-partition debug benchmarks/tasks

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, `
Exit status: 0 no verdict is wrong and no task failed (unknown and
unsupported rows are not failures), 1 a verdict is
wrong, 2 bad usage, a malformed task file or an output file that cannot
be written (then nothing runs), or a task that failed (status failed,
after every other task ran and the table was printed; not with
--allow-failed), 3 interrupted (the finished results are kept, the
others are cancelled), 4 a task's result failed its internal check.
When several apply, the first of 1, 3, 4, 2 is the status.
`)
}

func runSuite(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	var c suiteConfig
	fs := pflag.NewFlagSet("cbreach suite", pflag.ContinueOnError)
	fs.SortFlags = false
	ncpu := runtime.NumCPU()
	fs.IntVarP(&c.jobs, "jobs", "j", ncpu, "run `N` tasks at a time, each in a process of its own, by default one per core")
	fs.DurationVar(&c.timeout, "timeout", 15*time.Minute, "time limit of each task, a `DURATION`; 0 means none")
	fs.StringVar(&c.maxMemory, "max-memory", "", "memory limit of each task (`SIZE`, e.g. 4GiB); default the machine's memory divided by --jobs (4GiB with --slurm); 0 means none")
	fs.StringVar(&c.engine, "engine", "", "run every task with `ENGINE` "+engines.Names()+", whatever its options say")
	fs.StringVar(&c.split, "split", "", "run every task with `MODE` lazy or eager, whatever its options say")
	fs.BoolVar(&c.json, "json", false, "print the table as one JSON object instead of Markdown")
	fs.StringVar(&c.md, "md", "", "also write the table as Markdown to `FILE`")
	fs.StringVar(&c.csv, "csv", "", "also write the table as CSV to `FILE`")
	fs.StringVar(&c.jsonFile, "json-file", "", "also write the table as JSON to `FILE`")
	fs.BoolVar(&c.allowFail, "allow-failed", false, "tasks that failed (status failed: the program does not parse, cbreach crashed, ...) do not make the exit status 2")
	fs.BoolVar(&c.figures, "figures", false, "add each task's work figures (view tuples, post* calls and steps, states, peak BDD nodes, the analysis time) to its JSON row")
	fs.BoolVar(&c.slurm, "slurm", false, "run the tasks as one Slurm job array (sbatch), wait for it and collect the results")
	fs.StringVar(&c.slurmDir, "slurm-dir", "", "Slurm: the `DIR` of the script, the jobs, the results and the logs, on a filesystem the nodes share (default a new cbreach-slurm-DATE-TIME-N beside the first of --md, --csv, --json-file, or else in $TMPDIR or /tmp)")
	fs.StringVar(&c.partition, "slurm-partition", "", "Slurm: submit to `PARTITION`")
	fs.StringVar(&c.slurmArgs, "slurm-args", "", "Slurm: more sbatch `OPTIONS`, written on one #SBATCH line (e.g. '--account=x --qos=y')")
	fs.IntVar(&c.chunk, "slurm-chunk", 1, "Slurm: `N` tasks per array element, run one after the other")
	fs.IntVar(&c.cpus, "slurm-cpus", 1, "Slurm: `N` CPUs per task (--cpus-per-task; each task's GOMAXPROCS)")
	fs.BoolVar(&c.scriptOnly, "slurm-script-only", false, "Slurm: write the script and its files, print its path, and do not submit it")
	fs.DurationVar(&c.poll, "slurm-poll", 2*time.Second, "Slurm: ask squeue every `DURATION`")
	fs.IntVar(&c.element, "slurm-element", -1, "run array element `N` of --slurm-dir (what the script runs)")
	fs.MarkHidden("slurm-element")
	help := fs.BoolP("help", "h", false, "print this help and exit")
	fs.Usage = func() {}
	wantValues(fs, map[string]string{
		"jobs":          "a whole number of tasks at a time",
		"timeout":       "a duration such as 15m or 90s (0: no limit)",
		"slurm-chunk":   "a whole number of tasks",
		"slurm-cpus":    "a whole number of CPUs",
		"slurm-poll":    "a duration such as 2s",
		"slurm-element": "a whole number",
	})
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "cbreach suite: %v\nRun 'cbreach suite -h' for usage.\n", flagProblem(err, args))
		return suiteUsage
	}
	if *help {
		suiteUsageText(stdout, fs)
		return suiteOK
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "cbreach suite: cannot find the cbreach binary: %v\n", err)
		return suiteUsage
	}
	if c.element >= 0 {
		if c.slurmDir == "" {
			fmt.Fprintln(stderr, "cbreach suite: --slurm-element needs --slurm-dir")
			return suiteUsage
		}
		if err := suite.RunElement(ctx, c.slurmDir, c.element, exe); err != nil {
			fmt.Fprintf(stderr, "cbreach suite: %v\n", err)
			return suiteInterrupted
		}
		return suiteOK
	}
	if err := checkSuiteFlags(&c, fs); err != nil {
		fmt.Fprintf(stderr, "cbreach suite: %v\nRun 'cbreach suite -h' for usage.\n", err)
		return suiteUsage
	}
	// The files the table goes to are opened before any task runs, so
	// that one that cannot be written stops the suite at once.
	outs, err := openOutputs(&c)
	if err != nil {
		fmt.Fprintf(stderr, "cbreach suite: %v\n", err)
		return suiteUsage
	}
	defer discardOutputs(outs) // those the suite stops before writing
	s := suite.Settings{Exe: exe, Engine: c.engine, Split: c.split, Timeout: c.timeout, Figures: c.figures}
	if c.maxMemory == "" {
		s.MaxMemory = defaultSuiteMemory(c.jobs, c.slurm)
	} else if s.MaxMemory, err = parseSize(c.maxMemory); err != nil {
		fmt.Fprintf(stderr, "cbreach suite: --max-memory: %v\n", err)
		return suiteUsage
	}
	// The jobs share the cores.
	s.GoMaxProcs = max(1, ncpu/c.jobs)

	files, err := suite.Collect(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "cbreach suite: %v\n", err)
		return suiteUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "cbreach suite: no task files (.yml, .yaml) in %s\n", strings.Join(fs.Args(), " "))
		return suiteUsage
	}
	jobs := make([]suite.Job, 0, len(files))
	bad := 0
	for _, f := range files {
		tasks, warnings, err := suite.ReadFile(f)
		for _, w := range warnings {
			fmt.Fprintln(stderr, w)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			continue
		}
		for _, t := range tasks {
			jobs = append(jobs, suite.Prepare(t, s))
		}
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "cbreach suite: %s; nothing was run\n", plural.Count(bad, "malformed task file"))
		return suiteUsage
	}

	var rows []suite.Row
	interrupted := false
	if c.slurm {
		var code int
		rows, code = runSlurm(ctx, &c, jobs, s, stdout, stderr, tty)
		if rows == nil {
			return code
		}
		interrupted = code == suiteInterrupted
	} else {
		var onProgress func(suite.Progress)
		var mu sync.Mutex
		if tty {
			onProgress = func(p suite.Progress) {
				mu.Lock()
				defer mu.Unlock()
				fmt.Fprintf(stderr, "\r\033[Kcbreach suite: %s", p)
			}
		}
		rows = suite.RunLocal(ctx, jobs, s, c.jobs, onProgress)
		if tty {
			fmt.Fprint(stderr, "\r\033[K")
		}
		interrupted = ctx.Err() != nil
	}
	return finishSuite(&c, outs, rows, interrupted, stdout, stderr)
}

// checkSuiteFlags checks the flags that do not need the tasks.
func checkSuiteFlags(c *suiteConfig, fs *pflag.FlagSet) error {
	switch {
	case fs.NArg() == 0:
		return fmt.Errorf("no task files or directories")
	case c.jobs < 1:
		return fmt.Errorf("--jobs: need at least 1, got %d", c.jobs)
	case c.timeout < 0:
		return fmt.Errorf("--timeout: need 0 or more, got %s", c.timeout)
	case c.engine != "" && !known(c.engine):
		return fmt.Errorf("--engine: want %s, got %q", engines.Names(), c.engine)
	case c.split != "" && c.split != "lazy" && c.split != "eager":
		return fmt.Errorf("--split: want lazy or eager, got %q", c.split)
	case c.chunk < 1:
		return fmt.Errorf("--slurm-chunk: need at least 1, got %d", c.chunk)
	case c.cpus < 1:
		return fmt.Errorf("--slurm-cpus: need at least 1, got %d", c.cpus)
	case c.poll <= 0:
		return fmt.Errorf("--slurm-poll: need a positive duration, got %s", c.poll)
	}
	if !c.slurm {
		for _, f := range []string{"slurm-dir", "slurm-partition", "slurm-args", "slurm-chunk", "slurm-cpus", "slurm-script-only", "slurm-poll"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s goes with --slurm", f)
			}
		}
	} else if fs.Changed("jobs") {
		return fmt.Errorf("--jobs does not go with --slurm: the cluster runs as many tasks at a time as it has room for (--slurm-chunk groups tasks)")
	}
	if c.scriptOnly {
		for _, f := range []string{"json", "md", "csv", "json-file"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s does not go with --slurm-script-only, which runs nothing", f)
			}
		}
	}
	return nil
}

// defaultSuiteMemory is each task's share of the machine's memory, or
// 4GiB for a cluster (whose nodes are not this machine).
func defaultSuiteMemory(jobs int, slurm bool) int64 {
	if slurm {
		return 4 << 30
	}
	total, err := parseSize(defaultMemory()) // three quarters of the memory
	if err != nil {
		return 4 << 30
	}
	return total * 4 / 3 / int64(jobs)
}

// slurmDir is the absolute path of a Slurm run's directory: --slurm-dir
// when given; or else a new directory cbreach-slurm-DATE-TIME-N (made
// here, N making it new) beside the first of the --md, --csv and
// --json-file files, which is where the user keeps this run's results;
// or else in the system's temporary directory ($TMPDIR, or /tmp). On a
// cluster of several nodes the directory must be on a filesystem the
// nodes share, which /tmp seldom is: the documentation says to give
// --slurm-dir or an output file there.
func slurmDir(c *suiteConfig, now time.Time) (string, error) {
	if c.slurmDir != "" {
		return filepath.Abs(c.slurmDir)
	}
	parent := os.TempDir()
	for _, f := range []string{c.md, c.csv, c.jsonFile} {
		if f != "" {
			parent = filepath.Dir(f)
			break
		}
	}
	dir, err := os.MkdirTemp(parent, "cbreach-slurm-"+now.Format("20060102-150405")+"-")
	if err != nil {
		return "", err
	}
	return filepath.Abs(dir)
}

// runSlurm writes the script, submits it, waits and collects the rows; it
// returns nil rows and an exit status when there is nothing to show.
func runSlurm(ctx context.Context, c *suiteConfig, jobs []suite.Job, s suite.Settings, stdout, stderr io.Writer, tty bool) ([]suite.Row, int) {
	dir, err := slurmDir(c, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "cbreach suite: the Slurm directory: %v\n", err)
		return nil, suiteUsage
	}
	sl := &suite.Slurm{Dir: dir, Partition: c.partition, Args: c.slurmArgs, Chunk: c.chunk, CPUs: c.cpus, Poll: c.poll}
	script, err := sl.WriteScript(jobs, s)
	if err != nil {
		fmt.Fprintf(stderr, "cbreach suite: writing the Slurm script: %v\n", err)
		return nil, suiteUsage
	}
	if c.scriptOnly {
		fmt.Fprintln(stdout, script)
		return nil, suiteOK
	}
	fmt.Fprintf(stderr, "cbreach suite: Slurm directory %s (the script, jobs.json, results/, and logs/ with each array element's output)\n", dir)
	id, err := suite.Submit(ctx, script)
	if err != nil {
		fmt.Fprintf(stderr, "cbreach suite: %v\n", err)
		return nil, suiteUsage
	}
	fmt.Fprintf(stderr, "cbreach suite: submitted job %s (%s, %s); script %s\n", id, plural.Count(sl.Elements(len(jobs)), "array element"), plural.Count(len(jobs), "task"), script)
	var progress func(done, queued int)
	if tty {
		progress = func(done, queued int) {
			fmt.Fprintf(stderr, "\r\033[Kcbreach suite: job %s: %d done, %d remaining, %s in the queue", id, done, len(jobs)-done, plural.Count(queued, "array element"))
		}
	}
	err = sl.Wait(ctx, id, len(jobs), progress)
	if tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	code := suiteOK
	if err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "cbreach suite: %v\n", err)
		}
		code = suiteInterrupted
	}
	return sl.Collect(jobs, ctx.Err() != nil), code
}

// finishSuite writes the tables and says the exit status.
func finishSuite(c *suiteConfig, outs []*output, rows []suite.Row, interrupted bool, stdout, stderr io.Writer) int {
	code := suiteOK
	for _, o := range outs {
		if err := o.finish(rows); err != nil {
			fmt.Fprintf(stderr, "cbreach suite: %v\n", err)
			code = suiteUsage
		}
	}
	if c.json {
		suite.WriteJSON(stdout, rows)
	} else {
		suite.WriteMarkdown(stdout, rows)
	}
	sum := suite.Summarize(rows)
	if c.json {
		fmt.Fprintln(stderr, "cbreach suite:", sum)
	}
	internal := false
	for _, r := range rows {
		if r.Status == suite.StatusFailed && strings.HasPrefix(r.Message, "internal inconsistency") {
			internal = true
		}
	}
	if sum.Failed > 0 {
		fmt.Fprintf(stderr, "cbreach suite: %d of %s failed (status failed; the message says why)\n", sum.Failed, plural.Count(len(rows), "task"))
	}
	switch {
	case sum.Wrong() > 0:
		return suiteWrong
	case interrupted:
		return suiteInterrupted
	case internal:
		return suiteInternal
	case sum.Failed > 0 && !c.allowFail:
		return suiteUsage
	}
	return code
}

// output is a file the table goes to (--md, --csv, --json-file). It is
// opened when the suite starts, before any task runs, and written when
// the tasks are done.
type output struct {
	flag, path string
	write      func(io.Writer, []suite.Row) error
	f          *os.File
	made       bool // the file did not exist before: removed if the suite stops before writing it
}

// openOutputs opens the files of --md, --csv and --json-file. A file
// that cannot be created or written is an error naming its flag, its
// path and the system's reason; the files opened before it are then
// discarded.
func openOutputs(c *suiteConfig) ([]*output, error) {
	var outs []*output
	for _, o := range []*output{
		{flag: "md", path: c.md, write: suite.WriteMarkdown},
		{flag: "csv", path: c.csv, write: suite.WriteCSV},
		{flag: "json-file", path: c.jsonFile, write: suite.WriteJSON},
	} {
		if o.path == "" {
			continue
		}
		if err := o.open(); err != nil {
			discardOutputs(outs)
			return nil, err
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// open opens the file for writing, creating it when it does not exist,
// and leaves an existing file's contents alone until finish.
func (o *output) open() error {
	f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	o.made = err == nil
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(o.path, os.O_WRONLY, 0)
		if errors.Is(err, fs.ErrNotExist) { // a symbolic link to a file yet to be made
			f, err = os.OpenFile(o.path, os.O_WRONLY|os.O_CREATE, 0o666)
		}
	}
	if err != nil {
		return o.errorf(err)
	}
	o.f = f
	return nil
}

func (o *output) errorf(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("--%s: cannot write %s: %v", o.flag, o.path, err)
}

// finish writes the table into the file, in place of what it held, and
// closes it.
func (o *output) finish(rows []suite.Row) error {
	f := o.f
	o.f = nil
	var err error
	if st, serr := f.Stat(); serr == nil && st.Mode().IsRegular() {
		err = f.Truncate(0) // nothing was written through f: its offset is 0
	}
	if err == nil {
		err = o.write(f, rows)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return o.errorf(err)
	}
	return nil
}

// discardOutputs closes the files not written yet, and removes those that
// the suite made.
func discardOutputs(outs []*output) {
	for _, o := range outs {
		if o.f == nil {
			continue
		}
		o.f.Close()
		o.f = nil
		if o.made {
			os.Remove(o.path)
		}
	}
}

// known reports whether the table has an engine of that name.
func known(name string) bool {
	_, err := engines.Lookup(name)
	return err == nil
}
