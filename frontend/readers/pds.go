package readers

import "github.com/cbreach/cbreach/frontend"

// readPDS compiles a program of the .pds language (package frontend).
func readPDS(name string, open Open, o Options) (*Input, error) {
	src, err := open(name)
	if err != nil {
		return nil, err
	}
	net, err := frontend.CompileWith(name, src, frontend.Options{MaxThreads: o.MaxThreads, Context: o.Context, Limits: o.Limits})
	if err != nil {
		return nil, err
	}
	return &Input{Net: net, Source: src}, nil
}
