package bdd

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/cbreach/cbreach/bdd/internal/third_party/rudd"
)

// Reference counting: this package keeps node references itself.
//
// The kernel (internal/third_party/rudd, a fork of rudd) frees, at each of its
// collections, the nodes whose reference count is zero and that no counted
// node reaches. Upstream rudd counted every pointer it returned and
// decremented from finalizers; the count saturated at 1023 and the
// finalizers raced with the operations, so live nodes were freed. The fork
// counts nothing; this package does:
//
// A node this package hands out has one canonical handle (an allocation of
// ours; a table of weak pointers indexed by node id finds it), and while the handle
// lives, the node's count in the kernel is held at the maximum, so the
// kernel keeps it. When the handle becomes unreachable, a cleanup queues
// its node, and the manager sets the count back to 0 at its next
// operation, on its own goroutine, so that the kernel may collect the
// node. The variable nodes (x and NOT x) are pinned by the kernel for good
// and need no handle.
//
// When a handle dies depends on Go's garbage collector, so the number of
// nodes in the table at a given point varies from run to run. [Manager.Live]
// counts exactly: it runs Go's collector, releases every node whose handle
// it found dead (weak pointers are cleared by then), and collects the
// kernel's table; the node limit is decided on that count. The kernel
// does the same before it grows its table (releaseDead).

// handle is the canonical reference to a node: Node.n points to its id. It
// is 16 bytes, so that Go's tiny allocator does not batch it with other
// objects (which could delay its cleanup forever).
type handle struct {
	id int
	_  uint64
}

// deadHandle is what the cleanup of a handle queues: its node, and the
// weak pointer to it, which tells it apart from a later handle of the
// same node (weak pointers made from one object compare equal, also
// after it died).
type deadHandle struct {
	id int
	w  weak.Pointer[handle]
}

// releases is the queue the cleanups of dead handles write to, from Go's
// cleanup goroutines; the manager drains it.
type releases struct {
	mu      sync.Mutex
	dead    []deadHandle
	pending atomic.Bool
}

func (q *releases) add(h deadHandle) {
	q.mu.Lock()
	q.dead = append(q.dead, h)
	q.pending.Store(true)
	q.mu.Unlock()
}

// refs is the reference state of a manager.
type refs struct {
	// slot is indexed by node id: 1 + the index of the node's handle in
	// handles, 0 for a node this package does not hold. handles is dense,
	// its free entries listed in free. slot holds no pointers (Go's
	// collector does not scan it), 4 bytes a slot of the node table
	// (whose nodes take 40), and grows to the table's size only. A map
	// from id to weak pointer would hash every result; a slice of weak
	// pointers indexed by id is scanned whole by every collection
	// (docs/benchmarks.md, "BDD kernel notes", has the measurements).
	slot    []int32
	handles []weak.Pointer[handle]
	free    []int32
	n       int // the owned nodes
	queue   *releases
}

// lookup returns the weak pointer to node id's handle (zero if none).
func (r *refs) lookup(id int) weak.Pointer[handle] {
	if id < len(r.slot) && r.slot[id] != 0 {
		return r.handles[r.slot[id]-1]
	}
	return weak.Pointer[handle]{}
}

// has reports whether node id is owned.
func (r *refs) has(id int) bool { return id < len(r.slot) && r.slot[id] != 0 }

// set records w as node id's handle; size is the node table's.
func (r *refs) set(id int, w weak.Pointer[handle], size int) {
	if id >= len(r.slot) {
		slot := make([]int32, max(size, id+1))
		copy(slot, r.slot)
		r.slot = slot
	}
	if r.slot[id] == 0 {
		if k := len(r.free); k > 0 {
			r.slot[id] = r.free[k-1] + 1
			r.free = r.free[:k-1]
		} else {
			r.handles = append(r.handles, weak.Pointer[handle]{})
			r.slot[id] = int32(len(r.handles))
		}
		r.n++
	}
	r.handles[r.slot[id]-1] = w
}

func (r *refs) drop(id int) {
	i := r.slot[id] - 1
	r.handles[i] = weak.Pointer[handle]{}
	r.free = append(r.free, i)
	r.slot[id] = 0
	r.n--
}

// own returns a Node for the kernel's fresh result n: the node's handle,
// created if needed.
func (m *Manager) own(n rudd.Node) Node {
	id := *n
	if id < 2 {
		return m.Const(id == 1)
	}
	r := &m.refs
	if w := r.lookup(id); w != (weak.Pointer[handle]{}) {
		if h := w.Value(); h != nil {
			return Node{&h.id}
		}
		// The handle is dead but not released yet: the node is still ours,
		// give it a new handle.
		return m.newHandle(id)
	}
	if m.b.RefCount(id) == rudd.MaxRefCount {
		// A variable node, pinned by the kernel. n points into the
		// kernel's ring of results (see retnode): keep a copy.
		pinned := id
		return Node{&pinned}
	}
	m.b.SetRefCount(id, rudd.MaxRefCount)
	return m.newHandle(id)
}

func (m *Manager) newHandle(id int) Node {
	r := &m.refs
	h := &handle{id: id}
	w := weak.Make(h)
	r.set(id, w, m.b.Allocated())
	runtime.AddCleanup(h, r.queue.add, deadHandle{id, w})
	return Node{&h.id}
}

// release gives the nodes of dead handles back to the kernel. It runs
// before each kernel operation, so that the counts only change between
// operations and on the manager's goroutine.
func (m *Manager) release() {
	r := &m.refs
	q := r.queue
	q.mu.Lock()
	dead := q.dead
	q.dead = nil
	q.pending.Store(false)
	q.mu.Unlock()
	for _, h := range dead {
		// Unless the node got a new handle since this one died.
		if r.lookup(h.id) == h.w {
			r.drop(h.id)
			m.b.SetRefCount(h.id, 0)
		}
	}
}

// Live returns the exact number of live nodes (reachable from a handle
// that is still reachable, the constants and variables included). It runs
// Go's garbage collector, so it costs about as much as a collection of the
// whole heap: call it at the points where an exact figure matters.
func (m *Manager) Live() int {
	m.releaseDead()
	m.release() // the cleanups queued meanwhile are for the ones just released
	m.b.Collect()
	return m.b.Used()
}

// releaseDead runs Go's collector and gives back to the kernel the nodes
// whose handles it found dead (weak pointers are cleared by then, before
// the cleanups run). Live uses it, and the kernel calls it before it
// grows its table (rudd's SetBeforeGrow, from inside an operation: the
// operands of that operation have live handles, its intermediate nodes
// are on the kernel's stack). Without it the kernel grows when dead
// handles are merely not released yet, which depends on when Go's
// collector last ran, and the table grows on dead nodes.
func (m *Manager) releaseDead() {
	r := &m.refs
	runtime.GC()
	for id := range r.slot {
		if r.has(id) && r.lookup(id).Value() == nil {
			r.drop(id)
			m.b.SetRefCount(id, 0)
		}
	}
}
