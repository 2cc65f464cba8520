package benchmarks

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds/plural"
)

// families are the report's sections, in order.
var families = []struct{ name, title, note string }{
	{"bluetooth", "Bluetooth driver (SEC08 5.2, Table 2)",
		"The paper's figures are for its thread mixes: version 1 with 1 adder + 1 stopper, version 2 with 2 + 1, version 3 with 1 + 2, at its bounds (3, 5 and 4 contexts)."},
	{"lalreps", "Lal-Reps Bluetooth family (LR Section 7)",
		"Each thread is an adder or a stopper, chosen nondeterministically. No paper figure: LR bound contexts per thread."},
	{"vector", "java.util.Vector (SEC08 5.1, Table 1)",
		"3 contexts; the element x has 1 to 16 bits. The paper gives bits 1 to 8 (its model is the compiled Java library, about 30,000 rules, so only the growth is comparable)."},
	{"bst", "Binary search trees (SEC08 5.3, Table 3)",
		"The paper gives times only, for 2 inserters + 1 searcher (our bst-i2s1), without saying which splitting."},
}

// WriteMarkdown writes the report as Markdown: a header with the machine,
// the BDD kernel and the summary, then one table per model family, and a
// compact Vector table of view tuples against bits.
func WriteMarkdown(w io.Writer, rep *Report) error {
	var b strings.Builder
	env := rep.Env
	var analysis time.Duration
	ok := 0
	for i := range rep.Runs {
		analysis += rep.Runs[i].Time
		if rep.Runs[i].Status == StatusOK {
			ok++
		}
	}
	b.WriteString("# cbreach: eager and lazy splitting on the benchmark models\n\n")
	fmt.Fprintf(&b, "- Set: %s, %s, %s, per-run timeout %s.\n", env.Set, plural.Count(len(rep.Runs), "run"), jobsText(env), timeoutText(env.Timeout))
	fmt.Fprintf(&b, "- Machine: %s/%s, %s (runtime.NumCPU), %s; BDD kernel: %s.\n", env.GOOS, env.GOARCH, plural.Count(env.NumCPU, "CPU"), env.GoVersion, env.Kernel)
	fmt.Fprintf(&b, "- Started %s; wall time %s (analysis alone %s).\n", env.Started.UTC().Format("2006-01-02 15:04 MST"), env.Wall.Round(time.Second), analysis.Round(time.Second))
	fmt.Fprintf(&b, "- Result: %d ok, %s or %s, %d cut off by a limit.", ok, plural.Count(rep.Mismatch, "mismatch"), plural.Noun(rep.Mismatch, "error"), rep.Cutoff)
	if rep.Cancelled {
		b.WriteString(" **Interrupted: not every experiment ran.**")
	}
	b.WriteString("\n\n")
	b.WriteString("Each run is a task of `cbreach suite`: a cbreach process of its own compiles the model\n" +
		"and runs `--all` (explore the whole bound) with `--prune none` (no deduplication), so every\n" +
		"view tuple is counted as in the paper. View tuples are the work items whose post* was\n" +
		"computed. Counts and verdicts are deterministic; times are not, nor (slightly) peak\n" +
		"nodes. \"expected\" is what the model's `// EXPECTED:` line implies for the bound k;\n" +
		"\"check\" compares the verdict and the fewest contexts with it. The paper column gives\n" +
		"SEC08's figures (AMD 3 GHz, jMoped on the Java bytecode) where it has them.\n")
	if rep.Mismatch > 0 {
		b.WriteString("\n**MISMATCHES:**\n\n")
		for i := range rep.Runs {
			if r := &rep.Runs[i]; r.Status == StatusMismatch || r.Status == StatusError {
				fmt.Fprintf(&b, "- **%s %s**: %s\n", r.ID(), r.Status, r.Detail)
			}
		}
	}
	for _, f := range families {
		var runs []*Run
		for i := range rep.Runs {
			if rep.Runs[i].Family == f.name {
				runs = append(runs, &rep.Runs[i])
			}
		}
		if len(runs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", f.title, f.note)
		b.WriteString("| model | threads | k | split | expected | verdict | fewest contexts | view tuples | time (s) | peak nodes | paper | check |\n")
		b.WriteString("|---|---|--:|---|---|---|--:|--:|--:|--:|---|---|\n")
		for _, r := range runs {
			fewest := "-"
			if r.Fewest >= 0 {
				fewest = strconv.Itoa(r.Fewest)
			}
			tuples := strconv.Itoa(r.ViewTuples)
			secs := fmt.Sprintf("%.3f", r.Time.Seconds())
			if !r.Complete() && r.Status != StatusError {
				tuples, secs = ">"+tuples, ">"+secs
			}
			chk := string(r.Status)
			if r.Status != StatusOK {
				chk = "**" + chk + "**"
				if r.Detail != "" {
					chk += ": " + r.Detail
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %d | %s | %s |\n",
				r.Model, r.Threads, r.Contexts, r.Split, expectedText(r), r.VerdictText(), fewest, tuples, secs, r.PeakNodes, paperText(r.Paper), chk)
		}
		if f.name == "vector" {
			vectorTable(&b, runs)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// vectorTable writes view tuples and times against bits, one column per
// Java version and splitting, the paper's figure beside ours.
func vectorTable(b *strings.Builder, runs []*Run) {
	type key struct {
		bits  int
		fixed bool
		eager bool
	}
	m := map[key]*Run{}
	maxBits := 0
	for _, r := range runs {
		m[key{r.Bits, r.Fixed, r.Split == "eager"}] = r
		maxBits = max(maxBits, r.Bits)
	}
	cell := func(r *Run, secs bool) string {
		if r == nil {
			return ""
		}
		var s string
		switch {
		case !r.Complete():
			s = string(r.Status)
		case secs:
			s = fmt.Sprintf("%.3f", r.Time.Seconds())
		default:
			s = strconv.Itoa(r.ViewTuples)
		}
		if secs && r.Paper.Seconds > 0 {
			s += fmt.Sprintf(" (%g)", r.Paper.Seconds)
		} else if !secs && r.Paper.ViewTuples > 0 {
			s += fmt.Sprintf(" (%d)", r.Paper.ViewTuples)
		}
		return s
	}
	for _, secs := range []bool{false, true} {
		what := "View tuples"
		if secs {
			what = "Time in seconds"
		}
		fmt.Fprintf(b, "\n%s against the width of x (the paper's figure in parentheses):\n\n", what)
		b.WriteString("| bits | Java 5 eager | Java 5 lazy | Java 6 eager | Java 6 lazy |\n|--:|--:|--:|--:|--:|\n")
		for bits := 1; bits <= maxBits; bits++ {
			row := []string{strconv.Itoa(bits)}
			seen := false
			for _, fixed := range []bool{false, true} {
				for _, eager := range []bool{true, false} {
					r := m[key{bits, fixed, eager}]
					seen = seen || r != nil
					row = append(row, cell(r, secs))
				}
			}
			if seen {
				fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
			}
		}
	}
}

// expectedText is what the run should answer: "violation at N", "safe",
// or "safe (violation at N)" when the violation needs more contexts than
// the bound.
func expectedText(r *Run) string {
	if v, _ := r.Expected.Within(r.Contexts); !v && r.Expected.Violation {
		return "safe (" + r.Expected.String() + ")"
	}
	return r.Expected.String()
}

// jobsText says how the runs were made: one after the other, N at a
// time, or as a Slurm job array.
func jobsText(env Env) string {
	switch {
	case env.Slurm:
		return "as one Slurm job array"
	case env.Jobs > 1:
		return fmt.Sprintf("%d at a time", env.Jobs)
	}
	return "one after the other"
}

func timeoutText(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

// paperText is "21 tuples, 1.1 s, 46k nodes (Table 2)".
func paperText(p Paper) string {
	if p.Table == "" {
		return ""
	}
	var parts []string
	if p.ViewTuples > 0 {
		parts = append(parts, plural.Count(p.ViewTuples, "tuple"))
	}
	if p.Seconds > 0 {
		parts = append(parts, fmt.Sprintf("%g s", p.Seconds))
	}
	if p.Nodes > 0 {
		parts = append(parts, nodesText(p.Nodes)+" nodes")
	}
	s := strings.Join(parts, ", ") + " (" + p.Table
	if p.Note != "" {
		s += "; " + p.Note
	}
	return s + ")"
}

func nodesText(n float64) string {
	if n >= 1e6 {
		return strconv.FormatFloat(n/1e6, 'f', -1, 64) + "M"
	}
	return strconv.FormatFloat(n/1e3, 'f', -1, 64) + "k"
}

// CSVHeader is the first line of results.csv.
var CSVHeader = []string{"id", "family", "model", "threads", "bits", "contexts", "split", "set", "expected",
	"status", "verdict", "fewest_contexts", "view_tuples", "tuples_per_level", "post_star_calls", "peak_nodes",
	"time_s", "paper_table", "paper_view_tuples", "paper_time_s", "paper_nodes", "detail",
	"timeout_s", "kernel", "goos", "goarch", "cpus"}

// WriteCSV writes one line per run under CSVHeader. fewest_contexts is
// empty when no violation was found; paper fields are empty when the paper
// has no figure; tuples_per_level lists the view tuples by contexts,
// separated by spaces. The last columns repeat env on every line (the
// per-run timeout, 0 for none; the BDD kernel; the machine), so that
// ReadCSV can redraw the plot from the file alone.
func WriteCSV(w io.Writer, runs []Run, env Env) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	for i := range runs {
		r := &runs[i]
		fewest, bits := "", ""
		if r.Fewest >= 0 {
			fewest = strconv.Itoa(r.Fewest)
		}
		if r.Bits > 0 {
			bits = strconv.Itoa(r.Bits)
		}
		var levels []string
		for _, n := range r.TuplesPerLevel {
			levels = append(levels, strconv.Itoa(n))
		}
		if len(levels) > r.Contexts {
			levels = levels[:r.Contexts] // the k-th level is never processed
		}
		pt, ps, pn := "", "", ""
		if r.Paper.ViewTuples > 0 {
			pt = strconv.Itoa(r.Paper.ViewTuples)
		}
		if r.Paper.Seconds > 0 {
			ps = strconv.FormatFloat(r.Paper.Seconds, 'f', -1, 64)
		}
		if r.Paper.Nodes > 0 {
			pn = strconv.FormatFloat(r.Paper.Nodes, 'f', -1, 64)
		}
		verdict := r.Verdict.String()
		if r.Status == StatusError {
			verdict = ""
		}
		cw.Write([]string{r.ID(), r.Family, r.Model, r.Threads, bits, strconv.Itoa(r.Contexts), r.Split, r.Set.String(),
			r.Expected.String(), string(r.Status), verdict, fewest, strconv.Itoa(r.ViewTuples), strings.Join(levels, " "),
			strconv.Itoa(r.PostStarCalls), strconv.Itoa(r.PeakNodes), strconv.FormatFloat(r.Time.Seconds(), 'f', 4, 64),
			r.Paper.Table, pt, ps, pn, r.Detail,
			strconv.FormatFloat(env.Timeout.Seconds(), 'f', -1, 64), env.Kernel, env.GOOS, env.GOARCH, strconv.Itoa(env.NumCPU)})
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a results.csv written by WriteCSV back into runs and the
// environment of the harness run (Timeout, Kernel, GOOS, GOARCH and NumCPU,
// from its first line). Each run's experiment (its model, the paper's
// figure, ...) is looked up by its ID in Experiments and its expected
// verdict read from the model again; the measured fields (status, verdict,
// fewest contexts, view tuples by contexts, post* calls, peak nodes, time,
// detail) come from the file. It fails on a file without every column of
// CSVHeader, on an ID no experiment has, and on a malformed number.
func ReadCSV(r io.Reader) ([]Run, Env, error) {
	var env Env
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, env, fmt.Errorf("benchmarks: %v", err)
	}
	if len(rows) == 0 {
		return nil, env, fmt.Errorf("benchmarks: empty results file")
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range CSVHeader {
		if _, ok := col[name]; !ok {
			return nil, env, fmt.Errorf("benchmarks: results file without column %q (written by an older harness?)", name)
		}
	}
	exps := map[string]Experiment{}
	for _, e := range Experiments() {
		exps[e.ID()] = e
	}
	var runs []Run
	for n, row := range rows[1:] {
		line := n + 2
		get := func(name string) string { return row[col[name]] }
		var bad error
		num := func(name string) int {
			s := get(name)
			if s == "" {
				return -1
			}
			v, err := strconv.Atoi(s)
			if err != nil && bad == nil {
				bad = fmt.Errorf("column %s: %v", name, err)
			}
			return v
		}
		float := func(name string) float64 {
			v, err := strconv.ParseFloat(get(name), 64)
			if err != nil && bad == nil {
				bad = fmt.Errorf("column %s: %v", name, err)
			}
			return v
		}
		e, ok := exps[get("id")]
		if !ok {
			return nil, env, fmt.Errorf("benchmarks: results file line %d: no experiment %q", line, get("id"))
		}
		run := Run{Experiment: e, Status: Status(get("status")), Detail: get("detail"), Fewest: num("fewest_contexts"),
			ViewTuples: num("view_tuples"), PostStarCalls: num("post_star_calls"), PeakNodes: num("peak_nodes"),
			Time: time.Duration(float("time_s") * float64(time.Second))}
		if _, src, err := e.Source(); err == nil {
			run.Expected, _ = ParseExpected(src)
		}
		switch get("verdict") {
		case "violation":
			run.Verdict = cbr.Violation
		case "unknown":
			run.Verdict = cbr.Unknown
		}
		for _, f := range strings.Fields(get("tuples_per_level")) {
			v, err := strconv.Atoi(f)
			if err != nil && bad == nil {
				bad = fmt.Errorf("column tuples_per_level: %v", err)
			}
			run.TuplesPerLevel = append(run.TuplesPerLevel, v)
		}
		if n == 0 {
			env = Env{Timeout: time.Duration(float("timeout_s") * float64(time.Second)), Kernel: get("kernel"),
				GOOS: get("goos"), GOARCH: get("goarch"), NumCPU: num("cpus")}
		}
		if bad != nil {
			return nil, env, fmt.Errorf("benchmarks: results file line %d: %v", line, bad)
		}
		runs = append(runs, run)
	}
	return runs, env, nil
}
