package suite

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/pds/plural"
)

// The statuses of a row.
const (
	StatusDone      = "done"      // the run ended with a verdict (or unknown for a limit other than time and memory)
	StatusTimeout   = "timeout"   // the time limit stopped it
	StatusMemory    = "memory"    // the memory limit stopped it
	StatusFailed    = "failed"    // it could not run or gave no answer (the message says why)
	StatusCancelled = "cancelled" // the suite was interrupted before it finished
	// StatusUnsupported: cbreach does not check the task: its property is
	// not one cbreach checks, no reader reads its input, or the reader
	// refused a construct of the program (the message says which and
	// where). Not run, or stopped before the analysis; unknown, not failed.
	StatusUnsupported = "unsupported"
)

// The verdicts, as SV-COMP writes them: true (the property holds: for
// every bound, or within the task's bound for UnreachError and
// CubaTarget), false (a violation), unknown.
const (
	VerdictTrue    = "true"
	VerdictFalse   = "false"
	VerdictUnknown = "unknown"
)

// Row is the result of one task: a task file and one of its properties.
type Row struct {
	File string `json:"file"`
	// Property is the name of the task's property_file (without its
	// directory): unreach-call.prp.
	Property  string `json:"property"`
	Engine    string `json:"engine"`
	Split     string `json:"split,omitempty"`
	BoundUnit string `json:"bound_unit"`
	// Bound is the task's bound; with Unbounded (no bound in the task),
	// how far the run deepened it, 0 when it did not run.
	Bound           int     `json:"bound"`
	Unbounded       bool    `json:"unbounded,omitempty"`
	ExpectedVerdict string  `json:"expected_verdict"`
	Verdict         string  `json:"verdict"`
	Fewest          *int    `json:"fewest"`
	ExpectedBound   *int    `json:"expected_bound"`
	FewestMatches   *bool   `json:"fewest_matches"`
	Status          string  `json:"status"`
	Correct         *bool   `json:"correct"`
	Score           int     `json:"score"`
	TimeS           float64 `json:"time_s"` // wall-clock time
	CPUS            float64 `json:"cpu_s"`  // CPU time, user and system, of the task's process
	PeakMiB         float64 `json:"peak_mib"`
	Message         string  `json:"message,omitempty"`
	// Figures (with Settings.Figures) are the run's work figures, from
	// cbreach's JSON; nil when it gave none.
	Figures *Figures `json:"figures,omitempty"`
}

// Figures are the work figures of a run, as cbreach --json --stats
// reports them (docs/json.md), for experiments that measure the engines.
type Figures struct {
	Reason         string  `json:"reason,omitempty"`           // why unknown, or what cut an --all run short
	Complete       int     `json:"complete"`                   // every run with at most this many units was explored; -1 for none
	AnalysisS      float64 `json:"analysis_s"`                 // the analysis alone, seconds (stats.timeSeconds)
	ViewTuples     *int    `json:"view_tuples,omitempty"`      // cbr: view tuples taken from the worklist
	TuplesPerLevel []int   `json:"tuples_per_level,omitempty"` // cbr: view tuples by contexts (or preemptions)
	PostStarCalls  *int    `json:"post_star_calls,omitempty"`  // cbr
	PostStarSteps  int     `json:"post_star_steps"`
	States         *int    `json:"states,omitempty"`     // explicit: states expanded
	Threads        int     `json:"threads,omitempty"`    // seq: the threads of the round-robin order
	PeakNodes      *int    `json:"peak_nodes,omitempty"` // the peak BDD node table occupancy (varies from run to run)
	Kernel         string  `json:"kernel,omitempty"`     // the BDD kernel
}

// NewRow is the row of t before it runs: its settings, no verdict.
func NewRow(t *Task, eng, split string) Row {
	r := Row{File: t.File, Property: baseName(t.PropertyFile), Engine: eng, Split: split, BoundUnit: t.Unit, Bound: t.Bound, Unbounded: t.Unbounded,
		ExpectedVerdict: VerdictTrue, Verdict: VerdictUnknown}
	if !t.Expected {
		r.ExpectedVerdict = VerdictFalse
	}
	if t.ExpBound >= 0 {
		b := t.ExpBound
		r.ExpectedBound = &b
	}
	return r
}

// baseName is the name of the file p without its directory; "" for "".
func baseName(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Base(p)
}

// Judge sets Correct, FewestMatches and Score from the verdict, as
// SV-COMP scores: a correct true +2, a correct false +1, a wrong false
// -16, a wrong true -32, unknown 0. A false verdict whose fewest count is
// not the expected one is wrong.
func (r *Row) Judge() {
	r.Correct, r.FewestMatches, r.Score = nil, nil, 0
	if r.Verdict == VerdictFalse && r.ExpectedBound != nil {
		m := r.Fewest != nil && *r.Fewest == *r.ExpectedBound
		r.FewestMatches = &m
	}
	var ok bool
	switch r.Verdict {
	case VerdictTrue:
		ok = r.ExpectedVerdict == VerdictTrue
		r.Score = map[bool]int{true: 2, false: -32}[ok]
	case VerdictFalse:
		ok = r.ExpectedVerdict == VerdictFalse && (r.FewestMatches == nil || *r.FewestMatches)
		r.Score = map[bool]int{true: 1, false: -16}[ok]
	default:
		return
	}
	r.Correct = &ok
}

// Outcome is "correct", "wrong" or "unknown".
func (r *Row) Outcome() string {
	switch {
	case r.Correct == nil:
		return "unknown"
	case *r.Correct:
		return "correct"
	}
	return "wrong"
}

// Summary counts the rows. Unknown counts every row without a verdict,
// failed, cancelled and unsupported ones too; Failed and Cancelled
// count those among them. The times add up the rows'.
type Summary struct {
	Tasks        int `json:"tasks"`
	CorrectTrue  int `json:"correct_true"`
	CorrectFalse int `json:"correct_false"`
	WrongTrue    int `json:"wrong_true"`
	WrongFalse   int `json:"wrong_false"`
	Unknown      int `json:"unknown"`
	Failed       int `json:"failed"`
	Cancelled    int `json:"cancelled"`
	Score        int `json:"score"`
	// TimeS and CPUS add up the rows' wall-clock and CPU times, seconds.
	TimeS float64 `json:"time_s"`
	CPUS  float64 `json:"cpu_s"`
}

// Wrong is the number of wrong verdicts.
func (s Summary) Wrong() int { return s.WrongTrue + s.WrongFalse }

// Summarize adds up the rows.
func Summarize(rows []Row) Summary {
	s := Summary{Tasks: len(rows)}
	for i := range rows {
		r := &rows[i]
		s.Score += r.Score
		s.TimeS += r.TimeS
		s.CPUS += r.CPUS
		switch {
		case r.Correct == nil:
			s.Unknown++
		case *r.Correct && r.Verdict == VerdictTrue:
			s.CorrectTrue++
		case *r.Correct:
			s.CorrectFalse++
		case r.Verdict == VerdictTrue:
			s.WrongTrue++
		default:
			s.WrongFalse++
		}
		switch r.Status {
		case StatusFailed:
			s.Failed++
		case StatusCancelled:
			s.Cancelled++
		}
	}
	return s
}

func (s Summary) String() string {
	return fmt.Sprintf("%s: %d correct (%d true, %d false), %d wrong (%d true, %d false), %d unknown (%d failed, %d cancelled); score %d",
		plural.Count(s.Tasks, "task"), s.CorrectTrue+s.CorrectFalse, s.CorrectTrue, s.CorrectFalse, s.Wrong(), s.WrongTrue, s.WrongFalse, s.Unknown, s.Failed, s.Cancelled, s.Score)
}

// Group is the summary of the rows of one directory of task files.
type Group struct {
	Dir string `json:"directory"`
	Summary
}

// Directories sums the rows up by the directory of their task files,
// sorted by directory.
func Directories(rows []Row) []Group {
	by := map[string][]Row{}
	for _, r := range rows {
		d := filepath.Dir(r.File)
		by[d] = append(by[d], r)
	}
	out := []Group{}
	for _, d := range slices.Sorted(maps.Keys(by)) {
		out = append(out, Group{Dir: d, Summary: Summarize(by[d])})
	}
	return out
}

// Report is the object `cbreach suite --json` prints.
type Report struct {
	Tasks       []Row   `json:"tasks"`
	Score       int     `json:"score"`
	Summary     Summary `json:"summary"`
	Directories []Group `json:"directories"`
}

// WriteJSON writes the rows as one JSON object.
func WriteJSON(w io.Writer, rows []Row) error {
	if rows == nil {
		rows = []Row{}
	}
	s := Summarize(rows)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(Report{Tasks: rows, Score: s.Score, Summary: s, Directories: Directories(rows)})
}

// ReadJSON reads what WriteJSON wrote.
func ReadJSON(r io.Reader) (*Report, error) {
	var rep Report
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// columns are the columns of the Markdown and CSV tables.
var columns = []string{"task", "property", "engine", "bound", "expected", "verdict", "result", "fewest", "expected fewest", "status", "time (s)", "cpu (s)", "peak (MiB)", "score", "message"}

// numeric are the columns of numbers, aligned right in Markdown.
var numeric = map[string]bool{"bound": true, "fewest": true, "time (s)": true, "cpu (s)": true, "peak (MiB)": true, "score": true}

func cells(r *Row) []string {
	eng := r.Engine
	if r.Split != "" {
		eng += " " + r.Split
	}
	fewest, exp := "", ""
	if r.Fewest != nil {
		fewest = strconv.Itoa(*r.Fewest)
	}
	if r.ExpectedBound != nil {
		exp = strconv.Itoa(*r.ExpectedBound)
		if r.FewestMatches != nil {
			exp += map[bool]string{true: " (matches)", false: " (differs)"}[*r.FewestMatches]
		}
	}
	bound := fmt.Sprintf("%d %s", r.Bound, r.BoundUnit)
	switch {
	case r.Unbounded && r.Bound == 0:
		bound = "none"
	case r.Unbounded:
		bound = "none (deepened to " + bound + ")"
	}
	return []string{r.File, r.Property, eng, bound, r.ExpectedVerdict, r.Verdict, r.Outcome(), fewest, exp, r.Status,
		seconds(r.TimeS), seconds(r.CPUS), strconv.FormatFloat(r.PeakMiB, 'f', 1, 64), strconv.Itoa(r.Score), r.Message}
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

// groupColumns are the columns of the table by directory.
var groupColumns = []string{"directory", "tasks", "correct true", "correct false", "unknown", "failed", "wrong", "score", "cpu (s)", "wall (s)"}

func groupCells(dir string, s Summary) []string {
	return []string{dir, strconv.Itoa(s.Tasks), strconv.Itoa(s.CorrectTrue), strconv.Itoa(s.CorrectFalse), strconv.Itoa(s.Unknown),
		strconv.Itoa(s.Failed), strconv.Itoa(s.Wrong()), strconv.Itoa(s.Score), seconds(s.CPUS), seconds(s.TimeS)}
}

// markdownTable writes a Markdown table, the columns whose names
// numeric holds aligned right.
func markdownTable(b *strings.Builder, header []string, rows [][]string, numeric func(string) bool) {
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for _, c := range header {
		if numeric(c) {
			b.WriteString("--:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, cs := range rows {
		for j, c := range cs {
			cs[j] = strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " ")
		}
		b.WriteString("| " + strings.Join(cs, " | ") + " |\n")
	}
}

// WriteMarkdown writes the rows as a Markdown table; then a table by
// directory of task files (SV-COMP's counts, score and times), with a
// last line for all of them; then the summary.
func WriteMarkdown(w io.Writer, rows []Row) error {
	var b strings.Builder
	var body [][]string
	for i := range rows {
		body = append(body, cells(&rows[i]))
	}
	markdownTable(&b, columns, body, func(c string) bool { return numeric[c] })
	b.WriteString("\n")
	var groups [][]string
	for _, g := range Directories(rows) {
		groups = append(groups, groupCells(g.Dir, g.Summary))
	}
	sum := Summarize(rows)
	groups = append(groups, groupCells("total", sum))
	markdownTable(&b, groupColumns, groups, func(c string) bool { return c != "directory" })
	fmt.Fprintf(&b, "\n%s\n", sum)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the rows as CSV, with a header line.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(columns)
	for i := range rows {
		cw.Write(cells(&rows[i]))
	}
	cw.Flush()
	return cw.Error()
}
