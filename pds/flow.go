package pds

// Counting the threads a program can start (docs/design.md, "Threads and
// forks").
//
// The thread slots are laid out when the BDD layout is fixed, before any
// rule exists, so a reader counts on its own control flow, a Flow, and
// tells the builder (Builder.ProgramThreads). Build counts again on the
// rules and checks that the reader did not count too few.
//
// The count is a bound on the starts along any run, over the control flow
// alone (every branch is taken to be possible): summed along a path, the
// largest over the paths, a call weighing the starts of the callee, a
// start one more than the starts of the started procedure. It is infinite
// when a start can repeat: on a cycle of the flow (a loop), in a procedure
// that calls or starts itself again (recursion), or in a procedure called
// or started from such a place.

// Flow is the control flow of a program's procedures, reduced to what the
// count of starts needs: nodes per procedure, the steps between them,
// calls and starts. Procedures and nodes are numbered by the caller from
// 0; a procedure's entry is the node Entry sets (node 0 without it).
type Flow struct {
	procs []flowProc
}

type flowProc struct {
	entry int
	nodes int // 1 + the largest node named
	edges []flowEdge
}

// flowEdge is a step (callee and child -1), a call (callee the called
// procedure; to where the caller goes on after the return) or a start
// (child the started procedure).
type flowEdge struct {
	from, to      int
	callee, child int
}

// Unbounded is the count of a program that can start unboundedly many
// threads.
const Unbounded = -1

func (f *Flow) proc(p int) *flowProc {
	for len(f.procs) <= p {
		f.procs = append(f.procs, flowProc{})
	}
	return &f.procs[p]
}

func (f *Flow) edge(p int, e flowEdge) {
	fp := f.proc(p)
	fp.nodes = max(fp.nodes, e.from+1, e.to+1)
	fp.edges = append(fp.edges, e)
	if e.callee >= 0 {
		f.proc(e.callee)
	}
	if e.child >= 0 {
		f.proc(e.child)
	}
}

// Entry makes node the entry of procedure p.
func (f *Flow) Entry(p, node int) {
	fp := f.proc(p)
	fp.entry = node
	fp.nodes = max(fp.nodes, node+1)
}

// Step says that p may go from node from to node to.
func (f *Flow) Step(p, from, to int) { f.edge(p, flowEdge{from, to, -1, -1}) }

// Call says that p may call callee at from and go on at to after the
// return.
func (f *Flow) Call(p, from, to, callee int) { f.edge(p, flowEdge{from, to, callee, -1}) }

// Start says that p may start a thread running child at from and go on at
// to.
func (f *Flow) Start(p, from, to, child int) { f.edge(p, flowEdge{from, to, -1, child}) }

// Threads returns the number of threads a program can have: one per
// initial thread, and the starts along any run of each, from the entry
// of its procedure; Unbounded when a start can repeat.
func (f *Flow) Threads(initial ...int) int {
	c := f.counter()
	n := len(initial)
	for _, p := range initial {
		n = addCount(n, c.from(p, f.proc(p).entry))
	}
	return n
}

// addCount adds two counts, Unbounded absorbing.
func addCount(a, b int) int {
	if a == Unbounded || b == Unbounded {
		return Unbounded
	}
	return a + b
}

// counter holds the count of starts of every procedure (from its entry).
type counter struct {
	f     *Flow
	count []int // by procedure
}

func (f *Flow) counter() *counter {
	c := &counter{f: f, count: make([]int, len(f.procs))}
	// The procedures in strongly connected components of the call and
	// start graph, callees first (Tarjan's algorithm gives them in that
	// order).
	for _, comp := range f.procSCCs() {
		in := map[int]bool{}
		for _, p := range comp {
			in[p] = true
		}
		recursive := len(comp) > 1
		for _, p := range comp {
			reach := f.procs[p].reachable()
			for _, e := range f.procs[p].edges {
				recursive = recursive || reach[e.from] && (in[e.callee] || in[e.child])
			}
		}
		// Count each procedure with calls into its own component
		// weighing 0: if that gives 0 everywhere, the recursion starts
		// nothing; otherwise each turn of it can start again.
		zero := true
		for _, p := range comp {
			c.count[p] = c.longest(p, f.procs[p].entry, in)
			zero = zero && c.count[p] == 0
		}
		if recursive && !zero {
			for _, p := range comp {
				c.count[p] = Unbounded
			}
		}
	}
	return c
}

// from returns the count of starts of a run of p from node.
func (c *counter) from(p, node int) int { return c.longest(p, node, nil) }

// weight is the number of starts an edge makes: the callee's, or one more
// than the child's. Edges into the procedures of own weigh 0 (callee) or
// 1 (child).
func (c *counter) weight(e flowEdge, own map[int]bool) int {
	switch {
	case e.callee >= 0 && own[e.callee]:
		return 0
	case e.callee >= 0:
		return c.count[e.callee]
	case e.child >= 0 && own[e.child]:
		return 1
	case e.child >= 0:
		return addCount(1, c.count[e.child])
	}
	return 0
}

// longest returns the largest sum of weights along a path of p from
// node: Unbounded when a cycle reachable from node has an edge of
// positive weight, or a reachable edge weighs Unbounded.
func (c *counter) longest(p, node int, own map[int]bool) int {
	fp := &c.f.procs[p]
	if node >= fp.nodes {
		return 0
	}
	out := make([][]flowEdge, fp.nodes)
	for _, e := range fp.edges {
		out[e.from] = append(out[e.from], e)
	}
	// Strongly connected components of the nodes reachable from node,
	// successors first; a component is a cycle when it has more than one
	// node or an edge to itself.
	comps, compOf := sccs(fp.nodes, []int{node}, func(v int, visit func(int)) {
		for _, e := range out[v] {
			visit(e.to)
		}
	})
	best := make([]int, len(comps)) // the longest path from each component
	for i, comp := range comps {
		b := 0
		for _, v := range comp {
			for _, e := range out[v] {
				w := c.weight(e, own)
				j := compOf[e.to]
				if j == i {
					if w != 0 {
						b = Unbounded
					}
					continue
				}
				if b != Unbounded {
					if t := addCount(w, best[j]); t == Unbounded || t > b {
						b = t
					}
				}
			}
		}
		best[i] = b
	}
	return best[compOf[node]]
}

// reachable returns which nodes of the procedure its entry reaches.
func (fp *flowProc) reachable() []bool {
	reach := make([]bool, max(fp.nodes, fp.entry+1))
	out := make([][]int, len(reach))
	for _, e := range fp.edges {
		out[e.from] = append(out[e.from], e.to)
	}
	reach[fp.entry] = true
	work := []int{fp.entry}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, w := range out[v] {
			if !reach[w] {
				reach[w] = true
				work = append(work, w)
			}
		}
	}
	return reach
}

// procSCCs returns the strongly connected components of the procedures
// under the calls and starts their entries reach, callees first.
func (f *Flow) procSCCs() [][]int {
	roots := make([]int, len(f.procs))
	for i := range roots {
		roots[i] = i
	}
	comps, _ := sccs(len(f.procs), roots, func(p int, visit func(int)) {
		reach := f.procs[p].reachable()
		for _, e := range f.procs[p].edges {
			if !reach[e.from] {
				continue
			}
			if e.callee >= 0 {
				visit(e.callee)
			}
			if e.child >= 0 {
				visit(e.child)
			}
		}
	})
	return comps
}

// sccs runs Tarjan's algorithm on the vertices 0..n-1 reachable from
// roots: it returns the strongly connected components in reverse
// topological order (every successor's component first) and the index of
// each vertex's component (-1 when unreached). It is iterative, so deep
// graphs do not grow the Go stack.
func sccs(n int, roots []int, succ func(v int, visit func(int))) ([][]int, []int) {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	compOf := make([]int, n)
	for i := range index {
		index[i], compOf[i] = -1, -1
	}
	succs := make([][]int, n)
	var stack []int
	var comps [][]int
	next := 0
	type frame struct{ v, i int }
	for _, r := range roots {
		if index[r] >= 0 {
			continue
		}
		call := []frame{{r, 0}}
		index[r], low[r] = next, next
		next++
		stack = append(stack, r)
		onStack[r] = true
		succ(r, func(w int) { succs[r] = append(succs[r], w) })
		for len(call) > 0 {
			top := &call[len(call)-1]
			v := top.v
			if top.i < len(succs[v]) {
				w := succs[v][top.i]
				top.i++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					succ(w, func(x int) { succs[w] = append(succs[w], x) })
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					compOf[w] = len(comps)
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				comps = append(comps, comp)
			}
		}
	}
	return comps, compOf
}
