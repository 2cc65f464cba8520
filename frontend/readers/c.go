package readers

import (
	"github.com/cbreach/cbreach/frontend/c"
)

// readC reads a C program with pthreads (package frontend/c), in the
// data model of Options.DataModel.
func readC(name string, open Open, o Options) (*Input, error) {
	src, err := open(name)
	if err != nil {
		return nil, err
	}
	net, err := c.Read(name, src, c.Options{DataModel: o.DataModel, MaxThreads: o.MaxThreads, Context: o.Context, Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	return &Input{Net: net, Source: src}, nil
}
