package bdd

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/dalzilio/rudd"
)

// Reference counting: this package keeps node references itself, because
// rudd's own scheme has two bugs.
//
// rudd counts the external references to a node: every rudd.Node it returns
// is a fresh pointer, for which it increments the node's count and sets a
// finalizer that decrements it. Its garbage collector frees the nodes that
// have a zero count and that no counted node reaches.
//
//  1. The count saturates. At its maximum (1023), rudd returns pointers that
//     it neither counts nor finalizes, but the finalizers of the older
//     pointers still decrement. A node returned 1023 times between two runs
//     of Go's collector (the same Value or CopyEq built in a loop) is then
//     freed while the pointers returned since are alive, and its slot is
//     reused: they silently denote another function
//     (TestRefcountSaturation).
//  2. The finalizers run on Go's finalizer goroutine, concurrently with the
//     operations, and the increment in rudd's retnode takes no lock: the
//     race detector flags every test that builds nodes, and a lost
//     increment frees a live node.
//
// So this package sees to it that no rudd finalizer ever runs and that
// rudd never frees a node still referenced. A node this package hands out has one canonical handle (an
// allocation of ours, a weak map from node id to handle finds it), and
// while the handle lives, the node's count in rudd's table is held at the
// maximum: rudd neither counts the pointers it returns for that node nor
// sets finalizers on them, and its collector keeps the node. The one
// finalizer rudd sets, when a node's count goes from 0 to 1 on its first
// return, is cleared at once, before Go's collector can run it. When the
// handle becomes unreachable, a cleanup queues its node, and the manager
// sets the count back to 0 at its next operation, on its own goroutine, so
// that rudd may collect the node.
//
// rudd does not export the count: it is read and written in rudd's node
// table, through a field located by reflection when the manager is created
// (both of rudd's kernels name it refcou; New fails if it is not there).
// The same access reads nodes for Support and Size, since rudd's Low and
// High would make counted pointers. The variable nodes (x and NOT x)
// are created by rudd with the maximal count and never finalized; they need
// no handle.

const maxRef = 0x3FF // rudd's _MAXREFCOUNT

// nodeTable reads rudd's node table: the nodes, and their reference counts
// (which it also writes).
type nodeTable struct {
	tables reflect.Value // rudd's tables struct (its pointer never changes)
	nodes  int           // index of the field nodes (a slice) in tables
	refcou int           // index of the field refcou (an int32) in a node
	level  int           // index of the field level (an int32) in a node
	low    int           // index of the field low (an int) in a node
	high   int           // index of the field high (an int) in a node
}

func newNodeTable(b *rudd.BDD) (nodeTable, error) {
	fail := func(what string) (nodeTable, error) {
		return nodeTable{}, fmt.Errorf("bdd: this version of rudd is not supported: %s", what)
	}
	t := reflect.ValueOf(b).Elem().FieldByName("tables")
	if !t.IsValid() || t.Kind() != reflect.Pointer || t.IsNil() {
		return fail("no node table")
	}
	nf, ok := t.Elem().Type().FieldByName("nodes")
	if !ok || len(nf.Index) != 1 || nf.Type.Kind() != reflect.Slice || nf.Type.Elem().Kind() != reflect.Struct {
		return fail("no node slice")
	}
	field := func(name string, k reflect.Kind) int {
		f, ok := nf.Type.Elem().FieldByName(name)
		if !ok || len(f.Index) != 1 || f.Type.Kind() != k {
			return -1
		}
		return f.Index[0]
	}
	r := nodeTable{t.Elem(), nf.Index[0], field("refcou", reflect.Int32),
		field("level", reflect.Int32), field("low", reflect.Int), field("high", reflect.Int)}
	if r.refcou < 0 || r.level < 0 || r.low < 0 || r.high < 0 {
		return fail("unexpected node layout")
	}
	if r.count(0) != maxRef || r.count(1) != maxRef {
		return fail("unexpected reference count of the constants")
	}
	if v := b.Ithvar(0); r.node(*v) != [3]int{0, 0, 1} {
		return fail("unexpected layout of a variable node")
	}
	return r, nil
}

// node returns the level (variable), low and high successors of node id,
// read in rudd's table: rudd's Low and High would make counted handles.
// (The buddy kernel keeps mark bits in level, only inside its collections.)
func (r nodeTable) node(id int) [3]int {
	e := r.tables.Field(r.nodes).Index(id)
	return [3]int{int(e.Field(r.level).Int() & 0x1FFFFF), int(e.Field(r.low).Int()), int(e.Field(r.high).Int())}
}

func (r nodeTable) field(id int) *int32 {
	return (*int32)(unsafe.Pointer(r.tables.Field(r.nodes).Index(id).Field(r.refcou).UnsafeAddr()))
}

// count returns the reference count of node id. (The default kernel keeps
// mark bits in the same field, but only inside its collections.)
func (r nodeTable) count(id int) int { return int(*r.field(id)) }

func (r nodeTable) set(id, c int) { *r.field(id) = int32(c) }

// len returns the size of the node table.
func (r nodeTable) len() int { return r.tables.Field(r.nodes).Len() }

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
	rc      nodeTable
	owned   map[int]owned // node id -> its handle
	varNode map[int]bool  // ids of the variable nodes x and NOT x
	gen     uint64
	queue   *releases
}

// own returns a Node for rudd's fresh result n: the node's handle, created
// if needed. It fails (and returns false) only if rudd's counts are not as
// the scheme above keeps them.
func (m *Manager) own(n rudd.Node) (Node, bool) {
	id := *n
	if id < 2 {
		return m.Const(id == 1), true
	}
	r := &m.refs
	if o, ok := r.owned[id]; ok {
		if h := o.h.Value(); h != nil {
			return Node{&h.id}, true
		}
		// The handle is dead but not released yet: the node is still ours,
		// give it a new handle.
		return m.newHandle(id), true
	}
	switch c := r.rc.count(id); {
	case c == 1:
		// First return of the node: rudd counted n and set its finalizer.
		runtime.SetFinalizer(n, nil)
		r.rc.set(id, maxRef)
		return m.newHandle(id), true
	case c == maxRef && r.varNode[id]:
		return Node{n}, true
	default:
		m.SetErr(fmt.Errorf("bdd: internal error: node %d has reference count %d", id, c))
		return m.fls, false
	}
}

// drop discards rudd's fresh result n (on the error paths), undoing the
// count and finalizer rudd may have given it.
func (m *Manager) drop(n rudd.Node) {
	if n == nil || *n < 2 || *n >= m.refs.rc.len() {
		return
	}
	if _, ok := m.refs.owned[*n]; !ok && m.refs.rc.count(*n) == 1 {
		runtime.SetFinalizer(n, nil)
		m.refs.rc.set(*n, 0)
	}
}

func (m *Manager) newHandle(id int) Node {
	r := &m.refs
	r.gen++
	h := &handle{id, r.gen}
	r.owned[id] = owned{weak.Make(h), r.gen}
	runtime.AddCleanup(h, r.queue.add, *h)
	return Node{&h.id}
}

// release gives the nodes of dead handles back to rudd. It runs before each
// rudd operation, so that rudd's counts only change between operations and
// on the manager's goroutine.
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
		if o, ok := r.owned[h.id]; ok && o.gen == h.gen {
			delete(r.owned, h.id)
			r.rc.set(h.id, 0)
		}
	}
}
