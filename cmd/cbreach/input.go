package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr/tracefmt"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/frontend/bp"
	"github.com/cbreach/cbreach/frontend/cuba"
	"github.com/cbreach/cbreach/pds"
)

// input is the program to analyse.
type input struct {
	file    string
	net     *pds.Network
	cuba    bool
	targets []pds.Target
	src     *tracefmt.Source // the input's text, for the statements of traces
}

// load compiles the input, under ctx and the memory limit: a .pds
// program, or a CUBA system with its initial configuration and target.
// Errors in the input are returned as they print; a limit reached while
// compiling is returned as the limit's error.
func load(ctx context.Context, file string, c *config) (*input, error) {
	in := &input{file: file, cuba: c.cuba}
	src, err := readFile(file, c.stdin)
	if err != nil {
		return in, err
	}
	if c.bp || !c.cuba && strings.EqualFold(filepath.Ext(file), ".bp") {
		in.src = tracefmt.NewSource(file, src, tracefmt.LangBP)
		return loadBP(ctx, in, file, src, c)
	}
	in.src = tracefmt.NewSource(file, src, tracefmt.LangPDS)
	if c.cuba {
		in.src = tracefmt.NewSource(file, src, tracefmt.LangCUBA)
	}
	if !c.cuba {
		if cuba.LooksLikeSystem(src) {
			return in, fmt.Errorf("%s looks like a CUBA concurrent pushdown system, not a .pds program: run it with --cuba", file)
		}
		net, err := frontend.CompileWith(file, src, frontend.Options{MaxThreads: c.maxThreads, Context: ctx,
			Limits: bdd.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory}})
		if err != nil && bp.LooksLikeProgram(src) {
			return in, fmt.Errorf("%s looks like a Boolean program (procedures with begin ... end), not a .pds program: run it with --bp", file)
		}
		if err != nil {
			return in, err
		}
		in.net = net
		return in, nil
	}
	base := strings.TrimSuffix(file, filepath.Ext(file))
	initFile := c.init
	if initFile == "" {
		if file == "-" {
			return in, errors.New("a CUBA system read from standard input needs --init FILE")
		}
		initFile = base + ".init"
		if _, err := os.Stat(initFile); err != nil {
			return in, fmt.Errorf("%s: the initial configuration %s is missing; give it with --init FILE", file, initFile)
		}
	}
	initSrc, err := readFile(initFile, nil)
	if err != nil {
		return in, err
	}
	inst, err := cuba.Read(file, src, initFile, initSrc, pds.Options{MaxThreads: c.maxThreads})
	if err != nil {
		return in, err
	}
	in.net = inst.Net
	spec := c.target
	if spec == "" && file != "-" {
		if _, err := os.Stat(base + ".spec"); err == nil {
			spec = base + ".spec"
		}
	}
	if spec == "" {
		return in, nil
	}
	var tg *cuba.Target
	if strings.Contains(spec, "|") {
		tg, err = cuba.ParseTargetString(spec, inst)
	} else {
		var specSrc []byte
		if specSrc, err = readFile(spec, nil); err != nil {
			return in, err
		}
		tg, err = cuba.ParseTarget(spec, specSrc, inst)
	}
	if err != nil {
		return in, err
	}
	in.targets = []pds.Target{inst.EngineTarget(tg)}
	return in, nil
}

// loadBP reads a concurrent Boolean program: with --bp, or guessed from
// the .bp extension (then a file that is not one gets a message saying so).
func loadBP(ctx context.Context, in *input, file string, src []byte, c *config) (*input, error) {
	net, err := bp.ReadWith(file, src, bp.Options{Options: pds.Options{MaxThreads: c.maxThreads}, Context: ctx, Limits: bdd.Limits{MaxNodes: c.maxNodes, MaxMemory: c.memory}})
	if err != nil && !c.bp && !bp.LooksLikeProgram(src) {
		return in, fmt.Errorf("%s was read as a Boolean program for its .bp extension, but it does not look like one (no procedure with begin ... end): give --cuba for a CUBA system, or name a .pds program .pds\n%v", file, err)
	}
	if err != nil {
		return in, err
	}
	in.net = net
	return in, nil
}

// readFile reads file, or stdin for "-".
func readFile(file string, stdin io.Reader) ([]byte, error) {
	if file == "-" && stdin != nil {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("cannot read standard input: %v", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	return b, nil
}
