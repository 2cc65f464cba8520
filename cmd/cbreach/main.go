// Command cbreach checks a concurrent program with recursive procedures
// for errors reachable within a bound on the number of contexts (maximal
// runs of one thread).
//
//	cbreach [flags] [--format NAME] FILE    (cbreach -h lists the formats)
//	cbreach [flags] --cuba SYSTEM.pds [--init SYSTEM.init] [--target SYSTEM.spec | --target 'q|t0,t1']
//	cbreach suite [flags] TASKS-or-DIRS...
//
// Exit status: 0 no violation within the bound, 1 violation, 2 bad input
// or usage, 3 unknown (a time, memory, node or thread limit, or Ctrl-C,
// cut the search off), 4 an internal error (a bug: never a limit, never
// bad input) or, with --self-check, the engines disagree.
//
// The command only dispatches: it parses the flags into the options every
// engine takes (flags.go), looks the engine up in the table of package
// cbr/engines, runs it and reports (output.go, one report for every
// engine; engines.go holds what is shown per engine). input.go reads the
// program with a reader of the table of package frontend/readers,
// trace.go prints traces, dot.go draws them (--dot), selfcheck.go runs
// --self-check, suite.go runs task suites.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds/diag"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/pds"
)

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

// hardStopWait is how long the run may take to return after a second
// Ctrl-C or SIGTERM, to print what it covered, before the process exits.
const hardStopWait = time.Second

// analyze runs an engine, turning a panic of its into an internal error
// (a bug: exit 4, a disagreement for --self-check), never Go's exit 2 of
// "bad input", and applies engineHook.
func analyze(ctx context.Context, name string, e engines.Engine, net *pds.Network, opts cbr.Options) (*cbr.Result, error) {
	res, err := func() (res *cbr.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				bound, unit, _ := opts.Check(name, opts.Unit)
				if opts.Unbounded {
					bound = 0 // none reached
				}
				err = diag.Internal(fmt.Errorf("%s: internal error (a bug): panic: %v", name, p))
				res = &cbr.Result{Verdict: cbr.Unknown, Bound: bound, Unit: unit, Complete: -1, Converged: -1, Net: net,
					Reason: err.Error(), Stats: cbr.Stats{TuplesPerLevel: make([]int, max(bound, 0)+1)}}
			}
		}()
		if enginePanic != nil {
			enginePanic(name)
		}
		return e.Analyze(ctx, net, opts)
	}()
	return hooked(name)(res, err)
}

// enginePanic, when set (by tests), runs before each
// engine: the way to show what a panic of an engine gives.
var enginePanic func(engine string)

// isInternal reports whether an error that is not a limit is an internal
// error (a bug) rather than bad input: its type says so (pds/diag's
// kinds; the BDD kernel's failure).
func isInternal(err error) bool {
	return diag.IsInternal(err) || errors.Is(err, bdd.ErrInternal)
}

func main() {
	// Ctrl-C and SIGTERM cancel the run, which then reports what it
	// covered, as a time limit does, building the traces of the
	// violations it found for up to cbr.GraceTime more; a second one
	// stops that at once (the hard stop). Should the run still not have
	// returned HardStopWait after the second, the process exits with
	// UNKNOWN and no report.
	hard, hardStop := context.WithCancel(context.Background())
	ctx, stop := context.WithCancel(hard)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		stop()
		<-sigs
		hardStop()
		select {
		case <-sigs:
		case <-time.After(hardStopWait):
		}
		fmt.Fprintln(os.Stderr, "cbreach: interrupted twice: stopped without a report")
		os.Exit(exitUnknown)
	}()
	code := run(cbr.WithHardStop(ctx, hard), os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr))
	signal.Stop(sigs)
	stop()
	hardStop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// stdin is what the input file "-" reads (tests replace it).
var stdin io.Reader = os.Stdin

// run is the command: parse, load, analyse with the chosen engine, report.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	if len(args) > 0 && args[0] == "suite" {
		return runSuite(ctx, args[1:], stdout, stderr, tty) // suite.go
	}
	c, opts, code, done := parse(args, stdout, stderr)
	if done {
		return code
	}
	ctx, release, err := c.limits(ctx)
	if err != nil {
		return c.fail(stdout, stderr, exitUsage, err.Error())
	}
	defer release()
	return c.checkAndDraw(ctx, stdout, stderr, opts, tty) // dot.go
}

// check loads the input and analyses it with the chosen engine (or
// prints it, or runs --self-check), reports, and returns the exit status
// with the input and the result (nil when nothing was analysed).
func (c *config) check(ctx context.Context, stdout, stderr io.Writer, opts cbr.Options, tty bool) (int, *input, *cbr.Result) {
	in, err := load(ctx, c.file, c)
	if err != nil {
		return c.loadFailed(stdout, stderr, in, opts, err), in, nil
	}
	if c.printRules {
		return c.print(ctx, stdout, stderr, in), in, nil
	}
	if err := c.checkInput(in); err != nil {
		return c.fail(stdout, stderr, exitUsage, err.Error()), in, nil
	}
	opts.Targets = in.targets
	if c.engine.selfCheck {
		return selfCheck(ctx, stdout, in.net, c, opts), in, nil
	}
	if tty && !c.json && !c.quiet {
		opts.OnProgress = throttled(stderr, c.entry.Progress, opts.Unit)
	}
	res, err := analyze(ctx, c.entry.Name, c.eng, in.net, opts)
	if opts.OnProgress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	return c.finish(stdout, stderr, in, res, err), in, res
}

// finish reports a run and returns its exit status. An engine returns no
// result for options it cannot use (bad input), and a result with an
// error that is not a limit for an internal error: what it covered is
// reported, the exit status is 4.
func (c *config) finish(stdout, stderr io.Writer, in *input, res *cbr.Result, err error) int {
	internal := false
	if err != nil {
		if res == nil {
			return c.fail(stdout, stderr, exitUsage, c.flagWords(err))
		}
		internal = !cbr.IsLimit(err)
		if internal {
			fmt.Fprintf(stderr, "cbreach: internal error (a bug), not a limit: %v\n", err)
			res.Reason = "internal error (a bug): " + res.Reason
		} else {
			fmt.Fprintf(stderr, "cbreach: %v\n", err)
		}
	}
	report(stdout, in, c, res)
	for _, v := range res.Violations {
		if v.TraceErr != nil && !cbr.IsLimit(v.TraceErr) {
			fmt.Fprintf(stderr, "cbreach: internal error: the trace of %s failed its check: %v\n", tracefmt.Describe(v, res.Unit), v.TraceErr)
			return exitInternal
		}
	}
	switch {
	case internal:
		return exitInternal
	case res.Verdict == cbr.Violation:
		return exitViolation
	case res.Verdict == cbr.Unknown:
		return exitUnknown
	}
	return exitSafe
}

// fail ends the run with an error before a result and returns code:
// "cbreach: msg" on standard error, then the hint lines, if any, and with
// --json one schema.Error on standard output, whose error is msg (without
// the program's name) and whose exit is code. Every error of the command
// that comes before a result goes through it: usage (a flag, its value,
// the file argument), input, a limit of the process, an internal error.
func (c *config) fail(stdout, stderr io.Writer, code int, msg string, hint ...string) int {
	fmt.Fprintf(stderr, "cbreach: %s\n", msg)
	for _, h := range hint {
		fmt.Fprintln(stderr, h)
	}
	if c.json || c.jsonArg {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(schema.Error{Schema: schema.Version, Version: version, Error: msg, Exit: code})
	}
	return code
}
