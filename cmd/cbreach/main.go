// Command cbreach checks a concurrent program with recursive procedures
// for errors reachable within a bound on the number of contexts (maximal
// runs of one thread).
//
//	cbreach [flags] FILE.pds
//	cbreach [flags] [--bp] FILE.bp
//	cbreach [flags] --cuba SYSTEM.pds [--init SYSTEM.init] [--target SYSTEM.spec | --target 'q|t0,t1']
//
// Exit status: 0 no violation within the bound, 1 violation, 2 bad input
// or usage, 3 unknown (a time, memory, node or thread limit, or Ctrl-C,
// cut the search off), 4 an internal error (a bug: never a limit, never
// bad input) or, with --self-check, the engines disagree.
//
// The command is laid out by concern: main.go the flags and the run,
// input.go reading the program (.pds or CUBA), output.go the verdict in
// text and JSON, engines.go the choice of engine and the explicit
// engine's flags, selfcheck.go --self-check.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engine"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/spf13/pflag"
)

// version is the release of the command.
const version = "0.2.0"

const (
	exitSafe      = 0
	exitViolation = 1
	exitUsage     = 2
	exitUnknown   = 3
	exitInternal  = 4 // an internal error; --self-check's disagreement (exitDisagree) too
)

// engineHook, when set (by tests), may replace each engine's result and
// error, in a run and in --self-check, before they are reported: the way
// to show what an internal error of an engine gives.
var engineHook func(engine string, r *cbr.Result, err error) (*cbr.Result, error)

// hooked returns what applies engineHook to the answer of an engine.
func hooked(engine string) func(*cbr.Result, error) (*cbr.Result, error) {
	return func(r *cbr.Result, err error) (*cbr.Result, error) {
		if engineHook == nil {
			return r, err
		}
		return engineHook(engine, r, err)
	}
}

// isInternal reports whether an error that is not a limit is an internal
// error (a bug) rather than bad input: the readers and engines say so in
// their messages ("internal error", "(a bug)").
func isInternal(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "internal error") || strings.Contains(msg, "(a bug)")
}

func main() {
	// Ctrl-C and SIGTERM cancel the run, which then reports what it
	// covered, as a time limit does, building the traces of the
	// violations it found for up to engine.GraceTime more; a second one
	// stops that at once (the hard stop).
	hard, hardStop := context.WithCancel(context.Background())
	ctx, stop := context.WithCancel(hard)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		stop()
		<-sigs
		hardStop()
	}()
	code := run(engine.WithHardStop(ctx, hard), os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr))
	signal.Stop(sigs)
	stop()
	hardStop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

type config struct {
	contexts   int
	split      string
	prune      string
	noDedup    bool
	all        bool
	maxThreads int
	timeout    time.Duration
	maxNodes   int
	maxMemory  string
	maxTuples  int
	json       bool
	stats      bool
	printRules bool
	quiet      bool
	version    bool
	cuba       bool
	bp         bool
	init       string
	target     string
	reachTops  bool
	perBound   bool
	unbounded  bool
	count      string
	unit       cbr.Unit // count parsed

	engine engineFlags // --engine and the explicit engine's flags (engines.go)
	trace  traceFlags  // --trace, --no-trace (trace.go)

	cpuProfile string // --cpuprofile FILE

	memory int64 // maxMemory parsed
	stdin  io.Reader
}

// longFlags are the names that may be written with a single dash.
var longFlags = []string{"contexts", "split", "prune", "all", "max-threads", "timeout", "max-nodes", "max-memory", "max-tuples",
	"json", "stats", "print-rules", "version", "help", "cuba", "bp", "init", "target", "reach-tops", "per-bound", "unbounded", "no-dedup", "cpuprofile", "count"}

// normalizeArgs turns "-split" into "--split" (and "-split=lazy" into
// "--split=lazy") for the long flag names, so that the usage of the
// paper's tool, "cbreach -k 4 -split lazy FILE", works: pflag alone would
// read -split as five one-letter flags.
func normalizeArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 2 {
			name, _, _ := strings.Cut(a[1:], "=")
			for _, f := range longFlags {
				if name == f {
					a = "-" + a
					break
				}
			}
		}
		out = append(out, a)
	}
	return out
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, `Usage: cbreach [flags] FILE.pds
       cbreach [flags] [--bp] FILE.bp
       cbreach [flags] --cuba SYSTEM.pds [--init SYSTEM.init] [--target SPEC]
       cbreach suite [flags] TASKS-or-DIRS...   (cbreach suite -h)

cbreach finds errors (failed assertions, indices out of range) that a
concurrent program can reach within a bound on the number of contexts, a
context being a maximal run of one thread (k contexts = k-1 switches).
It reports the fewest contexts that expose each error. FILE "-" reads
standard input.

Examples:
  cbreach -k 5 -split lazy examples/bluetooth.pds
  cbreach --json --all examples/bluetooth.pds
  cbreach -k 7 --cuba Bluetooth1-11.pds    (reads Bluetooth1-11.init and .spec beside it)

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, `
Flags marked "explicit engine" apply to --engine explicit only; --prune,
--no-dedup, --max-tuples and --reach-tops to --engine cbr only; --split
to cbr (view tuple splitting) and seq (the reduction's form).

Exit status: 0 no violation within the bound, 1 violation, 2 bad input or
usage, 3 unknown (a time, memory, BDD node, view tuple or thread limit, or
Ctrl-C, cut the search off; what was covered is printed), 4 an internal
error (a bug, never a limit: e.g. a trace failed its replay on the
explicit semantics). --self-check: 0 or 1 when the engines agree, 3 when
one was cut off by a limit and the others agree, 4 when they disagree or
one failed with an internal error.
`)
}

// stdin is what the input file "-" reads (tests replace it).
var stdin io.Reader = os.Stdin

func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	if len(args) > 0 && args[0] == "suite" {
		return runSuite(ctx, args[1:], stdout, stderr, tty) // suite.go
	}
	c := config{stdin: stdin}
	fs := pflag.NewFlagSet("cbreach", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.IntVarP(&c.contexts, "contexts", "k", cbr.DefaultContexts, "the bound: explore runs of at most `N` contexts (or preemptions, with --count preemptions)")
	fs.StringVar(&c.count, "count", "contexts", "what the bound counts, `UNIT` contexts or preemptions (switches away from a thread that could still move; the first context and switches away from a blocked or finished thread are free)")
	fs.StringVar(&c.split, "split", "lazy", "`MODE` lazy or eager: view tuple splitting (cbr), the sequential reduction's form (seq)")
	fs.StringVar(&c.prune, "prune", "subsumed", "leave out new view tuples covered by kept ones, `MODE` subsumed, identical or none (exact in every mode)")
	fs.BoolVar(&c.noDedup, "no-dedup", false, "same as --prune none: the jMoped paper's counting of view tuples (slower)")
	fs.BoolVar(&c.all, "all", false, "explore the whole bound and report every violation site")
	fs.IntVar(&c.maxThreads, "max-threads", 0, fmt.Sprintf("thread bound for a program that can start unboundedly many threads (a start under a loop or in recursion): at most `N` threads, the initial ones and those started inside procedures (default %d); a program with a finite number of starts gets exactly the threads it can have, unless N is lower", pds.DefaultMaxThreads))
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 30s, 5m); 0 means no limit")
	fs.IntVar(&c.maxNodes, "max-nodes", 0, "give up when more than `N` live BDD nodes are needed; 0 means no limit")
	fs.StringVar(&c.maxMemory, "max-memory", defaultMemory(), "give up when the process holds more than `SIZE` of memory (e.g. 4GiB, 512MiB); 0 means no limit")
	fs.IntVar(&c.maxTuples, "max-tuples", 1<<16, "eager splitting: refuse a split into more than `N` view tuples; 0 means no limit")
	fs.BoolVar(&c.json, "json", false, "print the result as one JSON object")
	fs.BoolVar(&c.stats, "stats", false, "print the full statistics")
	fs.BoolVar(&c.printRules, "print-rules", false, "compile and print the pushdown network, do not analyze")
	fs.BoolVarP(&c.quiet, "quiet", "q", false, "print only the verdict line")
	fs.BoolVar(&c.cuba, "cuba", false, "the input is a CUBA concurrent pushdown system (.pds with .init)")
	fs.BoolVar(&c.bp, "bp", false, "the input is a concurrent Boolean program (Boppo or Getafix dialect; the default for .bp files)")
	fs.StringVar(&c.init, "init", "", "CUBA: the initial configuration `FILE` (default: FILE.init beside the .pds)")
	fs.StringVar(&c.target, "target", "", "CUBA: the target visible state, a .spec `FILE` or inline 'q|t0,t1,...' (default: FILE.spec beside the .pds, if present)")
	fs.BoolVar(&c.unbounded, "unbounded", false, "deepen the bound until the reachable configurations stop growing (or a violation, or a limit)")
	fs.BoolVar(&c.perBound, "per-bound", false, "explore the whole bound and report, per number of contexts, the new view tuples, the reachable visible states (globals and stack tops) and the time")
	fs.BoolVar(&c.reachTops, "reach-tops", false, "same as --per-bound")
	fs.BoolVar(&c.trace.full, "trace", false, "print every step of each violation's trace, with the statements, globals and stacks")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	fs.BoolVar(&c.trace.off, "no-trace", false, "do not build traces (they keep the view tuples of the search alive and cost a post* per context)")
	addEngineFlags(fs, &c.engine)
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	help := fs.BoolP("help", "h", false, "print this help and exit")
	fs.Usage = func() {}
	if err := fs.Parse(normalizeArgs(args)); err != nil {
		fmt.Fprintf(stderr, "cbreach: %v\nRun 'cbreach -h' for usage.\n", err)
		return exitUsage
	}
	switch {
	case *help:
		usage(stdout, fs)
		return exitSafe
	case c.version:
		fmt.Fprintf(stdout, "cbreach %s (BDDs: rudd fork, %s node table)\n", version, bdd.Kernel)
		return exitSafe
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "cbreach: need exactly one input file, got %d\nRun 'cbreach -h' for usage.\n", fs.NArg())
		return exitUsage
	}
	opts, err := options(&c, fs)
	if err == nil {
		err = checkEngine(&c, fs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cbreach: %v\n", err)
		return exitUsage
	}
	if c.memory > 0 {
		// The Go runtime collects harder as the limit nears; the
		// analysis stops when it is passed.
		debug.SetMemoryLimit(c.memory)
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}

	if c.cpuProfile != "" {
		f, err := os.Create(c.cpuProfile)
		if err == nil {
			if err = pprof.StartCPUProfile(f); err != nil {
				f.Close()
				os.Remove(c.cpuProfile)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "cbreach: --cpuprofile: %v\n", err)
			return exitUsage
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	file := fs.Arg(0)
	in, err := load(ctx, file, &c)
	if err != nil {
		if bdd.IsLimit(err) {
			// A limit while compiling: nothing was analysed.
			r := &cbr.Result{Verdict: cbr.Unknown, Bound: c.contexts, Unit: c.unit, Complete: -1, Converged: -1, Limit: err, Reason: limitWords(err) + " while compiling " + file,
				Stats: cbr.Stats{TuplesPerLevel: make([]int, c.contexts+1)}}
			if c.engine.name == seq.Name {
				reportSeq(stdout, in, &c, r)
				return exitUnknown
			}
			report(stdout, in, &c, opts.Split, r, nil)
			return exitUnknown
		}
		fmt.Fprintln(stderr, err)
		if isInternal(err) {
			return exitInternal
		}
		return exitUsage
	}
	if c.printRules {
		print := func() error { return in.net.Print(stdout) }
		if c.engine.name == seq.Name {
			print = func() error { return printSeq(ctx, stdout, in.net, &c) }
		}
		if err := print(); err != nil {
			fmt.Fprintf(stderr, "cbreach: %v\n", err)
			switch {
			case bdd.IsLimit(err):
				return exitUnknown
			case isInternal(err):
				return exitInternal
			}
			return exitUsage
		}
		return exitSafe
	}
	if in.cuba && len(in.targets) == 0 && !c.perBound && !c.unbounded {
		fmt.Fprintf(stderr, "cbreach: %s has no target: no .spec beside it and no --target. Give one with --target, count the reachable visible states with --per-bound, or look for convergence with --unbounded\n", file)
		return exitUsage
	}
	opts.Targets = in.targets
	if c.engine.name == seq.Name {
		if err := checkSeq(&c, &opts, len(in.targets) > 0); err != nil {
			fmt.Fprintf(stderr, "cbreach: %v\n", err)
			return exitUsage
		}
	}
	if c.engine.selfCheck {
		return selfCheck(ctx, stdout, in.net, &c, opts)
	}
	if tty && !c.json && !c.quiet {
		opts.OnProgress = progress(stderr, opts.Count)
		if c.engine.name == "explicit" {
			opts.OnProgress = explicitProgress(stderr, opts.Count)
		}
		if c.engine.name == seq.Name {
			opts.OnProgress = seqProgress(stderr)
		}
	}
	var res *cbr.Result
	var counts []int
	if c.perBound {
		counts, res, err = cbr.VisibleStates(ctx, in.net, opts)
	} else if c.engine.name == "explicit" {
		res, err = runExplicit(ctx, in.net, &c, opts)
	} else if c.engine.name == seq.Name {
		res, err = runSeq(ctx, in.net, &c, opts)
	} else {
		res, err = cbr.Analyze(ctx, in.net, opts)
	}
	res, err = hooked(c.engine.name)(res, err)
	if opts.OnProgress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	// An engine returns no result for options it cannot use (bad
	// input), and a result with an error that is not a limit for an
	// internal error: what it covered is reported, the exit status is 4.
	internal := false
	if err != nil {
		if res == nil {
			fmt.Fprintf(stderr, "cbreach: %v\n", err)
			return exitUsage
		}
		internal = !cbr.IsLimit(err)
		if internal {
			fmt.Fprintf(stderr, "cbreach: internal error (a bug), not a limit: %v\n", err)
			res.Reason = "internal error (a bug): " + res.Reason
		} else {
			fmt.Fprintf(stderr, "cbreach: %v\n", err)
		}
	}
	if c.engine.name == seq.Name {
		reportSeq(stdout, in, &c, res)
	} else {
		report(stdout, in, &c, opts.Split, res, counts)
	}
	for _, v := range res.Violations {
		if v.TraceErr != nil && !cbr.IsLimit(v.TraceErr) {
			fmt.Fprintf(stderr, "cbreach: internal error: the trace of %s failed its check: %v\n", describe(v, res.Unit), v.TraceErr)
			return exitInternal
		}
	}
	if internal {
		return exitInternal
	}
	switch res.Verdict {
	case cbr.Violation:
		return exitViolation
	case cbr.Unknown:
		return exitUnknown
	}
	return exitSafe
}

// options checks the flags and turns them into the analysis options.
func options(c *config, fs *pflag.FlagSet) (cbr.Options, error) {
	strategy, err := split.Parse(c.split)
	if err != nil {
		return cbr.Options{}, fmt.Errorf("--split: want eager or lazy, got %q", c.split)
	}
	prune, ok := map[string]cbr.Prune{"subsumed": cbr.PruneSubsumed, "identical": cbr.PruneIdentical, "none": cbr.PruneNone}[c.prune]
	switch {
	case !ok:
		return cbr.Options{}, fmt.Errorf("--prune: want subsumed, identical or none, got %q", c.prune)
	case c.noDedup && fs.Changed("prune") && prune != cbr.PruneNone:
		return cbr.Options{}, fmt.Errorf("--no-dedup contradicts --prune %s", c.prune)
	case c.noDedup:
		prune = cbr.PruneNone
	}
	if c.unit, err = engine.ParseUnit(c.count); err != nil {
		return cbr.Options{}, fmt.Errorf("--count: want contexts or preemptions, got %q", c.count)
	}
	switch {
	case c.unit == cbr.Preemptions && c.contexts < 0:
		return cbr.Options{}, fmt.Errorf("--contexts: need at least 0 preemptions, got %d", c.contexts)
	case c.unit == cbr.Preemptions && prune == cbr.PruneNone:
		return cbr.Options{}, errors.New("--count preemptions needs pruning: --prune identical or subsumed (without, free switches repeat view tuples without end)")
	case c.unit == cbr.Contexts && c.contexts < 1:
		return cbr.Options{}, fmt.Errorf("--contexts: need at least 1 context, got %d", c.contexts)
	case fs.Changed("max-threads") && c.maxThreads < 1:
		return cbr.Options{}, fmt.Errorf("--max-threads: need at least 1, got %d", c.maxThreads)
	case c.maxNodes < 0:
		return cbr.Options{}, fmt.Errorf("--max-nodes: need 0 or more, got %d", c.maxNodes)
	case c.maxTuples < 0:
		return cbr.Options{}, fmt.Errorf("--max-tuples: need 0 or more, got %d", c.maxTuples)
	case c.cuba && c.bp:
		return cbr.Options{}, errors.New("--cuba and --bp exclude each other")
	case !c.cuba && (c.init != "" || c.target != ""):
		return cbr.Options{}, errors.New("--init and --target go with --cuba")
	}
	c.perBound = c.perBound || c.reachTops
	if c.unbounded && fs.Changed("contexts") {
		return cbr.Options{}, errors.New("--unbounded deepens the bound itself: it goes without -k")
	}
	if c.unbounded && c.perBound {
		return cbr.Options{}, errors.New("--per-bound needs a bound: give -k instead of --unbounded")
	}
	if c.memory, err = parseSize(c.maxMemory); err != nil {
		return cbr.Options{}, fmt.Errorf("--max-memory: %v", err)
	}
	if c.trace.full && c.trace.off {
		return cbr.Options{}, errors.New("--trace and --no-trace exclude each other")
	}
	bound := c.contexts
	if bound == 0 {
		bound = cbr.ZeroBound // 0 preemptions (0 would be the default)
	}
	return cbr.Options{Contexts: bound, Count: c.unit, Unbounded: c.unbounded, Split: strategy, All: c.all, Prune: prune,
		Limits: cbr.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory, MaxTuples: c.maxTuples}, Traces: !c.trace.off}, nil
}

// parseSize reads a size: a number of bytes with an optional unit (KiB,
// MiB, GiB, TiB, or KB, MB, GB, TB in powers of 1000).
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}}
	mult := int64(1)
	num := strings.TrimSpace(s)
	for _, u := range units {
		if strings.HasSuffix(strings.ToUpper(num), strings.ToUpper(u.suffix)) {
			num, mult = strings.TrimSpace(num[:len(num)-len(u.suffix)]), u.mult
			break
		}
	}
	var v float64
	if _, err := fmt.Sscanf(num, "%g", &v); err != nil || v < 0 || num == "" {
		return 0, fmt.Errorf("want a size such as 4GiB or 512MiB, got %q", s)
	}
	return int64(v * float64(mult)), nil
}

// defaultMemory is three quarters of the machine's memory (8GiB when it
// cannot be read), in the form --max-memory takes.
func defaultMemory() string {
	b, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			var kb int64
			if _, err := fmt.Sscanf(line, "MemTotal: %d kB", &kb); err == nil && kb > 0 {
				return fmt.Sprintf("%dMiB", kb*3/4>>10)
			}
		}
	}
	return "8GiB"
}

func progress(w io.Writer, u cbr.Unit) func(cbr.Progress) {
	return throttled(w, func(p cbr.Progress) string {
		return fmt.Sprintf("%s, %d view tuples done, %d queued, %d post* calls, %.1fs",
			units(p.Level, u), p.Tuples, p.Queued, p.PostStar, p.Elapsed.Seconds())
	})
}

// throttled returns a progress hook that rewrites one line on w with
// line(p), from 2 s into the run and at most every 200 ms.
func throttled(w io.Writer, line func(cbr.Progress) string) func(cbr.Progress) {
	var last time.Duration
	return func(p cbr.Progress) {
		if p.Elapsed < 2*time.Second || p.Elapsed-last < 200*time.Millisecond {
			return
		}
		last = p.Elapsed
		fmt.Fprintf(w, "\r\033[Kcbreach: %s", line(p))
	}
}
