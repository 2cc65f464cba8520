package seq

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
)

// Name is the engine's name on the command line.
const Name = "seq"

// Engine is the sequential reduction with its settings: the eager form
// (every start guessed, the paper's Sections 3 to 5) or the lazy one
// (Section 6). Its bound counts rounds of round-robin; the thread bound
// is the network's (pds.Options.MaxThreads).
type Engine struct {
	// Eager selects the eager form (every start guessed) over the lazy
	// one (each thread explored from the starts the others reach, round
	// by round), which the zero Engine runs, as the command line does.
	Eager bool
	// BDD sizes the sequential network's manager's tables (its Limits are
	// taken from the options' Limits).
	BDD bdd.Config
}

// Analyze runs the sequential reduction of net within opts.Bound rounds
// of round-robin (the zero Unit means rounds; no other unit is counted).
// It takes no targets and no unbounded search: either gives an
// cbr.OptionError and a nil Result. The Result's Figures hold its Stats (Figures).
// With Traces, the lazy form builds the traces (trace.go); the eager one,
// whose single run holds the threads' runs only with guessed values,
// takes them from a lazy run to the same rounds, which must find the
// same violations with the same fewest rounds (else the trace error says
// they disagree).
func (e Engine) Analyze(ctx context.Context, net *pds.Network, o cbr.Options) (*cbr.Result, error) {
	switch {
	case len(o.Targets) > 0:
		return nil, &cbr.OptionError{Engine: Name, Option: "Targets", Problem: "it checks error labels only, not targets"}
	case o.Unbounded:
		return nil, &cbr.OptionError{Engine: Name, Option: "Unbounded", Problem: "it takes a bound of rounds"}
	}
	k, _, err := o.Check(Name, cbr.Rounds)
	if err != nil {
		return nil, err
	}
	o.Bound, o.Unit = k, cbr.Rounds
	r, err := analyze(ctx, net, options{Engine: e, Options: o})
	var bad *cbr.OptionError
	if r == nil || errors.As(err, &bad) {
		return nil, err // a bound too large for the network is refused as any bad option
	}
	r.Result.Figures = e.Figures(&r.Result, &r.Seq)
	return &r.Result, err
}

// options are what a run reads: the engine's settings and the common
// options, checked (Bound in rounds, as cbr.Options.Check resolved it).
type options struct {
	Engine
	cbr.Options
}

// ProgressEvery is the number of post* steps between two calls of
// cbr.Options.OnProgress.
const ProgressEvery = 4096

// Stats are this engine's own figures.
type Stats struct {
	BuildTime  time.Duration // building the sequential network
	PostTime   time.Duration // post* and the query
	Rules      int           // rules of the sequential network
	Labels     int           // labels of the sequential network
	Threads    int           // n: threads in the round-robin order
	GlobalBits int           // bits of one copy of the sequential network's globals
	Nodes      int           // BDD nodes of the rule relations (shared nodes counted once per rule)
}

// Result is an cbr.Result with this engine's figures. In the
// cbr.Stats, Found.Contexts and the bound count rounds (Unit
// cbr.Rounds); PostStarCalls is 1 and PostStarSteps its steps.
type Result struct {
	cbr.Result
	Seq Stats
	Net *Net // the sequential network (nil when its construction failed)
}

// analyze runs the sequential reduction of net (Lal and Reps' eager
// form) within opts.Bound rounds of round-robin over its threads and
// thread slots: it builds the sequential network in a manager of its own,
// computes post* of its one thread and reads the checked error labels.
// Without opts.All it deepens: K = 1, 2, ... up to opts.Bound, each a new
// network, post* stopped at the first checked error.
// A limit or a cancellation gives an Unknown result with Limit set and a
// nil error.
func analyze(ctx context.Context, net *pds.Network, opts options) (*Result, error) {
	start := time.Now()
	res := &Result{Result: cbr.Result{Bound: opts.Bound, Unit: cbr.Rounds, Complete: -1, Converged: -1}}
	lim := bdd.Limits{MaxNodes: opts.MaxNodes, MaxMemory: opts.MaxMemory}
	var eng *pds.Network
	var atInit []cbr.Found
	err := net.M.Run(ctx, lim, func() error {
		var err error
		eng, err = net.WithThreadSlots(net.MaxThreads)
		if err != nil {
			return fmt.Errorf("seq: %w", err)
		}
		res.Result.Net = eng
		if err := checkRounds(eng, opts.Bound); err != nil {
			return err // before the first network: deepening would build every smaller one
		}
		atInit = cbr.InitialErrors(eng, cbr.Rounds)
		return net.M.Err()
	})
	// An error on top of an initial stack (Getafix's init failing) takes
	// no round: the reduction would first see it in round 1.
	for _, f := range atInit {
		if !opts.Traces {
			f.Trace, f.TraceErr = nil, nil
		}
		if res.AddFound(f, opts.OnViolation, opts.All) {
			res.Complete = 0
			return finish(res, nil, nil, start, true)
		}
	}
	if err == nil && !opts.Eager {
		cut, err := analyzeLazy(ctx, eng, opts, res, start, lim)
		return finish(res, err, cut, start, res.Complete < res.Bound)
	}
	// The eager form deepens the bound, every K a new network: stopping
	// at the first violation, post* stops at the first checked error, and
	// the first K with one is its fewest rounds; with All, every K runs to
	// the end and reports the sites not reported before, with the fewest
	// rounds. Every complete network gives the next one the sequences of
	// round starts it confirmed, to which the next one's guesses are
	// restricted (doc.go, "The guesses from the rounds before").
	var cutoff error
	var hist *confirmed // nil until a network confirmed round starts
	stopped := false
	for k := 1; err == nil && k <= opts.Bound; k++ {
		b := time.Now()
		var sn *Net
		cfg := opts.BDD
		cfg.Limits = lim
		sn, err = Build(ctx, eng, k, cfg)
		if err == nil {
			err = sn.Net.M.Run(ctx, lim, func() error {
				sn.guessed = hist.guesses(sn)
				return sn.Net.M.Err()
			})
		}
		res.Seq.BuildTime += time.Since(b)
		if err != nil {
			break
		}
		res.Net = sn
		n := sn.Net
		res.Seq.noteNet(sn)
		post := time.Now()
		var a *symauto.Auto
		err = n.M.Run(ctx, lim, func() error {
			var err error
			a, err = sn.run(ctx, opts, res, start, !opts.All)
			return err
		})
		res.Seq.PostTime += time.Since(post)
		res.Stats.PeakNodes = max(res.Stats.PeakNodes, n.M.PeakNodes())
		if errors.Is(err, cbr.ErrThreadBound) {
			// post* ran to its end: round k is explored, for the runs
			// with at most the thread bound's threads.
			cutoff, err = err, nil
		}
		if err == nil {
			res.Complete = k
		}
		if len(res.Violations) > 0 && !opts.All {
			// post* stopped at the first error of round k: the rounds
			// before were all explored, round k not.
			res.Complete, stopped = k-1, true
			break
		}
		if err == nil && k < opts.Bound {
			b := time.Now()
			hist, err = confirm(ctx, sn, a, lim)
			res.Seq.BuildTime += time.Since(b)
		}
	}
	if opts.Traces && (err == nil || cbr.IsLimit(err)) && len(res.Violations) > 0 {
		// Under the grace period of a run cut off (cbr.Grace).
		g, release := cbr.Grace(ctx)
		lazyTraces(g, net, opts, res)
		release()
	}
	return finish(res, err, cutoff, start, stopped)
}

// labels returns the error labels of the violations found so far (those
// of the initial configurations).
func (res *Result) labels() map[*pds.Label]bool {
	out := map[*pds.Label]bool{}
	for _, f := range res.Violations {
		out[f.Label] = true
	}
	return out
}

// lazyTraces gives the eager form's violations the traces of a lazy run
// within their rounds: same label, same fewest rounds (the thread is the
// trace's, the least that reaches it in that round).
func lazyTraces(ctx context.Context, net *pds.Network, opts options, res *Result) {
	t := time.Now()
	k := 0
	for _, f := range res.Violations {
		k = max(k, f.Contexts)
	}
	lo := opts
	lo.Bound, lo.All, lo.Eager, lo.OnProgress, lo.OnViolation = k, true, false, nil, nil
	lr, err := analyze(ctx, net, lo)
	res.Stats.TraceTime += time.Since(t)
	byLabel := map[*pds.Label]cbr.Found{}
	if lr != nil {
		for _, f := range lr.Violations {
			byLabel[f.Label] = f
		}
	}
	for i := range res.Violations {
		f := &res.Violations[i]
		g, ok := byLabel[f.Label]
		switch {
		case err != nil:
			f.TraceErr = err
		case ok && g.Contexts == f.Contexts && g.Trace != nil:
			f.Thread, f.Proc, f.Trace = g.Thread, g.Proc, g.Trace
		case ok && g.Contexts == f.Contexts:
			f.TraceErr = g.TraceErr
		case lr.Limit != nil && !errors.Is(lr.Limit, cbr.ErrThreadBound):
			f.TraceErr = lr.Limit // cut off before it found the violation
		default:
			f.TraceErr = fmt.Errorf("%w: the lazy form does not find %s within %s, as the eager form does", cbr.ErrBadTrace, f.Label.Name, cbr.Rounds.Of(f.Contexts))
		}
	}
}

// analyzeLazy builds the lazy form's network for opts.Bound and runs it
// round by round (no deepening: round k's results are the next one's
// start). It returns the thread bound's limit when a start was cut off
// (cbr.ThreadLimit), and how the run ended.
func analyzeLazy(ctx context.Context, eng *pds.Network, opts options, res *Result, start time.Time, lim bdd.Limits) (cut, err error) {
	b := time.Now()
	cfg := opts.BDD
	cfg.Limits = lim
	sn, err := BuildLazy(ctx, eng, opts.Bound, cfg)
	res.Seq.BuildTime += time.Since(b)
	if err != nil {
		return nil, err
	}
	res.Net = sn
	res.Seq.noteNet(sn)
	post := time.Now()
	complete := -1
	var z *lazy
	err = sn.Net.M.Run(ctx, lim, func() error {
		var err error
		z = newLazy(sn)
		complete, cut, err = sn.runLazy(ctx, opts, res, start, z)
		return err
	})
	res.Seq.PostTime += time.Since(post)
	if z != nil && (err == nil || cbr.IsLimit(err)) {
		// Traces are built after the run, for up to cbr.GraceTime
		// more when it was cut off.
		trace := res.Stats.TraceTime
		if e := res.BuildTraces(ctx, sn.Net.M, opts.Limits, opts.Traces, func(g context.Context) { z.buildTraces(g, res) }); e != nil && err == nil {
			err = e
		}
		res.Stats.TraceTime += trace
	}
	res.Stats.PeakNodes = max(res.Stats.PeakNodes, sn.Net.M.PeakNodes())
	res.Complete = complete
	return cut, err
}

// noteNet records the figures of a sequential network.
func (st *Stats) noteNet(sn *Net) {
	n := sn.Net
	st.Rules, st.Labels, st.Threads, st.GlobalBits, st.Nodes = len(n.Rules), len(n.Labels), sn.Threads, 0, 0
	for _, g := range n.Globals {
		st.GlobalBits += g.Type.Bits
	}
	for _, r := range n.Rules {
		st.Nodes += n.M.Size(r.Rel)
	}
}

// finish decides the verdict of a run that ended with err, cut being the
// thread bound's limit when a start was cut off (the engines' one finish
// step, cbr.Result.Finish).
func finish(res *Result, err, cut error, start time.Time, stopped bool) (*Result, error) {
	res.Stats.Time = time.Since(start)
	searched := err == nil
	if err := res.Finish(err, cut); err != nil {
		return res, err
	}
	if searched && !stopped {
		res.Complete = res.Bound
	}
	return res, nil
}

// Init returns the automaton of the sequential network's initial
// configuration: the original initial globals (their Init values and
// InitGlobals) in round 1's copy, and in
// each later round's copy a guess, the same value as its guess copy.
func (s *Net) Init(sp *symauto.Space) *symauto.Auto {
	n := s.Net
	m := n.M
	eq := m.And(s.hidden, s.guessed)
	for i := range s.copies {
		for r := 1; r < s.Rounds; r++ {
			eq = m.And(eq, m.Eq(n.GlobalVec(s.copies[i][r], pds.GCur), n.GlobalVec(s.guess[i][r], pds.GCur)))
		}
	}
	if s.Orig.InitGlobals != nil {
		// Round 1's copy holds a valuation of the original initial relation.
		eq = m.And(eq, m.Translate(s.Orig.M, s.Orig.InitGlobals.Rel, s.mapping(s.Orig, n, 0)))
	}
	return sp.Init(n.Threads[0]).RestrictGlobals(eq)
}

// Site is an error reached with guesses every round confirmed.
type Site struct {
	Label  *pds.Label // of the original network (an Assert, Bounds or Cutoff label)
	Thread int        // the thread that reached it, in the round-robin order
	Rounds int        // in round Rounds (1-based)
}

// Sites returns the checked errors of a post* result of the sequential
// network, sorted by rounds, then label, then thread.
func (s *Net) Sites(a *symauto.Auto) []Site {
	n := s.Net
	m := n.M
	var keep []bdd.Ref
	for _, g := range n.Globals {
		if !slices.Contains(s.err.bits, g) && !slices.Contains(s.errThread.bits, g) && !slices.Contains(s.errRound.bits, g) {
			keep = append(keep, bdd.Ref{Var: g.Var, Copy: pds.GCur})
		}
	}
	others := m.Set(keep...)
	g := m.False()
	for _, top := range a.Tops(func(l *pds.Label) bool { return s.ends[l] }) {
		g = m.Or(g, m.Exists(top.Globals, others))
	}
	var sites []Site
	fields := []bdd.Vec{s.err.vec(m, pds.GCur), s.errThread.vec(m, pds.GCur), s.errRound.vec(m, pds.GCur)}
	m.Enumerate(g, fields, func(v []uint64) bool {
		if v[0] >= 1 && int(v[0]) <= len(s.errs) {
			sites = append(sites, Site{Label: s.errs[v[0]-1], Thread: int(v[1]), Rounds: int(v[2]) + 1})
		}
		return true
	})
	sort.Slice(sites, func(i, j int) bool {
		a, b := sites[i], sites[j]
		if a.Rounds != b.Rounds {
			return a.Rounds < b.Rounds
		}
		if a.Label.ID != b.Label.ID {
			return a.Label.ID < b.Label.ID
		}
		return a.Thread < b.Thread
	})
	return sites
}

// run computes post* and reports the sites.
func (s *Net) run(ctx context.Context, opts options, res *Result, start time.Time, early bool) (*symauto.Auto, error) {
	sp := symauto.NewSpace(s.Net)
	m := s.Net.M
	real := m.False() // $err names an error label, not a cutoff
	for i, l := range s.errs {
		if l.Kind.IsError() {
			real = m.Or(real, s.err.is(m, pds.GCur, uint64(i+1)))
		}
	}
	sat := symauto.NewSaturation(s.Init(sp), 0)
	if early {
		sat.OnAdd = func(t symauto.Trans, d bdd.Node) bool {
			return !s.ends[t.Label] || m.And(d, real).IsFalse()
		}
	}
	steps, err := s.saturate(ctx, sat, s.Rounds, opts, res, start)
	if err != nil {
		return nil, err
	}
	a := sat.Result()
	sites := s.Sites(a)
	if sat.Stopped() && !hasError(sites) {
		// Stopped on a label whose configurations are not accepted (a
		// safeguard: post* adds only reachable ones): saturate fully.
		sat = symauto.NewSaturation(s.Init(sp), 0)
		more, err := s.saturate(ctx, sat, s.Rounds, opts, res, start)
		if err != nil {
			return nil, err
		}
		steps += more
		a = sat.Result()
		sites = s.Sites(a)
	}
	res.Stats.PostStarCalls++
	res.Stats.PostStarSteps += steps
	return a, s.report(sites, opts, res)
}

func hasError(sites []Site) bool {
	for _, st := range sites {
		if st.Label.Kind.IsError() {
			return true
		}
	}
	return false
}

// saturate runs sat until done, checking ctx and the manager, and returns
// its steps.
func (s *Net) saturate(ctx context.Context, sat *symauto.Saturation, round int, opts options, res *Result, start time.Time) (int, error) {
	for !sat.Done() {
		sat.Step()
		if sat.Steps()&63 == 0 {
			if err := ctx.Err(); err != nil {
				return sat.Steps(), err
			}
			if err := s.Net.M.Err(); err != nil {
				return sat.Steps(), err
			}
			if opts.OnProgress != nil && sat.Steps()%ProgressEvery == 0 {
				opts.OnProgress(cbr.Progress{Level: round, PostStar: res.Stats.PostStarCalls + 1, Tuples: res.Stats.PostStarSteps + sat.Steps(), Elapsed: time.Since(start)})
			}
		}
	}
	return sat.Steps(), s.Net.M.Err()
}

// report adds the sites to the result: one violation per label, with its
// fewest rounds.
func (s *Net) report(sites []Site, opts options, res *Result) error {
	found := res.labels()
	var cutoff *pds.Label
	for _, st := range sites {
		if st.Label.Kind == pds.Cutoff {
			if cutoff == nil {
				cutoff = st.Label
			}
			continue
		}
		if found[st.Label] {
			continue
		}
		found[st.Label] = true
		l := st.Label
		f := cbr.Found{Kind: l.Kind, Label: l, Pos: l.Pos, Thread: st.Thread, Proc: l.Proc.Name, Contexts: st.Rounds, Message: l.Message}
		if stop := res.AddFound(f, opts.OnViolation, opts.All); stop {
			break
		}
	}
	if err := s.Net.M.Err(); err != nil {
		return err
	}
	if cutoff != nil {
		return s.cutoffErr(cutoff)
	}
	return nil
}

// cutoffErr is the error of the start beyond the thread bound whose
// cutoff label is l.
func (s *Net) cutoffErr(l *pds.Label) error {
	return cbr.ThreadLimit(Name, l.Pos, s.Orig.MaxThreads)
}
