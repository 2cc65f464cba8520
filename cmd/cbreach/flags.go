package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/diag"
	"github.com/spf13/pflag"
)

// config is the command line: what the user asked (the flags, asked)
// apart from what the command derived from it (derived). The report
// reads the engine's settings and figures from the result, not from
// here.
type config struct {
	asked
	derived
}

// asked are the flags and the input file, as parsed.
type asked struct {
	file       string
	contexts   int
	all        bool
	maxThreads int
	timeout    time.Duration
	maxNodes   int
	maxMemory  string
	json       bool
	stats      bool
	printRules bool
	quiet      bool
	version    bool
	unbounded  bool
	count      string

	engine  engineFlags // --engine and the engines' settings (engines.go)
	trace   traceFlags  // --trace, --no-trace (trace.go)
	dot     string      // --dot FILE (dot.go)
	readers readerFlags // --format, the readers' own flags and their files' (input.go)

	cpuProfile string // --cpuprofile FILE
}

// derived is what the command made of the flags.
type derived struct {
	jsonArg  bool             // the arguments name --json, whatever pflag made of them (jsonAsked)
	entry    engines.Entry    // the engine --engine names
	settings engines.Settings // the settings the flags give
	eng      engines.Engine   // the engine made with them
	memory   int64            // --max-memory parsed
	stdin    io.Reader        // what FILE "-" reads
}

// longFlags are the names that may be written with a single dash.
var longFlags = []string{"contexts", "all", "max-threads", "timeout", "max-nodes", "max-memory",
	"json", "stats", "print-rules", "version", "help", "unbounded", "cpuprofile", "count"}

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
	fmt.Fprintf(w, `%s       cbreach suite [flags] TASKS-or-DIRS...   (cbreach suite -h)

cbreach finds errors (failed assertions, indices out of range) that a
concurrent program can reach within a bound on the number of contexts, a
context being a maximal run of one thread (k contexts = k-1 switches).
It reports the fewest contexts that expose each error. FILE "-" reads
standard input.

%s
Examples:
  cbreach -k 5 -split lazy examples/bluetooth.pds
  cbreach --json --all examples/bluetooth.pds
  cbreach -k 7 --cuba Bluetooth1-11.pds    (reads Bluetooth1-11.init and .spec beside it)

Flags:
`, usageLines(), formatsHelp())
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, `
%s
Exit status: 0 no violation within the bound, 1 violation, 2 bad input or
usage, 3 unknown (a time, memory, BDD node, view tuple or thread limit, or
Ctrl-C, cut the search off; what was covered is printed), 4 an internal
error (a bug, never a limit: e.g. a trace failed its replay on the
explicit semantics). --self-check: 0 or 1 when the engines agree, 3 when
one was cut off by a limit and the others agree, 4 when they disagree or
one failed with an internal error.
`, engineFlagsHelp())
}

// engineFlagsHelp says which flags apply to some engines only (a usage
// error with another), read from the table: each setting's flags, the
// unbounded search, preemption counting and CUBA's targets.
func engineFlagsHelp() string {
	var order []string
	groups := map[string][]string{}
	add := func(engineNames []string, flags ...string) {
		key := engines.Or(engineNames)
		if groups[key] == nil {
			order = append(order, key)
		}
		groups[key] = append(groups[key], flags...)
	}
	for _, s := range allSettings() {
		add(engines.Taking(s.Name), "--"+s.Name)
		for _, a := range s.Aliases {
			add(engines.Taking(s.Name), "--"+a.Flag)
		}
	}
	add(unboundedEngines(), "--unbounded")
	add(engines.Counting(cbr.Preemptions), "--count preemptions")
	add(targetEngines(), targetFlags()...)
	var b strings.Builder
	b.WriteString("Flags for some engines only (a usage error with another):\n")
	for _, key := range order {
		fmt.Fprintf(&b, "  %s: --engine %s\n", strings.Join(groups[key], ", "), key)
	}
	return b.String()
}

// flagSet declares the flags into c.
func flagSet(c *config) *pflag.FlagSet {
	fs := pflag.NewFlagSet("cbreach", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.IntVarP(&c.contexts, "contexts", "k", cbr.DefaultBound, "the bound: explore runs of at most `N` contexts (or preemptions, with --count preemptions)")
	fs.StringVar(&c.count, "count", "contexts", "what the bound counts, `UNIT` contexts or preemptions (switches away from a thread that could still move; the first context and switches away from a blocked or finished thread are free)")
	fs.BoolVar(&c.all, "all", false, "explore the whole bound and report every violation site")
	fs.IntVar(&c.maxThreads, "max-threads", 0, fmt.Sprintf("thread bound for a program that can start unboundedly many threads (a start under a loop or in recursion): at most `N` threads, the initial ones and those started inside procedures (default %d); a program with a finite number of starts gets exactly the threads it can have, unless N is lower", pds.DefaultMaxThreads))
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 30s, 5m); 0 means no limit")
	fs.IntVar(&c.maxNodes, "max-nodes", 0, "give up when more than `N` live BDD nodes are needed; 0 means no limit")
	fs.StringVar(&c.maxMemory, "max-memory", defaultMemory(), "give up when the process holds more than `SIZE` of memory (e.g. 4GiB, 512MiB); 0 means no limit")
	fs.BoolVar(&c.json, "json", false, "print the result, or the error, as one JSON object (docs/json.md; not with --print-rules)")
	fs.BoolVar(&c.stats, "stats", false, "print the full statistics")
	fs.BoolVar(&c.printRules, "print-rules", false, "compile and print the pushdown network, do not analyze")
	fs.BoolVarP(&c.quiet, "quiet", "q", false, "print only the verdict line")
	addReaderFlags(fs, &c.readers)
	fs.BoolVar(&c.unbounded, "unbounded", false, "deepen the bound until the reachable configurations stop growing (or a violation, or a limit)")
	fs.BoolVar(&c.trace.full, "trace", false, "print every step of each violation's trace, with the statements, globals and stacks")
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	fs.BoolVar(&c.trace.off, "no-trace", false, "do not build traces (they keep the view tuples of the search alive and cost a post* per context)")
	fs.StringVar(&c.dot, "dot", "", "write the first violation's trace (every violation's with --all, a digraph each) as a message-sequence chart in Graphviz's DOT to `FILE`, - for standard output (the report then goes to standard error); render it with dot -Tsvg FILE. With no violation to draw, FILE holds an empty graph and a note on standard error says so; not with --no-trace")
	addEngineFlags(fs, &c.engine)
	fs.BoolVar(&c.version, "version", false, "print the version on one line and exit: the release, the commit the binary was built from (\"modified\" when the tree had changes) or the module version of go install, the Go release and the BDD kernel")
	wantValues(fs, map[string]string{
		"contexts":    "a whole number of contexts",
		"max-threads": "a whole number of threads",
		"timeout":     "a duration such as 30s or 5m (0: no limit)",
		"max-nodes":   "a whole number of BDD nodes (0: no limit)",
	})
	return fs
}

// usageHint follows a usage error on standard error.
const usageHint = "Run 'cbreach -h' for usage."

// wantKey is the annotation of a flag that says what its value must be,
// for the message of a value pflag cannot parse (flagProblem).
const wantKey = "cbreach-want"

// wantValues annotates the flags of fs named in want with what their
// values must be.
func wantValues(fs *pflag.FlagSet, want map[string]string) {
	for name, w := range want {
		if err := fs.SetAnnotation(name, wantKey, []string{w}); err != nil {
			panic(err) // a flag of the table is not declared
		}
	}
}

// flagProblem says an error of pflag's parsing in the command line's
// words: a value pflag cannot parse names the flag as the arguments
// wrote it and what it wants ("invalid argument \"abc\" for -k: want a
// whole number of contexts"), instead of Go's parse error
// ("strconv.ParseInt: parsing \"abc\": invalid syntax"). Other errors
// (an unknown flag, a missing value) are pflag's words.
func flagProblem(err error, args []string) string {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err.Error()
	}
	f := iv.GetFlag()
	want := ""
	switch w := f.Annotations[wantKey]; {
	case len(w) > 0:
		want = w[0]
	case f.Value.Type() == "bool":
		want = "true or false"
	case f.Value.Type() == "duration":
		want = "a duration such as 30s or 5m"
	case strings.HasPrefix(f.Value.Type(), "int"), strings.HasPrefix(f.Value.Type(), "uint"):
		want = "a whole number"
	default:
		return err.Error()
	}
	return fmt.Sprintf("invalid argument %q for %s: want %s", iv.GetValue(), written(f, args), want)
}

// written returns the flag's name as the arguments wrote it: its long
// name, or its shorthand when only that appears.
func written(f *pflag.Flag, args []string) string {
	long := "--" + f.Name
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == long || strings.HasPrefix(a, long+"=") {
			return long
		}
	}
	if f.Shorthand != "" {
		return "-" + f.Shorthand
	}
	return long
}

// jsonAsked reports whether the arguments (normalized: "--json", not
// "-json") ask for --json, the last of "--json" and "--json=BOOL"
// deciding; arguments after "--" are files. An error is JSON when pflag
// read --json or this finds it: pflag stops at a bad flag, possibly
// before --json, and takes "--split --json" for a split named "--json".
func jsonAsked(args []string) bool {
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		if name != "--json" {
			continue
		}
		on = true
		if b, err := strconv.ParseBool(val); hasVal && err == nil {
			on = b
		}
	}
	return on
}

// parse reads the command line into the configuration and the options
// every engine takes; done says the command ends here with code (help,
// version, or a usage error, already printed).
func parse(args []string, stdout, stderr io.Writer) (c *config, opts cbr.Options, code int, done bool) {
	c = &config{derived: derived{stdin: stdin}}
	fs := flagSet(c)
	help := fs.BoolP("help", "h", false, "print this help and exit")
	fs.Usage = func() {}
	args = normalizeArgs(args)
	c.jsonArg = jsonAsked(args)
	if err := fs.Parse(args); err != nil {
		return c, opts, c.fail(stdout, stderr, exitUsage, flagProblem(err, args), usageHint), true
	}
	switch {
	case *help:
		usage(stdout, fs)
		return c, opts, exitSafe, true
	case c.version:
		fmt.Fprintln(stdout, versionLine(buildInfo()))
		return c, opts, exitSafe, true
	case fs.NArg() != 1:
		msg := fmt.Sprintf("need exactly one input file, got %d", fs.NArg())
		return c, opts, c.fail(stdout, stderr, exitUsage, msg, usageHint), true
	}
	c.file = fs.Arg(0)
	opts, err := options(c, fs)
	if err == nil {
		err = checkEngine(c, fs)
	}
	if err == nil && !c.entry.Counts(opts.Unit) && !c.engine.selfCheck {
		opts.Unit = c.entry.Units[0] // seq: -k counts rounds
	}
	if err == nil {
		// The library's one check of the options, before the input is read.
		_, _, err = opts.Check(c.entry.Name, c.entry.Units...)
	}
	if err != nil {
		return c, opts, c.fail(stdout, stderr, exitUsage, c.flagWords(err)), true
	}
	return c, opts, 0, false
}

// options turns the flags into the options every engine takes and the
// engine's settings. It checks what only the command line knows: the
// flags' syntax and which flags go together; the bound and the limits
// are the library's to check (cbr.Options.Check).
func options(c *config, fs *pflag.FlagSet) (cbr.Options, error) {
	var err error
	if c.settings, err = c.engine.values(fs); err != nil {
		return cbr.Options{}, err
	}
	unit, err := cbr.ParseUnit(c.count)
	if err != nil {
		return cbr.Options{}, fmt.Errorf("--count: want contexts or preemptions, got %q", c.count)
	}
	switch {
	case fs.Changed("max-threads") && c.maxThreads < 1:
		return cbr.Options{}, fmt.Errorf("--max-threads: need at least 1, got %d", c.maxThreads)
	}
	if err := c.readers.check(); err != nil {
		return cbr.Options{}, err
	}
	switch {
	case c.unbounded && fs.Changed("contexts"):
		return cbr.Options{}, errors.New("--unbounded deepens the bound itself: it goes without -k")
	case c.unbounded && c.perBound():
		return cbr.Options{}, errors.New("--per-bound needs a bound: give -k instead of --unbounded")
	case c.trace.full && c.trace.off:
		return cbr.Options{}, errors.New("--trace and --no-trace exclude each other")
	case c.printRules && c.json:
		return cbr.Options{}, errors.New("--print-rules prints text; it does not combine with --json")
	}
	if err := c.checkDot(fs.Changed("dot")); err != nil {
		return cbr.Options{}, err
	}
	if c.memory, err = parseSize(c.maxMemory); err != nil {
		return cbr.Options{}, fmt.Errorf("--max-memory: %v", err)
	}
	bound := c.contexts
	if bound == 0 {
		bound = cbr.ZeroBound // 0 preemptions (0 would be the default)
	}
	return cbr.Options{Bound: bound, Unit: unit, Unbounded: c.unbounded, All: c.all,
		Limits: cbr.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory}, Traces: !c.trace.off}, nil
}

// optionFlags names the flag of each option the library checks.
var optionFlags = map[string]string{"Bound": "--contexts", "Unit": "--count", "MaxNodes": "--max-nodes", "MaxMemory": "--max-memory",
	"MaxTuples": "--max-tuples", "MaxDepth": "--max-depth", "Prune": "--prune", "Targets": "--target", "Unbounded": "--unbounded"}

// flagWords says an error of the options in the command line's words: an
// option the library refused under the name of its flag.
func (c *config) flagWords(err error) string {
	var oe *cbr.OptionError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	if oe.Option == "Unit" {
		return fmt.Sprintf("--count: --engine %s %s", oe.Engine, strings.TrimPrefix(oe.Problem, "it "))
	}
	if f, ok := optionFlags[oe.Option]; ok {
		return f + ": " + oe.Problem
	}
	return err.Error()
}

// limits sets the process's memory limit, the time limit and the CPU
// profile; release undoes them.
func (c *config) limits(ctx context.Context) (context.Context, func(), error) {
	var undo []func()
	release := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	if c.memory > 0 {
		// The Go runtime collects harder as the limit nears; the
		// analysis stops when it is passed.
		debug.SetMemoryLimit(c.memory)
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		undo = append(undo, cancel)
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
			release()
			return ctx, nil, fmt.Errorf("--cpuprofile: %v", err)
		}
		undo = append(undo, func() {
			pprof.StopCPUProfile()
			f.Close()
		})
	}
	return ctx, release, nil
}

// loadFailed reports an input that could not be read: a limit while
// compiling, or a construct the reader refuses to analyse
// (diag.Unsupported: the reason says what and where), both UNKNOWN with
// nothing analysed; an internal error; or bad input.
func (c *config) loadFailed(stdout, stderr io.Writer, in *input, opts cbr.Options, err error) int {
	reason := ""
	switch _, unsupported := diag.IsUnsupported(err); {
	case bdd.IsLimit(err):
		reason = cbr.Reason(err) + " while compiling " + c.file
	case unsupported:
		reason, err = err.Error(), nil // not a limit
	case isInternal(err):
		return c.fail(stdout, stderr, exitInternal, err.Error())
	default:
		return c.fail(stdout, stderr, exitUsage, err.Error())
	}
	bound, unit, _ := opts.Check(c.entry.Name, c.entry.Units...)
	if c.unbounded {
		bound = 0 // none reached
	}
	r := c.entry.Unanalysed(c.settings, bound, unit, reason, err)
	report(stdout, in, c, r)
	return exitUnknown
}

// print prints the network instead of analysing it: the program's, or
// the sequential network of -k rounds for --engine seq.
func (c *config) print(ctx context.Context, stdout, stderr io.Writer, in *input) int {
	var err error
	if c.entry.Print != nil {
		err = c.entry.Print(ctx, stdout, in.net, c.settings, c.contexts, bdd.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory})
	} else {
		err = in.net.Print(stdout)
	}
	switch {
	case err == nil:
		return exitSafe
	case bdd.IsLimit(err):
		fmt.Fprintf(stderr, "cbreach: %v\n", err)
		return exitUnknown
	case isInternal(err):
		return c.fail(stdout, stderr, exitInternal, err.Error())
	}
	return c.fail(stdout, stderr, exitUsage, err.Error())
}

// checkInput checks what the input must have for the run asked for: a
// CUBA system needs a target unless the run counts or deepens, and an
// engine that checks no targets cannot take one.
func (c *config) checkInput(in *input) error {
	if tf := in.targetFile(); tf != nil && len(in.targets) == 0 && !c.perBound() && !c.unbounded {
		return fmt.Errorf("%s has no target: no %s beside it and no --%s. Give one with --%s, count the reachable visible states with --per-bound, or look for convergence with --unbounded", c.file, tf.Suffix, tf.Flag, tf.Flag)
	}
	if len(in.targets) > 0 && !c.entry.Targets && !c.engine.selfCheck {
		return fmt.Errorf("--engine %s checks error labels only, not CUBA targets: use --engine %s", c.entry.Name, engines.Or(targetEngines()))
	}
	return nil
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

// throttled returns a progress hook that rewrites one line on w with
// line(p, u), from 2 s into the run and at most every 200 ms.
func throttled(w io.Writer, line func(cbr.Progress, cbr.Unit) string, u cbr.Unit) func(cbr.Progress) {
	var last time.Duration
	return func(p cbr.Progress) {
		if p.Elapsed < 2*time.Second || p.Elapsed-last < 200*time.Millisecond {
			return
		}
		last = p.Elapsed
		fmt.Fprintf(w, "\r\033[Kcbreach: %s", line(p, u))
	}
}
