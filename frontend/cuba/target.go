package cuba

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// Target is a visible state `q|t0,t1,...` to reach: the shared state and
// each thread's top symbol. It is reached when some reachable
// configuration has exactly this shared state and these tops (a nil top:
// an empty stack).
type Target struct {
	Shared uint64
	// Tops[i] is the label of thread i's top symbol, nil for an empty
	// stack, and nil too for a symbol the network has no label for (then
	// Unreachable is set).
	Tops []*pds.Label
	// Symbols[i] is thread i's top symbol as written, -1 for an empty
	// stack.
	Symbols []int
	// Unreachable is set when some top symbol never occurs in its thread
	// (neither in its rules nor in its initial stack): no configuration
	// has it on top, so the target is unreachable for every bound.
	Unreachable bool
	Pos         pds.Pos
}

// String writes the target as CUBA does, "q|t0,t1,...".
func (t *Target) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d|", t.Shared)
	for i, a := range t.Symbols {
		if i > 0 {
			s.WriteByte(',')
		}
		if a < 0 {
			s.WriteByte('-')
		} else {
			s.WriteString(strconv.Itoa(a))
		}
	}
	return s.String()
}

// ParseTarget parses a .spec file: one line `q|t0,t1,...` with a shared
// state of inst and one top symbol (or "-") per thread. Errors are
// returned as an ErrorList.
func ParseTarget(name string, src []byte, inst *Instance) (*Target, error) {
	var errs errorList
	t := parseTarget(name, src, inst, &errs)
	if !errs.empty() {
		return nil, errs.list
	}
	return t, nil
}

// ParseTargetString parses a target given inline, e.g. "0|1,2,-" on the
// command line; errors read "target: message".
func ParseTargetString(s string, inst *Instance) (*Target, error) {
	var errs errorList
	t := parseTarget("target", []byte(s), inst, &errs)
	if !errs.empty() {
		for _, e := range errs.list {
			e.Pos.Line = 0
		}
		return nil, errs.list
	}
	t.Pos = pds.Pos{}
	return t, nil
}

func parseTarget(name string, src []byte, inst *Instance, errs *errorList) *Target {
	c := parseConfig(name, src, inst.States, true, errs)
	if c == nil {
		return nil
	}
	if n := len(inst.Symbols); len(c.Stacks) != n {
		errs.Add(c.Pos, fmt.Sprintf("target gives %s, but the system has %s", plural.Count(len(c.Stacks), "top symbol"), plural.Count(n, "thread")))
		return nil
	}
	t := &Target{Shared: uint64(c.Shared), Pos: c.Pos, Tops: make([]*pds.Label, len(c.Stacks)), Symbols: make([]int, len(c.Stacks))}
	for i, w := range c.Stacks {
		t.Symbols[i] = -1
		if len(w) == 0 {
			continue
		}
		a := w[0]
		t.Symbols[i] = a
		if syms := inst.Symbols[i]; a < len(syms) && syms[a] != nil {
			t.Tops[i] = syms[a]
		} else {
			t.Unreachable = true
		}
	}
	return t
}
