package readers

import (
	"context"
	"fmt"
	"github.com/cbreach/cbreach/pds/plural"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Open returns the contents of the file name: os.ReadFile is one. The
// command line's opens "-" as standard input; a test's may serve files
// from memory. An error for a file that does not exist should wrap
// fs.ErrNotExist: a reader looking for a file beside its input (CUBA's
// .spec) then goes without.
type Open func(name string) ([]byte, error)

// Options are what every reader takes: the thread bound, the context and
// the BDD limits under which it builds the network, and the files that
// go with its input.
type Options struct {
	// MaxThreads is the thread bound of pds.Options (0: its default).
	MaxThreads int
	// Context, when set, bounds the reading; Limits bound the BDD nodes
	// and the memory. A limit reached is returned as an error that
	// bdd.IsLimit recognises. Not every reader builds BDDs large enough
	// to need them (CUBA's does not).
	Context context.Context
	Limits  bdd.Limits
	// Files are the files that go with the input, by the flag of their
	// Companion ("init", "target"); a reader looks for those not given
	// beside its input.
	Files map[string]string
	// DataModel is the C data model of an SV-COMP task ("ILP32" or
	// "LP64", from its options); "" means the reader's default. Readers
	// of other formats ignore it.
	DataModel string
}

// Input is what a reader returns: the network, the targets, the text and
// the files read.
type Input struct {
	// Reader is the row of the table that read it.
	Reader *Reader
	Net    *pds.Network
	// Targets are the visible states to reach (CUBA's .spec), nil when
	// the input names none: then a run checks the error labels, or, for a
	// reader with a target file (Reader.TargetFile), nothing.
	Targets []pds.Target
	// Source is the text of the input file, for the statements of traces
	// (read in the language Reader.Lang names).
	Source []byte
	// Files are the files read, the input file first.
	Files []string
}

// Companion is a file that goes with a reader's input: CUBA's .init and
// .spec.
type Companion struct {
	// Flag is the command line's flag that names it (--init FILE) and
	// its key in Options.Files.
	Flag string
	// Suffix names it beside the input when the flag is not given: the
	// input's name with its suffix replaced (two.pds: two.init).
	Suffix string
	// Required says the input cannot be read without it.
	Required bool
	// Target says it names the targets to reach: a reader with such a
	// file checks targets, not error labels.
	Target bool
	// Usage is the flag's line in the command's help.
	Usage string
}

// Sniff recognises a reader's input by its content.
type Sniff struct {
	// Match reports whether src looks like the reader's input. It reads
	// no more of src than it needs.
	Match func(src []byte) bool
	// Sure says that Match accepts no valid input of another reader: a
	// file it accepts is refused by the reader its name chooses, before
	// reading, with a hint to name this one. A Match that is not sure
	// only explains why another reader failed.
	Sure bool
	// Seen says what a match shows, after "FILE looks like": "a
	// Boolean program (procedures with begin ... end)".
	Seen string
	// Missed says what a miss shows, after "does not look like one":
	// "no procedure with begin ... end"; "" says nothing.
	Missed string
}

// Reader is one row of the table: a format of input, how a file of it is
// recognised and named, and how it is read.
type Reader struct {
	// Name names it in --format NAME and as a task's kind.
	Name string
	// Doc is one line for the command's help.
	Doc string
	// Noun names a file of it in messages, after "a" or "the": ".pds
	// program", "Boolean program", "CUBA system".
	Noun string
	// Flag is a flag of its own, "cuba" for --cuba beside --format cuba;
	// "" for none.
	Flag string
	// Suffixes are the suffixes of its input files, lower case. A file
	// whose suffix (in any case) is listed by several rows is the first
	// row's.
	Suffixes []string
	// Sniff recognises its input by content; nil for none.
	Sniff *Sniff
	// Companions are the files that go with its input.
	Companions []Companion
	// Lang names the language of its traces' statements: "pds" ("//"
	// and "/* */" comments), "bp" (as pds, an identifier in braces kept
	// whole), "cuba" ("#" comments, stack frames as stack symbols). The
	// command maps it to package cbr/tracefmt's Lang.
	Lang string
	// Sample is a model of the repository, from its root, that the row
	// reads: the tests read it through Read and run it through every
	// engine. Every row names one.
	Sample string

	read func(name string, open Open, o Options) (*Input, error)
}

// All is the table, in the order the command's help lists it. The first
// row reads the files no suffix recognises (and standard input).
var All = []*Reader{
	{Name: "pds", Doc: "cbreach's modelling language (docs/language.md)", Noun: ".pds program",
		Suffixes: []string{".pds"}, Lang: "pds", Sample: "examples/bluetooth.pds", read: readPDS},
	{Name: "bp", Doc: "concurrent Boolean programs (the dialects of Boppo and SATABS, and of Getafix)", Noun: "Boolean program",
		Flag: "bp", Suffixes: []string{".bp"}, Sniff: bpSniff, Lang: "bp", Sample: "benchmarks/boolean/bluetooth-v1.bp", read: readBP},
	{Name: "cuba", Doc: "CUBA's concurrent pushdown systems: a .pds with its .init and its .spec (the target) beside it", Noun: "CUBA system",
		Flag: "cuba", Suffixes: []string{".pds"}, Sniff: cubaSniff, Companions: cubaFiles, Lang: "cuba",
		Sample: "cmd/cbreach/testdata/cuba/two.pds", read: readCUBA},
	{Name: "c", Doc: "C programs with pthreads, as SV-COMP's concurrency tasks hold them (.i preprocessed, or .c)", Noun: "C program",
		Suffixes: []string{".i", ".c"}, Lang: "pds", Sample: "examples/lost-update.c", read: readC},
}

// Read reads the input file name with the reader, through open. Errors
// in the input are returned as they print ("file:line:col: message"),
// a limit as an error that bdd.IsLimit recognises.
func (r *Reader) Read(name string, open Open, o Options) (*Input, error) {
	var files []string
	in, err := r.read(name, func(n string) ([]byte, error) {
		b, err := open(n)
		if err == nil {
			files = append(files, n)
		}
		return b, err
	}, o)
	if err != nil {
		return nil, err
	}
	in.Reader, in.Files = r, files
	return in, nil
}

// TargetFile returns the companion that names the targets, or nil when
// the reader's inputs are checked for their error labels.
func (r *Reader) TargetFile() *Companion {
	for i := range r.Companions {
		if r.Companions[i].Target {
			return &r.Companions[i]
		}
	}
	return nil
}

// Flags returns the flags that choose the reader on the command line:
// "--cuba", or "--format NAME" for a reader without a flag of its own.
func (r *Reader) Flags() string {
	if r.Flag != "" {
		return "--" + r.Flag
	}
	return "--format " + r.Name
}

// Owns returns the first suffix that chooses the reader (of which it is
// the first row to list it), or "" when none does: a file is then read
// by it only when the flags say so.
func (r *Reader) Owns() string {
	for _, s := range r.Suffixes {
		if owner(s) == r {
			return s
		}
	}
	return ""
}

// Lookup returns the reader named name.
func Lookup(name string) (*Reader, error) {
	for _, r := range All {
		if r.Name == name {
			return r, nil
		}
	}
	return nil, fmt.Errorf("want %s, got %q", Names(), name)
}

// Names lists the readers' names: "pds, bp or cuba".
func Names() string {
	var names []string
	for _, r := range All {
		names = append(names, r.Name)
	}
	return Or(names)
}

// Or joins words for a message: "a", "a or b", "a, b or c" (plural.Or).
func Or(words []string) string { return plural.Or(words) }

// BySuffix returns the reader the suffix of name chooses, in any case:
// the first row that lists it; nil for none.
func BySuffix(name string) *Reader {
	return owner(strings.ToLower(filepath.Ext(name)))
}

// owner returns the first row that lists the suffix ext, or nil.
func owner(ext string) *Reader {
	for _, r := range All {
		if ext != "" && slices.Contains(r.Suffixes, ext) {
			return r
		}
	}
	return nil
}

// Recognize returns the reader of a file, from its name and its content:
// the first reader whose sure Sniff matches src, else the reader its
// suffix chooses, else the first row. Recognize says what a file is;
// Load, which reads it, takes the content as a hint only.
func Recognize(name string, src []byte) *Reader {
	if r := sure(src); r != nil {
		return r
	}
	if r := BySuffix(name); r != nil {
		return r
	}
	return All[0]
}

// sure returns the first reader whose sure Sniff matches src, or nil.
func sure(src []byte) *Reader {
	for _, r := range All {
		if r.Sniff != nil && r.Sniff.Sure && r.Sniff.Match(src) {
			return r
		}
	}
	return nil
}

// Load reads the input file name with the reader r, or, when r is nil,
// with the reader its suffix chooses (the first row when none does).
// Without r, the content is a hint, never a choice: a file that another
// reader's sure Sniff matches is refused before reading ("two.pds looks
// like a CUBA concurrent pushdown system, not a .pds program: run it with
// --cuba"), and when the reading fails, a file that another reader's
// Sniff matches, or that the suffix's reader's Sniff misses, is said to
// be in the wrong format, with the flags that read it. With r, errors
// are the reader's.
//
// On failure Load returns the error and, when it chose a reader, an Input
// with Reader, Source and Files but no network.
func Load(name string, open Open, r *Reader, o Options) (*Input, error) {
	src, err := open(name)
	if err != nil {
		return nil, err
	}
	once := func(n string) ([]byte, error) {
		if n == name {
			return src, nil // standard input is read once
		}
		return open(n)
	}
	explicit := r != nil
	bySuffix := BySuffix(name)
	if !explicit {
		r = bySuffix
		if r == nil {
			r = All[0]
		}
	}
	partial := &Input{Reader: r, Source: src, Files: []string{name}}
	if !explicit {
		if o := sure(src); o != nil && o != r {
			return partial, fmt.Errorf("%s looks like %s, not a %s: run it with %s", name, o.Sniff.Seen, r.Noun, o.Flags())
		}
	}
	in, err := r.Read(name, once, o)
	if err == nil {
		return in, nil
	}
	if explicit {
		return partial, err
	}
	for _, o := range All {
		if o != r && o.Sniff != nil && !o.Sniff.Sure && o.Sniff.Match(src) {
			return partial, fmt.Errorf("%s looks like %s, not a %s: run it with %s", name, o.Sniff.Seen, r.Noun, o.Flags())
		}
	}
	if s := r.Sniff; s != nil && bySuffix == r && !s.Match(src) {
		return partial, fmt.Errorf("%s was read as a %s for its %s extension, but it does not look like one (%s): %s\n%v",
			name, r.Noun, r.Owns(), s.Missed, others(r), err)
	}
	return partial, err
}

// others says how to read a file with the readers other than r: first
// those no suffix chooses ("give --cuba for a CUBA system"), then those a
// suffix chooses ("name a .pds program .pds").
func others(r *Reader) string {
	var flags, suffixes []string
	for _, o := range All {
		switch s := o.Owns(); {
		case o == r:
		case s == "":
			flags = append(flags, fmt.Sprintf("give %s for a %s", o.Flags(), o.Noun))
		default:
			suffixes = append(suffixes, fmt.Sprintf("name a %s %s", o.Noun, s))
		}
	}
	ways := append(flags, suffixes...)
	if len(ways) < 2 {
		return strings.Join(ways, "")
	}
	return strings.Join(ways[:len(ways)-1], ", ") + ", or " + ways[len(ways)-1]
}
