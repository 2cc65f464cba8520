package bp

import (
	"context"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
)

// Read compiles the Boolean program src, read from the file name, into a
// pushdown network. On bad input the error is an [ErrorList] of at most
// MaxErrors positioned errors (then "too many errors (N more)"), sorted by
// position; any other error comes from the BDD layer or is a bug. Read
// never panics on any input.
func Read(name string, src []byte, opts pds.Options) (*pds.Network, error) {
	return ReadWith(name, src, Options{Options: opts})
}

// Options configure ReadWith: the network's options, and the context and
// BDD limits under which the initial states of a Getafix program (init's
// final states, a post*) are computed.
type Options struct {
	pds.Options
	Context context.Context // nil: context.Background()
	Limits  bdd.Limits
}

// ReadWith is Read with a context and limits; a limit reached is
// returned as an error wrapping the limit's.
func ReadWith(name string, src []byte, opts Options) (*pds.Network, error) {
	return read(name, src, opts, false)
}

// read is ReadWith; raw leaves Getafix's init in thread 0 (compile).
func read(name string, src []byte, opts Options, raw bool) (*pds.Network, error) {
	errs := &errorList{}
	prog := parse(name, src, errs)
	if !errs.empty() {
		return nil, errs.err()
	}
	info := check(name, prog, errs)
	if !errs.empty() {
		return nil, errs.err()
	}
	return compile(opts.Context, prog, info, opts.Options, opts.Limits, raw)
}

// LooksLikeProgram reports whether src looks like a Boolean program: it
// has the keyword begin after void or bool, outside comments, within its
// first 5000 tokens. It does not parse the program.
func LooksLikeProgram(src []byte) bool {
	sc := scanner{src: src, line: 1, col: 1, errs: &errorList{}}
	head := false
	for i := 0; i < 5000; i++ {
		t := sc.next()
		switch {
		case t.kind == tEOF:
			return false
		case t.kind == tKeyword && (t.text == "void" || t.text == "bool"):
			head = true
		case t.kind == tKeyword && t.text == "begin" && head:
			return true
		}
	}
	return false
}
