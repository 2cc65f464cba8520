package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/cbreach/cbreach/pds/diag"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/frontend/readers"
	"github.com/cbreach/cbreach/pds"
	"github.com/spf13/pflag"
)

// The input's format comes from the table of package frontend/readers:
// --format names a reader (so do the readers' own flags, --bp and
// --cuba), or else the file's suffix chooses one; the files that go with
// an input have flags of their own (--init, --target). Nothing here names
// a reader: the flags, the help's lines and the messages come from the
// table.

// readerFlags are the flags that choose a reader and name the files that
// go with the input.
type readerFlags struct {
	format string             // --format NAME
	own    map[string]*bool   // the readers' own flags (--cuba), by reader
	files  map[string]*string // the companions' flags (--init), by flag
	reader *readers.Reader    // the reader the flags name; nil: the suffix chooses
	// dataModel is --data-model: the C data model of an SV-COMP task
	// (readers.Options.DataModel); "" for the reader's default.
	dataModel string
}

// dataModels are the values of --data-model, SV-COMP's data models.
var dataModels = []string{"ILP32", "LP64"}

func init() {
	longFlags = append(longFlags, "format", "data-model")
	for _, r := range readers.All {
		if r.Flag != "" {
			longFlags = append(longFlags, r.Flag)
		}
		for _, c := range r.Companions {
			longFlags = append(longFlags, c.Flag)
		}
	}
}

func addReaderFlags(fs *pflag.FlagSet, f *readerFlags) {
	f.own, f.files = map[string]*bool{}, map[string]*string{}
	var bySuffix []string
	for _, r := range readers.All[1:] {
		if s := r.Owns(); s != "" {
			bySuffix = append(bySuffix, s+": "+r.Name)
		}
	}
	fs.StringVar(&f.format, "format", "", fmt.Sprintf("read the input as `FORMAT` %s (listed above); by default the file's suffix chooses (%s; any other: %s)",
		readers.Names(), strings.Join(bySuffix, ", "), readers.All[0].Name))
	for _, r := range readers.All {
		if r.Flag != "" {
			f.own[r.Name] = fs.Bool(r.Flag, false, fmt.Sprintf("same as --format %s: %s", r.Name, r.Doc))
		}
	}
	fs.StringVar(&f.dataModel, "data-model", "", "the C data model `MODEL` of an SV-COMP task, "+readers.Or(dataModels)+" (its options' data_model), for a reader of C; readers of other formats ignore it (default: the reader's own)")
	for _, r := range readers.All {
		for _, c := range r.Companions {
			if f.files[c.Flag] == nil {
				f.files[c.Flag] = fs.String(c.Flag, "", c.Usage)
			}
		}
	}
}

// check looks the reader the flags name up, and checks that they name one
// and give only its files.
func (f *readerFlags) check() error {
	if f.dataModel != "" && !slices.Contains(dataModels, f.dataModel) {
		return fmt.Errorf("--data-model: want %s, got %q", readers.Or(dataModels), f.dataModel)
	}
	var named []string
	if f.format != "" {
		r, err := readers.Lookup(f.format)
		if err != nil {
			return fmt.Errorf("--format: %v", err)
		}
		f.reader, named = r, []string{"--format " + r.Name}
	}
	for _, r := range readers.All {
		if p := f.own[r.Name]; p == nil || !*p {
			continue
		}
		if f.reader != nil && f.reader != r {
			return fmt.Errorf("%s and --%s exclude each other", strings.Join(named, " and "), r.Flag)
		}
		f.reader, named = r, append(named, "--"+r.Flag)
	}
	for _, r := range readers.All {
		if r == f.reader {
			continue
		}
		var flags []string
		given := false
		for _, c := range r.Companions {
			flags = append(flags, "--"+c.Flag)
			given = given || *f.files[c.Flag] != "" && !f.takes(c.Flag)
		}
		if given {
			verb := map[bool]string{false: "goes", true: "go"}[len(flags) > 1]
			return fmt.Errorf("%s %s with %s", strings.Join(flags, " and "), verb, r.Flags())
		}
	}
	return nil
}

// takes reports whether the reader the flags name takes the file of flag.
func (f *readerFlags) takes(flag string) bool {
	if f.reader == nil {
		return false
	}
	for _, c := range f.reader.Companions {
		if c.Flag == flag {
			return true
		}
	}
	return false
}

// usageLines are the first lines of the help, one per reader: its flag
// (optional when a suffix chooses it) and the files that go with it.
func usageLines() string {
	var b strings.Builder
	for i, r := range readers.All {
		b.WriteString(map[bool]string{true: "Usage: ", false: "       "}[i == 0] + "cbreach [flags] ")
		switch {
		case r.Owns() == "":
			b.WriteString(r.Flags() + " ")
		case r.Flag != "":
			fmt.Fprintf(&b, "[%s] ", r.Flags())
		}
		b.WriteString("FILE")
		if len(r.Suffixes) > 0 {
			b.WriteString(r.Suffixes[0])
		}
		for _, c := range r.Companions {
			fmt.Fprintf(&b, " [--%s FILE%s]", c.Flag, c.Suffix)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// formatsHelp lists the formats of the table for the help.
func formatsHelp() string {
	var b strings.Builder
	b.WriteString("Formats (--format NAME; by default the file's suffix chooses, and a file\nthat looks like another format gets a hint):\n")
	width := 0
	for _, r := range readers.All {
		width = max(width, len(r.Name))
	}
	for _, r := range readers.All {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.Name, r.Doc)
	}
	return b.String()
}

// targetFlags are the flags of the readers whose inputs name targets: the
// reader's own and its files'.
func targetFlags() []string {
	var flags []string
	for _, r := range readers.All {
		if r.TargetFile() == nil {
			continue
		}
		flags = append(flags, r.Flags())
		for _, c := range r.Companions {
			flags = append(flags, "--"+c.Flag)
		}
	}
	return flags
}

// input is the program to analyse.
type input struct {
	file    string
	reader  *readers.Reader // nil when none was chosen (the file could not be read)
	net     *pds.Network
	targets []pds.Target
	lang    tracefmt.Lang    // the language of its statements
	src     *tracefmt.Source // the input's text, for the statements of traces
}

// targetFile returns the file that names the input's targets (CUBA's
// .spec), or nil when a run checks its error labels.
func (in *input) targetFile() *readers.Companion {
	if in == nil || in.reader == nil {
		return nil
	}
	return in.reader.TargetFile()
}

// load reads the input with the reader the flags name, or the one its
// suffix chooses, under ctx and the memory limit (package
// frontend/readers). Errors in the input are returned as they print; a
// limit reached while compiling is returned as the limit's error.
func load(ctx context.Context, file string, c *config) (*input, error) {
	in := &input{file: file, reader: c.readers.reader}
	files := map[string]string{}
	for flag, p := range c.readers.files {
		if *p != "" {
			files[flag] = *p
		}
	}
	open := func(name string) ([]byte, error) { return readFile(name, c.stdin) }
	got, err := readers.Load(file, open, c.readers.reader, readers.Options{MaxThreads: c.maxThreads, Context: ctx,
		Limits: bdd.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory}, Files: files, DataModel: c.readers.dataModel})
	if got != nil {
		in.reader = got.Reader
	}
	if err != nil {
		return in, err
	}
	if in.lang, err = tracefmt.ParseLang(got.Reader.Lang); err != nil {
		return in, diag.Internal(fmt.Errorf("internal error: the reader %s: %v", got.Reader.Name, err))
	}
	in.net, in.targets = got.Net, got.Targets
	in.src = tracefmt.NewSource(file, got.Source, in.lang)
	return in, nil
}

// readFile reads file, or stdin for "-". An error wraps the system's
// reason (errors.Is finds fs.ErrNotExist).
func readFile(file string, stdin io.Reader) ([]byte, error) {
	if file == "-" && stdin != nil {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("cannot read standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %w", file, err)
	}
	return b, nil
}
