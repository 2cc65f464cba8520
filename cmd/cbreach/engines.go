package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cmd/cbreach/internal/schema"
	"github.com/spf13/pflag"
)

// The engines come from the table of package cbr/engines: --engine names
// one, each setting of an engine is a flag that applies to the engines
// that take it, and what is shown of a run (its line of figures, its
// progress line, its figures in JSON) is what the engine's figures say.

// engineFlags are the flags that choose an engine and give its settings.
type engineFlags struct {
	name      string
	selfCheck bool
	// settings are the settings of every engine of the table, in the
	// order of the table, each once.
	settings []cbr.Setting
}

func init() {
	longFlags = append(longFlags, "engine", "self-check")
	for _, s := range allSettings() {
		longFlags = append(longFlags, s.Name)
		for _, a := range s.Aliases {
			longFlags = append(longFlags, a.Flag)
		}
	}
}

// allSettings lists the settings of the table's engines, each name once.
func allSettings() []cbr.Setting {
	var out []cbr.Setting
	for _, e := range engines.All {
		for _, s := range e.Settings {
			if !slices.ContainsFunc(out, func(o cbr.Setting) bool { return o.Name == s.Name }) {
				out = append(out, s)
			}
		}
	}
	return out
}

// settingUsage is the help of a setting's flag: its own, or, when
// several engines take it, each one's, with the engine named.
func settingUsage(s cbr.Setting) string {
	var parts []string
	for _, e := range engines.All {
		if t := e.Setting(s.Name); t != nil {
			parts = append(parts, fmt.Sprintf("%s (%s)", t.Usage, e.Name))
		}
	}
	if len(parts) == 1 {
		if strings.Contains(s.Usage, "`") || s.Kind != cbr.Choice {
			return s.Usage
		}
		parts[0] = s.Usage
	}
	return fmt.Sprintf("`MODE` %s: %s", cbr.Or(s.Choices), strings.Join(parts, ", "))
}

func addEngineFlags(fs *pflag.FlagSet, e *engineFlags) {
	var docs []string
	for _, en := range engines.All {
		docs = append(docs, en.Name+" = "+en.Doc)
	}
	fs.StringVar(&e.name, "engine", engines.All[0].Name, "analysis `ENGINE`, "+engines.Names()+": "+strings.Join(docs, "; "))
	e.settings = allSettings()
	want := map[string]string{}
	for _, s := range e.settings {
		switch s.Kind {
		case cbr.Choice:
			fs.String(s.Name, s.Default, settingUsage(s))
		case cbr.Switch:
			fs.Bool(s.Name, s.Default == "true", settingUsage(s))
		case cbr.Whole:
			n, _ := strconv.Atoi(s.Default)
			fs.Int(s.Name, n, settingUsage(s))
			if s.Want != "" {
				want[s.Name] = s.Want
			}
		}
		for _, a := range s.Aliases {
			fs.Bool(a.Flag, false, a.Usage)
		}
	}
	wantValues(fs, want)
	fs.BoolVar(&e.selfCheck, "self-check", false, fmt.Sprintf("run every engine (%s) and compare verdicts, fewest contexts, violation sites, coverage and traces (exit 4 when they disagree); an engine that counts rounds runs up to %s", selfCheckNames(), cbr.Rounds.Of(seqMaxRounds)))
}

// settings reads the settings the flags give (those not given keep their
// defaults), checking that an alias agrees with its setting's flag.
func (e *engineFlags) values(fs *pflag.FlagSet) (engines.Settings, error) {
	set := engines.Settings{}
	for _, s := range e.settings {
		if fs.Changed(s.Name) {
			set[s.Name] = fs.Lookup(s.Name).Value.String()
		}
		for _, a := range s.Aliases {
			if !fs.Changed(a.Flag) || fs.Lookup(a.Flag).Value.String() != "true" {
				continue
			}
			if v, ok := set[s.Name]; ok && v != a.Value {
				return nil, fmt.Errorf("--%s contradicts --%s %s", a.Flag, s.Name, v)
			}
			set[s.Name] = a.Value
		}
	}
	return set, nil
}

// givenFlags lists the setting flags given, each with its setting.
func (e *engineFlags) givenFlags(fs *pflag.FlagSet) (flags, settings []string) {
	for _, s := range e.settings {
		if fs.Changed(s.Name) {
			flags, settings = append(flags, s.Name), append(settings, s.Name)
		}
		for _, a := range s.Aliases {
			if fs.Changed(a.Flag) {
				flags, settings = append(flags, a.Flag), append(settings, s.Name)
			}
		}
	}
	return flags, settings
}

// checkEngine looks --engine up, checks that every flag given applies to
// it, and makes it with its settings.
func checkEngine(c *config, fs *pflag.FlagSet) error {
	entry, err := engines.Lookup(c.engine.name)
	if err != nil {
		return fmt.Errorf("--engine: %v", err)
	}
	c.entry = entry
	if c.engine.selfCheck {
		for _, f := range []string{"engine", "split", "json", "dot", "reach-tops", "per-bound", "unbounded", "print-rules"} {
			if fs.Changed(f) {
				return fmt.Errorf("--%s does not go with --self-check, which runs every engine", f)
			}
		}
		for _, e := range engines.All {
			if _, err := e.New(c.settings); err != nil {
				return err
			}
		}
		return nil
	}
	flags, settings := c.engine.givenFlags(fs)
	for i, f := range flags {
		if !entry.Takes(settings[i]) {
			return fmt.Errorf("--%s applies to --engine %s only, not to --engine %s", f, engines.Or(engines.Taking(settings[i])), entry.Name)
		}
	}
	switch {
	case fs.Changed("unbounded") && !entry.Unbounded:
		return fmt.Errorf("--unbounded applies to --engine %s only, not to --engine %s", engines.Or(unboundedEngines()), entry.Name)
	case entry.Units[0] == cbr.Rounds && c.count != "contexts":
		return fmt.Errorf("--count: --engine %s counts rounds, not %s", entry.Name, c.count)
	}
	c.eng, err = entry.New(c.settings)
	return err
}

// unboundedEngines lists the engines that deepen the bound themselves.
func unboundedEngines() []string {
	return engines.Where(func(e engines.Entry) bool { return e.Unbounded })
}

// targetEngines lists the engines that check targets.
func targetEngines() []string { return engines.Where(func(e engines.Entry) bool { return e.Targets }) }

// perBound reports whether the settings ask for the count of visible
// states per bound.
func (c *config) perBound() bool { return c.settings["per-bound"] == "true" }

// summary writes the run's line of figures, and with --stats the
// further lines.
func summary(b *strings.Builder, c *config, r *cbr.Result) {
	f := r.Figures
	if f == nil {
		return
	}
	fmt.Fprintf(b, "%s, %.3fs\n", f.Summary(), r.Stats.Time.Seconds())
	if c.stats {
		for _, line := range f.Details() {
			b.WriteString(line + "\n")
		}
	}
}

// figuresJSON puts the run's settings and figures into the JSON output.
func figuresJSON(out *schema.Output, r *cbr.Result) {
	f := r.Figures
	if f == nil {
		return
	}
	for _, s := range f.Settings() {
		switch v := fmt.Sprint(s.Value); s.Name {
		case "split":
			out.Split = v
		case "prune":
			out.Prune = v
		case "answered":
			out.Answered = v
		default:
			if out.Settings == nil {
				out.Settings = map[string]any{}
			}
			out.Settings[s.Name] = s.Value
		}
	}
	if w := f.Work(); w.Name != "" {
		n, _ := w.Value.(int)
		switch w.Name {
		case "viewTuples":
			out.ViewTuples = &n
		case "states":
			out.States = &n
		}
	}
	out.Stats.Engine, out.Stats.EngineStats = f.Stats()
}
