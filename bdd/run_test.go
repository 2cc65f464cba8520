package bdd

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// mul32 builds x * y == 0x12345678 over 32-bit variables: BDDs exponential
// in the width, many seconds for a single multiplication.
func mul32(m *Manager, x, y Var) Node {
	return m.Eq(m.Mul(m.Vec(Ref{x, 0}), m.Vec(Ref{y, 0})), m.ConstVec(0x12345678, 32))
}

func newMul32(t *testing.T) (*Manager, Var, Var) {
	l := NewLayout()
	x, y := l.Uint("x", 32, 1), l.Uint("y", 32, 1)
	m, err := New(l, Config{})
	require.NoError(t, err)
	return m, x, y
}

// TestRunDeadline: a deadline stops the computation inside its large
// operations, promptly, and the manager serves again afterwards.
func TestRunDeadline(t *testing.T) {
	m, x, y := newMul32(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := m.Run(ctx, Limits{}, func() error {
		mul32(m, x, y)
		return m.Err()
	})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.True(t, IsLimit(err))
	// Generous: the point is "not minutes".
	require.Less(t, time.Since(start), 10*time.Second)
	require.NoError(t, m.Err(), "Run clears the limit's error")
	a, b := m.Bit(Ref{x, 0}, 3), m.Bit(Ref{y, 0}, 5)
	require.True(t, m.And(a, b).Equal(m.Not(m.Or(m.Not(a), m.Not(b)))))
	require.NoError(t, m.Err())
}

// TestRunCancelled: a context already cancelled stops the first operation.
func TestRunCancelled(t *testing.T) {
	m, x, y := newMul32(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := m.Run(ctx, Limits{}, func() error {
		if !m.Lt(m.Vec(Ref{x, 0}), m.Vec(Ref{y, 0})).IsFalse() {
			return errors.New("an operation ran after the cancellation")
		}
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)

	// Cancelled with a cause of the caller's: still Canceled (what
	// callers test to tell a limit from a failure), and the cause too.
	cause := errors.New("the caller's reason")
	ctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(cause)
	err = m.Run(ctx, Limits{}, func() error {
		m.Lt(m.Vec(Ref{x, 0}), m.Vec(Ref{y, 0}))
		return m.Err()
	})
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, cause)
}

// TestRunCancelledCached: a cancellation stops operations that the
// kernel answers from its caches too (it checks the stop only when it
// builds a node): a loop that builds the same relation again and again
// ends at its next operation; Poll says it without an operation.
func TestRunCancelledCached(t *testing.T) {
	m, x, y := newMul32(t)
	ctx, cancel := context.WithCancel(context.Background())
	err := m.Run(ctx, Limits{}, func() error {
		a, b := m.Lt(m.Vec(Ref{x, 0}), m.Vec(Ref{y, 0})), m.Bit(Ref{x, 0}, 7)
		require.False(t, m.And(a, b).IsFalse())
		cancel()
		// The stop flag is set by the context's AfterFunc, in a
		// goroutine of its own.
		for deadline := time.Now().Add(5 * time.Second); !m.stop.Load() && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if again := m.And(a, b); !again.IsFalse() {
			return errors.New("a cached operation ran after the cancellation")
		}
		return m.Err()
	})
	require.ErrorIs(t, err, context.Canceled)

	// Poll tells a loop without operations the same.
	ctx, cancel = context.WithCancel(context.Background())
	err = m.Run(ctx, Limits{}, func() error {
		require.NoError(t, m.Poll())
		cancel()
		for deadline := time.Now().Add(5 * time.Second); !m.stop.Load() && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		return m.Poll()
	})
	require.ErrorIs(t, err, context.Canceled)
}

// TestRunNodeLimit: the node limit stops a large operation, is never
// exceeded by more than NodeMargin in the table, and gives the same
// outcome in every run; the manager's own limits come back after Run.
func TestRunNodeLimit(t *testing.T) {
	var ops []int
	for range 3 {
		m, x, y := newMul32(t)
		err := m.Run(context.Background(), Limits{MaxNodes: 200000}, func() error {
			mul32(m, x, y)
			return m.Err()
		})
		require.ErrorIs(t, err, ErrNodeLimit)
		require.LessOrEqual(t, m.b.Allocated(), 200000+NodeMargin)
		require.NoError(t, m.Err())
		ops = append(ops, m.ops)
	}
	require.Equal(t, ops[0], ops[1], "the limit stops the same computation at the same operation")
	require.Equal(t, ops[0], ops[2])
}

// TestRunMemoryLimit: a memory limit bounds the node table inside one
// operation.
func TestRunMemoryLimit(t *testing.T) {
	m, x, y := newMul32(t)
	err := m.Run(context.Background(), Limits{MaxMemory: 64 << 20}, func() error {
		mul32(m, x, y)
		return m.Err()
	})
	require.ErrorIs(t, err, ErrMemoryLimit)
	require.LessOrEqual(t, int64(m.b.Allocated())*bytesPerNode, int64(32<<20))
}

// TestExactCountKeepsResults: the exact count every 1024 operations
// collects the table; the result of the operation that triggers it must
// survive (it once did not: it was collected before it got a handle).
func TestExactCountKeepsResults(t *testing.T) {
	l := NewLayout()
	x := l.Uint("x", 8, 2)
	m, err := New(l, Config{NodeTable: 1 << 10})
	require.NoError(t, err)
	X, Y := m.Vec(Ref{x, 0}), m.Vec(Ref{x, 1})
	var kept []Node
	var want []uint64
	err = m.Run(context.Background(), Limits{MaxNodes: 3000}, func() error {
		for i := range 3000 {
			c := uint64(i % 256)
			// Garbage, so that the table holds dead nodes over the limit.
			m.Lt(m.Add(X, m.ConstVec(c, 8)), Y)
			kept = append(kept, m.Eq(X, m.ConstVec(c, 8)))
			want = append(want, c)
		}
		return m.Err()
	})
	require.NoError(t, err)
	for i, n := range kept {
		var got []uint64
		m.Enumerate(n, []Vec{X}, func(v []uint64) bool { got = append(got, v[0]); return true })
		require.Equal(t, []uint64{want[i]}, got, "result %d", i)
	}
	require.NoError(t, m.Err())
}

// TestRunLateStop: a Run whose context is cancelled as it ends must not
// stop the next Run, whatever the moment its context.AfterFunc runs (it
// may run after the Run has returned). Before the fix, one of a few
// hundred rounds failed with "context canceled" in the second Run.
func TestRunLateStop(t *testing.T) {
	m, x, y := newMul32(t)
	for round := 0; round < 500; round++ {
		ctx, cancel := context.WithCancel(context.Background())
		require.NoError(t, m.Run(ctx, Limits{}, func() error {
			cancel() // done while the Run is under way
			return nil
		}))
		err := m.Run(context.Background(), Limits{}, func() error {
			for i := 0; i < 20; i++ {
				m.And(m.Vec(Ref{Var: x})[i%32], m.Vec(Ref{Var: y})[(i+1)%32])
				runtime.Gosched()
			}
			return nil
		})
		require.NoError(t, err, "round %d", round)
	}
}

// TestMemoryLimitGarbage: garbage past the memory limit, over little live
// heap, neither stops a computation nor makes its checks collect (when
// every check past the limit collected, a run near it crawled); nor does
// a small GOGC, whose goal is close to the live heap; a live heap past
// the limit stops it at the next check.
func TestMemoryLimitGarbage(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(10000)) // no collection of Go's own meanwhile
	runtime.GC()
	const limit = 64 << 20
	work := func(m *Manager, x Var) error {
		return m.Run(context.Background(), Limits{MaxMemory: limit}, func() error {
			X, Y := m.Vec(Ref{x, 0}), m.Vec(Ref{x, 1})
			for i := range 3000 { // about three checks' worth of operations
				m.Lt(m.Add(X, m.ConstVec(uint64(i), 8)), Y)
			}
			return m.Err()
		})
	}
	forced := func() int64 { return readMetric("/gc/cycles/forced:gc-cycles") }
	l := NewLayout()
	x := l.Uint("x", 8, 2)
	m, err := New(l, Config{})
	require.NoError(t, err)

	garbage := make([]byte, limit+limit/4) // the heap past the limit, all of it garbage
	garbage[len(garbage)-1] = 1
	garbage = nil
	require.Greater(t, heapBytes(), int64(limit))
	before := forced()
	require.NoError(t, work(m, x))
	require.Equal(t, before, forced(), "a check collected")

	// A small GOGC sets a goal close to the live heap too: that is not
	// the memory limit.
	debug.SetGCPercent(10)
	some := make([]byte, limit/4)
	some[len(some)-1] = 1
	runtime.GC()
	require.NoError(t, work(m, x), "GOGC=10 taken for the memory limit")
	runtime.KeepAlive(some)
	debug.SetGCPercent(10000)

	live := make([]byte, limit) // the live heap past the limit
	live[len(live)-1] = 1
	runtime.GC()
	require.ErrorIs(t, work(m, x), ErrMemoryLimit)
	runtime.KeepAlive(live)
}

// TestMemoryLimitHeld: with Go's memory limit in force at the limit (as
// the command line sets it), memory the process holds past the limit
// counts, even when the live heap is small: here a fragmented heap, one
// small object kept alive in every page, which no collection gives back.
// Without Go's memory limit the same heap does not stop the computation
// (garbage and fragments alone are not the limit then).
func TestMemoryLimitHeld(t *testing.T) {
	const limit = 64 << 20
	l := NewLayout()
	x := l.Uint("x", 8, 2)
	m, err := New(l, Config{})
	require.NoError(t, err)
	work := func() error {
		return m.Run(context.Background(), Limits{MaxMemory: limit}, func() error {
			X, Y := m.Vec(Ref{x, 0}), m.Vec(Ref{x, 1})
			for i := range 3000 {
				m.Lt(m.Add(X, m.ConstVec(uint64(i), 8)), Y)
			}
			return m.Err()
		})
	}
	// 96 MiB of 256-byte objects, one in every 8 KiB kept: about 3 MiB
	// live, 96 MiB held.
	kept := make([][]byte, 0, (limit+limit/2)/8192)
	gc := debug.SetGCPercent(-1) // no collection meanwhile: no span is reused
	for i := range (limit + limit/2) / 256 {
		b := make([]byte, 256)
		if i%32 == 0 {
			kept = append(kept, b)
		}
	}
	debug.SetGCPercent(gc)
	runtime.GC()
	require.Less(t, liveBytes(), int64(limit/8*7))
	require.Greater(t, heldBytes(), int64(limit))
	require.NoError(t, work(), "without Go's memory limit")

	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	require.ErrorIs(t, work(), ErrMemoryLimit)
	runtime.KeepAlive(kept)
}
