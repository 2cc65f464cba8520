package suite

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// properties are property files by name: cbreach's two, three of
// SV-COMP's (as in sv-benchmarks' c/properties).
var properties = map[string]string{
	UnreachError:              "// a comment\nCHECK( init(main()), LTL(G ! call(reach_error())) ) within the bound\n",
	CubaTarget:                "CHECK( init(.init), LTL(G ! visible(.spec)) ) within the bound\n",
	UnreachCall:               "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
	"no-data-race.prp":        "CHECK( init(main()), LTL(G ! data-race) )\n",
	"coverage-error-call.prp": "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n",
}

// taskDir writes the property files and a program into a temporary
// directory and returns it.
func taskDir(t *testing.T) string {
	dir := t.TempDir()
	for f, src := range properties {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte(src), 0o644))
	}
	for _, f := range []string{"p.pds", "q.bp", "s.pds", "s.init", "s.spec", "c.i"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644))
	}
	return dir
}

const good = `format_version: '2.0'
input_files: 'p.pds'
properties:
  - property_file: unreach-error.prp
    expected_verdict: false
    expected_bound: 3
options:
  engine: cbr
  split: eager
  contexts: 4
`

// parseAll reads src as the task file t.yml of dir.
func parseAll(t *testing.T, dir, src string) ([]*Task, []Warning, error) {
	file := filepath.Join(dir, "t.yml")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	return ReadFile(file)
}

// parse reads src as parseAll does, a task file with one row.
func parse(t *testing.T, dir, src string) (*Task, []Warning, error) {
	tasks, warnings, err := parseAll(t, dir, src)
	if err != nil {
		return nil, warnings, err
	}
	require.Len(t, tasks, 1)
	return tasks[0], warnings, nil
}

func TestParseGood(t *testing.T) {
	dir := taskDir(t)
	task, warnings, err := parse(t, dir, good)
	require.NoError(t, err)
	require.Empty(t, warnings)
	require.Equal(t, &Task{File: filepath.Join(dir, "t.yml"), Input: filepath.Join(dir, "p.pds"), Kind: "pds", Property: UnreachError,
		PropertyFile: UnreachError, Expected: false, ExpBound: 3, Engine: "cbr", Split: "eager", Unit: Contexts, Bound: 4}, task)

	task, _, err = parse(t, dir, strings.NewReplacer("p.pds", "q.bp", "expected_verdict: false\n    expected_bound: 3", "expected_verdict: true",
		"  engine: cbr\n  split: eager\n  contexts: 4", "  preemptions: 0").Replace(good))
	require.NoError(t, err)
	require.Equal(t, "bp", task.Kind)
	require.True(t, task.Expected)
	require.Equal(t, -1, task.ExpBound)
	require.Equal(t, Preemptions, task.Unit)
	require.Equal(t, 0, task.Bound)
	require.Equal(t, "cbr", task.Engine)

	// A CUBA system: the .init and .spec beside the .pds are found.
	task, _, err = parse(t, dir, strings.NewReplacer("p.pds", "s.pds", "unreach-error", "cuba-target").Replace(good))
	require.NoError(t, err)
	require.Equal(t, "cuba", task.Kind)
	require.Equal(t, filepath.Join(dir, "s.init"), task.Files["init"])
	require.Equal(t, filepath.Join(dir, "s.spec"), task.Files["target"])
}

// TestMoreOptions: the further options are read, checked against the
// engine, and become cbreach's flags; the work figures add --stats.
func TestMoreOptions(t *testing.T) {
	dir := taskDir(t)
	task, warnings, err := parse(t, dir, good+"  all: true\n  prune: none\n  max_tuples: 0\n  traces: false\n  max_threads: 2\n")
	require.NoError(t, err)
	require.Empty(t, warnings)
	zero := 0
	require.Equal(t, More{All: true, Prune: "none", MaxTuples: &zero, NoTraces: true, MaxThreads: 2}, task.More)
	j := Prepare(task, Settings{})
	require.Equal(t, "", j.Err)
	require.Equal(t, []string{"--json", "--engine", "cbr", "-k", "4", "--split", "eager", "--max-memory", "0B", "--stats",
		"--all", "--prune", "none", "--max-tuples", "0", "--no-trace", "--max-threads", "2", "--", filepath.Join(dir, "p.pds")}, j.Args(Settings{Figures: true}))

	// traces: true and all: false are cbreach's defaults: no flag.
	task, _, err = parse(t, dir, good+"  all: false\n  traces: true\n")
	require.NoError(t, err)
	require.Equal(t, More{}, task.More)
	j = Prepare(task, Settings{})
	require.NotContains(t, strings.Join(j.Args(Settings{}), " "), "--all")
	require.NotContains(t, strings.Join(j.Args(Settings{}), " "), "--no-trace")

	// The options of cbr alone fail the task (in its row) under another engine.
	noSplit := strings.Replace(good, "  split: eager\n", "", 1)
	task, _, err = parse(t, dir, noSplit+"  prune: identical\n")
	require.NoError(t, err)
	require.Equal(t, "option prune applies to engine cbr only, not explicit", Prepare(task, Settings{Engine: "explicit"}).Err)
	task, _, err = parse(t, dir, noSplit+"  max_tuples: 10\n")
	require.NoError(t, err)
	require.Equal(t, "option max_tuples applies to engine cbr only, not explicit", Prepare(task, Settings{Engine: "explicit"}).Err)

	for _, c := range []struct{ add, want string }{
		{"  all: yes please\n", `t.yml:11: all: want true or false, got "yes please"`},
		{"  traces: 1\n", `t.yml:11: traces: want true or false, got "1"`},
		{"  prune: some\n", `t.yml:11: prune: want subsumed, identical or none, got "some"`},
		{"  max_tuples: -1\n", `t.yml:11: max_tuples: want a whole number of at least 0, got "-1"`},
		{"  max_threads: 0\n", `t.yml:11: max_threads: want a whole number of at least 1, got "0"`},
		{"  all: true\n  all: true\n", `t.yml:12: options: key "all" given twice`},
	} {
		_, _, err := parse(t, dir, good+c.add)
		require.Error(t, err, c.add)
		require.Contains(t, strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)), c.want)
	}
}

func TestParseWarnings(t *testing.T) {
	dir := taskDir(t)
	src := "description: a task\n" + strings.Replace(good, "  contexts: 4\n", "  contexts: 4\n  language: Java\n  colour: red\n", 1)
	src = strings.Replace(src, "expected_bound: 3\n", "expected_bound: 3\n    subproperty: x\n    note: y\n", 1)
	task, warnings, err := parse(t, dir, src)
	require.NoError(t, err, src)
	require.Equal(t, 4, task.Bound)
	var got []string
	for _, w := range warnings {
		got = append(got, strings.TrimPrefix(w.String(), dir+string(filepath.Separator)))
	}
	require.Equal(t, []string{
		`t.yml:1: warning: unknown key "description" (ignored)`,
		`t.yml:9: warning: unknown key "note" in a property (ignored)`,
		`t.yml:14: warning: language Java: cbreach chooses the reader by the input's suffix (ignored)`,
		`t.yml:15: warning: unknown key "colour" in options (ignored)`,
	}, got)
}

func TestParseErrors(t *testing.T) {
	dir := taskDir(t)
	r := func(pairs ...string) string { return strings.NewReplacer(pairs...).Replace(good) }
	cases := []struct {
		name, src, want string
	}{
		{"not yaml", "format_version: '2.0'\ninput_files: p.pds\nproperties: x: y\n", `t.yml:3: not valid YAML: mapping values are not allowed`},
		{"empty", "", `t.yml:1: empty task definition`},
		{"not a mapping", "- a\n- b\n", `t.yml:1: task definition: want a mapping`},
		{"version", r("'2.0'", "'3.0'"), `t.yml:1: format_version: want '2.0' or '1.0', got "3.0"`},
		{"options in 1.0", r("'2.0'", "'1.0'"), `t.yml:7: options: format_version '1.0' has none; give format_version '2.0'`},
		{"data model", r("contexts: 4", "data_model: LLP64"), `t.yml:10: data_model: want ILP32 or LP64, got "LLP64"`},
		{"no version", r("format_version: '2.0'\n", ""), `t.yml:1: missing format_version`},
		{"no input", r("input_files: 'p.pds'\n", ""), `t.yml:1: missing input_files`},
		{"twice", r("options:", "format_version: '2.0'\noptions:"), `t.yml:7: task definition: key "format_version" given twice (first on line 1)`},
		{"missing input", r("p.pds", "none.pds"), `t.yml:2: input file none.pds: no such file`},
		{"input kind", r("p.pds", "s.init"), `t.yml:2: input_files: no program (.pds, .bp, .i or .c)`},
		{"two programs", r("'p.pds'", "[p.pds, q.bp]"), `t.yml:2: input_files: one program per task, not a .pds and a .bp`},
		{"cuba files without cuba", r("'p.pds'", "[p.pds, s.init]"), `t.yml:2: input_files: a .init or .spec belongs to a CUBA system`},
		{"properties not a list", r("properties:\n  - property_file: unreach-error.prp\n    expected_verdict: false\n    expected_bound: 3\n", "properties: unreach-error.prp\n"), `t.yml:3: properties: want a list of properties`},
		{"two of ours", r("options:", "  - property_file: unreach-call.prp\n    expected_verdict: true\noptions:"), `t.yml:7: a second property cbreach checks (the first on line 4)`},
		{"missing property file", r("- property_file: unreach-error.prp", "- property_file: ../unreach-error.prp"), `t.yml:4: property_file ../unreach-error.prp: no such file`},
		{"no verdict", r("    expected_verdict: false\n", ""), `t.yml:4: no property with an expected_verdict: nothing to score`},
		{"verdict word", r("verdict: false", "verdict: unsafe"), `t.yml:5: expected_verdict: want true or false, got "unsafe"`},
		{"bound with true", r("verdict: false", "verdict: true"), `t.yml:6: expected_bound goes with expected_verdict: false`},
		{"bound word", r("expected_bound: 3", "expected_bound: three"), `t.yml:6: expected_bound: want a whole number of at least 0, got "three"`},
		{"bound above", r("contexts: 4", "contexts: 2"), `t.yml:4: expected_bound 3 is above the bound (contexts: 2)`},
		{"engine", r("engine: cbr", "engine: spin"), `t.yml:8: engine: want cbr, seq, explicit or auto, got "spin"`},
		{"split", r("split: eager", "split: sideways"), `t.yml:9: split: want lazy or eager, got "sideways"`},
		{"two units", r("contexts: 4", "contexts: 4\n  rounds: 4"), `t.yml:11: options: contexts and rounds both given`},
		{"zero contexts", r("contexts: 4", "contexts: 0"), `t.yml:10: contexts: want a whole number of at least 1, got "0"`},
		{"negative preemptions", r("contexts: 4", "preemptions: -1"), `t.yml:10: preemptions: want a whole number of at least 0, got "-1"`},
		{"options not a mapping", r("options:\n  engine: cbr\n  split: eager\n  contexts: 4", "options: [cbr]"), `t.yml:7: options: want a mapping`},
		{"cuba without spec", r("p.pds", "q2.pds", "unreach-error", "cuba-target"), `input_files: the CUBA system q2.pds has no .init beside it`},
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "q2.pds"), nil, 0o644))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := parse(t, dir, c.src)
			require.Error(t, err, c.src)
			var e *Error
			require.ErrorAs(t, err, &e)
			msg := strings.TrimPrefix(err.Error(), dir+string(filepath.Separator))
			require.Contains(t, msg, c.want)
		})
	}
}

func TestCheckAndPrepare(t *testing.T) {
	task := func(unit string, kind string) *Task {
		return &Task{Unit: unit, Kind: kind, Engine: "cbr", Bound: 2, ExpBound: -1}
	}
	require.Equal(t, "", Check("cbr", "lazy", task(Contexts, "pds")))
	require.Equal(t, "", Check("explicit", "", task(Preemptions, "pds")))
	require.Equal(t, "", Check("seq", "eager", task(Rounds, "bp")))
	require.Equal(t, "a bound in rounds needs engine seq, not cbr", Check("cbr", "", task(Rounds, "pds")))
	require.Equal(t, "a bound in rounds needs engine seq, not explicit", Check("explicit", "", task(Rounds, "pds")))
	require.Equal(t, "engine seq counts rounds, not contexts", Check("seq", "", task(Contexts, "pds")))
	require.Equal(t, "engine seq counts rounds, not preemptions", Check("seq", "", task(Preemptions, "pds")))
	require.Equal(t, "engine explicit takes no split", Check("explicit", "lazy", task(Contexts, "pds")))
	require.Equal(t, "engine seq checks error labels only, not CUBA targets", Check("seq", "", task(Rounds, "cuba")))

	// The command's flags override the task's options.
	j := Prepare(task(Contexts, "pds"), Settings{})
	require.Equal(t, Job{Task: j.Task, Engine: "cbr", Split: "lazy"}, j)
	j = Prepare(task(Contexts, "pds"), Settings{Engine: "explicit"})
	require.Equal(t, "", j.Err)
	require.Equal(t, "", j.Split)
	j = Prepare(task(Contexts, "pds"), Settings{Engine: "seq", Split: "eager"})
	require.Equal(t, "engine seq counts rounds, not contexts", j.Err)
	tk := task(Contexts, "pds")
	tk.Split = "eager"
	j = Prepare(tk, Settings{Split: "lazy"})
	require.Equal(t, "lazy", j.Split)
	row := Run(context.Background(), &Job{Task: task(Rounds, "pds"), Engine: "cbr", Split: "lazy", Err: "a bound in rounds needs engine seq, not cbr"}, Settings{})
	require.Equal(t, StatusFailed, row.Status)
	require.Equal(t, VerdictUnknown, row.Verdict)
	require.Nil(t, row.Correct)
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b/2.yml", "b/1.yaml", "a.yml", "b/notes.txt", "b/c/3.yml"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o644))
	}
	files, err := Collect([]string{filepath.Join(dir, "b"), filepath.Join(dir, "a.yml"), filepath.Join(dir, "b", "2.yml")})
	require.NoError(t, err)
	for i := range files {
		files[i] = strings.TrimPrefix(files[i], dir+string(filepath.Separator))
	}
	require.Equal(t, []string{"a.yml", "b/1.yaml", "b/2.yml", "b/c/3.yml"}, files)
	_, err = Collect([]string{filepath.Join(dir, "none")})
	require.ErrorContains(t, err, "no such file or directory")
}

// TestShippedTasks reads every task of benchmarks/tasks: none warns, every
// model of benchmarks/models, examples/ and benchmarks/boolean has one, and
// each agrees with the model's EXPECTED line: a bound at or above the
// fewest contexts expects false (with that fewest count when counting
// contexts), a bound below it true; a model safe for every bound true.
func TestShippedTasks(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	files, err := Collect([]string{filepath.Join(root, "benchmarks", "tasks")})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	covered := map[string]bool{}
	modelRE := regexp.MustCompile(`(?m)^// EXPECTED: (?:assertion violation, fewest contexts (\d+)|safe for every bound)`)
	boolRE := regexp.MustCompile(`^// EXPECTED: (?:violation, fewest contexts (\d+)|safe within (\d+) contexts)`)
	for _, f := range files {
		tasks, warnings, err := ReadFile(f)
		require.NoError(t, err)
		require.Empty(t, warnings, f)
		require.Len(t, tasks, 1, f)
		task := tasks[0]
		require.False(t, task.Unbounded, f)
		require.Equal(t, "", task.Skip, f)
		require.Equal(t, "", Check(task.Engine, task.Split, task), f)
		rel, err := filepath.Rel(root, task.Input)
		require.NoError(t, err)
		covered[rel] = true
		src, err := os.ReadFile(task.Input)
		require.NoError(t, err)
		fewest, safeWithin := -1, -1 // from the EXPECTED line; -1 safe for every bound
		switch {
		case strings.HasPrefix(rel, "benchmarks/models/"):
			m := modelRE.FindSubmatch(src)
			require.NotNil(t, m, rel)
			if m[1] != nil {
				fewest, _ = strconv.Atoi(string(m[1]))
			}
		case strings.HasPrefix(rel, "benchmarks/boolean/"):
			m := boolRE.FindSubmatch(src)
			require.NotNil(t, m, rel)
			if m[1] != nil {
				fewest, _ = strconv.Atoi(string(m[1]))
			} else {
				safeWithin, _ = strconv.Atoi(string(m[2]))
			}
		default:
			continue // examples: their headers are prose, checked by running them
		}
		if task.Unit != Contexts {
			continue
		}
		switch {
		case safeWithin >= 0:
			require.True(t, task.Expected, f)
			require.LessOrEqual(t, task.Bound, safeWithin, f)
		case fewest < 0 || task.Bound < fewest:
			require.True(t, task.Expected, f)
		default:
			require.False(t, task.Expected, f)
			require.Equal(t, fewest, task.ExpBound, f)
		}
	}
	for _, pat := range []string{"benchmarks/models/*.pds", "examples/*.pds", "benchmarks/boolean/*.bp"} {
		inputs, err := filepath.Glob(filepath.Join(root, pat))
		require.NoError(t, err)
		require.NotEmpty(t, inputs)
		for _, in := range inputs {
			rel, _ := filepath.Rel(root, in)
			require.True(t, covered[rel], "no task for %s", rel)
		}
	}
}

// TestReaderArgs: a task's run reads its input as its kind says, with the
// reader's flag from the table and the files that go with it; the first
// reader's needs no flag.
func TestReaderArgs(t *testing.T) {
	dir := taskDir(t)
	for _, c := range []struct {
		from, to string
		want     []string
	}{
		{"p.pds", "p.pds", nil},
		{"p.pds", "q.bp", []string{"--bp"}},
		{"unreach-error", "cuba-target", []string{"--cuba", "--init", filepath.Join(dir, "s.init"), "--target", filepath.Join(dir, "s.spec")}},
	} {
		src := strings.NewReplacer(c.from, c.to).Replace(good)
		if c.to == "cuba-target" {
			src = strings.Replace(src, "p.pds", "s.pds", 1)
		}
		task, _, err := parse(t, dir, src)
		require.NoError(t, err)
		j := Prepare(task, Settings{})
		args := j.Args(Settings{})
		require.Equal(t, c.want, readerArgs(task))
		require.Equal(t, append(c.want, "--", task.Input), args[len(args)-len(c.want)-2:])
	}
	// A listed .init and .spec are taken as listed.
	src := strings.NewReplacer("'p.pds'", "[s.pds, p.init, s.spec]", "unreach-error", "cuba-target").Replace(good)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.init"), []byte("x\n"), 0o644))
	task, _, err := parse(t, dir, src)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"init": filepath.Join(dir, "p.init"), "target": filepath.Join(dir, "s.spec")}, task.Files)
}
