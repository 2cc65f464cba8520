package bdd

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The memory limit's measurements: what Go's runtime reports of the heap
// and of the memory it holds, and when a check collects to count afresh.

// overMemory reports whether the heap is near the memory limit
// (nearMemory) after a collection. It reads what Go's last collection
// found, which costs nothing, and collects only when that is near the
// limit (to count afresh, after the caller dropped what it can compute
// again) or when the heap with its garbage passes twice the limit (the
// figures may be old). Collecting whenever the heap with its garbage
// passes the limit would make a run near the limit collect every 1024
// operations.
//
// When Go's memory limit is in force at MaxMemory or below (as the
// command line sets it), the memory the process holds counts too: Go
// keeps what it holds from the system under its limit while the live
// heap leaves room for garbage, so when that passes MaxMemory the heap
// is collected and the free pages given back (debug.FreeOSMemory), and
// the limit is reached if it still passes it: else a run may sit at the
// limit, held there by Go's collector, with its live heap under 7/8 of
// it and the limit never reached. Without Go's memory limit, garbage
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
