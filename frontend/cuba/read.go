package cuba

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// Instance is a CUBA system with its initial configuration, as a network.
type Instance struct {
	Net    *pds.Network
	System *System     // the parsed .pds file
	Shared *pds.Global // the shared state, an enum "0".."S-1"
	States int         // S
	// Symbols[i][a] is the label of stack symbol a of thread i, nil for a
	// symbol that occurs neither in the thread's rules nor in its initial
	// stack.
	Symbols [][]*pds.Label

	symOf []int // stack symbol by label ID
}

// ReadFiles reads a .pds file and an .init file; see Read.
func ReadFiles(pdsPath, initPath string, opts pds.Options) (*Instance, error) {
	pdsSrc, err := os.ReadFile(pdsPath)
	if err != nil {
		return nil, fmt.Errorf("cuba: %w", err)
	}
	initSrc, err := os.ReadFile(initPath)
	if err != nil {
		return nil, fmt.Errorf("cuba: %w", err)
	}
	return Read(pdsPath, pdsSrc, initPath, initSrc, opts)
}

// Read turns a .pds file and its .init file into a network: one global
// "shared" (an enum of S values), one procedure and one thread T<i> per
// PDA block, one label T<i>.<a> per stack symbol a of block i, one rule
// per line (see the package documentation). The names are used in
// positions. Errors in the files are returned as an ErrorList of at most
// MaxErrors entries and no Instance; the network is validated.
func Read(pdsName string, pdsSrc []byte, initName string, initSrc []byte, opts pds.Options) (*Instance, error) {
	var errs errorList
	sys := parsePDS(pdsName, pdsSrc, &errs)
	init := parseConfig(initName, initSrc, sys.States, false, &errs)
	if init != nil && len(sys.Blocks) > 0 && len(init.Stacks) != len(sys.Blocks) {
		errs.Add(init.Pos, fmt.Sprintf("%s, but %s has %s (PDA blocks)", plural.Count(len(init.Stacks), "initial stack"), pdsName, plural.Count(len(sys.Blocks), "thread")))
	}
	if errs.empty() {
		checkTableSize(sys, init, &errs)
	}
	if !errs.empty() {
		return nil, errs.list
	}
	return build(sys, init, opts)
}

// checkTableSize reports symbols so large that the dense symbol tables
// would exceed MaxSymbolTable entries.
func checkTableSize(sys *System, init *config, errs *errorList) {
	total := 0
	for i, blk := range sys.Blocks {
		top := -1
		for _, r := range blk.Rules {
			top = max(top, r.Sym, r.Top, r.Below)
		}
		for _, a := range init.Stacks[i] {
			top = max(top, a)
		}
		total += top + 1
		if total > MaxSymbolTable {
			errs.Add(blk.Pos, fmt.Sprintf("thread %d: stack symbols up to %d: the symbols of all threads, numbered densely, exceed %d", i, top, MaxSymbolTable))
			return
		}
	}
}

func build(sys *System, init *config, opts pds.Options) (*Instance, error) {
	b := pds.NewBuilder(opts)
	// A CUBA system starts no threads: one per block.
	b.ProgramThreads(len(sys.Blocks))
	names := make([]string, sys.States)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	in := &Instance{System: sys, States: sys.States, Symbols: make([][]*pds.Label, len(sys.Blocks))}
	in.Shared = b.Global("shared", pds.EnumType("shared", names...), pds.Init{Value: uint64(init.Shared)}, sys.StatesPos)
	for i, blk := range sys.Blocks {
		p := b.Proc(fmt.Sprintf("T%d", i), nil, blk.Pos)
		// Each symbol gets the position of its first occurrence.
		first := map[int]pds.Pos{}
		note := func(a int, pos pds.Pos) {
			if _, ok := first[a]; !ok {
				first[a] = pos
			}
		}
		for _, r := range blk.Rules {
			note(r.Sym, r.Pos)
			if r.Kind != pds.Pop {
				note(r.Top, r.Pos)
			}
			if r.Kind == pds.Push {
				note(r.Below, r.Pos)
			}
		}
		for _, a := range init.Stacks[i] {
			note(a, init.Pos)
		}
		syms := make([]int, 0, len(first))
		for a := range first {
			syms = append(syms, a)
		}
		slices.Sort(syms)
		if len(syms) > 0 {
			in.Symbols[i] = make([]*pds.Label, syms[len(syms)-1]+1)
		}
		for _, a := range syms {
			l := b.Label(p, fmt.Sprintf("T%d.%d", i, a), first[a])
			in.Symbols[i][a] = l
			in.symOf = append(in.symOf, a)
		}
	}
	for i := range sys.Blocks {
		stack := make([]pds.Frame, len(init.Stacks[i]))
		for k, a := range init.Stacks[i] {
			stack[k] = pds.Frame{Label: in.Symbols[i][a]}
		}
		b.Thread(fmt.Sprintf("T%d", i), stack...)
	}
	if err := b.Fits(); err != nil {
		return nil, fmt.Errorf("cuba: %w", err)
	}
	m := b.Manager()
	// is: the shared state is s in copy c, built once per pair (rules
	// outnumber the shared states by far).
	memo := map[[2]int]bdd.Node{}
	is := func(c, s int) bdd.Node {
		k := [2]int{c, s}
		n, ok := memo[k]
		if !ok {
			n = m.Value(bdd.Ref{Var: in.Shared.Var, Copy: c}, uint64(s))
			memo[k] = n
		}
		return n
	}
	for i, blk := range sys.Blocks {
		sym := in.Symbols[i]
		for _, r := range blk.Rules {
			rel := m.And(is(pds.GCur, r.From), is(pds.GNext, r.To))
			switch r.Kind {
			case pds.Push:
				b.Push(sym[r.Sym], sym[r.Top], sym[r.Below], rel, r.Pos)
			case pds.Step:
				b.Step(sym[r.Sym], sym[r.Top], rel, r.Pos)
			case pds.Pop:
				b.Pop(sym[r.Sym], rel, r.Pos)
			}
		}
	}
	net, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("cuba: %s: %w", sys.Name, err)
	}
	in.Net = net
	return in, nil
}

// Symbol returns the thread and the stack symbol of a label of the
// instance's network, or -1, -1 for a label not made from a stack symbol.
func (in *Instance) Symbol(l *pds.Label) (thread, sym int) {
	if l == nil || l.ID >= len(in.symOf) || in.Net.Labels[l.ID] != l {
		return -1, -1
	}
	return l.Proc.Index, in.symOf[l.ID]
}

// SymbolName returns the stack symbol of a label as CUBA writes it ("23"),
// "-" for nil (an empty stack), or the label's name for a foreign label.
func (in *Instance) SymbolName(l *pds.Label) string {
	if l == nil {
		return "-"
	}
	if _, a := in.Symbol(l); a >= 0 {
		return strconv.Itoa(a)
	}
	return l.Name
}

// FormatVisible writes a visible state as CUBA does, "q|t0,t1,...": the
// shared state, then each thread's top symbol ("-" for nil, an empty
// stack).
func (in *Instance) FormatVisible(shared uint64, tops []*pds.Label) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d|", shared)
	for i, l := range tops {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteString(in.SymbolName(l))
	}
	return s.String()
}
