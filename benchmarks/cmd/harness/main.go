// Command harness runs the benchmark models under eager and lazy splitting
// as tasks of cbreach suite, one after the other by default, and writes
// the results as a Markdown table, a CSV file and an SVG plot of the
// Vector family (see package benchmarks).
//
//	go run ./benchmarks/cmd/harness                 # the default set, under 10 minutes on 2 cores
//	go run ./benchmarks/cmd/harness --set large     # the larger runs only
//	go run ./benchmarks/cmd/harness --set all --only 'vector-java6-.*' --timeout 30m
//	go run ./benchmarks/cmd/harness --plot              # redraw vector.svg from results.csv
//	go run ./benchmarks/cmd/harness --jobs 2            # through cbreach suite, two runs at a time
//	go run ./benchmarks/cmd/harness --slurm --tasks DIR # as one Slurm job array (DIR shared with the nodes)
//	go run ./benchmarks/cmd/harness --engines           # cbr against seq eager and lazy: engines.md, .csv, .svg
//
// Exit status: 0 every run as expected (runs cut off by the timeout
// included), 1 a verdict or fewest contexts differing from the model's
// EXPECTED line (or a model that failed to load), 2 usage, 3 interrupted
// (the files hold the runs done before).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/benchmarks"
	"github.com/cbreach/cbreach/pds/plural"
	"github.com/spf13/pflag"
)

const (
	exitOK          = 0
	exitMismatch    = 1
	exitUsage       = 2
	exitInterrupted = 3
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("harness", pflag.ContinueOnError)
	fs.SortFlags = false
	set := fs.String("set", "default", "which experiments: `default` (under 10 minutes on 2 cores), large (the larger runs only) or all")
	only := fs.String("only", "", "run only the experiments whose whole model name, MODEL/kK or ID MODEL/kK/SPLIT matches `REGEXP`\n"+
		"(Go syntax, anchored at both ends: vector-java5-b1 is that model's runs, not b10 to b16;\n"+
		"'vector-java5-.*' the family, 'bluetooth-v2-a2s1/k5/lazy' one run, '.*/lazy' every lazy run)")
	timeout := fs.Duration("timeout", 120*time.Second, "give up a run after `DURATION` and report it as timeout; 0 means no limit")
	out := fs.String("out", "benchmarks/results", "write results.md, results.csv and vector.svg into `DIR`")
	list := fs.Bool("list", false, "list the selected experiments and exit")
	engines := fs.Bool("engines", false, "run the engines experiment instead: cbr lazy against seq eager and seq lazy on the Lal-Reps\n"+
		"Bluetooth family, the binary search tree and Vector (writes DIR/engines.md, engines.csv, engines.svg;\n"+
		"--only matches model names; the default timeout is then 60s)")
	var suite benchmarks.Suite
	fs.IntVarP(&suite.Jobs, "jobs", "j", 1, "run `N` experiments at a time, each in a cbreach process of its own (cbreach suite --jobs);\n"+
		"the default, one after the other, keeps the times apart (two runs at once slow each other down)")
	fs.BoolVar(&suite.Slurm, "slurm", false, "run the experiments as one Slurm job array (cbreach suite --slurm; the binary and --tasks\n"+
		"must then be on a filesystem the nodes share)")
	partition := fs.String("slurm-partition", "", "Slurm: submit to `PARTITION`")
	slurmArgs := fs.String("slurm-args", "", "Slurm: more sbatch `OPTIONS` (cbreach suite --slurm-args)")
	fs.StringVar(&suite.Exe, "cbreach", "", "run the experiments with the cbreach binary at `PATH` (default: build ./cmd/cbreach into a temporary directory)")
	fs.StringVar(&suite.TaskDir, "tasks", "", "write the experiments' task definitions (and their models) into `DIR` and keep them\n"+
		"(default: a temporary directory; cbreach suite DIR runs them again)")
	replot := fs.Bool("plot", false, "run nothing: redraw DIR/vector.svg from the DIR/results.csv of an earlier run and exit")
	help := fs.BoolP("help", "h", false, "print this help and exit")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "harness: %v\nRun 'harness -h' for usage.\n", err)
		return exitUsage
	}
	if *help {
		fmt.Fprintf(stdout, "Usage: harness [flags]\n\n"+
			"Runs the benchmark models (benchmarks/models, and the generated Vector\n"+
			"models) under eager and lazy splitting with the whole bound explored,\n"+
			"one run after the other, checks each verdict against the model's\n"+
			"EXPECTED line, and writes DIR/results.md, DIR/results.csv and\n"+
			"DIR/vector.svg.\n\nFlags:\n")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fmt.Fprintf(stdout, "\nExit status: 0 all as expected (timeouts included), 1 a mismatch, 2 usage, 3 interrupted.\n")
		return exitOK
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "harness: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if *replot {
		path, err := benchmarks.Replot(*out)
		if err != nil {
			fmt.Fprintf(stderr, "harness: --plot: %v\n", err)
			return exitUsage
		}
		if path == "" {
			fmt.Fprintf(stderr, "harness: no complete Vector run in %s: nothing to plot\n", filepath.Join(*out, "results.csv"))
		} else {
			fmt.Fprintf(stderr, "harness: wrote %s\n", path)
		}
		return exitOK
	}
	switch {
	case suite.Jobs < 1:
		fmt.Fprintf(stderr, "harness: --jobs: need at least 1, got %d\n", suite.Jobs)
		return exitUsage
	case suite.Slurm && fs.Changed("jobs"):
		fmt.Fprintf(stderr, "harness: --jobs does not go with --slurm\n")
		return exitUsage
	case !suite.Slurm && (*partition != "" || *slurmArgs != ""):
		fmt.Fprintf(stderr, "harness: --slurm-partition and --slurm-args go with --slurm\n")
		return exitUsage
	case *engines && (fs.Changed("jobs") || suite.Slurm || suite.Exe != "" || suite.TaskDir != ""):
		fmt.Fprintf(stderr, "harness: --engines runs in this process, one run after the other: no --jobs, --slurm, --cbreach or --tasks\n")
		return exitUsage
	}
	if *partition != "" {
		suite.Args = append(suite.Args, "--slurm-partition", *partition)
	}
	if *slurmArgs != "" {
		suite.Args = append(suite.Args, "--slurm-args", *slurmArgs)
	}
	if *engines {
		if !fs.Changed("timeout") {
			*timeout = 60 * time.Second
		}
		return runEngines(ctx, *only, *timeout, *out, *list, stdout, stderr)
	}
	var re *regexp.Regexp
	if *only != "" {
		var err error
		if re, err = benchmarks.CompileOnly(*only); err != nil {
			fmt.Fprintf(stderr, "harness: --only: %v\n", err)
			return exitUsage
		}
	}
	exps, err := benchmarks.Select(*set, re)
	if err != nil {
		fmt.Fprintf(stderr, "harness: --set: %v\n", err)
		return exitUsage
	}
	if len(exps) == 0 {
		fmt.Fprintf(stderr, "harness: no experiment in set %q matches %q\n", *set, *only)
		return exitUsage
	}
	if *list {
		for _, e := range exps {
			fmt.Fprintf(stdout, "%-36s %s\n", e.ID(), e.Set)
		}
		return exitOK
	}
	if suite.Exe == "" {
		dir, err := os.MkdirTemp("", "harness-cbreach-")
		if err != nil {
			fmt.Fprintf(stderr, "harness: %v\n", err)
			return exitUsage
		}
		defer os.RemoveAll(dir)
		if suite.Exe, err = benchmarks.BuildCbreach(ctx, dir); err != nil {
			fmt.Fprintf(stderr, "harness: %v\n", err)
			return exitUsage
		}
	}
	how := fmt.Sprintf("%d at a time", suite.Jobs)
	if suite.Slurm {
		how = "as a Slurm job array"
	}
	fmt.Fprintf(stderr, "harness: %s (set %s) with cbreach suite, %s, timeout %s per run\n", plural.Count(len(exps), "run"), *set, how, *timeout)
	name := *set
	if *only != "" {
		name += fmt.Sprintf(", only %q", *only)
	}
	rep, err := benchmarks.Harness(ctx, benchmarks.Options{Experiments: exps, Timeout: *timeout, OutDir: *out, Set: name, Log: stderr, Suite: suite})
	if err != nil {
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "harness: %s in %s: %s or %s, %d cut off by a limit\n",
		plural.Count(len(rep.Runs), "run"), rep.Env.Wall.Round(time.Second), plural.Count(rep.Mismatch, "mismatch"), plural.Noun(rep.Mismatch, "error"), rep.Cutoff)
	for _, f := range rep.Files {
		fmt.Fprintf(stderr, "harness: wrote %s\n", f)
	}
	if rep.Cancelled {
		fmt.Fprintf(stderr, "harness: interrupted; the files hold the runs done so far\n")
	}
	if rep.Mismatch > 0 {
		fmt.Fprintf(stderr, "\nharness: MISMATCH: %s differing from the model's EXPECTED line:\n", plural.Count(rep.Mismatch, "run"))
		for i := range rep.Runs {
			r := &rep.Runs[i]
			if r.Status == benchmarks.StatusMismatch || r.Status == benchmarks.StatusError {
				fmt.Fprintf(stderr, "  %s: %s: %s\n", r.ID(), r.Status, r.Detail)
			}
		}
		return exitMismatch
	}
	if rep.Cancelled {
		return exitInterrupted
	}
	return exitOK
}

// runEngines runs the engines experiment (benchmarks.RunEngines).
func runEngines(ctx context.Context, only string, timeout time.Duration, out string, list bool, stdout, stderr io.Writer) int {
	exps := benchmarks.EngineExperiments()
	if only != "" {
		re, err := benchmarks.CompileOnly(only)
		if err != nil {
			fmt.Fprintf(stderr, "harness: --only: %v\n", err)
			return exitUsage
		}
		var keep []benchmarks.EngineExperiment
		for _, e := range exps {
			if re.MatchString(e.Model) {
				keep = append(keep, e)
			}
		}
		exps = keep
	}
	if len(exps) == 0 {
		fmt.Fprintf(stderr, "harness: no model of the engines experiment matches %q\n", only)
		return exitUsage
	}
	if list {
		for _, e := range exps {
			fmt.Fprintf(stdout, "%-24s K=%d\n", e.Model, e.K)
		}
		return exitOK
	}
	fmt.Fprintf(stderr, "harness: engines experiment, %s x %s, timeout %s per run, BDD kernel %s\n", plural.Count(len(exps), "point"), plural.Count(len(benchmarks.Engines), "engine"), timeout, bdd.Kernel)
	rep, err := benchmarks.RunEngines(ctx, benchmarks.EnginesOptions{Experiments: exps, Timeout: timeout, OutDir: out, Log: stderr})
	if err != nil {
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return exitUsage
	}
	for _, f := range rep.Files {
		fmt.Fprintf(stderr, "harness: wrote %s\n", f)
	}
	if rep.Cancelled {
		fmt.Fprintf(stderr, "harness: interrupted; the files hold the runs done so far\n")
		return exitInterrupted
	}
	if rep.Mismatch > 0 {
		fmt.Fprintf(stderr, "harness: MISMATCH: inconsistent runs or points: %d (engines.md lists them)\n", rep.Mismatch)
		return exitMismatch
	}
	return exitOK
}
