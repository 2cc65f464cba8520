package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/frontend/readers"
	"go.yaml.in/yaml/v3"
)

// The units of a bound, as the options of a task name them.
const (
	Contexts    = "contexts"
	Rounds      = "rounds"
	Preemptions = "preemptions"
)

// Task is one verification task as SV-COMP counts them: a task
// definition with one of its properties (a file that lists several
// properties with expected verdicts makes several Tasks, one row each).
// Paths are as the task file names them, joined to the task file's
// directory.
type Task struct {
	File string `json:"file"` // the task definition, as found
	// Input is the program (.pds, .bp or CUBA's .pds); "" when no reader
	// of the table reads the input files (Skip says so).
	Input string `json:"input"`
	// Files are the files that go with the program (CUBA's .init and
	// .spec), by the flags that name them (readers.Companion.Flag).
	Files map[string]string `json:"files,omitempty"`
	Kind  string            `json:"kind"` // the format: the name of its reader (frontend/readers), "pds", "bp" or "cuba"; "" when none reads it
	// Property is the property checked, UnreachCall, UnreachError or
	// CubaTarget, told by the content of PropertyFile; "" for one cbreach
	// does not check (Skip says which).
	Property     string `json:"property"`
	PropertyFile string `json:"property_file"`   // as the task file names it
	Expected     bool   `json:"expected"`        // the expected verdict: true is safe (within the bound, for UnreachError and CubaTarget with a bound)
	ExpBound     int    `json:"expected_bound"`  // the fewest contexts, rounds or preemptions of the violation; -1 when not given
	Engine       string `json:"engine"`          // cbr (default), seq or explicit
	Split        string `json:"split,omitempty"` // lazy or eager; "" when not given
	Unit         string `json:"unit"`            // Contexts, Rounds or Preemptions; Contexts when Unbounded
	Bound        int    `json:"bound"`           // the bound, in Unit; 0 when Unbounded
	// Unbounded says the task gives no bound (as SV-COMP's tasks do): the
	// run deepens it (cbreach --unbounded) until a violation, a proof for
	// every bound, or a limit.
	Unbounded bool `json:"unbounded,omitempty"`
	// DataModel is the options' data_model, ILP32 or LP64, for a reader
	// of C (cbreach --data-model); "" when not given.
	DataModel string `json:"data_model,omitempty"`
	More      More   `json:"more,omitzero"` // cbreach's further settings; zero keeps its defaults
	// Skip, when set, says why the task is not run: its property is not
	// one cbreach checks, or no reader reads its input. Its row is
	// unknown (status unsupported) with Skip as the message.
	Skip string `json:"skip,omitempty"`
}

// NeedsProof reports whether a true verdict must hold for every bound:
// for UnreachCall, and for any task without a bound. Only UnreachError
// and CubaTarget with a bound ask for safety within that bound.
func (t *Task) NeedsProof() bool { return t.Unbounded || t.Property == UnreachCall }

// More are cbreach's further settings of a task (docs/tasks.md, "Further
// options"), for experiments that measure rather than check: the zero
// value keeps the defaults of the cbreach command.
type More struct {
	All        bool   `json:"all,omitempty"`         // all: true: explore the whole bound (--all)
	Prune      string `json:"prune,omitempty"`       // prune: subsumed, identical or none (cbr; --prune)
	MaxTuples  *int   `json:"max_tuples,omitempty"`  // max_tuples: N, 0 for none (cbr; --max-tuples)
	NoTraces   bool   `json:"no_traces,omitempty"`   // traces: false: build no traces (--no-trace)
	MaxThreads int    `json:"max_threads,omitempty"` // max_threads: N, the thread bound (--max-threads)
}

// Warning is a remark on a task file that does not stop it: an unknown
// key, a property cbreach does not check.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string { return fmt.Sprintf("%s:%d: warning: %s", w.File, w.Line, w.Msg) }

// Error is a malformed task file: file:line: message.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Collect lists the task files named by args: each argument is a task file
// or a directory, searched recursively for .yml and .yaml files. The list
// is sorted by path, without repeats.
func Collect(args []string) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot read %s: %v", a, err)
		}
		if !st.IsDir() {
			add(a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && isTaskFile(p) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

func isTaskFile(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yml" || ext == ".yaml"
}

// ReadFile reads one task definition: one Task per property it lists
// with an expected verdict, in the order listed.
func ReadFile(file string) ([]*Task, []Warning, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, &Error{File: file, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	return Parse(file, src)
}

// reader keeps the file name and the warnings while a task is read.
type reader struct {
	file     string
	warnings []Warning
}

func (r *reader) errorf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: r.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (r *reader) warnf(n *yaml.Node, format string, args ...any) {
	r.warnings = append(r.warnings, Warning{File: r.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)})
}

// entries returns the key/value pairs of a mapping, refusing a key given
// twice.
func (r *reader) entries(n *yaml.Node, what string) ([][2]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, r.errorf(n, "%s: want a mapping of keys to values, got %s", what, kindWords(n))
	}
	seen := map[string]int{}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, r.errorf(k, "%s: a key must be a plain word", what)
		}
		if l, ok := seen[k.Value]; ok {
			return nil, r.errorf(k, "%s: key %q given twice (first on line %d)", what, k.Value, l)
		}
		seen[k.Value] = k.Line
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out, nil
}

func kindWords(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return "an empty list"
		}
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}

func (r *reader) str(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || n.Value == "" {
		return "", r.errorf(n, "%s: want a string, got %s", key, kindWords(n))
	}
	return n.Value, nil
}

func (r *reader) boolean(n *yaml.Node, key string) (bool, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, nil
		}
	}
	return false, r.errorf(n, "%s: want true or false, got %s", key, kindWords(n))
}

func (r *reader) count(n *yaml.Node, key string, min int) (int, error) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		v, err := strconv.Atoi(n.Value)
		if err == nil && v >= min {
			return v, nil
		}
	}
	return 0, r.errorf(n, "%s: want a whole number of at least %d, got %s", key, min, kindWords(n))
}

// Parse reads a task definition from src; file names it in messages and
// is the base of its relative paths. It returns one Task per property
// listed with an expected verdict.
func Parse(file string, src []byte) ([]*Task, []Warning, error) {
	r := &reader{file: file}
	ts, err := r.parse(src)
	slices.SortStableFunc(r.warnings, func(a, b Warning) int { return a.Line - b.Line })
	return ts, r.warnings, err
}

// The versions of SV-COMP's task definition format: 1.0 has no options,
// 2.0 may have them (language, data_model, and cbreach's settings).
var formatVersions = []string{"1.0", "2.0"}

func (r *reader) parse(src []byte) ([]*Task, error) {
	file := r.file
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, &Error{File: file, Line: yamlLine(err), Msg: yamlMessage(err)}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &Error{File: file, Line: 1, Msg: "empty task definition: want format_version, input_files and properties"}
	}
	top, err := r.entries(doc.Content[0], "task definition")
	if err != nil {
		return nil, err
	}
	base := &Task{File: file, ExpBound: -1, Engine: "cbr"}
	var inputs, props, opts, optsKey, version *yaml.Node
	for _, kv := range top {
		switch kv[0].Value {
		case "format_version":
			version = kv[1]
		case "input_files":
			inputs = kv[1]
		case "properties":
			props = kv[1]
		case "options":
			optsKey, opts = kv[0], kv[1]
		case "required_files":
			// Files the tool may read besides its inputs: cbreach reads
			// none, and a reader finds the ones it needs itself.
		default:
			r.warnf(kv[0], "unknown key %q (ignored)", kv[0].Value)
		}
	}
	root := doc.Content[0]
	switch {
	case version == nil:
		return nil, r.errorf(root, "missing format_version: want format_version: '2.0' (or '1.0', without options)")
	case version.Kind != yaml.ScalarNode || !slices.Contains(formatVersions, version.Value):
		return nil, r.errorf(version, "format_version: want '2.0' or '1.0', got %s", kindWords(version))
	case inputs == nil:
		return nil, r.errorf(root, "missing input_files: want the program to check")
	case props == nil:
		return nil, r.errorf(root, "missing properties: want a list of properties, each with property_file and expected_verdict")
	case opts != nil && version.Value == "1.0":
		return nil, r.errorf(optsKey, "options: format_version '1.0' has none; give format_version '2.0'")
	}
	if opts != nil {
		if err := r.options(base, opts); err != nil {
			return nil, err
		}
	}
	if base.Unit == "" {
		base.Unbounded, base.Unit = true, Contexts
	}
	ps, err := r.properties(props)
	if err != nil {
		return nil, err
	}
	checked := ""
	for _, p := range ps {
		if p.Kind != "" {
			checked = p.Kind
		}
	}
	if err := r.inputs(base, inputs, checked); err != nil {
		return nil, err
	}
	var tasks []*Task
	for _, p := range ps {
		t := *base
		t.Property, t.PropertyFile, t.Expected, t.ExpBound = p.Kind, p.file, p.expected, p.expBound
		if t.Files != nil {
			t.Files = maps.Clone(t.Files)
		}
		if p.Kind == "" {
			t.Skip = p.NotChecked()
		}
		if p.Kind != "" && !t.Unbounded && !t.Expected && t.ExpBound > t.Bound {
			return nil, r.errorf(p.node, "expected_bound %d is above the bound (%s: %d): the violation cannot be found, so the expected verdict would be true", t.ExpBound, t.Unit, t.Bound)
		}
		tasks = append(tasks, &t)
	}
	return tasks, nil
}

// property is a property of the list, with its expected verdict.
type property struct {
	Property
	node     *yaml.Node
	file     string // property_file, as given
	expected bool
	expBound int
}

// properties reads the list of properties: those with an expected
// verdict, each told by its content (ReadProperty). At most one is a
// property cbreach checks; the others make rows that say they are not
// checked. A property without expected_verdict (SV-COMP's
// coverage-error-call in pthread-wmm) is not scored: it gets no row.
func (r *reader) properties(n *yaml.Node) ([]property, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, r.errorf(n, "properties: want a list of properties, each with property_file and expected_verdict, got %s", kindWords(n))
	}
	var out []property
	var checked *yaml.Node
	for _, p := range n.Content {
		kvs, err := r.entries(p, "property")
		if err != nil {
			return nil, err
		}
		var file, verdict, bound *yaml.Node
		for _, kv := range kvs {
			switch kv[0].Value {
			case "property_file":
				file = kv[1]
			case "expected_verdict":
				verdict = kv[1]
			case "expected_bound":
				bound = kv[1]
			case "subproperty":
				// The violated part of a property (valid-deref of
				// valid-memsafety): none of cbreach's has parts.
			default:
				r.warnf(kv[0], "unknown key %q in a property (ignored)", kv[0].Value)
			}
		}
		if file == nil {
			return nil, r.errorf(p, "property without property_file")
		}
		pf, err := r.str(file, "property_file")
		if err != nil {
			return nil, err
		}
		src, err := os.ReadFile(r.join(pf))
		if err != nil {
			return nil, r.errorf(file, "property_file %s: no such file (benchmarks/tasks/properties has %s and %s; SV-COMP's are in sv-benchmarks' c/properties)", pf, UnreachError, CubaTarget)
		}
		prop := property{Property: ReadProperty(pf, src), node: p, file: pf, expBound: -1}
		if verdict == nil {
			continue // checked, in SV-COMP, but not scored: no row
		}
		if prop.expected, err = r.boolean(verdict, "expected_verdict"); err != nil {
			return nil, err
		}
		if prop.Kind != "" {
			if checked != nil {
				return nil, r.errorf(file, "a second property cbreach checks (the first on line %d): a task has one (write one task per property)", checked.Line)
			}
			checked = file
			if bound != nil {
				if prop.expected {
					return nil, r.errorf(bound, "expected_bound goes with expected_verdict: false (the fewest contexts, rounds or preemptions of the violation)")
				}
				if prop.expBound, err = r.count(bound, "expected_bound", 0); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, prop)
	}
	if len(out) == 0 {
		return nil, r.errorf(n, "no property with an expected_verdict: nothing to score (want expected_verdict: true or false)")
	}
	return out, nil
}

// options reads the options of format 2.0: SV-COMP's language and
// data_model, and cbreach's settings: engine, split and at most one
// bound (none: the run deepens it).
func (r *reader) options(t *Task, n *yaml.Node) error {
	kvs, err := r.entries(n, "options")
	if err != nil {
		return err
	}
	var unitKey *yaml.Node
	for _, kv := range kvs {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "engine":
			if t.Engine, err = r.str(v, "engine"); err != nil {
				return err
			}
			if _, err := engines.Lookup(t.Engine); err != nil {
				return r.errorf(v, "engine: %v", err)
			}
		case "split":
			if t.Split, err = r.str(v, "split"); err != nil {
				return err
			}
			if t.Split != "lazy" && t.Split != "eager" {
				return r.errorf(v, "split: want lazy or eager, got %q", t.Split)
			}
		case "language":
			lang, err := r.str(v, "language")
			if err != nil {
				return err
			}
			if lang != "C" {
				r.warnf(v, "language %s: cbreach chooses the reader by the input's suffix (ignored)", lang)
			}
		case "data_model":
			if t.DataModel, err = r.str(v, "data_model"); err != nil {
				return err
			}
			if t.DataModel != "ILP32" && t.DataModel != "LP64" {
				return r.errorf(v, "data_model: want ILP32 or LP64, got %q", t.DataModel)
			}
		case "all", "prune", "max_tuples", "traces", "max_threads":
			if err := r.more(&t.More, k.Value, v); err != nil {
				return err
			}
		case Contexts, Rounds, Preemptions:
			if unitKey != nil {
				return r.errorf(k, "options: %s and %s both given: the bound has one unit", unitKey.Value, k.Value)
			}
			unitKey = k
			min := 1
			if k.Value == Preemptions {
				min = 0
			}
			if t.Bound, err = r.count(v, k.Value, min); err != nil {
				return err
			}
			t.Unit = k.Value
		default:
			r.warnf(k, "unknown key %q in options (ignored)", k.Value)
		}
	}
	return nil
}

// more reads one of the further options (More).
func (r *reader) more(m *More, key string, v *yaml.Node) error {
	var err error
	switch key {
	case "all":
		m.All, err = r.boolean(v, key)
	case "traces":
		var on bool
		on, err = r.boolean(v, key)
		m.NoTraces = !on
	case "prune":
		if m.Prune, err = r.str(v, key); err == nil && m.Prune != "subsumed" && m.Prune != "identical" && m.Prune != "none" {
			err = r.errorf(v, "prune: want subsumed, identical or none, got %q", m.Prune)
		}
	case "max_tuples":
		var n int
		n, err = r.count(v, key, 0)
		m.MaxTuples = &n
	case "max_threads":
		m.MaxThreads, err = r.count(v, key, 1)
	}
	return err
}

// join resolves a path of the task file against its directory.
func (r *reader) join(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(r.file), p)
}

// inputs reads input_files: one program, and the files that go with it
// (CUBA's .init and .spec, found beside the program when not listed).
// The table of readers (frontend/readers) says which suffixes name
// programs and which the files that go with them; the program's suffix
// chooses its reader, but for the property CubaTarget (prop), which the
// reader with a target file (CUBA's .spec) checks. An input file whose
// suffix no reader reads (a C program before there is a reader of C) is
// not malformed: the task is skipped, its Skip saying so.
func (r *reader) inputs(t *Task, n *yaml.Node, prop string) error {
	var items []*yaml.Node
	switch n.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
	}
	if len(items) == 0 {
		return r.errorf(n, "input_files: want a file or a list of files, got %s", kindWords(n))
	}
	byExt := map[string]*yaml.Node{}
	var prog *yaml.Node
	var unread []string           // the files no reader reads
	listed := map[string]string{} // the files that go with the program, by suffix
	for _, it := range items {
		p, err := r.str(it, "input_files")
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if prev, ok := byExt[ext]; ok {
			return r.errorf(it, "input_files: a second %s file (the first is %s)", ext, prev.Value)
		}
		byExt[ext] = it
		if _, err := os.Stat(r.join(p)); err != nil {
			return r.errorf(it, "input file %s: no such file", p)
		}
		switch {
		case readers.BySuffix(ext) != nil:
			if prog != nil {
				return r.errorf(it, "input_files: one program per task, not a %s and a %s", strings.ToLower(filepath.Ext(prog.Value)), ext)
			}
			prog, t.Input = it, r.join(p)
		case companionOf(ext) != nil:
			listed[ext] = r.join(p)
		default:
			unread = append(unread, p)
		}
	}
	if len(unread) > 0 {
		t.Input, t.Kind = "", ""
		t.Skip = fmt.Sprintf("no reader reads %s (cbreach reads %s)", strings.Join(unread, ", "), readers.Or(programSuffixes()))
		return nil
	}
	if prog == nil {
		return r.errorf(n, "input_files: no program (%s)", readers.Or(programSuffixes()))
	}
	ext := strings.ToLower(filepath.Ext(t.Input))
	rd := readers.BySuffix(ext)
	if prop == CubaTarget {
		rd = nil
		for _, o := range readers.All {
			if o.TargetFile() != nil && slices.Contains(o.Suffixes, ext) {
				rd = o
				break
			}
		}
		if rd == nil {
			o := targetReader()
			return r.errorf(n, "input_files: %s needs a %s (%s with %s)", CubaTarget, o.Noun, o.Suffixes[0], strings.Join(companionSuffixes(o), " and "))
		}
	}
	t.Kind = rd.Name
	for _, sfx := range suffixes() {
		if o := companionOf(sfx); listed[sfx] != "" && o != rd {
			if o.TargetFile() != nil {
				return r.errorf(n, "input_files: a %s belongs to a %s, whose property is %s", readers.Or(companionSuffixes(o)), o.Noun, CubaTarget)
			}
			return r.errorf(n, "input_files: a %s belongs to a %s", sfx, o.Noun)
		}
	}
	base := strings.TrimSuffix(t.Input, filepath.Ext(t.Input))
	for _, c := range rd.Companions {
		f := listed[c.Suffix]
		if f == "" && (c.Required || c.Target && prop == CubaTarget) {
			if _, err := os.Stat(base + c.Suffix); err != nil {
				return r.errorf(n, "input_files: the %s %s has no %s beside it; list it in input_files", rd.Noun, prog.Value, c.Suffix)
			}
			f = base + c.Suffix
		}
		if f != "" {
			if t.Files == nil {
				t.Files = map[string]string{}
			}
			t.Files[c.Flag] = f
		}
	}
	return nil
}

// programSuffixes are the suffixes of the readers' programs, in the
// table's order.
func programSuffixes() []string {
	var out []string
	for _, rd := range readers.All {
		for _, s := range rd.Suffixes {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// companionSuffixes are the suffixes of the files that go with a
// reader's program.
func companionSuffixes(rd *readers.Reader) []string {
	var out []string
	for _, c := range rd.Companions {
		out = append(out, c.Suffix)
	}
	return out
}

// suffixes are the suffixes of input_files: the programs', then those of
// the files that go with them.
func suffixes() []string {
	out := programSuffixes()
	for _, rd := range readers.All {
		out = append(out, companionSuffixes(rd)...)
	}
	return out
}

// companionOf returns the reader whose program a file of the suffix goes
// with, or nil.
func companionOf(suffix string) *readers.Reader {
	for _, rd := range readers.All {
		if slices.Contains(companionSuffixes(rd), suffix) {
			return rd
		}
	}
	return nil
}

// targetReader returns the first reader with a target file.
func targetReader() *readers.Reader {
	for _, rd := range readers.All {
		if rd.TargetFile() != nil {
			return rd
		}
	}
	panic("suite: no reader of the table checks targets, the property " + CubaTarget)
}

// Check says why a task cannot run with the engine and split (after the
// command's overrides), or "" when it can.
func Check(eng, split string, t *Task) string {
	e, err := engines.Lookup(eng)
	if err != nil {
		return "engine: " + err.Error()
	}
	unit, _ := cbr.ParseUnit(t.Unit)
	if t.Unit == Rounds {
		unit = cbr.Rounds
	}
	switch {
	case t.Unbounded && !e.Unbounded:
		return fmt.Sprintf("the task gives no bound, and engine %s does not deepen one (engine %s does)", eng, engines.Or(engines.Where(func(e engines.Entry) bool { return e.Unbounded })))
	case !e.Counts(unit) && unit == cbr.Rounds:
		return fmt.Sprintf("a bound in rounds needs engine %s, not %s", engines.Or(engines.Counting(cbr.Rounds)), eng)
	case !e.Counts(unit):
		return fmt.Sprintf("engine %s counts %s, not %s", eng, e.Units[0], t.Unit)
	case split != "" && !e.Takes("split"):
		return fmt.Sprintf("engine %s takes no split", eng)
	case targets(t.Kind) && !e.Targets:
		return fmt.Sprintf("engine %s checks error labels only, not CUBA targets", eng)
	case t.More.Prune != "" && !e.Takes("prune"):
		return fmt.Sprintf("option prune applies to engine %s only, not %s", engines.Or(engines.Taking("prune")), eng)
	case t.More.MaxTuples != nil && !e.Takes("max-tuples"):
		return fmt.Sprintf("option max_tuples applies to engine %s only, not %s", engines.Or(engines.Taking("max-tuples")), eng)
	}
	return ""
}

// targets reports whether the inputs of the reader named kind name
// targets (CUBA's .spec), checked instead of error labels.
func targets(kind string) bool {
	rd, err := readers.Lookup(kind)
	return err == nil && rd.TargetFile() != nil
}

// yamlLine and yamlMessage take the line out of the YAML library's
// error ("yaml: line 3: ...").
func yamlLine(err error) int {
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		var n int
		if _, e := fmt.Sscanf(msg[i:], "line %d", &n); e == nil {
			return n
		}
	}
	return 0
}

func yamlMessage(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, "line "); i == 0 {
		if j := strings.Index(msg, ": "); j >= 0 {
			msg = msg[j+2:]
		}
	}
	return "not valid YAML: " + msg
}
