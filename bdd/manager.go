package bdd

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
)

// ErrNodeLimit is wrapped by the error a [Manager] records when more live
// nodes than [Limits.MaxNodes] are needed.
var ErrNodeLimit = errors.New("BDD node limit reached")

// ErrMemoryLimit is wrapped by the error a [Manager] records when the
// memory in use passes [Limits.MaxMemory].
var ErrMemoryLimit = errors.New("memory limit reached")

// Config sets the resources of a manager. Zero values select defaults.
type Config struct {
	NodeTable int // initial node table size (default DefaultNodeTable)
	// GrowBelow: a full table smaller than this grows without being
	// collected first (default DefaultGrowBelow when NodeTable is left at
	// its default, else none: a table sized by the caller is collected as
	// soon as it is full).
	GrowBelow int
	CacheSize int // initial operation cache size (default DefaultCacheSize)
	// CacheRatio is the cache entries per 100 node table slots as the
	// table grows (default DefaultCacheRatio; negative: caches never grow).
	CacheRatio int
	// MinFree is the percentage of the node table that must be free after
	// a garbage collection, else the table grows (default: the kernel's,
	// 20).
	MinFree int
	Limits  // limits in force from the start (see [Manager.Run])
}

// The defaults of Config, measured with BenchmarkKernelConfig (package
// benchmarks; docs/benchmarks.md, "Kernel settings").
//
// A run on the bundled example needs fewer than 2^14 nodes, and creating
// (zeroing, linking) a table of 2^16 and its caches was 40 % of its
// start-up; a larger run grows its table to 2^16 before the first
// collection, as if it had started there.
const (
	DefaultNodeTable  = 1 << 14
	DefaultGrowBelow  = 1 << 16
	DefaultCacheSize  = 1 << 13
	DefaultCacheRatio = 25
)

// Limits bound the resources of the computations on a manager. Zero
// values mean no limit.
type Limits struct {
	// MaxNodes bounds the live nodes. It is checked every 1024 operations
	// (a point that does not depend on timing): when the table holds more
	// nodes, live and dead, the live ones are counted exactly
	// ([Manager.Live]) and the limit is reached when they are more, so
	// the same computation stops at the same point in every run. Inside
	// one operation the table may not grow past MaxNodes + [NodeMargin]
	// nodes: an operation that needs more is aborted, retried once after
	// the exact count, and the limit is reached if it needs more again.
	MaxNodes int
	// MaxMemory bounds the bytes of Go heap the process holds (the node
	// table, the caches and every other object), checked at the same
	// points on the live heap Go's last collection found: the limit is
	// reached when that passes 7/8 of MaxMemory, or when Go's collector,
	// held to the limit, would run again after every eighth of the live
	// heap allocated (a collection is forced first, to count afresh).
	// Between collections the heap holds garbage too: a process that
	// sets Go's memory limit to MaxMemory (debug.SetMemoryLimit, as the
	// command line does) keeps the whole heap under it; otherwise it may
	// reach twice MaxMemory before a check collects. The node table may
	// not grow past a size that takes a half of it.
	MaxMemory int64
}

// NodeMargin is how far past Limits.MaxNodes the node table may grow
// inside one operation (see Limits).
const NodeMargin = 1 << 16

// bytesPerNode is what one node of the table costs with its share of the
// operation caches (40 bytes the node, and at a cache ratio of 25 %, five
// caches of 24 to 32 bytes an entry).
const bytesPerNode = 80

// Node is a BDD. Compare Nodes with [Node.Equal], never with ==.
type Node struct{ n rudd.Node }

// Equal reports whether a and b denote the same Boolean function.
func (a Node) Equal(b Node) bool { return *a.n == *b.n }

// IsFalse reports whether a is the constant false (the empty set).
func (a Node) IsFalse() bool { return *a.n == 0 }

// IsTrue reports whether a is the constant true.
func (a Node) IsTrue() bool { return *a.n == 1 }

// ID is the node's index in the table, canonical while the node is alive:
// usable as a map key by callers that keep the node referenced.
func (a Node) ID() int { return *a.n }

// Manager owns the BDD node table of one layout.
type Manager struct {
	L        *Layout
	b        *rudd.BDD
	err      error
	cfg      Config
	lim      Limits
	ops      int
	peak     int
	tru, fls Node
	vars     []Node // BDD variable i

	stop  atomic.Bool     // set when watch is done: operations abort
	watch context.Context // the context Run watches; nil outside Run
	// runMu and run guard stop against a late call of a Run's
	// context.AfterFunc: it sets stop only while its own Run is under way.
	runMu sync.Mutex
	run   uint64

	refs refs // node references, kept by this package (see refs.go)

	pressure func() // see OnPressure
}

// New freezes the layout and creates its manager.
func New(l *Layout, cfg Config) (*Manager, error) {
	if l.nbits == 0 {
		l.Bool("_", 1) // rudd needs at least one variable
	}
	l.freeze()
	if cfg.NodeTable == 0 {
		cfg.NodeTable = DefaultNodeTable
		if cfg.GrowBelow == 0 {
			cfg.GrowBelow = DefaultGrowBelow
		}
	}
	if cfg.CacheSize == 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	ratio := cfg.CacheRatio
	switch {
	case ratio == 0:
		ratio = DefaultCacheRatio
	case ratio < 0:
		ratio = 0
	}
	minFree := rudd.Cacheratio(ratio) // a repeat, as a stand-in: the kernel's option type is unexported
	if cfg.MinFree > 0 {
		minFree = rudd.Minfreenodes(cfg.MinFree)
	}
	b, err := rudd.New(l.nbits, rudd.Nodesize(cfg.NodeTable), rudd.Cachesize(cfg.CacheSize), rudd.Cacheratio(ratio), minFree)
	if err != nil {
		return nil, fmt.Errorf("bdd: %v", err)
	}
	m := &Manager{L: l, b: b, cfg: cfg}
	m.refs = refs{queue: &releases{}}
	m.tru, m.fls = Node{b.True()}, Node{b.False()}
	m.vars = make([]Node, l.nbits)
	for i := range m.vars {
		m.vars[i] = Node{b.Ithvar(i)}
	}
	b.SetStop(&m.stop)
	b.SetGrowBelow(cfg.GrowBelow)
	b.SetBeforeGrow(m.releaseDead)
	m.setLimits(cfg.Limits)
	return m, nil
}

// OnPressure sets f (nil: none), which the manager calls before it
// declares a node or memory limit reached: f drops what its caller keeps
// only to save work (results it can compute again), and the limit is
// checked again. f runs between two kernel operations, possibly in the
// middle of the caller's computation, so it must not use the manager and
// must leave the caller's state consistent.
func (m *Manager) OnPressure(f func()) { m.pressure = f }

// relieve calls the pressure function, and reports whether there is one.
func (m *Manager) relieve() bool {
	if m.pressure == nil {
		return false
	}
	m.pressure()
	return true
}

// Err returns the first error the manager met, or nil. Once set, every
// operation returns False.
func (m *Manager) Err() error { return m.err }

// SetErr records err as the manager's error if none is recorded yet; the
// layers above use it to stop a computation (a node limit they check
// themselves, a cancellation).
func (m *Manager) SetErr(err error) {
	if m.err == nil {
		m.err = err
	}
}

// setLimits puts lim in force, with the node table's bound it implies.
func (m *Manager) setLimits(lim Limits) {
	m.lim = lim
	size := 0
	if lim.MaxNodes > 0 {
		size = lim.MaxNodes + NodeMargin
	}
	if lim.MaxMemory > 0 {
		if byMem := int(lim.MaxMemory / 2 / bytesPerNode); size == 0 || byMem < size {
			size = byMem
		}
	}
	m.b.SetMaxNodesize(size)
}

// Run runs f with the limits lim in force (in place of the manager's
// own) and with the operations watching ctx: when ctx is done, the
// operation under way stops at its next node and the manager records
// ctx's error, so that f returns promptly, even from inside one large
// operation. When f is done, the manager's limits are restored and an
// error recorded for a limit or for ctx is cleared (the node table stays
// consistent when an operation stops), so that the manager serves again;
// BDDs that f built after the error are False and must be dropped. Run
// returns f's error, or the limit's when f returned nil. Runs do not nest.
func (m *Manager) Run(ctx context.Context, lim Limits, f func() error) error {
	if m.watch != nil {
		panic("bdd: Run inside Run")
	}
	if m.err != nil {
		return m.err
	}
	old := m.lim
	m.setLimits(lim)
	m.watch = ctx
	m.runMu.Lock()
	m.run++
	run := m.run
	m.stop.Store(ctx.Err() != nil)
	m.runMu.Unlock()
	// The function may run late, in its own goroutine, after this Run has
	// returned (stop() does not wait for it): it must not stop the next.
	stop := context.AfterFunc(ctx, func() {
		m.runMu.Lock()
		if m.run == run {
			m.stop.Store(true)
		}
		m.runMu.Unlock()
	})
	err := f()
	stop()
	if err == nil {
		err = m.err
	}
	m.watch = nil
	m.runMu.Lock()
	m.run++
	m.stop.Store(false)
	m.runMu.Unlock()
	m.setLimits(old)
	if m.err != nil && IsLimit(m.err) {
		m.err = nil
	}
	return err
}

// IsLimit reports whether err is a limit: ErrNodeLimit, ErrMemoryLimit,
// or a context's cancellation or deadline.
func IsLimit(err error) bool {
	return errors.Is(err, ErrNodeLimit) || errors.Is(err, ErrMemoryLimit) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// call runs one kernel operation and turns its result into a Node: False
// if the manager has already failed, and False with the manager's error
// set if the kernel fails now (a stop requested through Run's context,
// a limit, an exhausted table).
func (m *Manager) call(op func() rudd.Node) Node {
	if m.err != nil {
		return m.fls
	}
	if m.refs.queue.pending.Load() {
		m.release()
	}
	n, ab := m.try(op)
	if ab != nil && !ab.Interrupted && m.lim != (Limits{}) {
		// The table is full: of live nodes, or of nodes whose handles
		// are dead but not released yet. Count exactly, then once more
		// (after the caller dropped what it can compute again).
		m.relieve()
		m.Live()
		n, ab = m.try(op)
		if ab != nil && !ab.Interrupted {
			m.SetErr(m.limitErr(true))
			return m.fls
		}
	}
	if ab != nil {
		if ab.Interrupted {
			m.SetErr(m.stopErr())
		} else {
			m.SetErr(errors.New("bdd: node table exhausted"))
		}
		return m.fls
	}
	return m.wrap(n)
}

// try runs op, recovering the kernel's abort. Any other panic of the
// kernel is recorded as the manager's error (a kernel bug must not crash
// a run on user input).
func (m *Manager) try(op func() rudd.Node) (n rudd.Node, ab *rudd.Aborted) {
	defer func() {
		if p := recover(); p != nil {
			if a, ok := p.(rudd.Aborted); ok {
				ab = &a
				return
			}
			m.SetErr(fmt.Errorf("bdd: internal error in the kernel: %v", p))
			n = nil
		}
	}()
	return op(), nil
}

// stopErr is the error of an operation stopped through Run's context.
func (m *Manager) stopErr() error {
	if m.watch != nil && m.watch.Err() != nil {
		// The context's error (Canceled or DeadlineExceeded, what callers
		// test for) and its cause, when it was given another one.
		err, cause := m.watch.Err(), context.Cause(m.watch)
		if cause != nil && cause != err {
			return fmt.Errorf("bdd: %w (%w)", err, cause)
		}
		return fmt.Errorf("bdd: %w", err)
	}
	return fmt.Errorf("bdd: %w", context.Canceled)
}

// limitErr is the error of a limit reached (inOp: by one operation).
func (m *Manager) limitErr(inOp bool) error {
	if m.lim.MaxNodes > 0 && (!inOp || m.lim.MaxMemory == 0 || m.lim.MaxNodes+NodeMargin <= int(m.lim.MaxMemory/2/bytesPerNode)) {
		return fmt.Errorf("bdd: %w (%d nodes)", ErrNodeLimit, m.lim.MaxNodes)
	}
	return fmt.Errorf("bdd: %w (%d MiB)", ErrMemoryLimit, m.lim.MaxMemory>>20)
}

// wrap turns the kernel's result into a Node, recording its error if any.
func (m *Manager) wrap(n rudd.Node) Node {
	if m.err == nil && (n == nil || m.b.Errored()) {
		msg := m.b.Error()
		if msg == "" {
			msg = "operation failed without an error message"
		}
		m.err = fmt.Errorf("bdd: %s", msg)
	}
	if m.err != nil {
		return m.fls
	}
	// Own the result before sampling: an exact count collects the table,
	// and would free a result that no handle holds yet.
	r := m.own(n)
	m.ops++
	if m.ops&1023 == 0 {
		m.sample()
	}
	if m.err != nil {
		return m.fls
	}
	return r
}

// sample records the peak table occupancy and enforces the limits; it
// runs every 1024 operations.
func (m *Manager) sample() {
	used := m.b.Used()
	m.peak = max(m.peak, used)
	if m.lim.MaxNodes > 0 && used > m.lim.MaxNodes && m.Live() > m.lim.MaxNodes {
		if !m.relieve() || m.Live() > m.lim.MaxNodes {
			m.SetErr(m.limitErr(false))
		}
	}
	if m.lim.MaxMemory > 0 && m.overMemory() {
		m.SetErr(m.limitErr(false))
	}
}

// overMemory reports whether the heap is near the memory limit
// (nearMemory) after a collection. It reads what Go's last collection
// found, which costs nothing, and collects only when that is near the
// limit (to count afresh, after the caller dropped what it can compute
// again) or when the heap with its garbage passes twice the limit (the
// figures may be old). Collecting whenever the heap with its garbage
// passed the limit, as before, made a run near it collect every 1024
// operations: the 3+2 driver at 7 contexts under 150 MiB took 36 s and
// 105 forced collections to stop (now 7.9 s and 4).
//
// When Go's memory limit is in force at MaxMemory or below (as the
// command line sets it), the memory the process holds counts too: Go
// keeps what it holds from the system under its limit while the live
// heap leaves room for garbage, so when that passes MaxMemory the heap
// is collected and the free pages given back (debug.FreeOSMemory), and
// the limit is reached if it still passes it. Without, a run sat at the
// limit (a lazy split of 24 open booleans at 513 MiB of 512 for 100 s)
// with its live heap under 7/8 of it. Without Go's memory limit, garbage
// may pass MaxMemory between two collections, and that alone must not
// make every check collect.
func (m *Manager) overMemory() bool {
	held := goLimited(m.lim.MaxMemory) && heldBytes() > m.lim.MaxMemory
	if !m.nearMemory() && heapBytes() <= 2*m.lim.MaxMemory && !held {
		return false
	}
	runtime.GC()
	if m.nearMemory() && m.relieve() {
		m.Live() // collects Go's heap and the kernel's table
	}
	if m.nearMemory() {
		return true
	}
	if held && heldBytes() > m.lim.MaxMemory {
		debug.FreeOSMemory()
		return heldBytes() > m.lim.MaxMemory
	}
	return false
}

// goLimited reports whether Go's memory limit is at most max.
func goLimited(max int64) bool { return debug.SetMemoryLimit(-1) <= max }

// heldBytes returns the bytes the Go runtime holds from the system: all
// it mapped but what it gave back (the figure debug.SetMemoryLimit
// bounds; about the resident set of a process that is Go alone).
func heldBytes() int64 {
	return readMetric("/memory/classes/total:bytes") - readMetric("/memory/classes/heap/released:bytes")
}

// nearMemory reports whether, as of Go's last collection, the live heap
// passed 7/8 of MaxMemory or a memory limit set the collector's goal so
// close that it leaves less than an eighth of the live heap for garbage
// (the collector then runs again after every eighth of it allocated). A
// small GOGC (10 %) alone sets a goal as close, and must not count.
func (m *Manager) nearMemory() bool {
	live := liveBytes()
	if live > m.lim.MaxMemory/8*7 {
		return true
	}
	// The collector's goal, when a memory limit (not GOGC) sets it: GOGC
	// alone would let the heap grow by gogc percent of the live heap.
	goal, gogc := readMetric("/gc/heap/goal:bytes"), readMetric("/gc/gogc:percent")
	limited := gogc < 0 || goal < (live+live/100*gogc)/10*9 // gogc < 0: GOGC=off
	return limited && goal > 0 && goal-live < live/8        // goal < 0: none (past 2^63)
}

// heapBytes returns the bytes of heap objects, live and not yet swept.
func heapBytes() int64 { return readMetric("/memory/classes/heap/objects:bytes") }

// liveBytes returns the bytes of the heap that Go's last collection found
// live.
func liveBytes() int64 { return readMetric("/gc/heap/live:bytes") }

func readMetric(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// Check applies the limits now (operations do every 1024 results) and
// returns Err.
func (m *Manager) Check() error {
	if m.err == nil {
		m.sample()
	}
	return m.err
}

// Nodes returns the number of nodes in use in the table (live nodes and
// dead ones not yet collected): a figure that varies from run to run with
// Go's garbage collector.
func (m *Manager) Nodes() int { return m.b.Used() }

// PeakNodes returns the largest table occupancy sampled so far (every 1024
// operations). Like Nodes, it varies from run to run.
func (m *Manager) PeakNodes() int {
	m.peak = max(m.peak, m.b.Used())
	return m.peak
}

// True returns the constant true.
func (m *Manager) True() Node { return m.tru }

// False returns the constant false.
func (m *Manager) False() Node { return m.fls }

// Const returns true or false.
func (m *Manager) Const(v bool) Node {
	if v {
		return m.tru
	}
	return m.fls
}

func (m *Manager) apply(a, b Node, op rudd.Operator) Node {
	return m.call(func() rudd.Node { return m.b.Apply(a.n, b.n, op) })
}

// And returns the conjunction of ns (true for none). It folds from the
// first operand and calls the kernel only when neither side decides the
// result (a constant, or equal operands).
func (m *Manager) And(ns ...Node) Node { return m.fold(ns, m.tru, rudd.OPand) }

// Or returns the disjunction of ns (false for none), folded as And.
func (m *Manager) Or(ns ...Node) Node { return m.fold(ns, m.fls, rudd.OPor) }

// fold combines ns with op, whose neutral element is unit (true for And,
// false for Or) and whose absorbing element is the other constant.
func (m *Manager) fold(ns []Node, unit Node, op rudd.Operator) Node {
	if len(ns) == 0 {
		return unit
	}
	absorbing := m.tru
	if unit.IsTrue() {
		absorbing = m.fls
	}
	r := ns[0]
	for _, n := range ns[1:] {
		switch {
		case r.Equal(absorbing) || n.Equal(unit) || r.Equal(n):
		case n.Equal(absorbing) || r.Equal(unit):
			r = n
		default:
			r = m.apply(r, n, op)
		}
	}
	if m.err != nil {
		return m.fls
	}
	return r
}

// Diff returns a AND NOT b, in one kernel operation (the fork's OPdiff;
// upstream rudd's was wrong when a is false).
func (m *Manager) Diff(a, b Node) Node {
	switch {
	case a.IsFalse() || b.IsTrue() || a.Equal(b):
		return m.fls
	case b.IsFalse() && m.err == nil:
		return a
	}
	return m.apply(a, b, rudd.OPdiff)
}

// Imp returns a IMPLIES b.
func (m *Manager) Imp(a, b Node) Node { return m.apply(a, b, rudd.OPimp) }

// Equiv returns a IFF b.
func (m *Manager) Equiv(a, b Node) Node { return m.apply(a, b, rudd.OPbiimp) }

// Xor returns a XOR b.
func (m *Manager) Xor(a, b Node) Node { return m.apply(a, b, rudd.OPxor) }

// Not returns NOT a.
func (m *Manager) Not(a Node) Node {
	return m.call(func() rudd.Node { return m.b.Not(a.n) })
}

// Ite returns (c AND t) OR (NOT c AND e).
func (m *Manager) Ite(c, t, e Node) Node {
	return m.call(func() rudd.Node { return m.b.Ite(c.n, t.n, e.n) })
}

// Implies reports whether every assignment of a satisfies b. After an
// error it reports true (a fixpoint loop stops; its caller checks Err).
func (m *Manager) Implies(a, b Node) bool { return m.Diff(a, b).IsFalse() }

// VarSet is a set of BDD variables, for quantification. The zero VarSet is
// the empty set.
type VarSet struct{ cube rudd.Node }

// empty reports whether s is the empty set (or a set made by a failed
// manager).
func (s VarSet) empty() bool { return s.cube == nil || *s.cube < 2 }

// Set returns the set of all bits of the given variable copies.
func (m *Manager) Set(refs ...Ref) VarSet {
	var idx []int
	for _, r := range refs {
		for b := 0; b < m.L.Bits(r.Var); b++ {
			idx = append(idx, m.L.index(r.Var, r.Copy, b))
		}
	}
	return m.set(idx)
}

// SetOf returns the set of the variables a Vec is made of; every bit of v
// must be a single BDD variable (as returned by [Manager.Vec]), else SetOf
// panics.
func (m *Manager) SetOf(vs ...Vec) VarSet {
	var idx []int
	for _, v := range vs {
		for b, n := range v {
			// rudd's Label gives the top variable of any node, and fails
			// (leaving its error set) on a constant.
			i := -1
			if *n.n >= 2 {
				i = m.b.Label(n.n)
			}
			if i < 0 || !n.Equal(m.vars[i]) {
				panic(fmt.Sprintf("bdd: SetOf: bit %d is not a variable", b))
			}
			idx = append(idx, i)
		}
	}
	return m.set(idx)
}

// Union returns the union of variable sets.
func (m *Manager) Union(sets ...VarSet) VarSet {
	c := m.tru
	for _, s := range sets {
		if !s.empty() {
			c = m.And(c, Node{s.cube})
		}
	}
	return VarSet{c.n}
}

// set returns the cube of the variables idx, built by the kernel in one
// operation from the bottom of the order up.
func (m *Manager) set(idx []int) VarSet {
	idx = slices.Clone(idx)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	return VarSet{m.call(func() rudd.Node { return m.b.Cube(idx) }).n}
}

// Exists returns a with the variables of s quantified existentially.
func (m *Manager) Exists(a Node, s VarSet) Node {
	if m.err != nil {
		return m.fls
	}
	if s.empty() {
		// rudd's Exist fails on an empty set, and leaves its error set.
		return a
	}
	return m.call(func() rudd.Node { return m.b.Exist(a.n, s.cube) })
}

// AndExists returns EXISTS s. a AND b (the relational product), computed in
// one pass.
func (m *Manager) AndExists(a, b Node, s VarSet) Node {
	if s.empty() {
		return m.apply(a, b, rudd.OPand)
	}
	return m.call(func() rudd.Node { return m.b.AndExist(s.cube, a.n, b.n) })
}

// DiffExists returns EXISTS s. a AND NOT b in one kernel operation (the
// fork's AppEx with OPdiff), without the copy of b that a Not makes (the
// kernel has no complement edges).
func (m *Manager) DiffExists(a, b Node, s VarSet) Node {
	if s.empty() {
		return m.Diff(a, b)
	}
	return m.call(func() rudd.Node { return m.b.AppEx(a.n, b.n, rudd.OPdiff, s.cube) })
}

var replacerMu sync.Mutex

// Renaming maps variable copies to other copies of the same variables (or
// other variables of equal width). Build it once with [Manager.Renaming].
type Renaming struct{ r rudd.Replacer }

// Renaming returns the renaming from[i] -> to[i]. No copy may be both a
// source and a target, and the blocks must match in length and widths;
// violations panic. The target copies must not occur in a node that is
// renamed together with their sources: rudd detects that, and the manager
// fails with an error.
func (m *Manager) Renaming(from, to []Ref) *Renaming {
	if len(from) != len(to) {
		panic("bdd: renaming between blocks of different sizes")
	}
	var old, nw []int
	for i := range from {
		w := m.L.Bits(from[i].Var)
		if w != m.L.Bits(to[i].Var) {
			panic(fmt.Sprintf("bdd: renaming %s to %s of another width", m.L.Name(from[i].Var), m.L.Name(to[i].Var)))
		}
		for b := 0; b < w; b++ {
			old = append(old, m.L.index(from[i].Var, from[i].Copy, b))
			nw = append(nw, m.L.index(to[i].Var, to[i].Copy, b))
		}
	}
	// rudd numbers its replacers with a global counter, unsynchronized:
	// managers on different goroutines would race on it and could give two
	// renamings of one manager the same number, which keys rudd's cache of
	// renamed nodes.
	replacerMu.Lock()
	r, err := m.b.NewReplacer(old, nw)
	replacerMu.Unlock()
	if err != nil {
		panic("bdd: " + err.Error())
	}
	return &Renaming{r}
}

// Rename applies r to a.
func (m *Manager) Rename(a Node, r *Renaming) Node {
	return m.call(func() rudd.Node { return m.b.Replace(a.n, r.r) })
}

// Bit returns the BDD of bit b of the variable copy r.
func (m *Manager) Bit(r Ref, b int) Node { return m.vars[m.L.index(r.Var, r.Copy, b)] }

// Vec returns the bits of the variable copy r, least significant first.
func (m *Manager) Vec(r Ref) Vec {
	v := make(Vec, m.L.Bits(r.Var))
	for b := range v {
		v[b] = m.Bit(r, b)
	}
	return v
}

// Value returns r == val. A value that does not fit r's width gives false.
func (m *Manager) Value(r Ref, val uint64) Node {
	w := m.L.Bits(r.Var)
	if val&^mask(w) != 0 {
		// ConstVec would keep only the low bits of val.
		return m.fls
	}
	return m.Eq(m.Vec(r), m.ConstVec(val, w))
}

// mask returns the value with the w low bits set.
func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// CopyEq returns copy c1 == copy c2 for every variable in vars.
func (m *Manager) CopyEq(c1, c2 int, vars ...Var) Node {
	r := m.tru
	// Build bottom-up in BDD order so that the conjunction stays linear.
	for i := len(vars) - 1; i >= 0; i-- {
		v := vars[i]
		for b := m.L.Bits(v) - 1; b >= 0; b-- {
			r = m.And(m.Equiv(m.Bit(Ref{v, c1}, b), m.Bit(Ref{v, c2}, b)), r)
		}
	}
	return r
}

// ValidEnum restricts an enum variable copy to its valid values; for other
// variables it returns true.
func (m *Manager) ValidEnum(r Ref) Node {
	n := m.L.EnumValues(r.Var)
	if n == 0 || n == 1<<m.L.Bits(r.Var) {
		return m.tru
	}
	return m.Lt(m.Vec(r), m.ConstVec(uint64(n), m.L.Bits(r.Var)))
}

// Ord returns the strict lexicographic order x < y between copy cx and copy
// cy of vars, comparing bits in BDD variable order (the first BDD variable
// is the most significant). It is a strict total order on valuations.
func (m *Manager) Ord(cx, cy int, vars ...Var) Node {
	type pair struct{ x, y int }
	var bits []pair
	for _, v := range vars {
		for b := 0; b < m.L.Bits(v); b++ {
			bits = append(bits, pair{m.L.index(v, cx, b), m.L.index(v, cy, b)})
		}
	}
	// Sort by the position of x's bit; vars are usually given in order.
	for i := 1; i < len(bits); i++ {
		for j := i; j > 0 && bits[j].x < bits[j-1].x; j-- {
			bits[j], bits[j-1] = bits[j-1], bits[j]
		}
	}
	lt := m.fls
	for i := len(bits) - 1; i >= 0; i-- {
		x, y := m.vars[bits[i].x], m.vars[bits[i].y]
		lt = m.Or(m.And(m.Not(x), y), m.And(m.Equiv(x, y), lt))
	}
	return lt
}

// SatCount returns the number of assignments of the given variable copies
// that satisfy EXISTS (all other variables). a.
func (m *Manager) SatCount(a Node, refs ...Ref) *big.Int {
	keep := make([]bool, m.L.nbits)
	for _, r := range refs {
		for b := 0; b < m.L.Bits(r.Var); b++ {
			keep[m.L.index(r.Var, r.Copy, b)] = true
		}
	}
	return m.countOver(a, keep)
}

// Count returns the number of assignments of the variables of s that
// satisfy EXISTS (all other variables). a.
func (m *Manager) Count(a Node, s VarSet) *big.Int {
	keep := make([]bool, m.L.nbits)
	if !s.empty() {
		for id := *s.cube; id >= 2; {
			level, _, high := m.b.NodeAt(id)
			keep[level] = true
			id = high
		}
	}
	return m.countOver(a, keep)
}

// SetBits returns the number of variables in s.
func (m *Manager) SetBits(s VarSet) int {
	n := 0
	if !s.empty() {
		for id := *s.cube; id >= 2; n++ {
			_, _, id = m.b.NodeAt(id)
		}
	}
	return n
}

// countOver counts the assignments of the variables marked in keep.
func (m *Manager) countOver(a Node, keep []bool) *big.Int {
	var other []int
	for i, kp := range keep {
		if !kp {
			other = append(other, i)
		}
	}
	p := m.Exists(a, m.set(other))
	if m.err != nil {
		return new(big.Int)
	}
	c := m.b.Satcount(p.n)
	return c.Rsh(c, uint(len(other)))
}

// Enumerate calls fn with the values of fields, in ascending lexicographic
// order (the first field most significant), for every valuation of the
// fields that can be extended to a satisfying assignment of a. Fields are
// Vecs of at most 64 bits. It stops early when fn returns false.
func (m *Manager) Enumerate(a Node, fields []Vec, fn func(vals []uint64) bool) {
	vals := make([]uint64, len(fields))
	var rec func(n Node, f, b int) bool
	rec = func(n Node, f, b int) bool {
		if n.IsFalse() || m.err != nil {
			return true
		}
		if f == len(fields) {
			return fn(vals)
		}
		if b < 0 {
			if f+1 < len(fields) {
				return rec(n, f+1, len(fields[f+1])-1)
			}
			return rec(n, f+1, 0)
		}
		bit := fields[f][b]
		vals[f] &^= 1 << b
		if !rec(m.Diff(n, bit), f, b-1) {
			return false
		}
		vals[f] |= 1 << b
		ok := rec(m.And(n, bit), f, b-1)
		vals[f] &^= 1 << b
		return ok
	}
	if len(fields) == 0 {
		if !a.IsFalse() {
			fn(vals)
		}
		return
	}
	rec(a, 0, len(fields[0])-1)
}

// walk calls f with the level of every internal node of a, once each.
// (It reads the kernel's table directly, following only a's nodes.)
func (m *Manager) walk(a Node, f func(level int)) {
	seen := map[int]bool{}
	var rec func(id int)
	rec = func(id int) {
		if id < 2 || seen[id] {
			return
		}
		seen[id] = true
		level, low, high := m.b.NodeAt(id)
		f(level)
		rec(low)
		rec(high)
	}
	rec(*a.n)
}

// Support returns the variable copies a depends on, in layout order.
func (m *Manager) Support(a Node) []Ref {
	seen := make([]bool, m.L.nbits)
	m.walk(a, func(level int) { seen[level] = true })
	type key struct {
		v Var
		c int
	}
	got := map[key]bool{}
	for i, s := range seen {
		if s {
			v, c, _ := m.L.locate(i)
			got[key{v, c}] = true
		}
	}
	var refs []Ref
	for v := range m.L.vars {
		for c := 0; c < m.L.vars[v].copies; c++ {
			if got[key{Var(v), c}] {
				refs = append(refs, Ref{Var(v), c})
			}
		}
	}
	return refs
}

// Size returns the number of nodes of a (without the constants).
func (m *Manager) Size(a Node) int {
	n := 0
	m.walk(a, func(int) { n++ })
	return n
}

// Pick returns one assignment to the variables of s that extends to a
// satisfying assignment of a, as a cube over exactly those variables: the
// least one, taking every variable false where it can, in the variable
// order. It returns false when a is false. Counterexample traces use it to
// choose concrete values deterministically. It costs one quantification
// of the other variables and a walk down one path.
func (m *Manager) Pick(a Node, s VarSet) Node {
	if a.IsFalse() || m.err != nil {
		return m.fls
	}
	in := make([]bool, m.L.nbits)
	var levels []int
	if !s.empty() {
		m.walk(Node{s.cube}, func(level int) { in[level] = true; levels = append(levels, level) })
	}
	var others []int
	m.walk(a, func(level int) {
		if !in[level] {
			others = append(others, level)
		}
	})
	if len(others) > 0 {
		a = m.Exists(a, m.set(others))
	}
	one := make([]bool, m.L.nbits)
	for id := *a.n; id >= 2; {
		level, low, high := m.b.NodeAt(id)
		if low != 0 {
			id = low
		} else {
			one[level], id = true, high
		}
	}
	slices.Sort(levels)
	cube := m.tru
	for i := len(levels) - 1; i >= 0; i-- {
		l := levels[i]
		if one[l] {
			cube = m.And(m.vars[l], cube)
		} else {
			cube = m.Diff(cube, m.vars[l])
		}
	}
	return cube
}

// Meets reports whether a AND b is satisfiable, without building the
// conjunction: a walk over pairs of nodes, cheap when one of them is
// small (a cube, say).
func (m *Manager) Meets(a, b Node) bool {
	if m.err != nil {
		return false
	}
	type pair struct{ x, y int }
	seen := map[pair]bool{} // pairs known to have no common satisfying assignment
	var rec func(x, y int) bool
	rec = func(x, y int) bool {
		switch {
		case x == 0 || y == 0:
			return false
		case x == 1 || y == 1:
			return true
		case x == y:
			return true
		}
		if seen[pair{x, y}] {
			return false
		}
		lx, x0, x1 := m.b.NodeAt(x)
		ly, y0, y1 := m.b.NodeAt(y)
		var ok bool
		switch {
		case lx == ly:
			ok = rec(x0, y0) || rec(x1, y1)
		case lx < ly:
			ok = rec(x0, y) || rec(x1, y)
		default:
			ok = rec(x, y0) || rec(x, y1)
		}
		if !ok {
			seen[pair{x, y}] = true
		}
		return ok
	}
	return rec(*a.n, *b.n)
}
