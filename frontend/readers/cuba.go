package readers

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
)

// cubaSniff recognises a CUBA system by its first lines, a shared-state
// count and a block or a rule (sure: no program of the .pds language
// starts with a number).
var cubaSniff = &Sniff{Match: cuba.LooksLikeSystem, Sure: true, Seen: "a CUBA concurrent pushdown system"}

// cubaFiles are the initial configuration and the target of a CUBA
// system.
var cubaFiles = []Companion{
	{Flag: "init", Suffix: ".init", Required: true,
		Usage: "CUBA: the initial configuration `FILE` (default: FILE.init beside the .pds)"},
	{Flag: "target", Suffix: ".spec", Target: true,
		Usage: "CUBA: the target visible state, a .spec `FILE` or inline 'q|t0,t1,...' (default: FILE.spec beside the .pds, if present)"},
}

// readCUBA reads a CUBA system (package frontend/cuba): the .pds, its
// initial configuration (Files["init"], or the .init beside it) and its
// target, if any (Files["target"], a file or inline "q|t0,t1,...", or
// the .spec beside it when there is one).
func readCUBA(name string, open Open, o Options) (*Input, error) {
	src, err := open(name)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(name, filepath.Ext(name))
	initFile := o.Files["init"]
	var initSrc []byte
	switch {
	case initFile != "":
		if initSrc, err = open(initFile); err != nil {
			return nil, err
		}
	case name == "-":
		return nil, errors.New("a CUBA system read from standard input needs --init FILE")
	default:
		initFile = base + ".init"
		if initSrc, err = open(initFile); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: the initial configuration %s is missing; give it with --init FILE", name, initFile)
		} else if err != nil {
			return nil, err
		}
	}
	inst, err := cuba.Read(name, src, initFile, initSrc, pds.Options{MaxThreads: o.MaxThreads})
	if err != nil {
		return nil, err
	}
	in := &Input{Net: inst.Net, Source: src}
	spec := o.Files["target"]
	var tg *cuba.Target
	switch {
	case strings.Contains(spec, "|"):
		tg, err = cuba.ParseTargetString(spec, inst)
	case spec != "":
		var specSrc []byte
		if specSrc, err = open(spec); err == nil {
			tg, err = cuba.ParseTarget(spec, specSrc, inst)
		}
	case name != "-":
		spec = base + ".spec"
		specSrc, serr := open(spec)
		switch {
		case errors.Is(serr, fs.ErrNotExist):
			return in, nil // no target
		case serr != nil:
			return nil, serr
		}
		tg, err = cuba.ParseTarget(spec, specSrc, inst)
	default:
		return in, nil
	}
	if err != nil {
		return nil, err
	}
	in.Targets = []pds.Target{inst.EngineTarget(tg)}
	return in, nil
}
