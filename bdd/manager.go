package bdd

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
)

// The manager: its configuration, its Nodes, and the door every operation
// passes to the kernel (call, try, wrap), where the kernel's aborts and
// errors become the manager's error. The limits are in limits.go, the
// operations in ops.go, relations.go, vec.go and read.go.

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
// (zeroing, linking) a larger table and its caches is a large part of a
// small run's start-up; a larger run grows its table to 2^16 before the
// first collection, as if it had started there.
const (
	DefaultNodeTable  = 1 << 14
	DefaultGrowBelow  = 1 << 16
	DefaultCacheSize  = 1 << 13
	DefaultCacheRatio = 25
)

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
	m.tru, m.fls = Node{b.True()}, Node{b.False()}
	m.vars = make([]Node, l.nbits)
	for i := range m.vars {
		m.vars[i] = Node{b.Ithvar(i)}
	}
	b.SetStop(&m.stop)
	b.SetGrowBelow(cfg.GrowBelow)
	b.SetBeforeGrow(m.releaseDead)
	b.SetBeforeCollect(m.releaseCleared)
	m.setLimits(cfg.Limits)
	return m, nil
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

// call runs one kernel operation and turns its result into a Node: False
// if the manager has already failed, and False with the manager's error
// set if the kernel fails now (a stop requested through Run's context,
// a limit, an exhausted table).
func (m *Manager) call(op func() rudd.Node) Node {
	if m.err != nil {
		return m.fls
	}
	if m.stop.Load() {
		// The kernel checks the flag only when it builds a node: a loop
		// of operations answered from its caches (the same frame
		// condition built for every thread) would not stop.
		m.SetErr(m.stopErr())
		return m.fls
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
			m.SetErr(fmt.Errorf("bdd: %w: %v", ErrInternal, p))
			n = nil
		}
	}()
	return op(), nil
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
