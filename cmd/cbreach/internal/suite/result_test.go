package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func ip(n int) *int { return &n }

func TestJudge(t *testing.T) {
	cases := []struct {
		expected, verdict string
		expBound, fewest  *int
		outcome           string
		score             int
	}{
		{VerdictTrue, VerdictTrue, nil, nil, "correct", 2},
		{VerdictFalse, VerdictFalse, nil, ip(3), "correct", 1},
		{VerdictFalse, VerdictFalse, ip(3), ip(3), "correct", 1},
		{VerdictFalse, VerdictFalse, ip(3), ip(2), "wrong", -16}, // the wrong fewest count
		{VerdictTrue, VerdictFalse, nil, ip(2), "wrong", -16},
		{VerdictFalse, VerdictTrue, ip(3), nil, "wrong", -32},
		{VerdictFalse, VerdictTrue, nil, nil, "wrong", -32},
		{VerdictTrue, VerdictUnknown, nil, nil, "unknown", 0},
		{VerdictFalse, VerdictUnknown, ip(3), nil, "unknown", 0},
	}
	var rows []Row
	for _, c := range cases {
		r := Row{ExpectedVerdict: c.expected, Verdict: c.verdict, ExpectedBound: c.expBound, Fewest: c.fewest}
		r.Judge()
		require.Equal(t, c.outcome, r.Outcome(), "%+v", c)
		require.Equal(t, c.score, r.Score, "%+v", c)
		if c.expBound != nil && c.verdict == VerdictFalse {
			require.Equal(t, *c.expBound == *c.fewest, *r.FewestMatches)
		} else {
			require.Nil(t, r.FewestMatches)
		}
		rows = append(rows, r)
	}
	s := Summarize(rows)
	require.Equal(t, Summary{Tasks: 9, CorrectTrue: 1, CorrectFalse: 2, WrongTrue: 2, WrongFalse: 2, Unknown: 2, Score: 2 + 1 + 1 - 16 - 16 - 32 - 32}, s)
	require.Equal(t, 4, s.Wrong())
}

func sampleRows() []Row {
	rows := []Row{
		{File: "tasks/a.yml", Property: UnreachError, Engine: "cbr", Split: "lazy", BoundUnit: Contexts, Bound: 5, ExpectedVerdict: VerdictFalse, Verdict: VerdictFalse,
			Fewest: ip(5), ExpectedBound: ip(5), Status: StatusDone, TimeS: 0.25, CPUS: 0.5, PeakMiB: 23.5},
		{File: "tasks/b.yml", Property: UnreachError, Engine: "explicit", BoundUnit: Preemptions, Bound: 2, ExpectedVerdict: VerdictTrue, Verdict: VerdictUnknown,
			Status: StatusTimeout, TimeS: 60, CPUS: 59.5, PeakMiB: 100, Message: "time limit reached"},
		{File: "tasks/c|d.yml", Property: UnreachError, Engine: "seq", Split: "eager", BoundUnit: Rounds, Bound: 1, ExpectedVerdict: VerdictTrue, Verdict: VerdictFalse,
			Fewest: ip(1), Status: StatusDone, TimeS: 1, CPUS: 1, PeakMiB: 10},
		{File: "sv/x.yml", Property: UnreachCall, Engine: "cbr", Split: "lazy", BoundUnit: Contexts, Bound: 3, Unbounded: true, ExpectedVerdict: VerdictTrue,
			Verdict: VerdictTrue, Status: StatusDone, TimeS: 2, CPUS: 3, PeakMiB: 30},
		{File: "sv/x.yml", Property: "no-data-race.prp", Engine: "cbr", Split: "lazy", BoundUnit: Contexts, Unbounded: true, ExpectedVerdict: VerdictFalse,
			Verdict: VerdictUnknown, Status: StatusUnsupported, Message: "property not checked: CHECK( init(main()), LTL(G ! data-race) )"},
		{File: "sv/y.yml", Property: UnreachCall, Engine: "cbr", Split: "lazy", BoundUnit: Contexts, Unbounded: true, ExpectedVerdict: VerdictFalse,
			Verdict: VerdictUnknown, Status: StatusFailed, TimeS: 0.5, CPUS: 0.25, PeakMiB: 5, Message: "cbreach refused the task: y.i:1:1: syntax error"},
	}
	for i := range rows {
		rows[i].Judge()
	}
	return rows
}

func TestWriters(t *testing.T) {
	rows := sampleRows()
	var md bytes.Buffer
	require.NoError(t, WriteMarkdown(&md, rows))
	require.Equal(t, `| task | property | engine | bound | expected | verdict | result | fewest | expected fewest | status | time (s) | cpu (s) | peak (MiB) | score | message |
|---|---|---|--:|---|---|---|--:|---|---|--:|--:|--:|--:|---|
| tasks/a.yml | unreach-error.prp | cbr lazy | 5 contexts | false | false | correct | 5 | 5 (matches) | done | 0.250 | 0.500 | 23.5 | 1 |  |
| tasks/b.yml | unreach-error.prp | explicit | 2 preemptions | true | unknown | unknown |  |  | timeout | 60.000 | 59.500 | 100.0 | 0 | time limit reached |
| tasks/c\|d.yml | unreach-error.prp | seq eager | 1 rounds | true | false | wrong | 1 |  | done | 1.000 | 1.000 | 10.0 | -16 |  |
| sv/x.yml | unreach-call.prp | cbr lazy | none (deepened to 3 contexts) | true | true | correct |  |  | done | 2.000 | 3.000 | 30.0 | 2 |  |
| sv/x.yml | no-data-race.prp | cbr lazy | none | false | unknown | unknown |  |  | unsupported | 0.000 | 0.000 | 0.0 | 0 | property not checked: CHECK( init(main()), LTL(G ! data-race) ) |
| sv/y.yml | unreach-call.prp | cbr lazy | none | false | unknown | unknown |  |  | failed | 0.500 | 0.250 | 5.0 | 0 | cbreach refused the task: y.i:1:1: syntax error |

| directory | tasks | correct true | correct false | unknown | failed | wrong | score | cpu (s) | wall (s) |
|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|
| sv | 3 | 1 | 0 | 2 | 1 | 0 | 2 | 3.250 | 2.500 |
| tasks | 3 | 0 | 1 | 1 | 0 | 1 | -15 | 61.000 | 61.250 |
| total | 6 | 1 | 1 | 3 | 1 | 1 | -13 | 64.250 | 63.750 |

6 tasks: 2 correct (1 true, 1 false), 1 wrong (0 true, 1 false), 3 unknown (1 failed, 0 cancelled); score -13
`, md.String())

	var csv bytes.Buffer
	require.NoError(t, WriteCSV(&csv, rows[:3]))
	require.Equal(t, `task,property,engine,bound,expected,verdict,result,fewest,expected fewest,status,time (s),cpu (s),peak (MiB),score,message
tasks/a.yml,unreach-error.prp,cbr lazy,5 contexts,false,false,correct,5,5 (matches),done,0.250,0.500,23.5,1,
tasks/b.yml,unreach-error.prp,explicit,2 preemptions,true,unknown,unknown,,,timeout,60.000,59.500,100.0,0,time limit reached
tasks/c|d.yml,unreach-error.prp,seq eager,1 rounds,true,false,wrong,1,,done,1.000,1.000,10.0,-16,
`, csv.String())

	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, rows))
	require.Contains(t, js.String(), `"file": "tasks/b.yml",
      "property": "unreach-error.prp",
      "engine": "explicit",
      "bound_unit": "preemptions",
      "bound": 2,
      "expected_verdict": "true",
      "verdict": "unknown",
      "fewest": null,
      "expected_bound": null,
      "fewest_matches": null,
      "status": "timeout",
      "correct": null,
      "score": 0,
      "time_s": 60,
      "cpu_s": 59.5,
      "peak_mib": 100,
      "message": "time limit reached"`)
	require.Contains(t, js.String(), `"directories": [
    {
      "directory": "sv",
      "tasks": 3,`)
	rep, err := ReadJSON(&js)
	require.NoError(t, err)
	require.Equal(t, rows, rep.Tasks)
	require.Equal(t, -13, rep.Score)
	require.Equal(t, Summarize(rows), rep.Summary)
	require.Equal(t, []Group{{Dir: "sv", Summary: Summarize(rows[3:])}, {Dir: "tasks", Summary: Summarize(rows[:3])}}, rep.Directories)

	js.Reset()
	require.NoError(t, WriteJSON(&js, nil))
	require.Contains(t, js.String(), `"tasks": []`)
}

func TestSlurmScriptAndCollect(t *testing.T) {
	dir := taskDir(t)
	var jobs []Job
	for _, name := range []string{"a", "b", "c"} {
		file := filepath.Join(dir, name+".yml")
		require.NoError(t, os.WriteFile(file, []byte(good), 0o644))
		tasks, _, err := ReadFile(file)
		require.NoError(t, err)
		jobs = append(jobs, Prepare(tasks[0], Settings{}))
	}
	sl := &Slurm{Dir: filepath.Join(dir, "run"), Partition: "debug", Args: "--qos=short --account=x", Chunk: 2, CPUs: 2}
	s := Settings{Exe: "/opt/cb reach", Timeout: 90 * time.Second, MaxMemory: 2 << 30, GoMaxProcs: 3}
	script, err := sl.WriteScript(jobs, s)
	require.NoError(t, err)
	b, err := os.ReadFile(script)
	require.NoError(t, err)
	text := string(b)
	for _, want := range []string{"#SBATCH --array=0-1\n", "#SBATCH --time=0-00:05:00\n", "#SBATCH --mem=2560M\n", "#SBATCH --cpus-per-task=2\n",
		"#SBATCH --partition=debug\n", "#SBATCH --qos=short --account=x\n", "#SBATCH --output=" + sl.Dir + "/logs/%a.out\n",
		"exec '/opt/cb reach' suite --slurm-element \"$SLURM_ARRAY_TASK_ID\" --slurm-dir '" + sl.Dir + "'\n"} {
		require.Contains(t, text, want)
	}
	require.Equal(t, 2, sl.Elements(3))
	require.Equal(t, "0-00:01:00", slurmTime(time.Second))
	require.Equal(t, "1-01:01:00", slurmTime(25*time.Hour+30*time.Second))

	// Element 1 holds task 2 alone; its result is written as a row. Task
	// 0's result is there, task 1's is missing.
	r := NewRow(jobs[0].Task, "cbr", "lazy")
	r.Verdict, r.Status, r.Fewest = VerdictFalse, StatusDone, ip(3)
	r.Judge()
	var one bytes.Buffer
	require.NoError(t, WriteJSON(&one, []Row{r}))
	rep, _ := ReadJSON(&one)
	writeRow(t, sl, 0, rep.Tasks[0])
	require.ErrorContains(t, RunElement(context.Background(), sl.Dir, 2, "x"), "array element 2: out of range (3 tasks, 2 per element)")

	rows := sl.Collect(jobs, false)
	require.Len(t, rows, 3)
	require.Equal(t, "correct", rows[0].Outcome())
	require.Equal(t, jobs[0].Task.File, rows[0].File)
	for _, i := range []int{1, 2} {
		require.Equal(t, StatusFailed, rows[i].Status)
		require.True(t, strings.HasPrefix(rows[i].Message, "no result"), rows[i].Message)
		require.Equal(t, jobs[i].Task.File, rows[i].File)
	}
	require.Contains(t, rows[2].Message, "array element 1")
	rows = sl.Collect(jobs, true)
	require.Equal(t, StatusCancelled, rows[1].Status)

	// A new script clears the results of the last run.
	_, err = sl.WriteScript(jobs, s)
	require.NoError(t, err)
	require.Equal(t, StatusFailed, sl.Collect(jobs, false)[0].Status)
}

func writeRow(t *testing.T, sl *Slurm, i int, r Row) {
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, []Row{r}))
	rep, err := ReadJSON(&b)
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, os.WriteFile(sl.resultFile(i), mustJSON(t, rep.Tasks[0]), 0o644))
}

func mustJSON(t *testing.T, r Row) []byte {
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return b
}
