package pds

import (
	"errors"
	"fmt"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds/plural"
)

// Options configure a Builder.
type Options struct {
	// MaxThreads bounds the number of threads, initial and forked
	// together, the network has room for. It matters only when the
	// network forks: the layout then holds hidden variables for
	// MaxThreads-1 slots. When the builder was told the program's count
	// (ProgramThreads) and it is finite, the network has room for exactly
	// that many threads, unless MaxThreads is lower: MaxThreads bounds
	// only programs that can start unboundedly many threads (or whose
	// count nobody gave). 0 means DefaultMaxThreads.
	MaxThreads int
	// BDD configures the manager.
	BDD bdd.Config
}

// DefaultMaxThreads is the default thread bound.
const DefaultMaxThreads = 8

// Builder builds a Network in two phases. First declare globals,
// procedures with their parameters and locals, labels, threads and the
// procedures that may be started as threads; then call Manager, which
// fixes the BDD layout, and add rules (their relations are BDDs of that
// manager). Build validates and returns the network.
//
// Builder methods panic when called out of phase or with foreign objects:
// those are caller bugs. Malformed networks are reported by Build.
type Builder struct {
	net        *Network
	opts       Options
	frozen     bool
	built      bool
	spawnable  []*Proc
	isSpawn    map[*Proc]bool
	paramsOnly map[*Proc]bool // SpawnableWithParams
	counted    bool           // ProgramThreads was called
	program    int            // its count
	lay        *bdd.Layout    // the layout, once fixed (layout)
	layErr     error          // why there is none: it would pass bdd.MaxVars
	localGroup int            // LocalGroup
}

// NewBuilder returns a builder with the given options.
func NewBuilder(opts Options) *Builder {
	return &Builder{net: &Network{}, opts: opts, isSpawn: map[*Proc]bool{}, paramsOnly: map[*Proc]bool{}}
}

// ProgramThreads tells the builder how many threads, initial and started,
// the program can have at most: a count on the program's control flow
// (Flow.Threads), or Unbounded. It must be said before Manager, since the
// layout holds the thread slots; the readers say it. Build counts again
// on the rules and fails when they can start more.
func (b *Builder) ProgramThreads(n int) {
	b.declaring("ProgramThreads")
	b.counted, b.program = true, n
}

// threadBound sets the network's thread bound and its source from the
// options and the program's count.
func (b *Builder) threadBound() {
	n := b.net
	n.ProgramThreads = Unbounded
	if b.counted {
		n.ProgramThreads = b.program
	}
	switch {
	case b.counted && b.program != Unbounded && (b.opts.MaxThreads <= 0 || b.program <= b.opts.MaxThreads):
		n.MaxThreads, n.ThreadSource = max(1, b.program), ThreadsFromProgram
	case b.opts.MaxThreads > 0:
		n.MaxThreads, n.ThreadSource = b.opts.MaxThreads, ThreadsFromOption
	default:
		n.MaxThreads, n.ThreadSource = DefaultMaxThreads, ThreadsDefault
	}
}

func (b *Builder) declaring(what string) {
	if b.frozen {
		panic("pds: " + what + " after Manager: declarations come first")
	}
}

// LocalGroup sets the order group (pds.Global.Group, bdd.Layout.Group)
// of the local block, the return register and the hidden globals of the
// thread slots, which carry local bits: 0 unless said, the group of every
// global by default. It must be said before Manager.
func (b *Builder) LocalGroup(g int) {
	b.declaring("LocalGroup")
	b.localGroup = g
}

// Global declares a global variable.
func (b *Builder) Global(name string, t Type, init Init, pos Pos) *Global {
	b.declaring("Global")
	g := &Global{Index: len(b.net.Globals), Name: name, Type: t, Init: init, Pos: pos}
	b.net.Globals = append(b.net.Globals, g)
	return g
}

// Proc declares a procedure; result is nil for one without a value.
func (b *Builder) Proc(name string, result *Type, pos Pos) *Proc {
	b.declaring("Proc")
	p := &Proc{Index: len(b.net.Procs), Name: name, Result: result, Pos: pos}
	b.net.Procs = append(b.net.Procs, p)
	return p
}

// Param declares the next parameter of p. Parameters precede locals.
func (b *Builder) Param(p *Proc, name string, t Type, pos Pos) *Local {
	if len(p.Locals) != len(p.Params) {
		panic("pds: parameter " + name + " declared after a local of " + p.Name)
	}
	l := b.Local(p, name, t, pos)
	l.Param = true
	p.Params = append(p.Params, l)
	return l
}

// Local declares a local variable of p.
func (b *Builder) Local(p *Proc, name string, t Type, pos Pos) *Local {
	b.declaring("Local")
	l := &Local{Name: name, Type: t, Proc: p, Pos: pos}
	p.Bits += t.Bits
	p.Locals = append(p.Locals, l)
	return l
}

// Label adds a control point to p. The first label of a procedure is its
// entry unless SetEntry says otherwise.
func (b *Builder) Label(p *Proc, name string, pos Pos) *Label {
	l := &Label{ID: len(b.net.Labels), Name: name, Proc: p, Pos: pos}
	b.net.Labels = append(b.net.Labels, l)
	p.Labels = append(p.Labels, l)
	if p.Entry == nil {
		p.Entry = l
	}
	return l
}

// ErrorLabel adds a label whose reaching is an error of the given kind.
func (b *Builder) ErrorLabel(p *Proc, name string, kind LabelKind, msg string, pos Pos) *Label {
	l := b.Label(p, name, pos)
	l.Kind = kind
	l.Message = msg
	return l
}

// SetEntry makes l the entry of its procedure.
func (b *Builder) SetEntry(l *Label) { l.Proc.Entry = l }

// Spawnable declares that p may be started by a fork rule. It must be said
// before Manager, since the layout reserves variables for forked threads.
func (b *Builder) Spawnable(p *Proc) {
	b.declaring("Spawnable")
	if !b.isSpawn[p] {
		b.isSpawn[p] = true
		b.spawnable = append(b.spawnable, p)
	}
}

// SpawnableWithParams is Spawnable for a procedure whose fork rules give
// only its parameters values of their own, every other local 0 (as a call
// does): the thread slots then carry only the parameters' bits. Build
// checks every fork rule that starts p.
func (b *Builder) SpawnableWithParams(p *Proc) {
	b.Spawnable(p)
	b.paramsOnly[p] = true
}

// Thread adds an initial thread with the given stack, bottom first.
func (b *Builder) Thread(name string, stack ...Frame) *Thread {
	t := &Thread{Index: len(b.net.Threads), Name: name, Stack: stack}
	b.net.Threads = append(b.net.Threads, t)
	return t
}

// Call returns the frame of a call of p with the given argument values:
// parameters set, every other local 0.
func Call(p *Proc, args ...uint64) Frame {
	f := Frame{Label: p.Entry, Locals: make([]Init, len(p.Locals))}
	for i, a := range args {
		f.Locals[i] = Init{Value: a}
	}
	return f
}

// Fits fixes the layout (declarations come first, as for Manager) and
// reports whether the BDD kernel can hold it: an error when the
// declarations need more than bdd.MaxVars BDD variables (every copy of
// every bit of the globals, the locals and the thread slots), which a
// reader reports as an input too large before it calls Manager. The
// count of thread slots is checked before they are declared: a thread
// bound of a billion fails at once.
func (b *Builder) Fits() error {
	b.layout()
	return b.layErr
}

// ErrTooLarge is wrapped by the error of Fits.
var ErrTooLarge = errors.New("more BDD variables than the kernel has")

// Manager fixes the layout (on its first call) and returns the BDD manager
// in which relations are built. It panics when the layout does not fit
// (Fits): a reader that may meet such an input calls Fits first.
func (b *Builder) Manager() *bdd.Manager {
	if b.net.M != nil {
		return b.net.M
	}
	b.layout()
	if b.layErr != nil {
		panic(b.layErr)
	}
	n := b.net
	lay := b.lay
	m, err := bdd.New(lay, b.opts.BDD)
	if err != nil {
		panic(err) // only for an invalid variable count, a bug here
	}
	n.M = m
	n.sets = newSets(n)
	return m
}

// layout declares the BDD layout of the declarations once (b.lay), or
// records why it cannot (b.layErr).
func (b *Builder) layout() {
	if b.lay != nil || b.layErr != nil {
		return
	}
	b.frozen = true
	n := b.net
	b.threadBound()
	n.LocalGroup = b.localGroup
	lay := bdd.NewLayout()
	for _, g := range n.Globals {
		if g.Packed {
			g.Var = lay.Packed(g.Name, g.Type.Bits, GlobalCopies)
		} else {
			g.Var = lay.Uint(g.Name, g.Type.Bits, GlobalCopies)
		}
		lay.Group(g.Var, g.Group)
	}
	rows := placeLocals(n.Procs)
	if len(b.spawnable) > 0 {
		var err error
		if n.slots, err = declareSlots(b, lay, rows); err != nil {
			b.layErr = err
			return
		}
	}
	for _, sig := range rows {
		v := lay.BoolAt(fmt.Sprintf("l%d.%d", sig, len(n.LocalBits)), LocalCopies, sig)
		lay.Group(v, b.localGroup)
		n.LocalBits = append(n.LocalBits, v)
	}
	n.RetBits = 1
	for _, p := range n.Procs {
		if p.Result != nil {
			n.RetBits = max(n.RetBits, p.Result.Bits)
		}
	}
	n.RetVar = lay.Uint("ret", n.RetBits, 1)
	lay.Group(n.RetVar, b.localGroup)
	if lay.NumBits() > bdd.MaxVars {
		b.layErr = fmt.Errorf("pds: the network needs %s, more than the %d the kernel has: %w", plural.Count(lay.NumBits(), "BDD variable"), bdd.MaxVars, ErrTooLarge)
		return
	}
	b.lay = lay
}

// Net returns the network under construction, for the relation helpers
// (GlobalVec, LocalVec, Unchanged, ...). It fixes the layout.
func (b *Builder) Net() *Network {
	b.Manager()
	return b.net
}

func (b *Builder) rule(r *Rule) *Rule {
	b.Manager()
	if b.built {
		panic("pds: rule added after Build")
	}
	r.Index = len(b.net.Rules)
	b.net.Rules = append(b.net.Rules, r)
	return r
}

// Step adds γ -> γ' with relation R(G, L, G', L'). Bits of the local block
// outside to's procedure are constrained to zero in L' automatically.
func (b *Builder) Step(from, to *Label, rel bdd.Node, pos Pos) *Rule {
	n := b.Net()
	rel = n.M.And(rel, n.padding(to.Proc, LNext))
	return b.rule(&Rule{Kind: Step, From: from, To: to, Rel: rel, Pos: pos})
}

// Push adds a call γ -> γe γr with relation R(G, L, G', L', L″): L' the
// callee's entry locals, L″ the caller's locals saved at the return point.
func (b *Builder) Push(from, entry, ret *Label, rel bdd.Node, pos Pos) *Rule {
	n := b.Net()
	rel = n.M.And(rel, n.padding(entry.Proc, LNext), n.padding(ret.Proc, LSaved))
	return b.rule(&Rule{Kind: Push, From: from, To: entry, Ret: ret, Rel: rel, Pos: pos})
}

// Pop adds a return γ -> ε with relation R(G, L, G', R).
func (b *Builder) Pop(from *Label, rel bdd.Node, pos Pos) *Rule {
	return b.rule(&Rule{Kind: Pop, From: from, Rel: rel, Pos: pos})
}

// Fork adds γ -> γ' that also starts a thread running child, with relation
// R(G, L, G', L', L″), L″ the new thread's initial locals.
func (b *Builder) Fork(from, to *Label, child *Proc, rel bdd.Node, pos Pos) *Rule {
	n := b.Net()
	rel = n.M.And(rel, n.padding(to.Proc, LNext), n.padding(child, LSaved))
	return b.rule(&Rule{Kind: Fork, From: from, To: to, Child: child, Rel: rel, Pos: pos})
}

// SetRecv sets the receive relation Recv(G, R, L, G', L') of return point l.
func (b *Builder) SetRecv(l *Label, rel bdd.Node) {
	n := b.Net()
	rel = n.M.And(rel, n.padding(l.Proc, LNext))
	l.Recv = &rel
}

// Build validates the network and returns it.
func (b *Builder) Build() (*Network, error) {
	n := b.Net()
	b.built = true
	n.index()
	if err := b.checkCount(); err != nil {
		return nil, err
	}
	for _, r := range n.Rules {
		if r.Kind == Fork && b.paramsOnly[r.Child] {
			zero := n.LocalsZero(r.Child, LSaved, r.Child.Params...)
			if !n.M.Diff(r.Rel, zero).IsFalse() {
				return nil, fmt.Errorf("pds: rule %d (fork at %s): %s was declared SpawnableWithParams, but the rule may give a local other than a parameter a value other than 0", r.Index, r.Pos, r.Child.Name)
			}
		}
	}
	n.finishSlots()
	n.index()
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// checkCount counts the threads on the rules: a network whose reader
// counted a finite number must not be able to start more. Without a
// count from the reader, the network records the one of its rules.
func (b *Builder) checkCount() error {
	n := b.net
	got := n.countThreads()
	if !b.counted {
		n.ProgramThreads = got
		return nil
	}
	if b.program != Unbounded && (got == Unbounded || got > b.program) {
		what := "unboundedly many threads"
		if got != Unbounded {
			what = plural.Count(got, "thread")
		}
		return fmt.Errorf("pds: the rules can make %s, more than the %d the program was counted to have", what, b.program)
	}
	return nil
}

func (n *Network) index() {
	n.byFrom = make([][]*Rule, len(n.Labels))
	for _, r := range n.Rules {
		n.byFrom[r.From.ID] = append(n.byFrom[r.From.ID], r)
	}
}

// placeLocals lays out the local block as a grid: row s holds bit s of
// locals, and the locals of a procedure with a bit s take the slots of row
// s in order (every procedure starts again at slot 0). So bit s of any local
// is ordered with bit s of the globals (bdd.Layout orders bits by
// significance), which keeps relations between locals and globals linear.
// It sets every local's Block and returns the significance of each block
// bit.
func placeLocals(procs []*Proc) []int {
	var width []int // slots per row
	for _, p := range procs {
		var count []int
		for _, l := range p.Locals {
			for s := 0; s < l.Type.Bits; s++ {
				if s == len(count) {
					count = append(count, 0)
				}
				count[s]++
			}
		}
		for s, c := range count {
			if s == len(width) {
				width = append(width, 0)
			}
			width[s] = max(width[s], c)
		}
	}
	if len(width) == 0 {
		width = []int{1}
	}
	start := make([]int, len(width)) // index of the first bit of each row
	var rows []int
	for s, w := range width {
		start[s] = len(rows)
		for range w {
			rows = append(rows, s)
		}
	}
	for _, p := range procs {
		next := make([]int, len(width))
		p.uses = make([]bool, len(rows))
		for _, l := range p.Locals {
			l.Block = make([]int, l.Type.Bits)
			for s := range l.Block {
				l.Block[s] = start[s] + next[s]
				next[s]++
				p.uses[l.Block[s]] = true
			}
		}
	}
	return rows
}

// padding says that the bits of the local block outside p's locals are 0 in
// copy c (they are never used, and fixing them keeps enumerations small).
func (n *Network) padding(p *Proc, c int) bdd.Node {
	if p == nil {
		return n.M.True()
	}
	var fs []bdd.Node
	for i := range n.LocalBits {
		if !p.Uses(i) {
			fs = append(fs, n.M.Not(n.M.Bit(bdd.Ref{Var: n.LocalBits[i], Copy: c}, 0)))
		}
	}
	return n.M.Conj(fs...)
}

// Unused returns "every bit of the local block that p's locals do not use
// is 0 in copy c": the padding every relation producing p's frames has.
func (n *Network) Unused(p *Proc, c int) bdd.Node { return n.padding(p, c) }
