package c

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/diag"
	"modernc.org/cc/v4"
)

// The data models a task may name.
const (
	ILP32 = "ILP32" // int, long and pointers of 32 bits: SV-COMP's default
	LP64  = "LP64"  // long and pointers of 64 bits
)

// Options configure Read.
type Options struct {
	// DataModel is ILP32 (the default, also for "") or LP64.
	DataModel string
	// MaxThreads is the thread bound of pds.Options (0: its default).
	MaxThreads int
	// Context and Limits bound the compilation (frontend.Options).
	Context context.Context
	Limits  bdd.Limits
	BDD     bdd.Config
	// IncludePaths are searched for a .c file's #include "..." and
	// #include <...> beyond the system's directories.
	IncludePaths []string
}

// Read reads the C program src (from the file name) into a network. A
// program that does not parse or type-check is an error in the input
// (a diag.ErrorList); a construct the reader does not analyse is a
// *diag.Unsupported.
func Read(name string, src []byte, o Options) (*pds.Network, error) {
	p, err := Lower(name, src, o)
	if err != nil {
		return nil, err
	}
	return p.Compile(o)
}

// Program is a C program lowered to the syntax tree of the .pds front end.
type Program struct {
	tree *lowered
}

// Lower parses, type-checks and lowers src.
func Lower(name string, src []byte, o Options) (*Program, error) {
	abiArch := "386"
	switch strings.ToUpper(o.DataModel) {
	case "", ILP32:
	case LP64:
		abiArch = "amd64"
	default:
		return nil, &diag.InputError{Err: fmt.Errorf("%s: unknown data model %q (ILP32 or LP64)", name, o.DataModel)}
	}
	abi, err := cc.NewABI("linux", abiArch)
	if err != nil {
		return nil, diag.Internal(fmt.Errorf("c: %v", err))
	}
	cfg := &cc.Config{ABI: abi, IncludePaths: append([]string{""}, o.IncludePaths...), SysIncludePaths: sysIncludes()}
	cfg.IncludePaths = append(cfg.IncludePaths, cfg.SysIncludePaths...)
	sources := []cc.Source{
		{Name: "<predefined>", Value: predefined(abiArch)},
		{Name: "<builtin>", Value: cc.Builtin},
		{Name: name, Value: src},
	}
	tu, err := cc.Translate(cfg, sources)
	if err != nil {
		return nil, ccErrors(name, err)
	}
	l, err := lower(name, src, tu, o)
	if err != nil {
		return nil, err
	}
	return &Program{tree: l}, nil
}

// Compile compiles the lowered program into a network.
func (p *Program) Compile(o Options) (*pds.Network, error) {
	l := p.tree
	return frontend.CompileTree(l.file, l.src, l.ast, frontend.Options{
		MaxThreads: o.MaxThreads, Context: o.Context, Limits: o.Limits, BDD: o.BDD, Halt: haltName,
	})
}

// predefined are the macros a C compiler would predefine for the target:
// the types cc.Builtin needs and the target's names.
func predefined(arch string) string {
	var b strings.Builder
	b.WriteString("#define __STDC__ 1\n#define __STDC_VERSION__ 201112L\n#define __STDC_HOSTED__ 1\n")
	b.WriteString("#define __linux__ 1\n#define __linux 1\n#define __unix__ 1\n#define __GNUC__ 4\n#define __GNUC_MINOR__ 2\n")
	b.WriteString("#define __CHAR_BIT__ 8\n#define __INT_MAX__ 2147483647\n#define __SCHAR_MAX__ 127\n#define __SHRT_MAX__ 32767\n")
	b.WriteString("#define __UINT8_TYPE__ unsigned char\n#define __UINT16_TYPE__ unsigned short\n#define __UINT32_TYPE__ unsigned int\n#define __UINT64_TYPE__ unsigned long long\n")
	b.WriteString("#define __INT8_TYPE__ signed char\n#define __INT16_TYPE__ short\n#define __INT32_TYPE__ int\n#define __INT64_TYPE__ long long\n")
	if arch == "386" {
		b.WriteString("#define __i386__ 1\n#define __i386 1\n#define __ILP32__ 1\n#define __SIZEOF_POINTER__ 4\n#define __SIZEOF_LONG__ 4\n")
		b.WriteString("#define __SIZE_TYPE__ unsigned int\n#define __PTRDIFF_TYPE__ int\n#define __WCHAR_TYPE__ long\n#define __LONG_MAX__ 2147483647L\n#define __WORDSIZE 32\n")
	} else {
		b.WriteString("#define __x86_64__ 1\n#define __x86_64 1\n#define __amd64__ 1\n#define __LP64__ 1\n#define _LP64 1\n#define __SIZEOF_POINTER__ 8\n#define __SIZEOF_LONG__ 8\n")
		b.WriteString("#define __SIZE_TYPE__ unsigned long\n#define __PTRDIFF_TYPE__ long\n#define __WCHAR_TYPE__ int\n#define __LONG_MAX__ 9223372036854775807L\n#define __WORDSIZE 64\n")
	}
	return b.String()
}

// sysIncludes are the system's header directories, for .c files.
func sysIncludes() []string {
	dirs := []string{"/usr/local/include"}
	if m, _ := filepath.Glob("/usr/lib/gcc/x86_64-linux-gnu/*/include"); len(m) > 0 {
		dirs = append(dirs, m[len(m)-1])
	}
	return append(dirs, "/usr/include/x86_64-linux-gnu", "/usr/include")
}

var ccWhere = regexp.MustCompile(` \([a-z0-9_]+\.go:\d+:[^)]*\)$`)

var ccPos = regexp.MustCompile(`^(.*?):(\d+):(\d+): (.*)$`)

// ccErrors turns cc's errors ("file:line:col: message" per line) into an
// ErrorList.
func ccErrors(name string, err error) error {
	var list, unplaced diag.ErrorList
	for _, line := range strings.Split(err.Error(), "\n") {
		// cc ends a message with the place in its own source: "(check.go:5373:check:)".
		line = strings.TrimSpace(ccWhere.ReplaceAllString(line, ""))
		if line == "" {
			continue
		}
		if m := ccPos.FindStringSubmatch(line); m != nil {
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			list.Add(diag.Pos{File: m[1], Line: ln, Col: col}, m[4])
			continue
		}
		unplaced.Add(diag.Pos{File: name}, strings.TrimPrefix(line, name+": "))
	}
	if len(list) == 0 {
		list = unplaced
	}
	if len(list) == 0 {
		return &diag.InputError{Err: errors.New(name + ": " + err.Error())}
	}
	list.Sort()
	list.Truncate(diag.MaxErrors)
	return list
}

// newFile returns the token file of src, with its lines.
func newFile(name string, src []byte) (*token.File, []int) {
	f := token.NewFile(name, len(src))
	starts := []int{0}
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			f.AddLine(i + 1)
			starts = append(starts, i+1)
		}
	}
	return f, starts
}
