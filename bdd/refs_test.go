package bdd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
	"weak"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
	"github.com/stretchr/testify/require"
)

// collectGo runs Go's collector a few times, clearing the weak pointers
// of dead handles.
func collectGo() {
	for range 4 {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
}

// cleared returns a condition: node id is owned, and its handle is dead
// (Go's collector cleared the weak pointer to it).
func cleared(m *Manager, id int) func() bool {
	return func() bool {
		w := m.refs.lookup(id)
		return w != (weak.Pointer[handle]{}) && w.Value() == nil
	}
}

// collectUntil runs Go's collector until cond holds, failing after a
// generous delay.
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

// awaitDead waits until the handle of node id is found dead.
func awaitDead(t *testing.T, m *Manager, id int) {
	t.Helper()
	collectUntil(t, "dead handle", cleared(m, id))
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

// collectKernel makes the kernel collect its table in an operation (not
// through Collect): it builds and keeps distinct nodes until the table
// was full and collected.
func collectKernel(t *testing.T, f *fixture) {
	t.Helper()
	m := f.m
	before := f.ruddGCs()
	var kept []Node
	for a := range uint64(16) {
		for b := range uint64(16) {
			for c := range uint64(16) {
				kept = append(kept, m.And(m.Value(Ref{f.u[4], 0}, a), m.Value(Ref{f.u[4], 1}, b), m.Value(Ref{f.u[4], 2}, c)))
				if f.ruddGCs() > before {
					return
				}
			}
		}
	}
	t.Fatalf("no collection of the kernel's table in an operation (%d nodes kept)", len(kept))
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
			collectKernel(t, f) // the kernel's next collection releases the dead handles first
			// The node was given back and collected; its slot may hold a
			// node built since, with a live handle.
			require.False(t, cleared(m, id)(), "dead handle released")
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

	// rudd returns the node again before the dead handle is released.
	c := m.Or(x, y)
	require.Equal(t, id, c.ID())
	m.releaseCleared()
	require.True(t, m.refs.has(id), "the new handle survives the release of dead ones")
	checkRefs(t, m)
	f.checkNode(t, "x|y", c, []Ref{{f.u[2], 0}, {f.u[2], 1}}, func(v []uint64) bool { return v[0]&1 == 1 || v[1]&2 == 2 })

	// Released, then returned again.
	c = Node{}
	awaitDead(t, m, id)
	m.releaseCleared()
	require.False(t, m.refs.has(id), "released")
	d := m.Or(x, y)
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
