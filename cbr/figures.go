package cbr

import (
	"fmt"
	"github.com/cbreach/cbreach/pds/plural"
	"slices"
	"strconv"
)

// The engines describe themselves to the front doors (the command line,
// the task suites, the benchmark harness) in these terms: the settings
// each takes, by the names its flags and task options have, and the
// figures of each run, which a front door prints, writes as JSON or
// tabulates without knowing the engine. package cbr/engines lists the
// engines with these descriptions.

// Setting is one setting an engine takes, as a front door offers it: a
// flag of the command line and an option of a task file, by one name.
type Setting struct {
	Name  string // "split": the flag --split, the task option split
	Usage string // one line of help; a `WORD` in backquotes names the value, as in pflag
	Kind  SettingKind
	// Default is the value when the setting is not given: one of Choices,
	// a whole number, or "false" for a switch.
	Default string
	Choices []string // the values of a choice
	// Want says what a whole number counts, for messages: "a whole
	// number of stack frames" ("a whole number" when empty).
	Want string
	// Aliases are further flags that set it to one value: --no-dedup is
	// prune none.
	Aliases []Alias
}

// SettingKind is what a setting's value is.
type SettingKind int

const (
	Choice SettingKind = iota // one of Setting.Choices
	Switch                    // true or false
	Whole                     // a whole number, 0 or more
)

// Alias is a flag that sets a setting to one value.
type Alias struct {
	Flag, Value, Usage string
}

// Settings are the values a front door gives, by setting name; a setting
// not given has its default.
type Settings map[string]string

// SettingError is a value of a setting that its engine refuses.
type SettingError struct {
	Setting, Value, Want string
}

func (e *SettingError) Error() string {
	return fmt.Sprintf("--%s: want %s, got %q", e.Setting, e.Want, e.Value)
}

// Value returns the value of s in v (its default when v does not give
// it), checked against its kind: a SettingError names what it wants.
func (s Setting) Value(v Settings) (string, error) {
	val, ok := v[s.Name]
	if !ok {
		return s.Default, nil
	}
	switch s.Kind {
	case Choice:
		if !slices.Contains(s.Choices, val) {
			return "", &SettingError{s.Name, val, Or(s.Choices)}
		}
	case Switch:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return "", &SettingError{s.Name, val, "true or false"}
		}
		val = strconv.FormatBool(b)
	case Whole:
		if n, err := strconv.Atoi(val); err != nil || n < 0 {
			want := s.Want
			if want == "" {
				want = "a whole number"
			}
			return "", &SettingError{s.Name, val, want}
		}
	}
	return val, nil
}

// Or joins words for a message: "a", "a or b", "a, b or c" (plural.Or).
func Or(words []string) string { return plural.Or(words) }

// Figures are an engine's own account of a run, beside the Stats every
// engine fills: the settings it ran with and the figures it counts, in
// forms that a front door shows as they are.
type Figures interface {
	// Settings are the settings of the run that its outputs name, in
	// order: the view-tuple engine's split and prune, the sequential
	// reduction's form. The JSON output has each at its top level.
	Settings() []Named
	// Summary is the report's line of figures, without the time: "lazy
	// splitting: 7 view tuples, 9 post* calls".
	Summary() string
	// Details are the further lines of figures that --stats prints.
	Details() []string
	// Work is the count of work done that the JSON output has at its top
	// level ("viewTuples", "states"); an empty name when there is none.
	Work() Named
	// Stats are the engine's figures for the JSON output, under
	// "stats" by the key given: a value with JSON field tags.
	Stats() (key string, value any)
}

// Named is a value with its name.
type Named struct {
	Name  string
	Value any
}
