// Command cbreach checks a concurrent program with recursive procedures
// for errors reachable within a bound on the number of contexts (maximal
// runs of one thread).
//
//	cbreach [flags] FILE.pds
//	cbreach [flags] --cuba SYSTEM.pds [--init SYSTEM.init] [--target SYSTEM.spec | --target 'q|t0,t1']
//
// Exit status: 0 no violation within the bound, 1 violation, 2 bad input
// or usage, 3 unknown (a time, node or thread limit cut the search off).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/spf13/pflag"
)

// version is the release of the command.
const version = "0.1.0"

const (
	exitSafe      = 0
	exitViolation = 1
	exitUsage     = 2
	exitUnknown   = 3
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr)))
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

type config struct {
	contexts   int
	split      string
	all        bool
	maxThreads int
	timeout    time.Duration
	maxNodes   int
	json       bool
	stats      bool
	printRules bool
	quiet      bool
	version    bool
	cuba       bool
	init       string
	target     string
	reachTops  bool
	noDedup    bool
}

// longFlags are the names that may be written with a single dash.
// subsumeAfter is the number of kept view tuples after which the command
// line starts testing new tuples for subsumption (cbr.Options.SubsumeAfter).
// Measured on this project's machine: the bundled Bluetooth example keeps
// fewer (0.06 s instead of 0.11 s, where the test saves little), while
// CUBA's Bluetooth3-21 at 10 contexts needs the test (4 s; 3 s from the
// first tuple, and over an hour without it).
const subsumeAfter = 500

var longFlags = []string{"contexts", "split", "all", "max-threads", "timeout", "max-nodes", "json", "stats",
	"print-rules", "version", "help", "cuba", "init", "target", "reach-tops", "no-dedup"}

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
       cbreach [flags] --cuba SYSTEM.pds [--init SYSTEM.init] [--target SPEC]

cbreach finds errors (failed assertions, indices out of range) that a
concurrent program can reach within a bound on the number of contexts, a
context being a maximal run of one thread (k contexts = k-1 switches).
It reports the fewest contexts that expose each error.

Examples:
  cbreach -k 5 -split lazy examples/bluetooth.pds
  cbreach --json --all examples/bluetooth.pds
  cbreach -k 7 --cuba Bluetooth1-11.pds    (reads Bluetooth1-11.init and .spec beside it)

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, `
Exit status: 0 no violation within the bound, 1 violation, 2 bad input or
usage, 3 unknown (a time, BDD node or thread limit cut the search off).
`)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	var c config
	fs := pflag.NewFlagSet("cbreach", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.IntVarP(&c.contexts, "contexts", "k", 4, "context bound: explore runs of at most `N` contexts")
	fs.StringVar(&c.split, "split", "lazy", "view tuple splitting: `eager` or lazy")
	fs.BoolVar(&c.all, "all", false, "explore the whole bound and report every violation site")
	fs.IntVar(&c.maxThreads, "max-threads", pds.DefaultMaxThreads, "thread bound for `start` inside procedures (initial threads included)")
	fs.DurationVar(&c.timeout, "timeout", 0, "give up after `DURATION` (e.g. 30s, 5m); 0 means no limit")
	fs.IntVar(&c.maxNodes, "max-nodes", 0, "give up when the BDD node table exceeds `N` nodes; 0 means no limit")
	fs.BoolVar(&c.json, "json", false, "print the result as one JSON object")
	fs.BoolVar(&c.stats, "stats", false, "print the full statistics")
	fs.BoolVar(&c.printRules, "print-rules", false, "compile and print the pushdown network, do not analyze")
	fs.BoolVarP(&c.quiet, "quiet", "q", false, "print only the verdict line")
	fs.BoolVar(&c.cuba, "cuba", false, "the input is a CUBA concurrent pushdown system (.pds with .init)")
	fs.StringVar(&c.init, "init", "", "CUBA: the initial configuration `FILE` (default: FILE.init beside the .pds)")
	fs.StringVar(&c.target, "target", "", "CUBA: the target visible state, a .spec `FILE` or inline 'q|t0,t1,...' (default: FILE.spec beside the .pds, if present)")
	fs.BoolVar(&c.reachTops, "reach-tops", false, "count the reachable visible states (globals and stack tops) for every bound up to k")
	fs.BoolVar(&c.noDedup, "no-dedup", false, "keep view tuples identical to or covered by earlier ones (the paper's counting; slower)")
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
		fmt.Fprintf(stdout, "cbreach %s (BDDs: rudd, %s kernel)\n", version, bdd.Kernel)
		return exitSafe
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "cbreach: need exactly one input file, got %d\nRun 'cbreach -h' for usage.\n", fs.NArg())
		return exitUsage
	}
	strategy, err := split.Parse(c.split)
	if err != nil {
		fmt.Fprintf(stderr, "cbreach: --split: want eager or lazy, got %q\n", c.split)
		return exitUsage
	}
	if c.contexts < 1 {
		fmt.Fprintf(stderr, "cbreach: --contexts: need at least 1 context, got %d\n", c.contexts)
		return exitUsage
	}
	if c.maxThreads < 1 {
		fmt.Fprintf(stderr, "cbreach: --max-threads: need at least 1, got %d\n", c.maxThreads)
		return exitUsage
	}
	if !c.cuba && (c.init != "" || c.target != "") {
		fmt.Fprintf(stderr, "cbreach: --init and --target go with --cuba\n")
		return exitUsage
	}

	file := fs.Arg(0)
	net, targets, err := load(file, &c)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	if c.printRules {
		if err := net.Print(stdout); err != nil {
			fmt.Fprintf(stderr, "cbreach: %v\n", err)
			return exitUsage
		}
		return exitSafe
	}

	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	opts := cbr.Options{Contexts: c.contexts, Split: strategy, MaxThreads: c.maxThreads, All: c.all, Dedup: !c.noDedup, Subsume: !c.noDedup, SubsumeAfter: subsumeAfter,
		MaxNodes: c.maxNodes, Targets: targets}
	if tty && !c.json && !c.quiet {
		opts.OnProgress = progress(stderr)
	}
	var res *cbr.Result
	var counts []int
	if c.reachTops {
		counts, res, err = cbr.VisibleStates(ctx, net, opts)
	} else {
		res, err = cbr.Analyze(ctx, net, opts)
	}
	if opts.OnProgress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		fmt.Fprintf(stderr, "cbreach: %v\n", err)
		if res == nil {
			return exitUsage
		}
	}
	report(stdout, file, &c, strategy, res, counts)
	switch res.Verdict {
	case cbr.Violation:
		return exitViolation
	case cbr.Unknown:
		return exitUnknown
	}
	return exitSafe
}

// load compiles the input: a .pds program, or a CUBA system with its
// initial configuration and target.
func load(file string, c *config) (*pds.Network, []cbr.Target, error) {
	popts := pds.Options{MaxThreads: c.maxThreads}
	if !c.cuba {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, nil, readError(file, err)
		}
		net, err := frontend.CompileWith(file, src, frontend.Options{MaxThreads: c.maxThreads})
		if err != nil {
			return nil, nil, err
		}
		return net, nil, nil
	}
	base := strings.TrimSuffix(file, filepath.Ext(file))
	initFile := c.init
	if initFile == "" {
		initFile = base + ".init"
	}
	inst, err := cuba.ReadFiles(file, initFile, popts)
	if err != nil {
		return nil, nil, err
	}
	spec := c.target
	if spec == "" {
		if _, err := os.Stat(base + ".spec"); err == nil && !c.reachTops {
			spec = base + ".spec"
		}
	}
	if spec == "" {
		return inst.Net, nil, nil
	}
	var tg *cuba.Target
	if strings.Contains(spec, "|") {
		tg, err = cuba.ParseTargetString(spec, inst)
	} else {
		var src []byte
		src, err = os.ReadFile(spec)
		if err != nil {
			return nil, nil, readError(spec, err)
		}
		tg, err = cuba.ParseTarget(spec, src, inst)
	}
	if err != nil {
		return nil, nil, err
	}
	return inst.Net, []cbr.Target{cubaTarget(inst, tg)}, nil
}

// readError says which file could not be read and why, in plain words.
func readError(file string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cbreach: cannot read %s: %v", file, err)
}

// cubaTarget turns a CUBA visible state into a driver target.
func cubaTarget(inst *cuba.Instance, tg *cuba.Target) cbr.Target {
	m := inst.Net.M
	t := cbr.Target{Name: "visible state " + tg.String(), Pos: tg.Pos,
		Globals: m.Value(bdd.Ref{Var: inst.Shared.Var, Copy: pds.GCur}, tg.Shared)}
	if tg.Unreachable {
		t.Globals = m.False()
	}
	for _, l := range tg.Tops {
		if l == nil {
			t.Tops = append(t.Tops, cbr.Top{Empty: true})
		} else {
			t.Tops = append(t.Tops, cbr.Top{Label: l})
		}
	}
	return t
}

func progress(w io.Writer) func(cbr.Progress) {
	var last time.Duration
	return func(p cbr.Progress) {
		if p.Elapsed < 2*time.Second || p.Elapsed-last < 200*time.Millisecond {
			return
		}
		last = p.Elapsed
		fmt.Fprintf(w, "\r\033[Kcbreach: %d contexts, %d view tuples done, %d queued, %d post* calls, %.1fs",
			p.Level, p.Tuples, p.Queued, p.PostStar, p.Elapsed.Seconds())
	}
}

func report(w io.Writer, file string, c *config, s split.Strategy, r *cbr.Result, counts []int) {
	if c.json {
		writeJSON(w, c, s, r, counts)
		return
	}
	var b strings.Builder
	switch r.Verdict {
	case cbr.Violation:
		for i, v := range r.Violations {
			if i > 0 && !c.all {
				break
			}
			fmt.Fprintf(&b, "VIOLATION %s\n", describe(v))
		}
	case cbr.Safe:
		fmt.Fprintf(&b, "SAFE within %d contexts: no violation is reachable with at most %d contexts\n", r.Bound, r.Bound)
	case cbr.Unknown:
		fmt.Fprintf(&b, "UNKNOWN: %s; no violation found before that (bound %d contexts)\n", r.Reason, r.Bound)
	}
	if counts != nil {
		for j, n := range counts {
			fmt.Fprintf(&b, "visible states within %d contexts: %d\n", j, n)
		}
	}
	if !c.quiet {
		st := r.Stats
		fmt.Fprintf(&b, "%s splitting: %d view tuples, %d post* calls, %.3fs\n", s, st.ViewTuples, st.PostStarCalls, st.Time.Seconds())
		if c.stats {
			fmt.Fprintf(&b, "view tuples by contexts: %v\ncovered tuples dropped: %d, restricted: %d\npost* steps: %d\npeak BDD nodes: %d (rudd %s kernel)\n",
				st.TuplesPerLevel[:r.Bound], st.Dropped, st.Shrunk, st.PostStarSteps, st.PeakNodes, bdd.Kernel)
		}
	}
	io.WriteString(w, b.String())
}

func describe(v cbr.Found) string {
	if v.Target != nil {
		return fmt.Sprintf("target %s (%s) first reached with %d contexts", v.Message, v.Pos, v.Contexts)
	}
	what := "assertion failed"
	if v.Kind == pds.Bounds {
		what = "index out of range"
	}
	msg := ""
	if v.Message != "" {
		msg = ": " + v.Message
	}
	return fmt.Sprintf("%s at %s in thread %d (procedure %s)%s, first reached with %d contexts", what, v.Pos, v.Thread, v.Proc, msg, v.Contexts)
}

type jsonViolation struct {
	Kind     string `json:"kind"`
	Pos      string `json:"pos"`
	Thread   int    `json:"thread"`
	Proc     string `json:"proc"`
	Contexts int    `json:"contexts"`
	Message  string `json:"message,omitempty"`
}

type jsonStats struct {
	TimeSeconds    float64 `json:"timeSeconds"`
	PostStarCalls  int     `json:"postStarCalls"`
	PostStarSteps  int     `json:"postStarSteps"`
	PeakNodes      int     `json:"peakNodes"`
	TuplesPerLevel []int   `json:"tuplesPerLevel"`
	Kernel         string  `json:"kernel"`
}

type jsonResult struct {
	Verdict       string          `json:"verdict"`
	Reason        string          `json:"reason,omitempty"`
	Bound         int             `json:"bound"`
	Split         string          `json:"split"`
	Contexts      *int            `json:"contexts"`
	ViewTuples    int             `json:"viewTuples"`
	Violations    []jsonViolation `json:"violations"`
	VisibleStates []int           `json:"visibleStates,omitempty"`
	Stats         jsonStats       `json:"stats"`
}

func writeJSON(w io.Writer, c *config, s split.Strategy, r *cbr.Result, counts []int) {
	out := jsonResult{Verdict: r.Verdict.String(), Reason: r.Reason, Bound: r.Bound, Split: s.String(),
		ViewTuples: r.Stats.ViewTuples, Violations: []jsonViolation{}, VisibleStates: counts,
		Stats: jsonStats{TimeSeconds: r.Stats.Time.Seconds(), PostStarCalls: r.Stats.PostStarCalls, PostStarSteps: r.Stats.PostStarSteps,
			PeakNodes: r.Stats.PeakNodes, TuplesPerLevel: r.Stats.TuplesPerLevel[:r.Bound], Kernel: bdd.Kernel}}
	if n := r.Contexts(); n >= 0 {
		out.Contexts = &n
	}
	for _, v := range r.Violations {
		kind := v.Kind.String()
		if v.Target != nil {
			kind = "target"
		}
		out.Violations = append(out.Violations, jsonViolation{Kind: kind, Pos: v.Pos.String(), Thread: v.Thread, Proc: v.Proc, Contexts: v.Contexts, Message: v.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
