package pds

import (
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds/diag"
)

// Copies of the global variables that rule relations use
// (docs/design.md, "BDD variable layout").
const (
	GCur  = 0 // current values: a rule's input
	GNext = 1 // after a rule
	// GScratch is a copy that no rule relation mentions: a builder may use
	// it as the intermediate state when it composes relations, and must
	// quantify it away before the relation becomes a rule's.
	GScratch = 2
)

// Copies of the local block that rule relations use.
const (
	LCur     = 0 // the top frame's locals: a rule's input
	LNext    = 1 // after a rule: the new top
	LSaved   = 2 // the frame saved below a push; a forked thread's locals
	LScratch = 3 // like GScratch
)

// GlobalCopies and LocalCopies are how many copies of each global and of
// the local block a network's layout holds: the rule copies above and the
// copies the analysis names and uses (package symauto, which owns their
// names and roles); pds gives the others no meaning.
const (
	GlobalCopies = 6
	LocalCopies  = 5
)

// Pos is a source position (file, line, column); the zero Pos is unknown.
// It is the position type of package pds/diag, shared with the
// readers that report errors in their input.
type Pos = diag.Pos

// Kind is the kind of a type.
type Kind uint8

const (
	Bool Kind = iota
	Int
	Enum
)

// Type is the type of a variable, a parameter or a result.
type Type struct {
	Kind   Kind
	Bits   int      // width of an Int; encoding bits of an Enum; 1 for Bool
	Name   string   // an Enum's type name
	Values []string // an Enum's constants, in order
}

// BoolType is bool.
func BoolType() Type { return Type{Kind: Bool, Bits: 1} }

// IntType is int<bits>.
func IntType(bits int) Type { return Type{Kind: Int, Bits: bits} }

// EnumType is an enum with the given constants.
func EnumType(name string, values ...string) Type {
	return Type{Kind: Enum, Bits: bdd.BitsFor(len(values)), Name: name, Values: values}
}

func (t Type) String() string {
	switch t.Kind {
	case Bool:
		return "bool"
	case Int:
		return fmt.Sprintf("int<%d>", t.Bits)
	}
	return t.Name
}

// Format prints value v of type t.
func (t Type) Format(v uint64) string {
	switch t.Kind {
	case Bool:
		if v != 0 {
			return "true"
		}
		return "false"
	case Enum:
		if v < uint64(len(t.Values)) {
			return t.Values[v]
		}
		return fmt.Sprintf("%s(%d)", t.Name, v)
	}
	return fmt.Sprint(v)
}

// numValues is the number of valid values of t.
func (t Type) numValues() uint64 {
	if t.Kind == Enum {
		return uint64(len(t.Values))
	}
	return 1 << t.Bits
}

// holds reports whether v is a value of t (every uint64 is one of a
// 64-bit int, whose number of values 1 << 64 does not fit a uint64).
func (t Type) holds(v uint64) bool {
	return (t.Kind != Enum && t.Bits >= 64) || v < t.numValues()
}

// Init is an initial value: a constant, or any value of the type.
type Init struct {
	Any   bool
	Value uint64
}

// Bookkeeping reports whether a global is a reader's own bookkeeping
// rather than a variable of the program: its name starts with '#' (the C
// reader's halt flag and thread ids), which no input language can
// spell. Traces leave such globals out, as they do hidden ones.
func (g *Global) Bookkeeping() bool { return strings.HasPrefix(g.Name, "#") }

// Global is a shared variable.
type Global struct {
	Index  int // position in Network.Globals
	Name   string
	Type   Type
	Init   Init
	Hidden bool // introduced by WithThreadSlots, not by the user
	// Packed asks the builder to lay out the global's bits side by side
	// in the BDD order (bdd.Layout.Packed) instead of by significance:
	// for a value read as a whole (a code, an enum) that no relation
	// compares bit by bit with another global. Set before the layout is
	// fixed (Builder.Manager).
	Packed bool
	// Group is the global's order group in the BDD layout
	// (bdd.Layout.Group): groups come one after the other, each ordered
	// by significance within. 0 for every global, the default, is the
	// order by significance across all globals. Set before the layout is
	// fixed; Builder.LocalGroup places the locals.
	Group int
	Pos   Pos
	Var   bdd.Var // its BDD variable, with the global copies
}

// Local is a local variable or parameter of a procedure. Its bit b is bit
// Block[b] of the local block (an index into Network.LocalBits).
type Local struct {
	Name  string
	Type  Type
	Proc  *Proc
	Block []int // set when the layout is fixed (Builder.Manager)
	Param bool
	Pos   Pos
}

// Proc is a procedure.
type Proc struct {
	Index  int
	Name   string
	Params []*Local
	Locals []*Local // parameters first, then the other locals
	Result *Type    // nil when the procedure returns no value
	Entry  *Label
	Labels []*Label
	Bits   int // number of bits of its locals
	Pos    Pos
	uses   []bool // by local block bit: used by one of the locals
}

// Uses reports whether bit i of the local block belongs to a local of p.
func (p *Proc) Uses(i int) bool { return i < len(p.uses) && p.uses[i] }

// LabelKind tells whether reaching a label is an error.
type LabelKind uint8

const (
	Normal  LabelKind = iota
	Assert            // a failed assertion
	Bounds            // an index out of range
	Cutoff            // a start beyond the thread bound: the search is cut off
	DivZero           // a division or remainder by zero (the C reader's / and %)
)

func (k LabelKind) String() string {
	return [...]string{"normal", "assert", "bounds", "cutoff", "division by zero"}[k]
}

// IsError reports whether reaching a label of this kind is a violation.
func (k LabelKind) IsError() bool { return k == Assert || k == Bounds || k == DivZero }

// Label is a control point of a procedure: the label part of a stack symbol.
type Label struct {
	ID   int // index in Network.Labels
	Name string
	Proc *Proc
	Kind LabelKind
	Pos  Pos
	// Recv, when set, is the receive relation Recv(G, R, L, G', L') applied
	// when a callee returns into this label (docs/design.md, "Return values").
	// Without it a return leaves globals and locals as they are.
	Recv    *bdd.Node
	Message string // for error labels: what failed, e.g. the assertion text
}

func (l *Label) String() string { return l.Name }

// RuleKind is the kind of a rule.
type RuleKind uint8

const (
	Step RuleKind = iota // γ -> γ'          R(G, L, G', L')
	Push                 // γ -> γe γr       R(G, L, G', L'=callee entry, L''=caller saved)
	Pop                  // γ -> ε           R(G, L, G', R)
	Fork                 // γ -> γ' ▷ child  R(G, L, G', L', L''=child's locals)
)

func (k RuleKind) String() string { return [...]string{"step", "push", "pop", "fork"}[k] }

// Rule is a symbolic rule.
type Rule struct {
	Index int
	Kind  RuleKind
	From  *Label
	To    *Label // Step, Fork: the new top; Push: the pushed top (a callee's entry)
	Ret   *Label // Push: the return point saved below
	Child *Proc  // Fork: the procedure the new thread runs
	Rel   bdd.Node
	Pos   Pos
}

// Frame is one stack frame of an initial configuration.
type Frame struct {
	Label  *Label
	Locals []Init // by the index in Label.Proc.Locals
}

// Thread is a thread of the initial configuration (or, after
// WithThreadSlots, a slot a forked thread will occupy).
type Thread struct {
	Index int
	Name  string
	Stack []Frame // bottom first
	Slot  bool    // a dormant slot for a forked thread
}

// Network is a pushdown network with its BDD space. Build it with a
// [Builder]; after Build it is read-only.
type Network struct {
	M       *bdd.Manager
	Globals []*Global
	Procs   []*Proc
	Labels  []*Label
	Rules   []*Rule
	Threads []*Thread

	LocalBits []bdd.Var // the local block, one BDD variable per bit
	RetVar    bdd.Var   // the return register R
	// LocalGroup is the order group of the local block, the return
	// register and the thread slots (Builder.LocalGroup).
	LocalGroup int
	RetBits    int

	// MaxThreads is the number of threads the layout has room for
	// (initial and forked together); see WithThreadSlots. ThreadSource
	// says where it comes from, ProgramThreads is the most threads the
	// program can have (Unbounded when a start can repeat; see
	// Builder.ProgramThreads).
	MaxThreads     int
	ThreadSource   ThreadSource
	ProgramThreads int

	// InitGlobals, when not nil, restricts the initial valuations of the
	// globals beyond their Init values (see [Network.WithInitial]).
	InitGlobals *InitGlobals
	slots       *slotVars // hidden variables for forked threads, nil without forks

	byFrom [][]*Rule
	sets   *Sets
}

// RulesFrom returns the rules whose left-hand side is l, in rule order.
func (n *Network) RulesFrom(l *Label) []*Rule { return n.byFrom[l.ID] }

// GlobalVars returns the BDD variables of all globals, in order.
func (n *Network) GlobalVars() []bdd.Var {
	vs := make([]bdd.Var, len(n.Globals))
	for i, g := range n.Globals {
		vs[i] = g.Var
	}
	return vs
}

// GlobalVec returns copy c of global g.
func (n *Network) GlobalVec(g *Global, c int) bdd.Vec { return n.M.Vec(bdd.Ref{Var: g.Var, Copy: c}) }

// LocalVec returns copy c of local l.
func (n *Network) LocalVec(l *Local, c int) bdd.Vec {
	v := make(bdd.Vec, l.Type.Bits)
	for i := range v {
		v[i] = n.M.Bit(bdd.Ref{Var: n.LocalBits[l.Block[i]], Copy: c}, 0)
	}
	return v
}

// BlockVec returns bits [lo, hi) of copy c of the local block.
func (n *Network) BlockVec(lo, hi, c int) bdd.Vec {
	v := make(bdd.Vec, hi-lo)
	for i := range v {
		v[i] = n.M.Bit(bdd.Ref{Var: n.LocalBits[lo+i], Copy: c}, 0)
	}
	return v
}

// RetVec returns the return register, resized to width bits.
func (n *Network) RetVec(width int) bdd.Vec {
	return n.M.Resize(n.M.Vec(bdd.Ref{Var: n.RetVar}), width)
}

// ThreadSource says where a network's thread bound comes from.
type ThreadSource uint8

const (
	// ThreadsDefault: DefaultMaxThreads, for a program that can start
	// unboundedly many threads (or whose count was not given) and no
	// Options.MaxThreads.
	ThreadsDefault ThreadSource = iota
	// ThreadsFromOption: Options.MaxThreads, for a program that can start
	// unboundedly many threads, or more than it allows.
	ThreadsFromOption
	// ThreadsFromProgram: the number of threads the program can have;
	// no start is ever cut off.
	ThreadsFromProgram
)

func (s ThreadSource) String() string {
	switch s {
	case ThreadsFromOption:
		return "option"
	case ThreadsFromProgram:
		return "program"
	}
	return "default"
}

// Bounded reports whether the thread bound may cut a start off: the
// program can have more threads than the network has room for.
func (n *Network) Bounded() bool {
	return n.ThreadSource != ThreadsFromProgram && (n.ProgramThreads == Unbounded || n.ProgramThreads > n.MaxThreads)
}

// countThreads counts the threads the network can have on its rules
// (Flow.Threads): each thread's frames from their labels.
func (n *Network) countThreads() int {
	f := &Flow{}
	node := make([]int, len(n.Labels)) // a label's index in its procedure
	for _, p := range n.Procs {
		for i, l := range p.Labels {
			node[l.ID] = i
		}
		f.proc(p.Index)
		if p.Entry != nil {
			f.Entry(p.Index, node[p.Entry.ID])
		}
	}
	for _, r := range n.Rules {
		p := r.From.Proc.Index
		switch r.Kind {
		case Step:
			f.Step(p, node[r.From.ID], node[r.To.ID])
		case Push:
			f.Call(p, node[r.From.ID], node[r.Ret.ID], r.To.Proc.Index)
		case Fork:
			f.Start(p, node[r.From.ID], node[r.To.ID], r.Child.Index)
		}
	}
	c := f.counter()
	total := 0
	for _, t := range n.Threads {
		if t.Slot {
			continue
		}
		total = addCount(total, 1)
		for _, fr := range t.Stack {
			total = addCount(total, c.from(fr.Label.Proc.Index, node[fr.Label.ID]))
		}
	}
	return total
}
