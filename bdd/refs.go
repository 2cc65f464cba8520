package bdd

import (
	"runtime"
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
// kernel keeps it. When the handle becomes unreachable, Go's collector
// clears the weak pointer; the manager finds it cleared when the kernel
// is about to collect its table (the kernel's SetBeforeCollect, on the
// manager's goroutine, inside an operation: its operands have live
// handles, its intermediate nodes are on the kernel's stack) and sets
// the node's count back to 0 then, so that this collection frees it.
// The nodes of dead handles matter only to a collection, so no earlier
// notice is needed: Go's cleanups (runtime.AddCleanup) would tell at
// once, but a cleanup is a second special record beside the weak
// pointer in its span of Go's heap, and adding either walks the span's
// list of them; the cleanups made node handles a third of a small run
// (Bluetooth3-11 of CUBA's suite at 7 contexts). The variable nodes (x
// and NOT x) are pinned by the kernel for good and need no handle.
//
// When a handle dies depends on Go's garbage collector, so the number of
// nodes in the table at a given point varies from run to run. [Manager.Live]
// counts exactly: it runs Go's collector, releases every node whose handle
// it found dead (weak pointers are cleared by then), and collects the
// kernel's table; the node limit is decided on that count. The kernel
// does the same before it grows its table (releaseDead).

// handle is the canonical reference to a node: Node.n points to its id. It
// is 16 bytes, so that Go's tiny allocator does not batch it with other
// objects (which would keep it alive as long as they live).
type handle struct {
	id int
	_  uint64
}

// refs is the reference state of a manager.
type refs struct {
	// slot is indexed by node id: 1 + the index of the node's handle in
	// handles, 0 for a node this package does not hold. handles is dense,
	// its free entries listed in free; ids[i] is the node of handles[i].
	// slot holds no pointers (Go's collector does not scan it), 4 bytes a
	// slot of the node table (whose nodes take 40), and grows to the
	// table's size only. A map from id to weak pointer would hash every
	// result; a slice of weak pointers indexed by id is scanned whole by
	// every collection (docs/benchmarks.md, "BDD kernel notes", has the
	// measurements).
	slot    []int32
	handles []weak.Pointer[handle]
	ids     []int32
	free    []int32
	n       int // the owned nodes
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
			r.ids = append(r.ids, 0)
			r.slot[id] = int32(len(r.handles))
		}
		r.ids[r.slot[id]-1] = int32(id)
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
	r.set(id, weak.Make(h), m.b.Allocated())
	return Node{&h.id}
}

// releaseCleared gives back to the kernel the nodes whose handles Go's
// collector found dead (their weak pointers are cleared). The kernel
// calls it before each collection of its table (SetBeforeCollect), from
// inside an operation; it only sets counts to 0.
func (m *Manager) releaseCleared() {
	r := &m.refs
	for i, w := range r.handles {
		if w != (weak.Pointer[handle]{}) && w.Value() == nil {
			id := int(r.ids[i])
			r.drop(id)
			m.b.SetRefCount(id, 0)
		}
	}
}

// Live returns the exact number of live nodes (reachable from a handle
// that is still reachable, the constants and variables included). It runs
// Go's garbage collector, so it costs about as much as a collection of the
// whole heap: call it at the points where an exact figure matters.
func (m *Manager) Live() int {
	m.releaseDead()
	m.b.Collect()
	return m.b.Used()
}

// releaseDead runs Go's collector and gives back to the kernel the nodes
// whose handles it found dead (weak pointers are cleared by then). Live
// uses it, and the kernel calls it before it
// grows its table (rudd's SetBeforeGrow, from inside an operation: the
// operands of that operation have live handles, its intermediate nodes
// are on the kernel's stack). Without it the kernel grows when dead
// handles are merely not released yet, which depends on when Go's
// collector last ran, and the table grows on dead nodes.
func (m *Manager) releaseDead() {
	runtime.GC()
	m.releaseCleared()
}
