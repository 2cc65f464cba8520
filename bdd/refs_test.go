package bdd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
	"github.com/stretchr/testify/require"
)

// collectGo runs Go's collector a few times, letting the cleanups of dead
// handles run.
func collectGo() {
	for range 4 {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
}

// queued returns a condition: a dead handle of node id is in the release
// queue.
func queued(m *Manager, id int) func() bool {
	return func() bool {
		q := m.refs.queue
		q.mu.Lock()
		defer q.mu.Unlock()
		for _, h := range q.dead {
			if h.id == id {
				return true
			}
		}
		return false
	}
}

// collectUntil runs Go's collector until cond holds (cleanups run on their
// own goroutine, later), failing after a generous delay.
func collectUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 10s of collections", what)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// awaitDead waits until a dead handle of node id is queued for release.
func awaitDead(t *testing.T, m *Manager, id int) {
	t.Helper()
	collectUntil(t, "dead handle queued", queued(m, id))
}

// churn makes rudd collect its node table (at least once: the table is
// small) by building and dropping unrelated nodes.
func churn(f *fixture) {
	m := f.m
	X, Y := m.Vec(Ref{f.u[4], 1}), m.Vec(Ref{f.u[4], 2})
	for k := range uint64(40) {
		m.Eq(m.Mul(X, Y), m.ConstVec(k, 4))
		m.Lt(m.Add(X, m.ConstVec(k, 4)), Y)
	}
}

// TestRefcountSaturation is the scenario of refs.go: a node returned more
// than 1023 times between two runs of Go's collector. rudd stops counting
// the handles it returns past that, so without refs.go the node is freed
// under the handles kept and its slot reused.
func TestRefcountSaturation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(f *fixture) Node
		refs  func(f *fixture) []Ref
		want  func(v []uint64) bool
	}{
		{"Or", func(f *fixture) Node { return f.m.Or(f.m.Bit(Ref{f.u[2], 0}, 0), f.m.Bit(Ref{f.u[3], 1}, 2)) },
			func(f *fixture) []Ref { return []Ref{{f.u[2], 0}, {f.u[3], 1}} },
			func(v []uint64) bool { return v[0]&1 == 1 || v[1]&4 == 4 }},
		{"Value", func(f *fixture) Node { return f.m.Value(Ref{f.u[3], 2}, 5) },
			func(f *fixture) []Ref { return []Ref{{f.u[3], 2}} },
			func(v []uint64) bool { return v[0] == 5 }},
		{"CopyEq", func(f *fixture) Node { return f.m.CopyEq(0, 1, f.u[2]) },
			func(f *fixture) []Ref { return []Ref{{f.u[2], 0}, {f.u[2], 1}} },
			func(v []uint64) bool { return v[0] == v[1] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Config{NodeTable: 200})
			m := f.m
			var kept []Node
			func() {
				// No Go collection during the loop: every handle stays
				// pending, as in a tight loop between two collections.
				defer debug.SetGCPercent(debug.SetGCPercent(-1))
				for i := range 3000 {
					n := tc.build(f)
					// Only handles returned after the count saturated (the
					// first 1023 are counted and would keep the node alive).
					if i%500 == 499 && i > 1100 {
						kept = append(kept, n)
					}
				}
			}()
			collectGo()
			churn(f)
			collectGo()
			churn(f)
			require.NoError(t, m.Err())
			for i, n := range kept {
				f.checkNode(t, fmt.Sprintf("kept handle %d", i), n, tc.refs(f), tc.want)
			}
			runtime.KeepAlive(kept)

			checkRefs(t, m)

			// Once its handles are gone, the node goes back to rudd.
			id := kept[0].ID()
			kept = nil
			awaitDead(t, m, id)
			m.Not(m.True()) // any operation releases the dead handles
			require.False(t, m.refs.has(id), "node released")
			require.Zero(t, m.b.RefCount(id), "no reference left")
			checkRefs(t, m)
		})
	}
}

// TestRefcountVariables checks that the variable nodes, which rudd creates
// with the maximal count, need and get no handle.
func TestRefcountVariables(t *testing.T) {
	f := newFixture(t, Config{})
	m := f.m
	x := m.Bit(Ref{f.u[2], 0}, 1)
	for range 3000 {
		require.True(t, m.And(x, m.True()).Equal(x))
		require.True(t, m.Not(m.Not(x)).Equal(x))
	}
	require.Zero(t, m.refs.n)
	require.NoError(t, m.Err())
	checkRefs(t, m)
}

// TestRefcountCanonical checks that a node has one handle at a time; that
// a node whose handle died gets a new one if rudd returns it before the
// dead handle is released, and that the late release of the dead handle
// leaves the new one alone; and that a released node can come back.
func TestRefcountCanonical(t *testing.T) {
	f := newFixture(t, Config{})
	m := f.m
	x, y := m.Bit(Ref{f.u[2], 0}, 0), m.Bit(Ref{f.u[2], 1}, 1)
	a, b := m.Or(x, y), m.Or(y, x)
	require.Same(t, a.n, b.n, "one handle per node")
	id := a.ID()
	a, b = Node{}, Node{}
	awaitDead(t, m, id)
	require.True(t, m.refs.has(id))

	// rudd returns the node again before the queue is drained (call would
	// drain it first).
	c := m.wrap(m.b.Apply(x.n, y.n, rudd.OPor))
	require.Equal(t, id, c.ID())
	m.release()
	require.True(t, m.refs.has(id), "the new handle survives the old one's release")
	checkRefs(t, m)
	f.checkNode(t, "x|y", c, []Ref{{f.u[2], 0}, {f.u[2], 1}}, func(v []uint64) bool { return v[0]&1 == 1 || v[1]&2 == 2 })

	// Released, then returned again.
	c = Node{}
	awaitDead(t, m, id)
	d := m.Or(x, y) // drains the queue first
	require.Equal(t, id, d.ID(), "not collected by rudd in between")
	require.True(t, m.refs.has(id))
	require.NoError(t, m.Err())
	checkRefs(t, m)
	runtime.KeepAlive(d)
}

// checkRefs checks the invariants of refs.go on the whole node table: an
// owned node has the maximal count, so does a variable node, and every
// other node has none.
func checkRefs(t testing.TB, m *Manager) {
	t.Helper()
	r := &m.refs
	count := 0
	for id := range r.slot {
		if !r.has(id) {
			continue
		}
		count++
		require.Equal(t, rudd.MaxRefCount, m.b.RefCount(id), "owned node %d", id)
	}
	require.Equal(t, count, r.n, "owned nodes counted")
	err := m.b.Allnodes(func(id, level, low, high int) error {
		if id < 2 {
			return nil
		}
		c := m.b.RefCount(id)
		owned := r.has(id)
		variable := low < 2 && high < 2
		if owned || variable {
			require.Equal(t, rudd.MaxRefCount, c, "node %d", id)
		} else {
			require.Zero(t, c, "node %d is neither owned nor a variable", id)
		}
		return nil
	})
	require.NoError(t, err)
}
