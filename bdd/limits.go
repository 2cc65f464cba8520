package bdd

import (
	"context"
	"errors"
	"fmt"
)

// The limits of a manager's computations: the node and memory limits and
// their errors, Run's scoping of limits and of a context, the stop flag
// the kernel checks, and the points where the limits are decided (every
// 1024 operations, and when an operation outgrows the table). The memory
// measurements are in memory.go, the exact node count in refs.go.

// ErrNodeLimit is wrapped by the error a [Manager] records when more live
// nodes than [Limits.MaxNodes] are needed.
var ErrNodeLimit = errors.New("BDD node limit reached")

// ErrInternal is wrapped by the error a [Manager] records when its kernel
// fails: a bug, never a limit.
var ErrInternal = errors.New("internal error in the kernel")

// ErrMemoryLimit is wrapped by the error a [Manager] records when the
// memory in use passes [Limits.MaxMemory].
var ErrMemoryLimit = errors.New("memory limit reached")

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

// bytesPerNode bounds what one node of the table costs with its share of
// the operation caches (24 bytes the node, and at a cache ratio of 25 %,
// five caches of 24 to 32 bytes an entry: about 60; the caches may be
// larger while the table is small).
const bytesPerNode = 80

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
		return fmt.Errorf("bdd: %w (%s)", ErrNodeLimit, nodes(m.lim.MaxNodes))
	}
	return fmt.Errorf("bdd: %w (%d MiB)", ErrMemoryLimit, m.lim.MaxMemory>>20)
}

// nodes returns "1 node" or "n nodes" (package bdd is below the text
// helpers of pds/plural).
func nodes(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
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

// Check applies the limits now (operations do every 1024 results) and
// returns Err.
func (m *Manager) Check() error {
	if m.err == nil {
		m.sample()
	}
	return m.err
}

// Poll records the stop of Run's context as the manager's error, as the
// next operation would, and returns Err: for a loop of the layers above
// that may run long on results it keeps itself, without any operation.
func (m *Manager) Poll() error {
	if m.err == nil && m.stop.Load() {
		m.SetErr(m.stopErr())
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
