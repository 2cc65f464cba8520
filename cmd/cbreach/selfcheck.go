package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
)

// exitDisagree is the exit status of --self-check when the engines
// disagree.
const exitDisagree = 4

// checkRun is one engine's answer in a self-check.
type checkRun struct {
	name  string
	res   *cbr.Result
	err   error
	sites []string // pos@contexts of every violation, sorted
}

// complete reports whether the run covered the whole bound.
func (r *checkRun) complete() bool {
	return r.err == nil && r.res.Limit == nil && r.res.Verdict != cbr.Unknown
}

// selfCheck runs cbr eager, cbr lazy and the explicit engine on the model
// with every violation site, prints their answers, and returns 0 or 1
// when they agree (as the verdict), 3 when some were cut off by a limit
// and the others agree (the cut-off ones found nothing the others did
// not), 4 when they disagree.
func selfCheck(ctx context.Context, w io.Writer, net *pds.Network, c *config, opts cbr.Options) int {
	opts.All = true
	opts.OnProgress = nil
	var runs []*checkRun
	for _, s := range []cbr.Strategy{cbr.Eager, cbr.Lazy} {
		o := opts
		o.Split = s
		r, err := cbr.Analyze(ctx, net, o)
		runs = append(runs, &checkRun{name: "cbr " + s.String(), res: r, err: err})
	}
	r, err := runExplicit(ctx, net, c, opts)
	runs = append(runs, &checkRun{name: "explicit", res: r, err: err})

	var b strings.Builder
	fmt.Fprintf(&b, "self-check within %s:\n", plural(opts.Contexts, "context"))
	for _, r := range runs {
		fmt.Fprintf(&b, "  %-10s ", r.name+":")
		switch {
		case r.res == nil:
			fmt.Fprintf(&b, "ERROR %v\n", r.err)
			continue
		case r.res.Verdict == cbr.Unknown:
			fmt.Fprintf(&b, "UNKNOWN (%s)", r.res.Reason)
		default:
			fmt.Fprintf(&b, "%s", strings.ToUpper(r.res.Verdict.String()))
			if r.res.Limit != nil {
				fmt.Fprintf(&b, " (then %s)", r.res.Reason)
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
			fmt.Fprintf(&b, ", fewest contexts %d: %s", r.res.Contexts(), strings.Join(r.sites, ", "))
		}
		b.WriteString("\n")
	}
	code := agreement(runs)
	switch code {
	case exitDisagree:
		b.WriteString("DISAGREE: the engines give different answers (figures above)\n")
	case exitUnknown:
		b.WriteString("AGREE as far as they went: some engine was cut off by a limit; the others agree\n")
	default:
		b.WriteString("AGREE\n")
	}
	io.WriteString(w, b.String())
	return code
}

// agreement compares the runs: the complete ones must give the same
// verdict and sites; a cut-off one must not have found a site the
// complete ones lack.
func agreement(runs []*checkRun) int {
	var ref *checkRun
	cut := false
	for _, r := range runs {
		if r.res == nil {
			return exitDisagree
		}
		if !r.complete() {
			cut = true
			continue
		}
		if ref == nil {
			ref = r
			continue
		}
		if r.res.Verdict != ref.res.Verdict || strings.Join(r.sites, " ") != strings.Join(ref.sites, " ") {
			return exitDisagree
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
					return exitDisagree
				}
			}
		}
	}
	switch {
	case cut:
		return exitUnknown
	case ref.res.Verdict == cbr.Violation:
		return exitViolation
	}
	return exitSafe
}
