package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// exitDisagree is the exit status of --self-check when the engines
// disagree or one failed with an internal error (exitInternal).
const exitDisagree = exitInternal

// selfCheckHook, when set (by tests), may change each engine's result
// before it is compared: the way to show what a disagreement prints.
var selfCheckHook func(engine string, r *cbr.Result)

// checkRun is one engine's answer in a self-check.
type checkRun struct {
	name     string
	res      *cbr.Result
	err      error
	sites    []string // pos@contexts of every violation, sorted
	badTrace string   // what is wrong with a trace, if anything
}

// complete reports whether the run covered the whole bound.
func (r *checkRun) complete() bool {
	return r.err == nil && r.res.Limit == nil && r.res.Verdict != cbr.Unknown
}

// searched reports whether the run went to its end: complete, or cut
// only by the thread bound, which restricts what every engine explores
// in the same way (cbr.Result.ThreadBound), so that such runs are
// compared too, their coverage included.
func (r *checkRun) searched() bool {
	return r.complete() || r.err == nil && r.res.Limit != nil && errors.Is(r.res.Limit, cbr.ErrThreadBound)
}

// coverage says what the run explored: "complete up to 4 contexts", and
// the thread bound it assumes.
func coverage(r *cbr.Result) string {
	if r.Complete < 0 {
		return "nothing explored completely"
	}
	return "complete up to " + units(r.Complete, r.Unit) + inRuns(r)
}

// internal reports whether the run failed with an internal error (no
// result, or an error that is not a limit): a disagreement, never a
// cut-off.
func (r *checkRun) internal() bool {
	return r.res == nil || r.err != nil && !cbr.IsLimit(r.err)
}

// selfCheckNames lists the runs of a self-check, in words for -h.
func selfCheckNames() string {
	var names []string
	for _, v := range checkVariants() {
		names = append(names, v.name)
	}
	for _, e := range engines.All {
		if e.Units[0] == cbr.Rounds {
			names = append(names, e.Name)
		}
	}
	return cbr.Or(names)
}

// checkVariant is one engine of the table with one value of its split,
// as the self-check runs it.
type checkVariant struct {
	name  string
	entry engines.Entry
	split string // "" for an engine that takes none
}

// checkVariants are the runs of a self-check that the others are
// compared with: every engine whose bound counts contexts, once for each
// value of its split setting when it takes one. An engine that counts
// rounds is compared under the implications between the bounds
// (roundsCheck).
func checkVariants() []checkVariant {
	var out []checkVariant
	for _, e := range engines.All {
		if e.Units[0] == cbr.Rounds {
			continue
		}
		s := e.Setting("split")
		if s == nil {
			out = append(out, checkVariant{name: e.Name, entry: e})
			continue
		}
		for _, v := range s.Choices {
			out = append(out, checkVariant{name: e.Name + " " + v, entry: e, split: v})
		}
	}
	return out
}

// selfCheck runs every engine of the table on the model (checkVariants)
// with every violation site, prints their answers, and returns 0 or 1
// when they agree (as the verdict), 3 when some were cut off by a limit
// and the others agree (the cut-off ones found nothing the others did
// not), 4 when they disagree or a trace (built unless --no-trace) failed
// its replay or has another number of contexts than its violation.
func selfCheck(ctx context.Context, w io.Writer, net *pds.Network, c *config, opts cbr.Options) int {
	opts.All = true
	opts.OnProgress = nil
	var runs []*checkRun
	for _, v := range checkVariants() {
		set := engines.Settings{}
		for k, val := range c.settings {
			set[k] = val
		}
		if v.split != "" {
			set["split"] = v.split
		}
		r, err := analyze(ctx, v.name, v.entry.MustNew(set), net, opts)
		runs = append(runs, &checkRun{name: v.name, res: r, err: err})
	}
	if selfCheckHook != nil {
		for _, r := range runs {
			if r.res != nil {
				selfCheckHook(r.name, r.res)
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "self-check within %s:\n", units(max(opts.Bound, 0), opts.Unit))
	for _, r := range runs {
		fmt.Fprintf(&b, "  %-10s ", r.name+":")
		switch {
		case r.res == nil:
			fmt.Fprintf(&b, "ERROR %v\n", r.err)
			continue
		case r.internal():
			fmt.Fprintf(&b, "ERROR internal error (a bug), not a limit: %v", r.err)
		case r.res.Verdict == cbr.Unknown:
			fmt.Fprintf(&b, "UNKNOWN (%s; %s)", r.res.Reason, coverage(r.res))
		default:
			fmt.Fprintf(&b, "%s", strings.ToUpper(r.res.Verdict.String()))
			if r.res.Limit != nil {
				fmt.Fprintf(&b, " (then %s; %s)", r.res.Reason, coverage(r.res))
			}
		}
		for _, v := range r.res.Violations {
			site := v.Pos.String()
			if v.Target != nil {
				site = "target " + v.Message
			}
			r.sites = append(r.sites, fmt.Sprintf("%s@%d", site, v.Contexts))
		}
		sort.Strings(r.sites)
		if len(r.sites) > 0 {
			fmt.Fprintf(&b, ", fewest %s %d: %s", r.res.Unit, r.res.Contexts(), strings.Join(r.sites, ", "))
		}
		b.WriteString("\n")
		for _, v := range r.res.Violations {
			n, err := traceUnits(v.Trace, r.res)
			switch {
			case err != nil:
				r.badTrace = fmt.Sprintf("the trace of %s cannot be counted: %v", v.Pos, err)
			case v.Trace != nil && n != v.Contexts:
				r.badTrace = fmt.Sprintf("the trace of %s has %s, the violation %d", v.Pos, units(n, opts.Unit), v.Contexts)
			case v.TraceErr != nil && !cbr.IsLimit(v.TraceErr):
				r.badTrace = fmt.Sprintf("the trace of %s failed its replay: %v", v.Pos, v.TraceErr)
			}
			if r.badTrace != "" {
				fmt.Fprintf(&b, "  %-10s %s\n", "", r.badTrace)
				break
			}
		}
	}
	code, cut := agreement(runs)
	failed := false
	for _, e := range engines.All {
		if e.Units[0] != cbr.Rounds {
			continue
		}
		sc, f := roundsCheck(ctx, &b, net, e, c, opts, runs)
		if sc == exitDisagree || sc == exitUnknown && code != exitDisagree {
			code, cut = sc, cut || sc == exitUnknown
		}
		failed = failed || f
	}
	for _, r := range runs {
		failed = failed || r.internal()
	}
	switch {
	case code == exitDisagree && failed:
		b.WriteString("DISAGREE: an engine failed with an internal error (above)\n")
	case code == exitDisagree:
		b.WriteString("DISAGREE: the engines give different answers (figures above)\n")
	case cut:
		b.WriteString("AGREE as far as they went: some engine was cut off by a limit; the others agree\n")
	case code == exitUnknown:
		b.WriteString("AGREE, each cut off at the thread bound in the same way: the same verdict, sites and coverage\n")
	default:
		b.WriteString("AGREE\n")
	}
	io.WriteString(w, b.String())
	return code
}

// agreement compares the runs: the ones that searched to their end
// must give the same verdict, sites and coverage (how far each is
// complete, and the thread bound that assumes); a cut-off one must not
// have found a site those lack. It returns the exit status and whether
// a limit other than the thread bound cut some run off.
func agreement(runs []*checkRun) (code int, cut bool) {
	var ref *checkRun
	for _, r := range runs {
		if r.internal() || r.badTrace != "" {
			return exitDisagree, false
		}
		if !r.searched() {
			cut = true
			continue
		}
		if ref == nil {
			ref = r
			continue
		}
		if r.res.Verdict != ref.res.Verdict || strings.Join(r.sites, " ") != strings.Join(ref.sites, " ") ||
			r.res.Complete != ref.res.Complete || r.res.ThreadBound != ref.res.ThreadBound {
			return exitDisagree, cut
		}
	}
	if ref != nil {
		have := map[string]bool{}
		for _, s := range ref.sites {
			have[s] = true
		}
		for _, r := range runs {
			for _, s := range r.sites {
				if !have[s] {
					return exitDisagree, cut
				}
			}
		}
	}
	switch {
	case cut || ref.res.Verdict == cbr.Unknown:
		return exitUnknown, cut
	case ref.res.Verdict == cbr.Violation:
		return exitViolation, false
	}
	return exitSafe, false
}

// traceUnits counts a trace in the bound's unit on the network the
// engine ran.
func traceUnits(tr *cbr.Trace, r *cbr.Result) (int, error) {
	if tr == nil {
		return 0, nil
	}
	return tr.Units(r.Net, r.Unit)
}

// seqMaxRounds is the largest bound at which the self-check runs the seq
// engine (its lazy form): rounds are a larger bound than contexts (K
// rounds of n threads hold n*K contexts), and the bundled Bluetooth
// driver takes 0.4 s within 3 rounds, 4.5 s within 4 and 21 s within 5
// (measured by hand; benchmarks/results/engines.md has the family).
const seqMaxRounds = 3

// roundsCheck runs an engine that counts rounds (seq) within as many rounds as the bound has
// contexts and checks it against the complete cbr runs under the
// implications between the bounds (cbr/seq/doc.go): a violation with c
// contexts is found within c rounds, and SAFE within k rounds means SAFE
// within k contexts; a violation within k rounds may need more than k
// contexts. It writes its line and returns exitDisagree when an
// implication fails, exitUnknown when seq was cut off, 0 otherwise (also
// when it was left out, which the line says), and whether seq failed
// with an internal error.
func roundsCheck(ctx context.Context, b *strings.Builder, net *pds.Network, e engines.Entry, c *config, opts cbr.Options, runs []*checkRun) (code int, failed bool) {
	fmt.Fprintf(b, "  %-10s ", e.Name+":")
	switch {
	case opts.Unit != cbr.Contexts:
		b.WriteString("left out: it counts rounds, and rounds bound contexts, not preemptions\n")
		return 0, false
	case len(opts.Targets) > 0:
		b.WriteString("left out: it checks error labels, not targets\n")
		return 0, false
	case opts.Bound > seqMaxRounds:
		fmt.Fprintf(b, "left out: the self-check runs it up to %s, not %d (rounds bound more contexts)\n", units(seqMaxRounds, cbr.Rounds), opts.Bound)
		return 0, false
	}
	r, err := analyze(ctx, e.Name, e.MustNew(c.settings), net, opts)
	if r == nil {
		fmt.Fprintf(b, "ERROR %v\n", err)
		return exitDisagree, true
	}
	if err != nil && !cbr.IsLimit(err) {
		fmt.Fprintf(b, "ERROR internal error (a bug), not a limit: %v\n", err)
		return exitDisagree, true
	}
	rounds := map[string]int{} // site -> fewest rounds
	var sites []string
	for _, v := range r.Violations {
		if v.TraceErr != nil && !cbr.IsLimit(v.TraceErr) {
			fmt.Fprintf(b, "DISAGREE: the trace of %s failed its check: %v\n", v.Pos, v.TraceErr)
			return exitDisagree, false
		}
		rounds[v.Pos.String()] = v.Contexts
		sites = append(sites, fmt.Sprintf("%s@%d", v.Pos, v.Contexts))
	}
	sort.Strings(sites)
	sr := &checkRun{name: e.Name, res: r, err: err}
	complete := sr.complete()
	switch {
	case complete:
		fmt.Fprintf(b, "%s within %s", strings.ToUpper(r.Verdict.String()), units(opts.Bound, cbr.Rounds))
	case r.Verdict == cbr.Violation:
		fmt.Fprintf(b, "VIOLATION (then %s; %s)", r.Reason, coverage(r))
	default:
		fmt.Fprintf(b, "UNKNOWN (%s; %s)", r.Reason, coverage(r))
	}
	if len(sites) > 0 {
		fmt.Fprintf(b, ", fewest rounds %d: %s", r.Contexts(), strings.Join(sites, ", "))
	}
	b.WriteString("\n")
	for _, run := range runs {
		if run.res == nil || !run.searched() || !strings.HasPrefix(run.name, "cbr") {
			continue
		}
		if run.res.ThreadBound > 0 && sr.searched() && r.ThreadBound == 0 {
			fmt.Fprintf(b, "  %-10s DISAGREE: %s met the thread bound within %s, which seq must meet within %s\n", "",
				run.name, units(opts.Bound, cbr.Contexts), units(opts.Bound, cbr.Rounds))
			return exitDisagree, false
		}
		for _, v := range run.res.Violations {
			got, ok := rounds[v.Pos.String()]
			if !ok && !complete {
				continue
			}
			if !ok || got > v.Contexts {
				fmt.Fprintf(b, "  %-10s %s: %s with %s in %s must be found within %s\n", "", "DISAGREE", v.Pos, units(v.Contexts, cbr.Contexts),
					run.name, units(v.Contexts, cbr.Rounds))
				return exitDisagree, false
			}
		}
		break
	}
	if complete && r.Verdict == cbr.Violation && runs[0].res != nil && runs[0].res.Verdict == cbr.Safe {
		// The round-robin order holds every thread slot too.
		n := len(net.Threads)
		if slotted, err := net.WithThreadSlots(net.MaxThreads); err == nil {
			n = len(slotted.Threads)
		}
		fmt.Fprintf(b, "  %-10s (consistent: %s of %s allow up to %s)\n", "", units(opts.Bound, cbr.Rounds), plural.Count(n, "thread"),
			units(opts.Bound*n, cbr.Contexts))
	}
	if !sr.searched() {
		return exitUnknown, false
	}
	return 0, false
}
