package bp

import (
	"bytes"

	"github.com/cbreach/cbreach/pds"
)

// Read compiles the Boolean program src, read from the file name, into a
// pushdown network. On bad input the error is an [ErrorList] of at most
// MaxErrors positioned errors (then "too many errors (N more)"), sorted by
// position; any other error comes from the BDD layer or is a bug. Read
// never panics on any input.
func Read(name string, src []byte, opts pds.Options) (*pds.Network, error) {
	errs := &errorList{}
	prog := parse(name, src, errs)
	if !errs.empty() {
		return nil, errs.err()
	}
	info := check(name, prog, errs)
	if !errs.empty() {
		return nil, errs.err()
	}
	return compile(prog, info, opts)
}

// LooksLikeProgram reports whether src looks like a Boolean program: a
// procedure written with begin and end, or a decl, outside comments.
func LooksLikeProgram(src []byte) bool {
	errs := &errorList{}
	sc := scanner{src: src, line: 1, col: 1, errs: errs}
	begin, decl, assign := false, false, false
	for i := 0; i < 2000; i++ {
		t := sc.next()
		switch {
		case t.kind == tEOF:
			return begin && (decl || assign) || begin && bytes.Contains(src, []byte("end"))
		case t.kind == tKeyword && t.text == "begin":
			begin = true
		case t.kind == tKeyword && t.text == "decl":
			decl = true
		case t.kind == tPunct && t.text == ":=":
			assign = true
		}
		if begin && (decl || assign) {
			return true
		}
	}
	return begin
}
