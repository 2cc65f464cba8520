package benchmarks

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/cbreach/cbreach/cbr/engines"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds/plural"
)

// The engines experiment (issue "A second symbolic engine"): the
// view-tuple engine (cbr, lazy splitting) against Lal and Reps' sequential
// reduction in its eager and lazy forms (cbr/seq), on the axes of Lal and
// Reps' experiments: their Bluetooth family by threads (their Fig. 6(a)),
// the binary search tree by execution contexts per thread (their Fig. 7),
// and Vector by the width of its data. The bound is K for every engine:
// K contexts in total for cbr, K rounds of round-robin (K contexts per
// thread) for seq, as in the paper's comparison with jMoped. The two
// bounds differ: K rounds of n threads hold up to n*K contexts, so seq
// answers a larger question (cbr/seq/doc.go).

// Engines are the engines the experiment compares, in report order.
var Engines = []string{"cbr-lazy", "seq-eager", "seq-lazy"}

// EngineExperiment is one point of the engines experiment: a model and a
// bound, run by every engine.
type EngineExperiment struct {
	Family string // lalreps, bst, vector
	Model  string // file name without .pds, or the generated Vector model's name
	File   string // in models/; "" for a generated Vector model
	Bits   int    // Vector: width of x
	X      int    // the axis: threads (lalreps), K (bst), bits (vector)
	K      int    // the bound: contexts for cbr, rounds for seq
	// MaxThreads is the thread bound (0: the default, 8). Vector starts
	// one thread: 2 is all it needs, and every further slot is a thread
	// of seq's round-robin order whose hidden globals it carries.
	MaxThreads int
}

// Axis names the x axis of a family.
func Axis(family string) string {
	switch family {
	case "lalreps":
		return "threads"
	case "bst":
		return "contexts per thread (K)"
	}
	return "bits of x"
}

// EngineExperiments returns the engines experiment's points: the Lal-Reps
// Bluetooth family with 2 to 5 threads at K = 3 (the axis of the paper's
// Fig. 6(a), which fixes 4 execution contexts per thread; at 4 the eager
// form times out already with 2 threads); the binary search tree with 2
// inserters and 1 searcher at K = 2 to 6 (the axis of their Fig. 7, whose
// second row is this mix); Vector Java 5 at 1 to 16 bits, K = 3 (the
// jMoped paper's bound), with the 2 threads it needs.
func EngineExperiments() []EngineExperiment {
	var out []EngineExperiment
	for n := 2; n <= 5; n++ {
		m := fmt.Sprintf("bluetooth-lalreps-n%d", n)
		out = append(out, EngineExperiment{Family: "lalreps", Model: m, File: m + ".pds", X: n, K: 3})
	}
	for k := 2; k <= 6; k++ {
		out = append(out, EngineExperiment{Family: "bst", Model: "bst-i2s1", File: "bst-i2s1.pds", X: k, K: k})
	}
	for b := 1; b <= 16; b++ {
		out = append(out, EngineExperiment{Family: "vector", Model: fmt.Sprintf("vector-java5-b%d", b), Bits: b, X: b, K: 3, MaxThreads: 2})
	}
	return out
}

// EngineRun is one engine's run of an EngineExperiment.
type EngineRun struct {
	EngineExperiment
	Engine  string
	Status  Status // ok, MISMATCH, timeout, limit, error; "skipped" after a timeout at a smaller point
	Detail  string
	Verdict cbr.Verdict
	Fewest  int // fewest contexts (cbr) or rounds (seq) of a violation; -1 for none
	Threads int // n: threads of the round-robin order (seq), of the network (cbr)
	Work    int // view tuples (cbr) or post* steps (seq)
	Peak    int // peak BDD nodes
	Time    time.Duration
}

// StatusSkipped marks a run not made: the same engine timed out at a
// smaller point of the same axis.
const StatusSkipped Status = "skipped"

// RunEngine runs one engine on one point, within timeout, and checks the
// verdict against the model's EXPECTED line: exactly for cbr, under the
// implications between the bounds for seq (SAFE when the violation needs
// more than n*K contexts or there is none; a violation within at most c
// rounds when it needs c <= K contexts).
func RunEngine(ctx context.Context, e EngineExperiment, engine string, timeout time.Duration) EngineRun {
	r := EngineRun{EngineExperiment: e, Engine: engine, Fewest: -1}
	fail := func(err error) EngineRun {
		r.Status, r.Detail = StatusError, err.Error()
		return r
	}
	net, want, err := Experiment{Model: e.Model, File: e.File, Bits: e.Bits}.load()
	if err != nil {
		return fail(err)
	}
	if e.MaxThreads > 0 {
		net.MaxThreads = e.MaxThreads
	}
	runCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	name, form, _ := strings.Cut(engine, "-")
	entry, err := engines.Lookup(name)
	if err != nil {
		return fail(fmt.Errorf("unknown engine %q", engine))
	}
	set := engines.Settings{}
	if form != "" {
		set["split"] = form
	}
	eng, err := entry.New(set)
	if err != nil {
		return fail(err)
	}
	res, err := eng.Analyze(runCtx, net, cbr.Options{Bound: e.K, All: true})
	if res != nil {
		r.Work, r.Threads = workOf(res), len(net.Threads)
		if n, ok := statOf(res, "threads"); ok {
			r.Threads = n // the sequential reduction's round-robin order
		}
	}
	if res == nil {
		return fail(err)
	}
	r.Verdict, r.Fewest, r.Peak, r.Time = res.Verdict, res.Contexts(), res.Stats.PeakNodes, res.Stats.Time
	if err != nil {
		return fail(err)
	}
	switch {
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		r.Status, r.Detail = StatusTimeout, "time limit reached"
	case res.Verdict == cbr.Unknown:
		r.Status, r.Detail = StatusLimit, res.Reason
	default:
		r.Status, r.Detail = StatusOK, ""
		if msg := r.inconsistent(want); msg != "" {
			r.Status, r.Detail = StatusMismatch, msg
		}
	}
	return r
}

// inconsistent says how a complete run contradicts the expected verdict,
// or "" when it does not.
func (r *EngineRun) inconsistent(want Expected) string {
	violation, fewest := want.Within(r.K)
	got := r.Verdict == cbr.Violation
	if r.Engine == "cbr-lazy" {
		if got != violation || got && r.Fewest != fewest {
			return fmt.Sprintf("got %s with %s, EXPECTED: %s", r.Verdict, cbr.Contexts.Of(r.Fewest), want)
		}
		return ""
	}
	switch {
	case !want.Violation && got:
		return fmt.Sprintf("a violation within %s, EXPECTED: %s", cbr.Rounds.Of(r.Fewest), want)
	case want.Violation && want.Contexts <= r.K && (!got || r.Fewest > want.Contexts):
		return fmt.Sprintf("got %s (%s), but a violation with %s fits in %s", r.Verdict, cbr.Rounds.Of(r.Fewest), cbr.Contexts.Of(want.Contexts), cbr.Rounds.Of(want.Contexts))
	case got && r.Threads*r.Fewest < want.Contexts:
		return fmt.Sprintf("a violation within %s of %s, but it needs %s", cbr.Rounds.Of(r.Fewest), plural.Count(r.Threads, "thread"), cbr.Contexts.Of(want.Contexts))
	}
	return ""
}

// EnginesOptions configure RunEngines.
type EnginesOptions struct {
	Experiments []EngineExperiment
	Engines     []string      // default Engines
	Timeout     time.Duration // per run; 0 means none
	OutDir      string        // where engines.md, engines.csv and engines.svg go
	Log         io.Writer
}

// EnginesReport is the outcome of RunEngines.
type EnginesReport struct {
	Runs      []EngineRun
	Env       Env
	Files     []string
	Mismatch  int // runs with status MISMATCH or error, and points where the two seq forms disagree
	Cancelled bool
}

// RunEngines runs every engine on every point, one run after the other,
// each on a fresh network; an engine that timed out at a point is not run
// at the larger points of the same model family (StatusSkipped). The two
// forms of seq must agree where both are complete: same verdict, same
// fewest rounds. It writes engines.md, engines.csv and engines.svg into
// opts.OutDir.
func RunEngines(ctx context.Context, opts EnginesOptions) (*EnginesReport, error) {
	engines := opts.Engines
	if len(engines) == 0 {
		engines = Engines
	}
	rep := &EnginesReport{Env: Env{Kernel: bdd.Kernel, GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		NumCPU: runtime.NumCPU(), Set: "engines", Timeout: opts.Timeout, Started: time.Now()}}
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	cut := map[string]bool{} // family/engine that timed out
	total := len(opts.Experiments) * len(engines)
	i := 0
	for _, e := range opts.Experiments {
		var point []EngineRun
		for _, eng := range engines {
			i++
			if ctx.Err() != nil {
				rep.Cancelled = true
				break
			}
			var r EngineRun
			if cut[e.Family+"/"+eng] {
				r = EngineRun{EngineExperiment: e, Engine: eng, Status: StatusSkipped, Fewest: -1, Detail: "timed out at a smaller point"}
			} else {
				runtime.GC()
				r = RunEngine(ctx, e, eng, opts.Timeout)
				if ctx.Err() != nil {
					rep.Cancelled = true
					break
				}
				if r.Status == StatusTimeout || r.Status == StatusLimit {
					cut[e.Family+"/"+eng] = true
				}
			}
			if r.Status == StatusMismatch || r.Status == StatusError {
				rep.Mismatch++
			}
			point = append(point, r)
			fmt.Fprintf(log, "[%*d/%d] %-24s K=%d %-9s %s\n", len(fmt.Sprint(total)), i, total, e.Model, e.K, eng, r.summary())
		}
		// The two forms of seq answer the same question.
		var eager, lazy *EngineRun
		for j := range point {
			switch point[j].Engine {
			case "seq-eager":
				eager = &point[j]
			case "seq-lazy":
				lazy = &point[j]
			}
		}
		if eager != nil && lazy != nil && eager.Status == StatusOK && lazy.Status == StatusOK &&
			(eager.Verdict != lazy.Verdict || eager.Fewest != lazy.Fewest) {
			for _, r := range []*EngineRun{eager, lazy} {
				r.Status, r.Detail = StatusMismatch, "the two forms of seq disagree"
			}
			rep.Mismatch++
		}
		rep.Runs = append(rep.Runs, point...)
		if rep.Cancelled {
			break
		}
	}
	rep.Env.Wall = time.Since(rep.Env.Started)
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{"engines.md", func(w io.Writer) error { return WriteEnginesMarkdown(w, rep) }},
		{"engines.csv", func(w io.Writer) error { return WriteEnginesCSV(w, rep.Runs) }},
		{"engines.svg", func(w io.Writer) error { return WriteEnginesPlot(w, rep.Runs, rep.Env) }},
	} {
		var b strings.Builder
		path := filepath.Join(opts.OutDir, f.name)
		if err := f.write(&b); err != nil {
			return rep, fmt.Errorf("%s: %w", path, err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return rep, err
		}
		rep.Files = append(rep.Files, path)
	}
	return rep, nil
}

func (r *EngineRun) summary() string {
	switch r.Status {
	case StatusOK:
		return fmt.Sprintf("%-9s %s %8.3fs", r.verdictText(), r.fewestText(), r.Time.Seconds())
	case StatusSkipped:
		return "skipped"
	}
	return fmt.Sprintf("%s: %s", r.Status, r.Detail)
}

func (r *EngineRun) verdictText() string {
	switch r.Status {
	case StatusOK, StatusMismatch:
		return r.Verdict.String()
	}
	return string(r.Status)
}

func (r *EngineRun) fewestText() string {
	if r.Fewest < 0 || r.Status != StatusOK && r.Status != StatusMismatch {
		return "-"
	}
	return strconv.Itoa(r.Fewest)
}

// timeText is the time for tables: seconds, or "> limit" when cut off.
func (r *EngineRun) timeText(env Env) string {
	switch r.Status {
	case StatusOK, StatusMismatch:
		return fmt.Sprintf("%.3f", r.Time.Seconds())
	case StatusTimeout:
		return "> " + timeoutText(env.Timeout)
	case StatusSkipped:
		return "(skipped)"
	}
	return string(r.Status)
}

// WriteEnginesMarkdown writes the engines experiment's tables: one per
// family, a row per point, the engines side by side.
func WriteEnginesMarkdown(w io.Writer, rep *EnginesReport) error {
	var b strings.Builder
	env := rep.Env
	fmt.Fprintf(&b, "# cbreach: view tuples against sequentialization\n\n")
	fmt.Fprintf(&b, "Written by `go run ./benchmarks/cmd/harness --engines` on %s: %s %s/%s, %s, BDD kernel %s, "+
		"time limit %s per run, %.0f s in all. One run per engine and point, one after the other.\n\n",
		env.Started.Format("2006-01-02"), env.GoVersion, env.GOOS, env.GOARCH, plural.Count(env.NumCPU, "CPU"), env.Kernel, timeoutText(env.Timeout), env.Wall.Seconds())
	b.WriteString("The bound is K for every engine: K contexts in total for cbr (lazy splitting, default pruning), " +
		"K rounds of round-robin (K contexts per thread) for seq, eager and lazy; every engine explores the whole bound (`--all`). " +
		"K rounds of n threads hold up to n*K contexts, so seq answers a larger question than cbr at the same K. " +
		"Fewest: contexts for cbr, rounds for seq. Work: view tuples for cbr, post* steps for seq. " +
		"A run cut off by the time limit skips the same engine's larger points.\n")
	families := []struct{ id, title string }{
		{"lalreps", "Lal-Reps Bluetooth, n threads, K = 3"},
		{"bst", "Binary search tree, 2 inserters + 1 searcher (bst-i2s1), K = 2..6"},
		{"vector", "Vector, Java 5, K = 3, by bits of x (2 threads: --max-threads 2)"},
	}
	engines := map[string]bool{}
	var order []string
	for _, r := range rep.Runs {
		if !engines[r.Engine] {
			engines[r.Engine] = true
			order = append(order, r.Engine)
		}
	}
	for _, f := range families {
		var rows []EngineExperiment
		seen := map[string]bool{}
		byKey := map[string]*EngineRun{}
		for i := range rep.Runs {
			r := &rep.Runs[i]
			if r.Family != f.id {
				continue
			}
			key := fmt.Sprintf("%s/%d", r.Model, r.K)
			if !seen[key] {
				seen[key] = true
				rows = append(rows, r.EngineExperiment)
			}
			byKey[key+"/"+r.Engine] = r
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n| %s | K |", f.title, Axis(f.id))
		for _, e := range order {
			fmt.Fprintf(&b, " %s verdict | fewest | work | time (s) |", e)
		}
		b.WriteString("\n|--:|--:|")
		for range order {
			b.WriteString("---|--:|--:|--:|")
		}
		b.WriteString("\n")
		for _, x := range rows {
			fmt.Fprintf(&b, "| %d | %d |", x.X, x.K)
			for _, e := range order {
				r := byKey[fmt.Sprintf("%s/%d/%s", x.Model, x.K, e)]
				if r == nil {
					b.WriteString(" | | | |")
					continue
				}
				work := "-"
				if r.Status == StatusOK || r.Status == StatusMismatch {
					work = strconv.Itoa(r.Work)
				}
				v := r.verdictText()
				if r.Status == StatusMismatch {
					v = "**MISMATCH** " + v
				}
				fmt.Fprintf(&b, " %s | %s | %s | %s |", v, r.fewestText(), work, r.timeText(env))
			}
			b.WriteString("\n")
		}
	}
	var bad []string
	for _, r := range rep.Runs {
		if r.Status == StatusMismatch || r.Status == StatusError {
			bad = append(bad, fmt.Sprintf("- %s K=%d %s: %s: %s", r.Model, r.K, r.Engine, r.Status, r.Detail))
		}
	}
	if len(bad) > 0 {
		fmt.Fprintf(&b, "\n## Problems\n\n%s\n", strings.Join(bad, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteEnginesCSV writes one line per run.
func WriteEnginesCSV(w io.Writer, runs []EngineRun) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"family", "model", "x", "k", "engine", "status", "verdict", "fewest", "threads", "work", "peak_nodes", "seconds", "detail"})
	for _, r := range runs {
		cw.Write([]string{r.Family, r.Model, strconv.Itoa(r.X), strconv.Itoa(r.K), r.Engine, string(r.Status), r.Verdict.String(),
			strconv.Itoa(r.Fewest), strconv.Itoa(r.Threads), strconv.Itoa(r.Work), strconv.Itoa(r.Peak),
			strconv.FormatFloat(r.Time.Seconds(), 'f', 4, 64), r.Detail})
	}
	cw.Flush()
	return cw.Error()
}

// workOf is the work a run did, by its engine's own count: the work
// figure it names (view tuples, states), else its post* steps.
func workOf(r *cbr.Result) int {
	if r.Figures != nil {
		if w := r.Figures.Work(); w.Name != "" {
			if n, ok := w.Value.(int); ok {
				return n
			}
		}
	}
	return r.Stats.PostStarSteps
}

// statOf returns the whole-number figure of r's engine that its JSON
// stats name key, if it has one.
func statOf(r *cbr.Result, key string) (int, bool) {
	if r.Figures == nil {
		return 0, false
	}
	_, v := r.Figures.Stats()
	b, err := json.Marshal(v)
	if err != nil {
		return 0, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return 0, false
	}
	var n int
	if raw, ok := m[key]; ok && json.Unmarshal(raw, &n) == nil {
		return n, true
	}
	return 0, false
}
