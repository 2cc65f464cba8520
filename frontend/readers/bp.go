package readers

import (
	"github.com/cbreach/cbreach/frontend/bp"
	"github.com/cbreach/cbreach/pds"
)

// bpSniff recognises a Boolean program by a procedure's begin (not
// sure: a .pds program may use the words).
var bpSniff = &Sniff{Match: bp.LooksLikeProgram,
	Seen: "a Boolean program (procedures with begin ... end)", Missed: "no procedure with begin ... end"}

// readBP reads a concurrent Boolean program (package frontend/bp).
func readBP(name string, open Open, o Options) (*Input, error) {
	src, err := open(name)
	if err != nil {
		return nil, err
	}
	net, err := bp.ReadWith(name, src, bp.Options{Options: pds.Options{MaxThreads: o.MaxThreads}, Context: o.Context, Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	return &Input{Net: net, Source: src}, nil
}
