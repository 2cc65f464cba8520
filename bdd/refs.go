package bdd

import (
	"math/bits"
	"runtime"
	"slices"
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
// ours; a table of weak pointers indexed by node id finds it, behind a small
// array of the handles returned last, see refs.recent), and while the handle
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
// kernel's table; the node limit is decided on that count.

// handle is the canonical reference to a node: Node.n points to its id. It
// is 16 bytes, so that Go's tiny allocator does not batch it with other
// objects (which could delay its cleanup forever).
type handle struct {
	id  int
	gen uint64 // tells the handles of one node id apart over time
}

type owned struct {
	h   weak.Pointer[handle]
	gen uint64
}

// releases is the queue the cleanups of dead handles write to, from Go's
// cleanup goroutines; the manager drains it.
type releases struct {
	mu      sync.Mutex
	dead    []handle
	pending atomic.Bool
}

func (q *releases) add(h handle) {
	q.mu.Lock()
	q.dead = append(q.dead, h)
	q.pending.Store(true)
	q.mu.Unlock()
}

// refs is the reference state of a manager.
type refs struct {
	// owned is indexed by node id: the node's handle, or gen 0 for a node
	// this package does not hold. A slice rather than a map: own runs on
	// every operation's result, and the table's ids are dense.
	owned []owned
	n     int // the owned nodes
	gen   uint64
	queue *releases

	// recent holds the handles own returned last, by a hash of the node
	// id: most results are nodes that already have a handle (98 % of 12
	// million on the 3+2 Bluetooth driver at 6 contexts), and finding it
	// through owned costs two cache misses (the entry, then the weak
	// pointer's target). An entry holds its handle, so the node stays
	// owned until the entry is overwritten or the array is cleared: every
	// forgetEvery operations (Manager.sample) and before an exact count
	// (Manager.Live). Measured there (CPU profiles): own took 2.5 s of
	// 17.6 with a map and no array, 1.7 s with 2^12 entries, 1.25 s with
	// 2^14, 1.4 s with 2^16. A quarter of the node table's size at its first
	// collection at most (newRefs), so that a small table is still
	// collected rather than grown.
	recent []recentEntry
	shift  uint // 64 - log2(len(recent))
}

const (
	recentBits  = 14
	forgetEvery = 1 << 16 // a multiple of the sampling period, 1024
)

func newRefs(nodeTable int) refs {
	b := min(recentBits, max(0, bits.Len(uint(nodeTable/4))-1))
	return refs{recent: make([]recentEntry, 1<<b), shift: uint(64 - b), queue: &releases{}}
}

type recentEntry struct {
	id int
	h  *handle
}

// slot is the entry of node id in recent (Fibonacci hashing).
func (r *refs) slot(id int) *recentEntry {
	return &r.recent[(uint64(id)*0x9E3779B97F4A7C15)>>r.shift]
}

// forget clears refs.recent, so that the handles only it held can die.
func (r *refs) forget() { clear(r.recent) }

// lookup returns the entry of node id (gen 0 if none).
func (r *refs) lookup(id int) owned {
	if id < len(r.owned) {
		return r.owned[id]
	}
	return owned{}
}

// has reports whether node id is owned.
func (r *refs) has(id int) bool { return r.lookup(id).gen != 0 }

func (r *refs) set(id int, o owned) {
	if id >= len(r.owned) {
		r.owned = slices.Grow(r.owned, id+1-len(r.owned))
		r.owned = r.owned[:cap(r.owned)]
	}
	if r.owned[id].gen == 0 {
		r.n++
	}
	r.owned[id] = o
}

func (r *refs) drop(id int) {
	r.owned[id] = owned{}
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
	slot := r.slot(id)
	if slot.id == id && slot.h != nil {
		return Node{&slot.h.id}
	}
	if o := r.lookup(id); o.gen != 0 {
		if h := o.h.Value(); h != nil {
			*slot = recentEntry{id, h}
			return Node{&h.id}
		}
		// The handle is dead but not released yet: the node is still ours,
		// give it a new handle.
		return m.newHandle(id, slot)
	}
	if m.b.RefCount(id) == rudd.MaxRefCount {
		return Node{n} // a variable node, pinned by the kernel
	}
	m.b.SetRefCount(id, rudd.MaxRefCount)
	return m.newHandle(id, slot)
}

func (m *Manager) newHandle(id int, slot *recentEntry) Node {
	r := &m.refs
	r.gen++
	h := &handle{id, r.gen}
	r.set(id, owned{weak.Make(h), r.gen})
	runtime.AddCleanup(h, r.queue.add, *h)
	*slot = recentEntry{id, h}
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
		if r.lookup(h.id).gen == h.gen {
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
	r := &m.refs
	r.forget()
	runtime.GC()
	for id, o := range r.owned {
		if o.gen != 0 && o.h.Value() == nil {
			r.drop(id)
			m.b.SetRefCount(id, 0)
		}
	}
	m.release() // the cleanups queued meanwhile are for the ones just released
	m.b.Collect()
	return m.b.Used()
}
