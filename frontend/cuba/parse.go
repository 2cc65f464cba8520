package cuba

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/pds"
)

// Limits of the reader. Larger values are reported as errors: they would
// only make tables huge (the symbols of a thread are indexed densely).
const (
	MaxStates = 1 << 16   // the largest shared-state count
	MaxSymbol = 1<<20 - 1 // the largest stack symbol
	// MaxSymbolTable bounds the sum over threads of the largest symbol
	// plus one: the size of Instance.Symbols.
	MaxSymbolTable = 1 << 22
)

// System is a parsed .pds file: the shared-state count and one Block per
// thread. It holds the file's data and nothing else.
type System struct {
	Name      string  // the file name used in positions
	States    int     // S: shared states are 0..S-1 (0 when missing or invalid)
	StatesPos pds.Pos // where S is
	Blocks    []*Block
}

// Block is one `PDA l1 l2` block: one thread.
type Block struct {
	Pos    pds.Pos // the PDA line
	Lo, Hi uint64  // the declared symbol range (informative only: not checked)
	Rules  []*Rule
}

// Rule is one rule `s a -> s' ...` of a block. Kind is pds.Push for
// `s a -> s' b c`, pds.Step for the overwrite `s a -> s' b` and pds.Pop for
// `s a -> s' -`.
type Rule struct {
	Pos      pds.Pos
	Kind     pds.RuleKind
	From, To int // shared states s and s'
	Sym      int // a, the top the rule fires on
	Top      int // b: the new top (Step, Push)
	Below    int // c: the symbol pushed below b (Push)
}

func (r *Rule) String() string {
	switch r.Kind {
	case pds.Push:
		return fmt.Sprintf("%d %d -> %d %d %d", r.From, r.Sym, r.To, r.Top, r.Below)
	case pds.Step:
		return fmt.Sprintf("%d %d -> %d %d", r.From, r.Sym, r.To, r.Top)
	}
	return fmt.Sprintf("%d %d -> %d -", r.From, r.Sym, r.To)
}

// ParsePDS parses a .pds file. On errors it returns the partial System
// (rules with errors left out) together with an ErrorList.
func ParsePDS(name string, src []byte) (*System, error) {
	var errs errorList
	sys := parsePDS(name, src, &errs)
	return sys, errs.list.Err()
}

// line is one line of an input file, comment removed, split into fields.
type line struct {
	pos    pds.Pos
	text   string // without the comment, trimmed
	fields []string
}

// lines splits src into its non-blank lines. A line ends at "\n"; "\r" is
// white space (so CRLF files read like LF files); "#" starts a comment. A
// UTF-8 byte-order mark at the very start of src is skipped.
func lines(name string, src []byte) []line {
	var ls []line
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	for i, s := range strings.Split(string(src), "\n") {
		s, _, _ = strings.Cut(s, "#")
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		ls = append(ls, line{pos: pds.Pos{File: name, Line: i + 1}, text: strings.TrimSpace(s), fields: f})
	}
	return ls
}

// number parses a non-negative decimal integer; what names it in errors.
func number(tok, what string, pos pds.Pos, errs *errorList) (uint64, bool) {
	digits := tok
	neg := strings.HasPrefix(tok, "-") && len(tok) > 1
	if neg {
		digits = tok[1:]
	}
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		errs.Add(pos, fmt.Sprintf("%s: want a number, got %q", what, tok))
		return 0, false
	}
	if neg {
		errs.Add(pos, fmt.Sprintf("%s: negative number %s", what, tok))
		return 0, false
	}
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		errs.Add(pos, fmt.Sprintf("%s: number %s is too large", what, tok))
		return 0, false
	}
	return v, true
}

// state parses a shared state and checks it against the count S (not
// checked when S is unknown, 0).
func state(tok, what string, states int, pos pds.Pos, errs *errorList) (int, bool) {
	v, ok := number(tok, what, pos, errs)
	if !ok {
		return 0, false
	}
	if states > 0 && v >= uint64(states) {
		errs.Add(pos, fmt.Sprintf("%s %s out of range 0..%d", what, tok, states-1))
		return 0, false
	}
	if v >= MaxStates {
		errs.Add(pos, fmt.Sprintf("%s %s is too large", what, tok))
		return 0, false
	}
	return int(v), true
}

// symbol parses a stack symbol.
func symbol(tok, what string, pos pds.Pos, errs *errorList) (int, bool) {
	v, ok := number(tok, what, pos, errs)
	if !ok {
		return 0, false
	}
	if v > MaxSymbol {
		errs.Add(pos, fmt.Sprintf("%s %s is too large (at most %d)", what, tok, MaxSymbol))
		return 0, false
	}
	return int(v), true
}

const ruleForms = `want "s a -> s' b c", "s a -> s' b" or "s a -> s' -"`

func parsePDS(name string, src []byte, errs *errorList) *System {
	sys := &System{Name: name}
	haveCount := false
	for _, ln := range lines(name, src) {
		f := ln.fields
		if !haveCount {
			haveCount = true
			sys.StatesPos = ln.pos
			if len(f) == 1 && f[0] != "PDA" {
				v, ok := number(f[0], "shared-state count", ln.pos, errs)
				switch {
				case !ok:
				case v == 0:
					errs.Add(ln.pos, "shared-state count is 0: want at least one shared state")
				case v > MaxStates:
					errs.Add(ln.pos, fmt.Sprintf("shared-state count %d is too large (at most %d)", v, MaxStates))
				default:
					sys.States = int(v)
				}
				continue
			}
			errs.Add(ln.pos, "missing shared-state count: the first line must be the number of shared states")
			// Go on: read this line as a block header or a rule.
		}
		if f[0] == "PDA" {
			blk := &Block{Pos: ln.pos}
			sys.Blocks = append(sys.Blocks, blk)
			if len(f) != 3 {
				errs.Add(ln.pos, `malformed block header: want "PDA l1 l2"`)
				continue
			}
			blk.Lo, _ = number(f[1], "block header", ln.pos, errs)
			blk.Hi, _ = number(f[2], "block header", ln.pos, errs)
			continue
		}
		if len(sys.Blocks) == 0 {
			errs.Add(ln.pos, `rule before the first "PDA l1 l2" block`)
			continue
		}
		if r := parseRule(ln, sys.States, errs); r != nil {
			blk := sys.Blocks[len(sys.Blocks)-1]
			blk.Rules = append(blk.Rules, r)
		}
	}
	switch {
	case !haveCount:
		errs.Add(pds.Pos{File: name, Line: 1}, "missing shared-state count: the file is empty")
	case len(sys.Blocks) == 0:
		errs.Add(sys.StatesPos, `no "PDA l1 l2" block: the system has no thread`)
	}
	return sys
}

// parseRule parses `s a -> s' b c`, `s a -> s' b` or `s a -> s' -`; it
// returns nil after reporting errors.
func parseRule(ln line, states int, errs *errorList) *Rule {
	f := ln.fields
	if strings.Trim(f[0], "-0123456789") != "" {
		errs.Add(ln.pos, fmt.Sprintf("unexpected %q: want a rule \"s a -> s' ...\" or a block header \"PDA l1 l2\"", f[0]))
		return nil
	}
	if !slices.Contains(f, "->") && strings.Contains(ln.text, "->") {
		errs.Add(ln.pos, fmt.Sprintf("malformed rule %q: separate the fields by spaces", ln.text))
		return nil
	}
	if len(f) < 5 || len(f) > 6 || f[2] != "->" {
		if len(f) >= 3 && f[2] != "->" {
			errs.Add(ln.pos, fmt.Sprintf("malformed rule %q: want \"->\" as the third field, got %q", ln.text, f[2]))
		} else {
			errs.Add(ln.pos, fmt.Sprintf("malformed rule %q: %s", ln.text, ruleForms))
		}
		return nil
	}
	r := &Rule{Pos: ln.pos}
	good := true
	check := func(v int, ok bool) int {
		good = good && ok
		return v
	}
	r.From = check(state(f[0], "shared state", states, ln.pos, errs))
	r.Sym = check(symbol(f[1], "stack symbol", ln.pos, errs))
	r.To = check(state(f[3], "shared state", states, ln.pos, errs))
	switch {
	case len(f) == 5 && f[4] == "-":
		r.Kind = pds.Pop
	case len(f) == 5:
		r.Kind = pds.Step
		r.Top = check(symbol(f[4], "stack symbol", ln.pos, errs))
	case f[4] == "-" || f[5] == "-":
		errs.Add(ln.pos, fmt.Sprintf("malformed rule %q: %s", ln.text, ruleForms))
		return nil
	default:
		r.Kind = pds.Push
		r.Top = check(symbol(f[4], "stack symbol", ln.pos, errs))
		r.Below = check(symbol(f[5], "stack symbol", ln.pos, errs))
	}
	if !good {
		return nil
	}
	return r
}

// config is a parsed .init or .spec line `q|w0,w1,...`. A stack is nil
// when empty; in a .spec each stack is its top symbol alone.
type config struct {
	Pos    pds.Pos
	Shared int
	Stacks [][]int // bottom first
}

// parseConfig parses the one line of an .init file (tops false) or a
// .spec file (tops true: each thread gives only its top symbol, or "-").
// States is the shared-state count (0: unknown). It returns nil after
// reporting errors.
func parseConfig(name string, src []byte, states int, tops bool, errs *errorList) *config {
	form := `"q|w0,w1,..." (shared state | stacks, bottom first, symbols separated by ".")`
	what := "initial"
	if tops {
		form = `"q|t0,t1,..." (shared state | top symbols, "-" for an empty stack)`
		what = "target"
	}
	ls := lines(name, src)
	if len(ls) == 0 {
		errs.Add(pds.Pos{File: name, Line: 1}, "empty file: want "+form)
		return nil
	}
	if len(ls) > 1 {
		errs.Add(ls[1].pos, "unexpected second line: the file holds one configuration "+form)
		return nil
	}
	ln := ls[0]
	q, rest, ok := strings.Cut(ln.text, "|")
	if !ok || strings.Contains(rest, "|") {
		errs.Add(ln.pos, fmt.Sprintf("malformed configuration %q: want %s", ln.text, form))
		return nil
	}
	c := &config{Pos: ln.pos}
	good := true
	c.Shared, good = state(strings.TrimSpace(q), what+" shared state", states, ln.pos, errs)
	for i, w := range strings.Split(rest, ",") {
		w = strings.TrimSpace(w)
		var stack []int
		switch {
		case w == "" || w == "-":
		case tops && strings.Contains(w, "."):
			errs.Add(ln.pos, fmt.Sprintf("thread %d: %q is a stack: a target gives only the top symbol", i, w))
			good = false
		default:
			for _, s := range strings.Split(w, ".") {
				a, ok := symbol(strings.TrimSpace(s), fmt.Sprintf("thread %d: stack symbol", i), ln.pos, errs)
				good = good && ok
				stack = append(stack, a)
			}
		}
		c.Stacks = append(c.Stacks, stack)
	}
	if !good {
		return nil
	}
	return c
}
