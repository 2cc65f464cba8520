package benchmarks

import (
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/internal/testkit/tier"
)

func TestParseExpected(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Expected
		err  bool
	}{
		{"// a\n// EXPECTED: assertion violation, fewest contexts 3 (safe with -k 2).\nint x;", Expected{true, 3}, false},
		{"// EXPECTED: assertion violation, fewest contexts 12.\n", Expected{true, 12}, false},
		{"// EXPECTED: safe for every bound (no assertion violation for any k).\n", Expected{}, false},
		{"// EXPECTED: safe for every bound. With two threads ...\n", Expected{}, false},
		{"// nothing here\n", Expected{}, true},
		{"// EXPECTED: safe\n", Expected{}, true},
		{"// EXPECTED: assertion violation, fewest contexts 0\n", Expected{}, true},
		{"// EXPECTED: assertion violation, fewest contexts 3\n// EXPECTED: safe for every bound\n", Expected{}, true},
	} {
		got, err := ParseExpected([]byte(c.src))
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseExpected(%q) = %v, %v; want %v, error %v", c.src, got, err, c.want, c.err)
		}
	}
}

// TestModelFilesExpected checks that every model file states its verdict
// in a form the harness reads, and so do the generated Vector models.
func TestModelFilesExpected(t *testing.T) {
	files, err := filepath.Glob("models/*.pds")
	if err != nil || len(files) == 0 {
		t.Fatalf("no model files: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseExpected(src); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if emb, err := Models.ReadFile(filepath.ToSlash(f)); err != nil || string(emb) != string(src) {
			t.Errorf("%s: embedded copy differs or is missing (%v)", f, err)
		}
	}
	for bits := 1; bits <= 32; bits++ {
		for _, fixed := range []bool{false, true} {
			got, err := ParseExpected([]byte(VectorModel(bits, fixed)))
			if want := (Expected{Violation: !fixed, Contexts: map[bool]int{false: 3, true: 0}[fixed]}); err != nil || got != want {
				t.Errorf("VectorModel(%d, %v): got %v, %v, want %v", bits, fixed, got, err, want)
			}
		}
	}
}

func TestExperiments(t *testing.T) {
	exps := Experiments()
	seen := map[string]bool{}
	files := map[string]bool{}
	sets := map[Set]int{}
	for _, e := range exps {
		if seen[e.ID()] {
			t.Errorf("%s: listed twice", e.ID())
		}
		seen[e.ID()] = true
		sets[e.Set]++
		if e.Contexts < 1 || e.Family == "" || e.Threads == "" {
			t.Errorf("%s: incomplete: %+v", e.ID(), e)
		}
		name, src, err := e.Source()
		if err != nil {
			t.Errorf("%s: %v", e.ID(), err)
			continue
		}
		if _, err := ParseExpected(src); err != nil {
			t.Errorf("%s: %s: %v", e.ID(), name, err)
		}
		if e.File != "" {
			files[e.File] = true
			if e.Bits > 0 && string(src) != VectorModel(e.Bits, e.Fixed) {
				t.Errorf("%s: file differs from VectorModel", e.ID())
			}
		}
	}
	// Every model file is in some experiment.
	all, _ := filepath.Glob("models/*.pds")
	for _, f := range all {
		if !files[filepath.Base(f)] {
			t.Errorf("%s: in no experiment", f)
		}
	}
	if sets[Default] == 0 || sets[Large] == 0 {
		t.Errorf("sets: got %v, want both default and large runs", sets)
	}
	// The paper's figures are where the paper has them.
	for _, id := range []string{"bluetooth-v1-a1s1/k3/eager", "bluetooth-v2-a2s1/k5/lazy", "bluetooth-v3-a1s2/k4/eager",
		"vector-java5-b1/k3/eager", "vector-java6-b8/k3/lazy", "bst-i2s1/k5/lazy"} {
		i := slices.IndexFunc(exps, func(e Experiment) bool { return e.ID() == id })
		if i < 0 || exps[i].Paper.Table == "" {
			t.Errorf("%s: missing, or without the paper's figure", id)
		}
	}
	def, err := Select("default", nil)
	if err != nil || len(def) != sets[Default] {
		t.Errorf("Select(default): %d experiments, %v; want %d", len(def), err, sets[Default])
	}
	vec, _ := Select("all", mustOnly(t, `vector-java6-b(2|16)/.*/lazy`))
	if len(vec) != 2 {
		t.Errorf("Select(all, vector-java6 2 and 16 lazy): got %d experiments, want 2", len(vec))
	}
	if _, err := Select("huge", nil); err == nil {
		t.Errorf("Select(huge): got no error")
	}
}

func mustOnly(t *testing.T, pattern string) *regexp.Regexp {
	t.Helper()
	re, err := CompileOnly(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return re
}

// TestOnly checks that --only matches whole names (the model, MODEL/kK or
// the ID), never a part of one.
func TestOnly(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []string // the IDs selected from the set all
	}{
		{"vector-java5-b1", []string{"vector-java5-b1/k3/eager", "vector-java5-b1/k3/lazy"}},
		{"vector-java5-b1/k3", []string{"vector-java5-b1/k3/eager", "vector-java5-b1/k3/lazy"}},
		{"vector-java5-b1/k3/lazy", []string{"vector-java5-b1/k3/lazy"}},
		{"vector-java5-b1[0-2]/.*/lazy", []string{"vector-java5-b10/k3/lazy", "vector-java5-b11/k3/lazy", "vector-java5-b12/k3/lazy"}},
		{"bst-i2|bluetooth-v1-a1s1/k3/eager", []string{"bluetooth-v1-a1s1/k3/eager", "bst-i2/k4/eager", "bst-i2/k4/lazy",
			"bst-i2/k5/eager", "bst-i2/k5/lazy", "bst-i2/k6/eager", "bst-i2/k6/lazy"}},
		{"bluetooth-lalreps-n5/k[45]/eager", []string{"bluetooth-lalreps-n5/k4/eager", "bluetooth-lalreps-n5/k5/eager"}},
		{"vector-java5", nil},      // a prefix of names only
		{"java5-b1", nil},          // a middle part
		{"vector-java5-b1/k", nil}, // a prefix of MODEL/kK
		{"k3/lazy", nil},
		{"bluetooth-v1-a1s1/", nil},
	} {
		exps, err := Select("all", mustOnly(t, c.pattern))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range exps {
			got = append(got, e.ID())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("--only %q: got %q, want %q", c.pattern, got, c.want)
		}
	}
	for _, bad := range []string{"(", "a)|(b", "[z-a]"} {
		if _, err := CompileOnly(bad); err == nil {
			t.Errorf("CompileOnly(%q): got no error", bad)
		}
	}
}

// TestCheck checks the comparison with the EXPECTED line, mismatches
// included.
func TestCheck(t *testing.T) {
	const timeLimit = "time limit reached"
	for _, c := range []struct {
		exp     Expected
		k       int
		verdict cbr.Verdict
		fewest  int
		reason  string
		want    Status
	}{
		{Expected{true, 3}, 3, cbr.Violation, 3, "", StatusOK},
		{Expected{true, 3}, 5, cbr.Violation, 3, "", StatusOK},
		{Expected{true, 3}, 2, cbr.Safe, -1, "", StatusOK},
		{Expected{true, 3}, 3, cbr.Safe, -1, "", StatusMismatch},
		{Expected{true, 3}, 4, cbr.Violation, 4, "", StatusMismatch},
		{Expected{true, 3}, 2, cbr.Violation, 2, "", StatusMismatch},
		{Expected{}, 4, cbr.Safe, -1, "", StatusOK},
		{Expected{}, 4, cbr.Violation, 4, "", StatusMismatch},
		{Expected{}, 4, cbr.Unknown, -1, timeLimit, StatusTimeout},
		{Expected{true, 3}, 4, cbr.Violation, 3, timeLimit, StatusTimeout},
		{Expected{true, 3}, 4, cbr.Violation, 2, timeLimit, StatusMismatch},
		{Expected{}, 4, cbr.Unknown, -1, "BDD node limit reached", StatusLimit},
	} {
		r := &Run{Experiment: Experiment{Contexts: c.k}, Expected: c.exp, Verdict: c.verdict, Fewest: c.fewest}
		if got, detail := check(r, c.reason); got != c.want {
			t.Errorf("expected %v, k %d, result %v at %d, reason %q: got %s (%s), want %s", c.exp, c.k, c.verdict, c.fewest, c.reason, got, detail, c.want)
		}
	}
}

func TestExpectedText(t *testing.T) {
	for _, c := range []struct {
		exp  Expected
		k    int
		want string
	}{
		{Expected{true, 4}, 3, "safe (violation at 4)"},
		{Expected{true, 4}, 4, "violation at 4"},
		{Expected{}, 4, "safe"},
	} {
		if got := expectedText(&Run{Experiment: Experiment{Contexts: c.k}, Expected: c.exp}); got != c.want {
			t.Errorf("%v at k %d: got %q, want %q", c.exp, c.k, got, c.want)
		}
	}
}

var cbreach struct {
	once sync.Once
	exe  string
	err  error
}

// cbreachBinary builds the cbreach command once for the package's tests.
func cbreachBinary(t *testing.T) string {
	t.Helper()
	cbreach.once.Do(func() {
		dir, err := os.MkdirTemp("", "benchmarks-test-")
		if err != nil {
			cbreach.err = err
			return
		}
		cbreach.exe, cbreach.err = BuildCbreach(context.Background(), dir)
	})
	if cbreach.err != nil {
		t.Fatal(cbreach.err)
	}
	return cbreach.exe
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cbreach.exe != "" {
		os.RemoveAll(filepath.Dir(cbreach.exe))
	}
	os.Exit(code)
}

// tiny is a harness run of a few small experiments through cbreach suite,
// jobs at a time.
func tiny(t *testing.T, jobs int) (*Report, string) {
	t.Helper()
	return tinyWith(t, Suite{Exe: cbreachBinary(t), Jobs: jobs})
}

func tinyWith(t *testing.T, s Suite) (*Report, string) {
	t.Helper()
	exps, err := Select("all", mustOnly(t, `bluetooth-v1-a1s1/k3|vector-java5-b[12]/k3|vector-java6-b1/k3/lazy`))
	if err != nil || len(exps) != 7 {
		t.Fatalf("Select: got %d experiments, %v; want 7", len(exps), err)
	}
	dir := t.TempDir()
	rep, err := Harness(context.Background(), Options{Experiments: exps, Timeout: time.Minute, OutDir: dir, Set: "test", Suite: s})
	if err != nil {
		t.Fatal(err)
	}
	return rep, dir
}

// TestHarness runs the harness on tiny experiments through cbreach suite,
// one run at a time and two at a time, and checks the files, that the
// tables are the same both times but for the times and the peak nodes,
// and that they are those of the same runs made in this process.
func TestHarness(t *testing.T) {
	rep1, dir1 := tiny(t, 1)
	rep2, dir2 := tiny(t, 2)
	for _, rep := range []*Report{rep1, rep2} {
		if rep.Mismatch != 0 || rep.Cutoff != 0 || len(rep.Runs) != 7 || len(rep.Files) != 3 {
			t.Fatalf("got %d runs, %d mismatches, %d cut off, files %v; want 7, 0, 0, 3 files", len(rep.Runs), rep.Mismatch, rep.Cutoff, rep.Files)
		}
	}
	for _, r := range rep1.Runs {
		if r.Status != StatusOK || r.ViewTuples == 0 {
			t.Errorf("%s: status %s (%s), %d view tuples", r.ID(), r.Status, r.Detail, r.ViewTuples)
		}
		if r.Split == "lazy" && r.Family == "vector" && r.ViewTuples != 3 {
			t.Errorf("%s: got %d view tuples, want 3 (the paper's Table 1)", r.ID(), r.ViewTuples)
		}
		// The same run in this process, through the table of engines.
		in := runInProcess(r.Experiment)
		if in.Status != r.Status || in.Verdict != r.Verdict || in.Fewest != r.Fewest || in.ViewTuples != r.ViewTuples ||
			in.PostStarCalls != r.PostStarCalls || !slices.Equal(in.TuplesPerLevel[:r.Contexts], r.TuplesPerLevel) {
			t.Errorf("%s: through cbreach suite %+v, in this process %+v", r.ID(), r, in)
		}
	}
	read := func(dir, name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	csv1, csv2 := read(dir1, "results.csv"), read(dir2, "results.csv")
	if a, b := withoutTimes(t, csv1), withoutTimes(t, csv2); !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("results.csv differs between --jobs 1 and --jobs 2 apart from times and peak nodes:\n%v\n%v", a, b)
	}
	md1, md2 := read(dir1, "results.md"), read(dir2, "results.md")
	if a, b := mdWithoutTimes(md1), mdWithoutTimes(md2); a != b {
		t.Errorf("results.md differs between --jobs 1 and --jobs 2 apart from times and peak nodes:\n%s\n%s", a, b)
	}
	if !strings.Contains(md2, "7 runs, 2 at a time") || !strings.Contains(md1, "7 runs, one after the other") {
		t.Errorf("results.md: the header does not say how the runs were made:\n%.400s\n%.400s", md1, md2)
	}
	if rows := withoutTimes(t, csv1); len(rows) != 8 || !slices.Equal(rows[0], withoutTimeHeader()) {
		t.Errorf("results.csv: got %d rows, header %v", len(rows), rows[0])
	}
	// Peak nodes depend a little on when Go's collector releases node
	// handles (bdd/refs.go), so they are compared loosely.
	for i := range rep1.Runs {
		a, b := rep1.Runs[i].PeakNodes, rep2.Runs[i].PeakNodes
		if a <= 0 || b <= 0 || 10*abs(a-b) > max(a, b) {
			t.Errorf("%s: peak nodes %d and %d: want positive and within 10%%", rep1.Runs[i].ID(), a, b)
		}
	}
	md := md1
	for _, s := range []string{"BDD kernel:", "CPUs", "| bluetooth-v1-a1s1 | 1 adder + 1 stopper | 3 | eager | violation at 3 | violation | 3 |",
		"21 tuples, 1.1 s, 46k nodes (Table 2)", "## java.util.Vector", "| 1 | 16 (48) |"} {
		if !strings.Contains(md, s) {
			t.Errorf("results.md: no %q in\n%s", s, md)
		}
	}
	// ReadCSV gives back what the plot and the tables use.
	runs, env, err := ReadCSV(strings.NewReader(csv1))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(rep1.Runs) || env.Kernel != rep1.Env.Kernel || env.NumCPU != rep1.Env.NumCPU || env.GOOS != rep1.Env.GOOS || env.Timeout != rep1.Env.Timeout {
		t.Fatalf("ReadCSV: got %d runs, env %+v; want %d runs, env %+v", len(runs), env, len(rep1.Runs), rep1.Env)
	}
	for i, got := range runs {
		want := rep1.Runs[i]
		want.TuplesPerLevel = want.TuplesPerLevel[:min(len(want.TuplesPerLevel), want.Contexts)]
		if got.ID() != want.ID() || got.Status != want.Status || got.Verdict != want.Verdict || got.Fewest != want.Fewest ||
			got.ViewTuples != want.ViewTuples || got.PostStarCalls != want.PostStarCalls || got.PeakNodes != want.PeakNodes ||
			got.Expected != want.Expected || got.Paper != want.Paper || !slices.Equal(got.TuplesPerLevel, want.TuplesPerLevel) ||
			(got.Time-want.Time).Abs() > time.Millisecond {
			t.Errorf("ReadCSV: run %d:\ngot  %+v\nwant %+v", i, got, want)
		}
	}
	if path, err := Replot(dir1); err != nil || path != filepath.Join(dir1, "vector.svg") {
		t.Errorf("Replot: got %q, %v", path, err)
	}
	if _, _, err := ReadCSV(strings.NewReader("id,family\nx,y\n")); err == nil || !strings.Contains(err.Error(), "column") {
		t.Errorf("ReadCSV of a file without the columns: got %v, want an error naming a column", err)
	}
	svg := read(dir1, "vector.svg")
	if !strings.Contains(svg, "<svg") || !strings.Contains(svg, "Java 5 eager") || !strings.Contains(svg, "view tuples") {
		t.Errorf("vector.svg: not the plot:\n%.300s", svg)
	}
}

// TestHarnessSlurm runs the tiny experiments as a Slurm job array on a
// real cluster (benchmarks/slurm/local-cluster.sh starts one on this
// machine) and checks that the tables are those of a local run but for
// the times and peak nodes.
func TestHarnessSlurm(t *testing.T) {
	tier.SkipUnlessLong(t, "submits a job array to Slurm and waits for it")
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("no sbatch: start a cluster with benchmarks/slurm/local-cluster.sh")
	}
	local, dir1 := tiny(t, 1)
	slurm, dir2 := tinyWith(t, Suite{Exe: cbreachBinary(t), Slurm: true, Args: []string{"--max-memory", "1GiB"}, TaskDir: t.TempDir()})
	if slurm.Mismatch != 0 || len(slurm.Runs) != len(local.Runs) {
		t.Fatalf("Slurm: %d runs, %d mismatches; want %d, 0", len(slurm.Runs), slurm.Mismatch, len(local.Runs))
	}
	for _, f := range []string{"results.md", "results.csv"} {
		a, err1 := os.ReadFile(filepath.Join(dir1, f))
		b, err2 := os.ReadFile(filepath.Join(dir2, f))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if f == "results.md" && mdWithoutTimes(string(a)) != mdWithoutTimes(string(b)) {
			t.Errorf("results.md differs between a local run and Slurm:\n%s\n%s", a, b)
		}
		if f == "results.csv" && !slices.EqualFunc(withoutTimes(t, string(a)), withoutTimes(t, string(b)), slices.Equal) {
			t.Errorf("results.csv differs between a local run and Slurm:\n%s\n%s", a, b)
		}
	}
}

func abs(x int) int { return max(x, -x) }

// mdWithoutTimes is a results.md without what varies from run to run: the
// header's lines (the date, the wall time, how the runs were made), and
// in the tables the times and peak nodes (a cell of digits and a point
// beside the split's run, or of digits where a count of nodes is).
func mdWithoutTimes(md string) string {
	var out []string
	secs := regexp.MustCompile(`^>?[0-9]+\.[0-9]{3}( \([0-9.]+\))?$`)
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "- ") {
			continue
		}
		if inner, ok := strings.CutPrefix(line, "| "); ok {
			cells := strings.Split(strings.TrimSuffix(inner, " |"), " | ")
			if len(cells) == 12 { // a family's table: time and peak nodes are the 9th and 10th columns
				cells[8], cells[9] = "", ""
			}
			for i, c := range cells {
				if secs.MatchString(c) {
					cells[i] = ""
				}
			}
			line = "| " + strings.Join(cells, " | ") + " |"
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// varying are the CSV columns that may differ between two runs.
var varying = []string{"time_s", "peak_nodes"}

func withoutTimeHeader() []string {
	return slices.DeleteFunc(slices.Clone(CSVHeader), func(s string) bool { return slices.Contains(varying, s) })
}

// withoutTimes parses a results.csv and drops the time and peak node
// columns.
func withoutTimes(t *testing.T, text string) [][]string {
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if len(r) != len(CSVHeader) {
			t.Fatalf("row %d: %d fields, want %d", i, len(r), len(CSVHeader))
		}
		var keep []string
		for j, f := range r {
			if !slices.Contains(varying, CSVHeader[j]) {
				keep = append(keep, f)
			}
		}
		rows[i] = keep
	}
	return rows
}

// TestVectorPlotEmpty checks that the plot is drawn without data (only
// timed-out runs) and with a single point.
func TestVectorPlotEmpty(t *testing.T) {
	e := Experiment{Family: "vector", Model: "vector-java5-b1", Bits: 1, Contexts: 3}
	for _, runs := range [][]Run{nil, {{Experiment: e, Status: StatusTimeout, ViewTuples: 5}}, {{Experiment: e, Status: StatusOK, ViewTuples: 3}}} {
		var b strings.Builder
		if err := WriteVectorPlot(&b, runs, Env{}); err != nil || !strings.Contains(b.String(), "<svg") {
			t.Errorf("%d runs: got error %v", len(runs), err)
		}
	}
}

// TestVectorPlotTimeout checks that runs cut off by the time limit are
// drawn, with the limit, and that the paper's times are in the legend.
func TestVectorPlotTimeout(t *testing.T) {
	var runs []Run
	for _, e := range Experiments() {
		if e.Family != "vector" || e.Fixed || e.Bits > 12 {
			continue
		}
		r := Run{Experiment: e, Status: StatusOK, ViewTuples: 3, Time: time.Duration(e.Bits) * time.Millisecond}
		if e.Split == "eager" {
			r.ViewTuples = 1 << e.Bits
			if e.Bits > 10 {
				r.Status, r.Time = StatusTimeout, 121*time.Second
			}
		}
		runs = append(runs, r)
	}
	var b strings.Builder
	if err := WriteVectorPlot(&b, runs, Env{Timeout: 120 * time.Second, Kernel: "buddy"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"time limit 120 s", "Java 5 eager cut off by the time limit", "Java 5 lazy (paper)", "Java 5 eager (paper)", "buddy BDD kernel"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("vector.svg: no %q", s)
		}
	}
}
