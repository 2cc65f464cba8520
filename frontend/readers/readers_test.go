package readers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// root is the repository's root, from this package's directory: the
// samples are named from there.
var root = filepath.Join("..", "..")

// osOpen opens files as the command line does, but for standard input.
func osOpen(name string) ([]byte, error) { return os.ReadFile(name) }

// memOpen serves files from memory; a file not there does not exist.
func memOpen(files map[string]string) Open {
	return func(name string) ([]byte, error) {
		s, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("cannot read %s: %w", name, fs.ErrNotExist)
		}
		return []byte(s), nil
	}
}

// checkRow says what a row lacks: a name, a doc line, a noun, a language
// of traces, a reading function, a sample that exists.
func checkRow(r *Reader) error {
	switch {
	case r.Name == "" || r.Doc == "" || r.Noun == "" || r.Lang == "":
		return fmt.Errorf("row %q: want a name, a doc line, a noun and a language", r.Name)
	case r.read == nil:
		return fmt.Errorf("row %s: no reading function", r.Name)
	case r.Sample == "":
		return fmt.Errorf("row %s: no sample: every row names a model of the repository", r.Name)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(r.Sample))); err != nil {
		return fmt.Errorf("row %s: sample %s: %v", r.Name, r.Sample, err)
	}
	for _, s := range r.Suffixes {
		if s != strings.ToLower(s) || !strings.HasPrefix(s, ".") {
			return fmt.Errorf("row %s: suffix %q: want a dot and lower case", r.Name, s)
		}
	}
	return nil
}

// TestTable: every row is complete, reads its sample through Read into a
// valid network with something to run, lists the files it read, and is
// what Recognize makes of the sample's path and content; the names and
// the companions' flags are distinct.
func TestTable(t *testing.T) {
	names, flags := map[string]bool{}, map[string]bool{"format": true}
	for _, r := range All {
		t.Run(r.Name, func(t *testing.T) {
			require.NoError(t, checkRow(r))
			require.False(t, names[r.Name], "two rows named %s", r.Name)
			names[r.Name] = true
			for _, f := range append([]string{r.Flag}, companionFlags(r)...) {
				if f != "" {
					require.False(t, flags[f], "row %s: flag --%s is another's", r.Name, f)
					flags[f] = true
				}
			}
			sample := filepath.Join(root, filepath.FromSlash(r.Sample))
			in, err := r.Read(sample, osOpen, Options{})
			require.NoError(t, err)
			require.Same(t, r, in.Reader)
			require.NoError(t, in.Net.Validate())
			require.NotEmpty(t, in.Net.Threads, "the sample has no thread")
			require.NotEmpty(t, in.Net.Rules, "the sample has no rule")
			require.NotEmpty(t, in.Source)
			require.Equal(t, sample, in.Files[0])
			src, err := os.ReadFile(sample)
			require.NoError(t, err)
			require.Same(t, r, Recognize(sample, src), "Recognize(%s)", r.Sample)
			got, err := Lookup(r.Name)
			require.NoError(t, err)
			require.Same(t, r, got)
		})
	}
}

func companionFlags(r *Reader) []string {
	var out []string
	for _, c := range r.Companions {
		out = append(out, c.Flag)
	}
	return out
}

// TestRowWithoutSample: the table test refuses a row without a sample or
// with one that is not in the repository.
func TestRowWithoutSample(t *testing.T) {
	r := *All[0]
	r.Sample = ""
	require.ErrorContains(t, checkRow(&r), "no sample")
	r.Sample = "examples/no-such-model.pds"
	require.ErrorContains(t, checkRow(&r), "no-such-model.pds")
}

func TestLookup(t *testing.T) {
	_, err := Lookup("java")
	require.EqualError(t, err, `want pds, bp, cuba or c, got "java"`)
	require.Equal(t, "pds, bp, cuba or c", Names())
	for name, want := range map[string]string{"a.pds": "pds", "A.BP": "bp", "a.Pds": "pds", "-": "", "a.init": "", "bp": ""} {
		got := ""
		if r := BySuffix(name); r != nil {
			got = r.Name
		}
		require.Equal(t, want, got, name)
	}
}

const (
	system   = "# a CUBA system\n3\nPDA 0 1\n0 0 -> 1 1\n"
	boolProg = "decl g;\nvoid main() begin g := 1; assert(g); end\n"
	pdsProg  = "bool g;\nproc main() { g = true; assert(g); }\nstart main();\n"
)

// TestLoad: the choice of a reader without flags, the hints when the
// content is another format's, the files that go with a CUBA system.
func TestLoad(t *testing.T) {
	files := map[string]string{
		"p.pds": pdsProg, "s.pds": system, "s.init": "0|0\n", "s.spec": "1|1\n", "b.pds": boolProg,
		"notbp.bp": pdsProg, "bad.bp": "void main() begin x := 1; end\n", "noinit.pds": system, "-": system,
	}
	open := memOpen(files)
	cuba, _ := Lookup("cuba")
	bp, _ := Lookup("bp")
	for _, c := range []struct {
		name   string
		reader *Reader
		o      Options
		want   string // the error; "" for none
		files  []string
	}{
		{name: "p.pds", files: []string{"p.pds"}},
		{name: "s.pds", want: "s.pds looks like a CUBA concurrent pushdown system, not a .pds program: run it with --cuba"},
		{name: "-", want: "- looks like a CUBA concurrent pushdown system, not a .pds program: run it with --cuba"},
		{name: "s.pds", reader: cuba, files: []string{"s.pds", "s.init", "s.spec"}},
		{name: "s.pds", reader: cuba, o: Options{Files: map[string]string{"target": "0|0"}}, files: []string{"s.pds", "s.init"}},
		{name: "-", reader: cuba, want: "a CUBA system read from standard input needs --init FILE"},
		{name: "-", reader: cuba, o: Options{Files: map[string]string{"init": "s.init"}}, files: []string{"-", "s.init"}},
		{name: "noinit.pds", reader: cuba, want: "noinit.pds: the initial configuration noinit.init is missing; give it with --init FILE"},
		{name: "b.pds", want: "b.pds looks like a Boolean program (procedures with begin ... end), not a .pds program: run it with --bp"},
		{name: "b.pds", reader: bp, files: []string{"b.pds"}},
		{name: "notbp.bp", want: "notbp.bp was read as a Boolean program for its .bp extension, but it does not look like one " +
			"(no procedure with begin ... end): give --cuba for a CUBA system, name a .pds program .pds, or name a C program .i\nnotbp.bp:1:"},
		{name: "bad.bp", want: "bad.bp:1:19: undeclared variable x"},
		{name: "notbp.bp", reader: bp, want: "notbp.bp:1:"},
		{name: "none.pds", want: "cannot read none.pds: file does not exist"},
	} {
		in, err := Load(c.name, open, c.reader, c.o)
		if c.want != "" {
			require.ErrorContains(t, err, c.want, "%s", c.name)
			require.True(t, strings.HasPrefix(err.Error(), c.want), "%s: %v", c.name, err)
			continue
		}
		require.NoError(t, err, c.name)
		require.Equal(t, c.files, in.Files, c.name)
		if c.reader != nil {
			require.Same(t, c.reader, in.Reader, c.name)
		}
	}
	// The targets: from the .spec beside the system, or inline.
	in, err := Load("s.pds", open, cuba, Options{})
	require.NoError(t, err)
	require.Len(t, in.Targets, 1)
	require.Equal(t, "visible state 1|1", in.Targets[0].Name)
	delete(files, "s.spec")
	in, err = Load("s.pds", open, cuba, Options{})
	require.NoError(t, err)
	require.Empty(t, in.Targets)
}

// TestLoadFailedKeepsReader: a failed read still says which reader was
// chosen, with the source.
func TestLoadFailedKeepsReader(t *testing.T) {
	in, err := Load("x.bp", memOpen(map[string]string{"x.bp": "void main() begin x := 1; end\n"}), nil, Options{})
	require.Error(t, err)
	require.Equal(t, "bp", in.Reader.Name)
	require.NotEmpty(t, in.Source)
	_, err = Load("x.bp", memOpen(nil), nil, Options{})
	require.True(t, errors.Is(err, fs.ErrNotExist))
}

func TestOthers(t *testing.T) {
	bp, _ := Lookup("bp")
	require.Equal(t, "give --cuba for a CUBA system, name a .pds program .pds, or name a C program .i", others(bp))
	require.Equal(t, "give --cuba for a CUBA system, name a Boolean program .bp, or name a C program .i", others(All[0]))
}
