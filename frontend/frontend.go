package frontend

import (
	"context"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/parser"
	"github.com/cbreach/cbreach/frontend/scanner"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/diag"
)

// Error is an error in the input: a position and a message in plain words.
// It prints as "file:line:col: message". It is the error type of all the
// module's readers (scanner.Error, cuba.Error and pds.Error are the same
// type), so errors.As finds it whichever reader failed.
type Error = diag.Error

// ErrorList is the error Compile returns for bad input: sorted by
// position, one "file:line:col: message" per line when printed.
type ErrorList = diag.ErrorList

// Options configure CompileWith.
type Options struct {
	// MaxThreads is the thread bound passed to pds.Options: the number of
	// threads, initial and forked, the network has room for when the
	// program can start unboundedly many (a start under a loop or in
	// recursion), or more than MaxThreads. Otherwise the network has room
	// for exactly the threads the program can have. 0 means
	// pds.DefaultMaxThreads.
	MaxThreads int
	// AllErrors reports every error instead of the first ten.
	AllErrors bool
	// BDD configures the BDD manager of the network.
	BDD bdd.Config
	// Context, when set, bounds the compilation: when it is done, the
	// compilation stops promptly (even inside one BDD operation) with its
	// error. Limits bound the BDD nodes and memory the compilation may
	// use; both come back as errors that bdd.IsLimit recognises.
	Context context.Context
	Limits  bdd.Limits

	// Halt, when set, names a bool global of the program that halts it:
	// every rule requires it false, so once a step sets it no thread
	// moves again. The C reader sets it for abort, exit, a failed
	// __VERIFIER_assume and main's return, which end the whole process.
	Halt string

	// oneGroup: every variable in one order group (tests; compiler.oneGroup).
	oneGroup bool
}

// Compile compiles the .pds program src (read from filename, which is used
// in positions) into a pushdown network, with default options. Errors in
// the input come back as an ErrorList (at most ten); a failure of the BDD
// layer (a node limit) as another error.
func Compile(filename string, src []byte) (*pds.Network, error) {
	return CompileWith(filename, src, Options{})
}

// CompileWith is Compile with options.
func CompileWith(filename string, src []byte, opts Options) (*pds.Network, error) {
	u, err := check(filename, src, opts.AllErrors)
	if err != nil {
		return nil, err
	}
	c, err := compile(u, opts)
	if err != nil {
		return nil, err
	}
	return c.net, nil
}

// CompileTree checks and compiles a tree that another reader built (the C
// reader, frontend/c) instead of parsing .pds text: file maps the tree's
// positions to the reader's source src (which a trace quotes), and the
// tree may hold the nodes only a reader builds (ast.ConvExpr,
// ast.CondExpr, C's operators). Errors are as CompileWith's.
func CompileTree(file *token.File, src []byte, f *ast.File, opts Options) (*pds.Network, error) {
	info, errs := types.Check(file, f)
	if len(errs) > 0 {
		errs.Sort()
		if !opts.AllErrors {
			errs.Truncate(scanner.MaxErrors)
		}
		return nil, errs
	}
	c, err := compile(&unit{file: file, src: src, ast: f, info: info}, opts)
	if err != nil {
		return nil, err
	}
	return c.net, nil
}

// unit is a parsed and checked file.
type unit struct {
	file *token.File
	src  []byte
	ast  *ast.File
	info *types.Info
}

// check parses and checks src. On errors it returns an ErrorList, sorted
// and truncated to MaxErrors unless all are asked for.
func check(filename string, src []byte, all bool) (*unit, error) {
	mode := parser.Mode(0)
	if all {
		mode = parser.AllErrors
	}
	return checkMode(filename, src, mode)
}

// checkMode is check with a parser mode (tests: parser.COperators).
func checkMode(filename string, src []byte, mode parser.Mode) (*unit, error) {
	all := mode&parser.AllErrors != 0
	file := token.NewFile(filename, len(src))
	f, errs := parser.ParseFile(file, src, mode)
	if len(errs) == 0 {
		var info *types.Info
		info, errs = types.Check(file, f)
		if len(errs) == 0 {
			return &unit{file: file, src: src, ast: f, info: info}, nil
		}
	}
	errs.Sort()
	if !all {
		errs.Truncate(scanner.MaxErrors)
	}
	return nil, errs
}

// internalError wraps a failure that is a bug of the compiler.
func internalError(err error) error {
	return diag.Internal(fmt.Errorf("frontend: internal error: %w", err))
}
