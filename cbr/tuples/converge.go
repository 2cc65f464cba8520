package tuples

import (
	"context"
	"encoding/binary"
	"errors"
	"math/big"
	"slices"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
)

// The convergence of the reachable visible states (package
// documentation, "Visible states"): for unbounded runs that count
// contexts, on networks without locals and without forks.

// cbr.VisibleConvergence is how an unbounded run proved its verdict for
// every number of contexts from the reachable visible states (package
// documentation, "Visible states").

// errVisible ends an unbounded run whose visible states converged.
var errVisible = errors.New("cbr: the reachable visible states converged")

// genDepth is the number of top frames of every stack the abstraction
// that over-approximates the generators keeps (CUBA's -z).
const genDepth = 2

// maxGenStates bounds the abstraction's states: beyond it the criterion
// gives up (the run goes on as without it).
const maxGenStates = 200000

// maxVisibleStates bounds the visible states the tracker keeps.
const maxVisibleStates = 2000000

// visibleTracker collects the reachable visible states level by level
// from the tuples the analysis keeps, and tells when they stop growing
// for every bound.
type visibleTracker struct {
	ctx     context.Context
	net     *pds.Network
	vecs    []bdd.Vec
	globIdx []int          // net.Globals[i].Index
	seen    map[string]int // visible state -> the fewest contexts that reach it
	perLvl  []int          // new visible states by level
	gens    []string       // the generators, once computed (sorted)
	genDone bool           // gens computed (or given up: gens nil, failed)
	failed  bool
	result  *cbr.VisibleConvergence
	buf     []byte
}

// visibleApplies reports whether the criterion is sound for net as
// implemented: no locals (a stack symbol is its label, so the visible
// states are the globals and the top labels) and no forks (a fixed set of
// threads).
func visibleApplies(net *pds.Network) bool {
	for _, p := range net.Procs {
		if len(p.Locals) > 0 {
			return false
		}
	}
	for _, r := range net.Rules {
		if r.Kind == pds.Fork {
			return false
		}
	}
	for _, t := range net.Threads {
		for _, f := range t.Stack {
			if len(f.Locals) > 0 {
				return false
			}
		}
	}
	return true
}

func newVisibleTracker(ctx context.Context, net *pds.Network) *visibleTracker {
	v := &visibleTracker{ctx: ctx, net: net, seen: map[string]int{}}
	for _, g := range net.Globals {
		v.vecs = append(v.vecs, net.GlobalVec(g, pds.GCur))
		v.globIdx = append(v.globIdx, g.Index)
	}
	return v
}

// key encodes a visible state: the globals' values, then every thread's
// top label id (-1 for an empty stack).
func (v *visibleTracker) key(globals []uint64, tops []int) string {
	b := v.buf[:0]
	for _, g := range globals {
		b = binary.AppendUvarint(b, g)
	}
	b = append(b, '|')
	for _, t := range tops {
		b = binary.AppendVarint(b, int64(t))
	}
	v.buf = b
	return string(b)
}

// tuple adds the visible states of a kept tuple reached with level
// contexts: at every global of its domain, the product of the threads'
// tops there (a tuple's configurations at a global are the product of
// its views there).
//
// The visible states are kept explicitly, one by one: when a tuple's
// domain has more than maxGenStates global values, or more than
// maxVisibleStates are kept, the tracker gives up (the criterion does not
// apply to this run), so that open data the symbolic analysis handles
// in a few tuples is never enumerated here.
func (v *visibleTracker) tuple(level int, t split.Tuple) {
	if v.failed {
		return
	}
	m := v.net.M
	if m.Count(t.Domain, v.net.Sets().G[pds.GCur]).Cmp(big.NewInt(maxGenStates)) > 0 {
		v.failed, v.seen, v.perLvl = true, nil, nil
		return
	}
	type valTops map[string][]int // global values -> top ids
	per := make([]valTops, len(t.Views))
	var globals []string // the domain's values, in order
	gvals := map[string][]uint64{}
	m.Enumerate(t.Domain, v.vecs, func(vals []uint64) bool {
		k := v.key(vals, nil)
		globals = append(globals, k)
		gvals[k] = slices.Clone(vals)
		return len(globals) <= maxGenStates
	})
	if len(globals) > maxGenStates || len(v.seen) > maxVisibleStates {
		v.failed, v.seen, v.perLvl = true, nil, nil
		return
	}
	for i, view := range t.Views {
		per[i] = valTops{}
		add := func(id int, g bdd.Node) {
			m.Enumerate(m.And(g, t.Domain), v.vecs, func(vals []uint64) bool {
				k := v.key(vals, nil)
				per[i][k] = append(per[i][k], id)
				return true
			})
		}
		if f := view.Finished(); !f.IsFalse() {
			add(-1, f)
		}
		for _, tp := range view.Tops(nil) {
			add(tp.Label.ID, tp.Globals)
		}
	}
	for len(v.perLvl) <= level {
		v.perLvl = append(v.perLvl, 0)
	}
	tops := make([]int, len(t.Views))
	for _, gk := range globals {
		vals := gvals[gk]
		var rec func(i int)
		rec = func(i int) {
			if i == len(tops) {
				k := v.key(vals, tops)
				if old, ok := v.seen[k]; !ok || level < old {
					if ok {
						v.perLvl[old]--
					}
					v.seen[k] = level
					v.perLvl[level]++
				}
				return
			}
			for _, id := range per[i][gk] {
				tops[i] = id
				rec(i + 1)
			}
		}
		rec(0)
	}
}

// done is called when every tuple with at most level contexts has been
// made: it reports whether the visible states stop growing at level-1
// (none new at level, and every generator reachable within level-1
// contexts), and records the result then.
func (v *visibleTracker) done(level int) bool {
	if level < 1 || v.failed {
		return false
	}
	if level < len(v.perLvl) && v.perLvl[level] > 0 {
		return false
	}
	if !v.genDone {
		v.genDone = true
		gens, err := generators(v.ctx, v.net, genDepth, v.key)
		if err != nil {
			v.failed = true
			return false
		}
		v.gens = gens
	}
	for _, g := range v.gens {
		if j, ok := v.seen[g]; !ok || j > level-1 {
			return false
		}
	}
	v.result = &cbr.VisibleConvergence{Level: level - 1, Explored: level, States: len(v.seen), Generators: len(v.gens), Depth: genDepth}
	return true
}

// absState is a configuration of the abstraction: every stack cut to its
// top frames (Config, bottom first), and per thread whether frames may
// lie below them (trunc).
type absState struct {
	c     explicit.Config
	trunc []bool
}

func (s absState) key() string {
	var b strings.Builder
	b.WriteString(s.c.Key())
	for _, t := range s.trunc {
		if t {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// generators over-approximates the visible states that a pop step
// produces in some reachable configuration (CUBA's generators, package
// documentation, "Visible states"): it explores the configurations with
// every stack cut to its depth top frames, the frames cut off collected
// per thread (below); a thread whose one frame left has frames cut off
// below it runs from each collected frame put below it (and more frames
// below that, or none). It repeats until no new frame is cut off. It
// returns the keys of the generators, sorted, or an error when the
// abstraction exceeds maxGenStates or a limit stops it.
func generators(ctx context.Context, net *pds.Network, depth int, key func([]uint64, []int) string) ([]string, error) {
	return generatorsBy(ctx, net, depth, key, newRuleTable(net))
}

// generatorsBy is generators with the steps from tab, or from
// explicit.Stepper when tab is nil: rounds of the abstraction's search,
// until a round cuts off no new frame (then the frames put below are all
// those that can lie below, and the pops it saw are every reachable
// pop's visible state).
func generatorsBy(ctx context.Context, net *pds.Network, depth int, key func([]uint64, []int) string, tab *ruleTable) ([]string, error) {
	g := &genSearch{net: net, depth: depth, key: key, tab: tab, n: len(net.Threads),
		st: explicit.NewStepper(net, net.MaxThreads, 1<<20), moves: map[string][]move{}}
	g.below = make([]map[string]explicit.Frame, g.n)
	for i := range g.below {
		g.below[i] = map[string]explicit.Frame{}
	}
	for {
		gens, err := g.round(ctx)
		if err != nil {
			return nil, err
		}
		if !g.grew {
			out := make([]string, 0, len(gens))
			for k := range gens {
				out = append(out, k)
			}
			slices.Sort(out)
			return out, nil
		}
	}
}

// genSearch is the search of the abstraction that over-approximates the
// generators (package documentation, "Visible states"): every stack cut to
// its depth top frames, the frames cut off collected per thread (below).
type genSearch struct {
	net   *pds.Network
	depth int
	key   func([]uint64, []int) string
	n     int                         // threads
	below []map[string]explicit.Frame // frames cut off, per thread, by frameKey
	grew  bool                        // a frame was cut off for the first time in this round
	// A thread's steps depend on the globals and its own stack only (no
	// forks): they are computed once per such pair (moves), from a table
	// of every rule's solutions (tab) when no return value is received,
	// else by the explicit semantics (st).
	tab   *ruleTable
	st    *explicit.Stepper
	moves map[string][]move
	kb    []byte
}

// round explores the abstraction once, from the initial configurations
// with their stacks cut, and returns the visible states its pops produce.
func (g *genSearch) round(ctx context.Context) (map[string]bool, error) {
	g.grew = false
	gens := map[string]bool{}
	seen := map[string]bool{}
	var work []absState
	push := func(s absState) {
		k := s.key()
		if !seen[k] {
			seen[k] = true
			work = append(work, s)
		}
	}
	// The initial configurations one at a time: open data may have
	// more of them than the search would ever hold.
	explicit.EachInitial(g.net, func(c explicit.Config) bool {
		s := absState{c: c, trunc: make([]bool, g.n)}
		for i := range g.n {
			g.cut(&s, i)
		}
		push(s)
		return len(seen) <= maxGenStates && ctx.Err() == nil
	})
	for len(work) > 0 {
		if len(seen) > maxGenStates {
			return nil, errors.New("cbr: too many abstract states for the generators")
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for z := range g.n {
			for _, from := range g.froms(s, z) {
				succ, err := g.step(from.c, z)
				if err != nil {
					return nil, err
				}
				for _, c := range succ {
					ns := absState{c: c, trunc: slices.Clone(from.trunc)}
					if len(c.Threads[z]) < len(from.c.Threads[z]) {
						gens[g.visKey(c)] = true // a pop
					}
					g.cut(&ns, z)
					push(ns)
				}
			}
		}
	}
	return gens, nil
}

// froms returns the abstract configurations to run thread z from in s:
// s itself, or, when z has one frame left with frames cut off below it,
// s with each frame collected for z put below that frame, with or without
// more frames below (in the order of the frames' keys).
func (g *genSearch) froms(s absState, z int) []absState {
	if len(s.c.Threads[z]) != 1 || !s.trunc[z] {
		return []absState{s}
	}
	ks := make([]string, 0, len(g.below[z]))
	for k := range g.below[z] {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var froms []absState
	for _, k := range ks {
		for _, more := range []bool{false, true} {
			c := cloneConfig(s.c)
			c.Threads[z] = append([]explicit.Frame{g.below[z][k]}, c.Threads[z]...)
			tr := slices.Clone(s.trunc)
			tr[z] = more
			froms = append(froms, absState{c: c, trunc: tr})
		}
	}
	return froms
}

// cut cuts thread i's stack in s to its depth top frames, marks that
// frames lie below and collects the frames cut off (grew when one is
// new).
func (g *genSearch) cut(s *absState, i int) {
	for len(s.c.Threads[i]) > g.depth {
		f := s.c.Threads[i][0]
		s.c.Threads[i] = s.c.Threads[i][1:]
		s.trunc[i] = true
		k := frameKey(f)
		if _, ok := g.below[i][k]; !ok {
			g.below[i][k] = f
			g.grew = true
		}
	}
}

// frameKey encodes a frame: its label and locals.
func frameKey(f explicit.Frame) string {
	var b strings.Builder
	binary.Write(&b, binary.LittleEndian, int64(f.Label.ID))
	for _, l := range f.Locals {
		binary.Write(&b, binary.LittleEndian, l)
	}
	return b.String()
}

// step returns the configurations thread z's steps reach from c (its
// moves, computed once per globals and stack).
func (g *genSearch) step(c explicit.Config, z int) ([]explicit.Config, error) {
	g.kb = binary.AppendUvarint(g.kb[:0], uint64(z))
	for _, v := range c.Globals {
		g.kb = binary.AppendUvarint(g.kb, v)
	}
	for _, f := range c.Threads[z] {
		g.kb = binary.AppendUvarint(g.kb, uint64(f.Label.ID))
		for _, l := range f.Locals {
			g.kb = binary.AppendUvarint(g.kb, l)
		}
	}
	ms, ok := g.moves[string(g.kb)]
	if !ok {
		k := string(g.kb)
		if g.tab != nil {
			ms = g.tab.moves(c.Globals, c.Threads[z])
		} else {
			succ, _, _, err := g.st.Successors(c, z)
			if err != nil {
				return nil, err
			}
			ms = []move{}
			for _, d := range succ {
				ms = append(ms, move{d.Globals, d.Threads[z]})
			}
		}
		g.moves[k] = ms
	}
	out := make([]explicit.Config, len(ms))
	for i, mv := range ms {
		d := explicit.Config{Globals: slices.Clone(mv.globals), Threads: slices.Clone(c.Threads)}
		d.Threads[z] = slices.Clone(mv.stack)
		out[i] = d
	}
	return out, nil
}

// visKey returns the key of c's visible state.
func (g *genSearch) visKey(c explicit.Config) string {
	gl := make([]uint64, len(g.net.Globals))
	for i, v := range g.net.Globals {
		gl[i] = c.Globals[v.Index]
	}
	tops := make([]int, g.n)
	for i, s := range c.Threads {
		tops[i] = -1
		if len(s) > 0 {
			tops[i] = s[len(s)-1].Label.ID
		}
	}
	return g.key(gl, tops)
}

func cloneConfig(c explicit.Config) explicit.Config {
	d := explicit.Config{Globals: slices.Clone(c.Globals), Threads: make([][]explicit.Frame, len(c.Threads))}
	for i, s := range c.Threads {
		d.Threads[i] = slices.Clone(s)
	}
	return d
}

// watchVisible starts tracking the reachable visible states when the
// criterion applies: unbounded runs that count contexts on networks
// without locals and forks.
func (a *analysis) watchVisible(ctx context.Context) {
	if !a.opts.Unbounded || a.opts.Unit == cbr.Preemptions || !visibleApplies(a.net) {
		return
	}
	a.vis = newVisibleTracker(ctx, a.net)
	inner := a.opts.OnTuple
	a.opts.OnTuple = func(level int, t split.Tuple) {
		if inner != nil {
			inner(level, t)
		}
		a.vis.tuple(level, t)
	}
}

// move is a thread's step: the new globals and the thread's new stack.
type move struct {
	globals []uint64
	stack   []explicit.Frame
}

// ruleTable holds, for a network without locals and without receive
// relations, every rule's solutions by the globals' values before it:
// the globals after it (and, for a pop, nothing else matters). It gives
// the steps of explicit.Successors without a BDD operation per step (the
// unused local and return bits are left to any value: at worst more
// steps, so more generators, which is sound).
type ruleTable struct {
	net  *pds.Network
	cur  []bdd.Vec // globals, copy GCur, in Globals' Index order
	next []bdd.Vec
	// sols holds the solutions by relation: rules with equal relations
	// (the same node; CUBA's Dekker has 2,698 rules over 129 shared
	// states) share them. The rules hold their relations, so the node ids
	// stay theirs.
	sols map[int]map[string][][]uint64
}

// newRuleTable returns the table, or nil when the network has locals or a
// receive relation (the steps then come from explicit.Stepper).
func newRuleTable(net *pds.Network) *ruleTable {
	for _, p := range net.Procs {
		if len(p.Locals) > 0 {
			return nil
		}
	}
	for _, l := range net.Labels {
		if l.Recv != nil {
			return nil
		}
	}
	t := &ruleTable{net: net, sols: map[int]map[string][][]uint64{}}
	byIndex := make([]*pds.Global, len(net.Globals))
	for _, g := range net.Globals {
		byIndex[g.Index] = g
	}
	for _, g := range byIndex {
		t.cur = append(t.cur, net.GlobalVec(g, pds.GCur))
		t.next = append(t.next, net.GlobalVec(g, pds.GNext))
	}
	return t
}

func globalsKey(vals []uint64) string {
	var b []byte
	for _, v := range vals {
		b = binary.AppendUvarint(b, v)
	}
	return string(b)
}

// solutions returns the globals after r from the globals g before it.
func (t *ruleTable) solutions(r *pds.Rule, g []uint64) [][]uint64 {
	byG := t.sols[r.Rel.ID()]
	if byG == nil {
		byG = map[string][][]uint64{}
		n := len(t.cur)
		t.net.M.Enumerate(r.Rel, append(slices.Clone(t.cur), t.next...), func(vals []uint64) bool {
			k := globalsKey(vals[:n])
			byG[k] = append(byG[k], slices.Clone(vals[n:]))
			return true
		})
		t.sols[r.Rel.ID()] = byG
	}
	return byG[globalsKey(g)]
}

// moves returns the steps of a thread with the given stack (bottom first)
// at globals g.
func (t *ruleTable) moves(g []uint64, stack []explicit.Frame) []move {
	out := []move{}
	if len(stack) == 0 {
		return out
	}
	depth := len(stack)
	top := stack[depth-1]
	with := func(g2 []uint64, keep int, frames ...explicit.Frame) {
		s := append(slices.Clone(stack[:keep]), frames...)
		out = append(out, move{g2, s})
	}
	for _, r := range t.net.RulesFrom(top.Label) {
		for _, g2 := range t.solutions(r, g) {
			switch r.Kind {
			case pds.Step:
				with(g2, depth-1, explicit.Frame{Label: r.To})
			case pds.Push:
				with(g2, depth-1, explicit.Frame{Label: r.Ret}, explicit.Frame{Label: r.To})
			case pds.Pop:
				with(g2, depth-1)
			}
		}
	}
	return out
}
