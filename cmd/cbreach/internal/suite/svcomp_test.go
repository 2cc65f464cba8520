package suite

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/cbreach/cbreach/frontend/readers"
	"github.com/cbreach/cbreach/internal/testkit"
	"github.com/stretchr/testify/require"
)

// TestReadProperty: a property file is told by its content, whatever its
// name; spaces and "//" comment lines do not count.
func TestReadProperty(t *testing.T) {
	for _, c := range []struct {
		name, src, kind, why string
	}{
		{"unreach-call.prp", "CHECK( init(main()), LTL(G ! call(reach_error())) )\n", UnreachCall, ""},
		{"old.prp", "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )", UnreachCall, ""},
		{"spaced.prp", "// SV-COMP\n\n  CHECK(init(main()),LTL(G !call( reach_error() )))  \n", UnreachCall, ""},
		{"unreach-error.prp", properties[UnreachError], UnreachError, ""},
		{"cuba-target.prp", properties[CubaTarget], CubaTarget, ""},
		{"unreach-call.prp", "CHECK( init(main()), LTL(G ! data-race) )\n", "", "CHECK( init(main()), LTL(G ! data-race) )"},
		{"termination.prp", "CHECK( init(main()), LTL(F end) )\n", "", "CHECK( init(main()), LTL(F end) )"},
		{"valid-memsafety.prp", "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n", "",
			"CHECK( init(main()), LTL(G valid-free) ) CHECK( init(main()), LTL(G valid-deref) ) CHECK( init(main()), LTL(G valid-memtrack) )"},
		{"coverage-error-call.prp", properties["coverage-error-call.prp"], "", "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )"},
		{"entry.prp", "CHECK( init(start()), LTL(G ! call(reach_error())) )", "", "CHECK( init(start()), LTL(G ! call(reach_error())) ) (the entry function is start, not main)"},
		{"abort.prp", "CHECK( init(main()), LTL(G ! call(abort())) )", "", "CHECK( init(main()), LTL(G ! call(abort())) ) (the error function is abort, not reach_error or __VERIFIER_error)"},
		{"dir/empty.prp", "// nothing\n", "", "empty.prp holds no formula"},
	} {
		p := ReadProperty(c.name, []byte(c.src))
		require.Equal(t, c.kind, p.Kind, c.name)
		require.Equal(t, c.why, p.Why, c.name)
		if c.kind == "" {
			require.Equal(t, "property not checked: "+c.why, p.NotChecked())
		}
	}
}

// TestSVCOMPFormats: format 1.0 (no options) and 2.0 with and without
// options; no bound deepens (--unbounded), the data model goes to the
// reader (--data-model).
func TestSVCOMPFormats(t *testing.T) {
	dir := taskDir(t)
	const v1 = "format_version: '1.0'\n\n# old file name: p_false-unreach-call.i\ninput_files: 'p.pds'\n\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: false\n"
	task, warnings, err := parse(t, dir, v1)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Equal(t, &Task{File: filepath.Join(dir, "t.yml"), Input: filepath.Join(dir, "p.pds"), Kind: "pds", Property: UnreachCall, PropertyFile: UnreachCall,
		ExpBound: -1, Engine: "cbr", Unit: Contexts, Unbounded: true}, task)
	require.True(t, task.NeedsProof())
	j := Prepare(task, Settings{})
	require.Equal(t, "", j.Err)
	require.Equal(t, []string{"--json", "--engine", "cbr", "--unbounded", "--split", "lazy", "--max-memory", "0B", "--", filepath.Join(dir, "p.pds")}, j.Args(Settings{}))

	for _, c := range []struct{ options, model string }{
		{"", ""},
		{"options:\n  language: C\n  data_model: ILP32\n", "ILP32"},
		{"options:\n  language: C\n  data_model: LP64\n", "LP64"},
	} {
		src := strings.Replace(v1, "'1.0'", "'2.0'", 1) + c.options
		task, warnings, err := parse(t, dir, src)
		require.NoError(t, err, src)
		require.Empty(t, warnings)
		require.True(t, task.Unbounded)
		require.Equal(t, c.model, task.DataModel)
		j := Prepare(task, Settings{})
		args := strings.Join(j.Args(Settings{}), " ")
		require.Contains(t, args, "--unbounded")
		require.NotContains(t, args, "-k")
		if c.model != "" {
			require.Contains(t, args, "--data-model "+c.model)
		} else {
			require.NotContains(t, args, "--data-model")
		}
	}

	// A bound in the options bounds the run, whatever the property;
	// the engines that cannot deepen refuse a task without one.
	task, _, err = parse(t, dir, strings.Replace(v1, "'1.0'", "'2.0'", 1)+"options:\n  data_model: ILP32\n  contexts: 3\n")
	require.NoError(t, err)
	require.False(t, task.Unbounded)
	require.Equal(t, 3, task.Bound)
	require.True(t, task.NeedsProof(), "unreach-call asks for every bound")
	task, _, err = parse(t, dir, v1)
	require.NoError(t, err)
	require.Equal(t, "the task gives no bound, and engine explicit does not deepen one (engine cbr does)", Prepare(task, Settings{Engine: "explicit"}).Err)
	require.Equal(t, "the task gives no bound, and engine seq does not deepen one (engine cbr does)", Check("seq", "", task))
	task, _, err = parse(t, dir, strings.Replace(v1, "unreach-call", "unreach-error", 1))
	require.NoError(t, err)
	require.True(t, task.Unbounded)
	require.True(t, task.NeedsProof(), "unreach-error without a bound asks for every bound")
}

// TestSeveralProperties: a task makes one row per property with an
// expected verdict, in the order listed; those cbreach does not check
// are unknown rows (status unsupported) that run nothing.
func TestSeveralProperties(t *testing.T) {
	dir := taskDir(t)
	src := "format_version: '2.0'\ninput_files: 'q.bp'\nproperties:\n" +
		"  - property_file: no-data-race.prp\n    expected_verdict: false\n" +
		"  - property_file: coverage-error-call.prp\n" +
		"  - property_file: unreach-call.prp\n    expected_verdict: true\n" +
		"  - property_file: ./no-data-race.prp\n    expected_verdict: true\n    subproperty: x\n"
	tasks, warnings, err := parseAll(t, dir, src)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Len(t, tasks, 3)
	var got []string
	for _, tk := range tasks {
		require.Equal(t, "bp", tk.Kind)
		require.True(t, tk.Unbounded)
		got = append(got, tk.PropertyFile+" "+tk.Property+" "+tk.Skip)
	}
	notChecked := "property not checked: CHECK( init(main()), LTL(G ! data-race) )"
	require.Equal(t, []string{"no-data-race.prp  " + notChecked, "unreach-call.prp unreach-call.prp ", "./no-data-race.prp  " + notChecked}, got)
	row := Run(t.Context(), &Job{Task: tasks[0], Engine: "cbr", Split: "lazy"}, Settings{Exe: "/nonexistent"})
	require.Equal(t, Row{File: tasks[0].File, Property: "no-data-race.prp", Engine: "cbr", Split: "lazy", BoundUnit: Contexts, Unbounded: true,
		ExpectedVerdict: VerdictFalse, Verdict: VerdictUnknown, Status: StatusUnsupported, Message: notChecked}, row)

	// Only properties cbreach does not check: rows, not a malformed task.
	tasks, _, err = parseAll(t, dir, strings.Replace(src, "unreach-call.prp", "no-data-race.prp", 1))
	require.NoError(t, err)
	require.Len(t, tasks, 3)
}

// TestNoReader: an input no reader of the table reads (a C program before
// the reader of C) makes unknown rows saying so, not a malformed task;
// once a reader reads it, the task runs with that reader.
func TestNoReader(t *testing.T) {
	dir := taskDir(t)
	src := "format_version: '2.0'\ninput_files: 'c.i'\nproperties:\n  - property_file: unreach-call.prp\n    expected_verdict: true\n" +
		"  - property_file: no-data-race.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: LP64\n"
	tasks, warnings, err := parseAll(t, dir, src)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Len(t, tasks, 2)
	require.Equal(t, "LP64", tasks[0].DataModel)
	require.Contains(t, tasks[1].Skip, "property not checked: ")
	if rd := readers.BySuffix(".i"); rd != nil {
		require.Equal(t, rd.Name, tasks[0].Kind)
		require.Equal(t, "", tasks[0].Skip)
		j := Prepare(tasks[0], Settings{})
		args := strings.Join(j.Args(Settings{}), " ")
		require.Contains(t, args, "--data-model LP64 ")
		require.True(t, strings.HasSuffix(args, " -- "+filepath.Join(dir, "c.i")), args)
		return
	}
	require.Equal(t, "", tasks[0].Kind)
	require.Equal(t, "", tasks[0].Input)
	require.Equal(t, "no reader reads c.i (cbreach reads "+readers.Or(programSuffixes())+")", tasks[0].Skip)
	row := Run(t.Context(), &Job{Task: tasks[0], Engine: "cbr", Split: "lazy"}, Settings{Exe: "/nonexistent"})
	require.Equal(t, StatusUnsupported, row.Status)
	require.Equal(t, VerdictUnknown, row.Verdict)
	require.Nil(t, row.Correct)
	require.Equal(t, tasks[0].Skip, row.Message)
}

// TestProofAndTrace: a safe answer is true only when the task asks for
// safety within its bound, or cbreach proved it for every bound and
// every number of threads; a violation is false only with a trace, but
// in a bounded task that turned traces off.
func TestProofAndTrace(t *testing.T) {
	three := 3
	proved := &schema.Convergence{Criterion: "configurations", Level: 3}
	traced := []schema.Violation{{Kind: "assert", Trace: &schema.Trace{}}}
	untracedV := []schema.Violation{{Kind: "assert", TraceError: "time limit reached while building the trace"}}
	bounded := &Task{Property: UnreachError, Bound: 4, Unit: Contexts}
	boundedCall := &Task{Property: UnreachCall, Bound: 4, Unit: Contexts}
	unbounded := &Task{Property: UnreachCall, Unbounded: true, Unit: Contexts}
	noTraces := &Task{Property: UnreachError, Bound: 4, Unit: Contexts, More: More{NoTraces: true}}
	noTracesCall := &Task{Property: UnreachCall, PropertyFile: "unreach-call.prp", Unbounded: true, Unit: Contexts, More: More{NoTraces: true}}
	for _, c := range []struct {
		name string
		task *Task
		out  schema.Output
		why  string
	}{
		{"bounded safe", bounded, schema.Output{Bound: 4, Unit: "contexts"}, ""},
		{"unreach-call safe within a bound", boundedCall, schema.Output{Bound: 4, Unit: "contexts"}, "safe within 4 contexts, not proved for every bound"},
		{"unreach-call proved within a bound", boundedCall, schema.Output{Bound: 4, Unit: "contexts", Convergence: proved}, ""},
		{"unbounded proved", unbounded, schema.Output{Bound: 5, Unit: "contexts", Convergence: proved}, ""},
		{"unbounded not proved", unbounded, schema.Output{Bound: 5, Unit: "contexts"}, "safe within 5 contexts, not proved for every bound"},
		{"thread bound", unbounded, schema.Output{Bound: 5, Unit: "contexts", Convergence: proved, CompleteThreads: &three}, "safe for at most 3 threads only: the program can start more"},
	} {
		require.Equal(t, c.why, unproved(c.task, &c.out), c.name)
	}
	for _, c := range []struct {
		name string
		task *Task
		vs   []schema.Violation
		why  string
	}{
		{"traced", unbounded, traced, ""},
		{"one of two traced", unbounded, append(append([]schema.Violation{}, untracedV...), traced...), ""},
		{"untraced", unbounded, untracedV, "a violation without a trace: time limit reached while building the trace"},
		{"untraced bounded", bounded, untracedV, "a violation without a trace: time limit reached while building the trace"},
		{"traces off, bounded", noTraces, []schema.Violation{{Kind: "assert"}}, ""},
		{"traces off, unreach-call", noTracesCall, []schema.Violation{{Kind: "assert"}}, "a violation without a trace (traces: false): not a verdict for unreach-call.prp"},
	} {
		out := schema.Output{Violations: c.vs}
		require.Equal(t, c.why, untraced(c.task, &out), c.name)
	}
}

// TestDevSet reads every task file of the SV-COMP ConcurrencySafety
// development set (../shared/benchmarks/sv-concurrency): none is
// malformed, and each gives one row per property with an expected
// verdict, as its MANIFEST.tsv lists them: unreach-call checked (by a
// reader of C once there is one; until then an unknown row saying that
// no reader reads it), the others unknown rows, not checked.
func TestDevSet(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	dev := testkit.SVConcurrency(root)
	if dev == "" {
		t.Skip("no SV-COMP development set: ../shared/benchmarks/sv-concurrency is absent (or set CBREACH_SV_CONCURRENCY)")
	}
	f, err := os.Open(filepath.Join(dev, "MANIFEST.tsv"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	require.Equal(t, "task_yml\tinput_file\tunreach_call_verdict\tother_properties\tdata_model", strings.Join(strings.Split(sc.Text(), "\t")[:5], "\t"))
	listed := map[string]bool{}
	cReader := readers.BySuffix(".i")
	rows := 0
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		file := filepath.Join(dev, col[0])
		listed[file] = true
		tasks, warnings, err := ReadFile(file)
		require.NoError(t, err, file)
		require.Empty(t, warnings, file)
		var want, got []string
		if col[2] != "-" {
			want = append(want, "unreach-call.prp "+col[2])
		}
		if col[3] != "-" {
			for _, p := range strings.Split(col[3], ",") {
				name, verdict, _ := strings.Cut(p, ":")
				if verdict != "-" {
					want = append(want, name+".prp "+verdict)
				}
			}
		}
		for _, tk := range tasks {
			row := NewRow(tk, tk.Engine, tk.Split)
			got = append(got, row.Property+" "+row.ExpectedVerdict)
			require.True(t, tk.Unbounded, file)
			require.Equal(t, strings.Trim(col[4], "-"), tk.DataModel, file)
			switch {
			case row.Property != UnreachCall:
				require.Equal(t, "", tk.Property, file)
				require.True(t, strings.HasPrefix(tk.Skip, "property not checked: CHECK( init(main()), LTL("), "%s: %s", file, tk.Skip)
			case cReader != nil:
				require.Equal(t, UnreachCall, tk.Property, file)
				require.Equal(t, cReader.Name, tk.Kind, file)
				require.Equal(t, filepath.Join(dev, col[1]), tk.Input, file)
				require.Equal(t, "", tk.Skip, file)
				require.Equal(t, "", Prepare(tk, Settings{}).Err, file)
			default:
				require.Equal(t, UnreachCall, tk.Property, file)
				require.Equal(t, "no reader reads "+filepath.Base(col[1])+" (cbreach reads "+readers.Or(programSuffixes())+")", tk.Skip, file)
			}
		}
		slices.Sort(want)
		slices.Sort(got)
		require.Equal(t, want, got, file)
		rows += len(tasks)
	}
	require.NoError(t, sc.Err())
	files, err := Collect([]string{dev})
	require.NoError(t, err)
	require.Len(t, files, 84)
	for _, f := range files {
		require.True(t, listed[f], "%s is not in MANIFEST.tsv", f)
	}
	require.Len(t, listed, 84)
	require.Equal(t, 76+9+1, rows) // unreach-call, no-data-race, termination
}
