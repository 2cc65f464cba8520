package interp

import (
	"sort"
	"strconv"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/token"
	"github.com/cbreach/cbreach/frontend/types"
)

// Initial returns the initial configurations: one per choice of the
// globals declared with = ? (enums over their constants only).
func (p *Program) Initial() []Config {
	base := Config{Globals: make([]uint64, p.nG)}
	var anyCells []int
	var anyCount []uint64
	for _, v := range p.Info.Globals {
		off := p.gOff[v]
		switch init := v.Spec.Value.(type) {
		case nil:
		case *ast.Wildcard:
			for k := 0; k < cellsOf(v); k++ {
				anyCells = append(anyCells, off+k)
				anyCount = append(anyCount, count(v.Type()))
			}
		default:
			base.Globals[off] = types.Uint64(p.Info.Types[init].Value) & mask(v.Type().Bits())
		}
	}
	for _, s := range p.Info.Starts {
		pr := p.Info.ProcOf(s.Call)
		args := make([]uint64, len(s.Call.Args))
		for i, a := range s.Call.Args {
			args[i] = types.Uint64(p.Info.Types[a].Value)
		}
		base.Threads = append(base.Threads, []Frame{p.newFrame(pr, args)})
	}
	out := []Config{base}
	for i, cellIdx := range anyCells {
		var next []Config
		for _, c := range out {
			for v := uint64(0); v < anyCount[i]; v++ {
				d := c.clone()
				d.Globals[cellIdx] = v
				next = append(next, d)
			}
		}
		out = next
	}
	return out
}

// newFrame returns a procedure's entry frame with the given arguments.
func (p *Program) newFrame(pr *types.Proc, args []uint64) Frame {
	f := Frame{Proc: pr, PC: p.entryPoint(pr.Decl.Body), Locals: make([]uint64, p.nL[pr])}
	for i, a := range args {
		prm := pr.Params[i]
		f.Locals[p.lOff[prm]] = a & mask(prm.Type().Bits())
	}
	return f
}

// Successors returns the configurations one step of thread t leads to
// from c, without duplicates. A push deeper than maxDepth is not taken
// (capped); a start when maxThreads threads exist leads to a Cutoff point
// (cutoff).
func (p *Program) Successors(c Config, t, maxThreads, maxDepth int) (out []Config, cutoff, capped bool) {
	stack := c.Threads[t]
	if len(stack) == 0 {
		return nil, false, false
	}
	top := stack[len(stack)-1]
	w := world{g: c.Globals, l: top.Locals}
	seen := map[string]bool{}
	emit := func(d Config) {
		if k := d.Key(); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	// move returns c with the top frame replaced by (pc, w) and extra
	// frames pushed.
	move := func(w world, pc Point, push ...Frame) Config {
		d := c.clone()
		d.Globals = append([]uint64(nil), w.g...)
		st := d.Threads[t]
		st[len(st)-1] = Frame{top.Proc, pc, append([]uint64(nil), w.l...)}
		d.Threads[t] = append(st, push...)
		return d
	}
	emitResults := func(rs []result, next Point) {
		for _, r := range rs {
			pc := next
			if r.status == failed {
				pc = r.err
			}
			emit(move(r.w, pc))
		}
	}
	pc := top.PC
	switch pc.Kind {
	case End:
		p.ret(c, t, 0, emit)
		return out, false, false
	case Stmt:
	default:
		return nil, false, false // waiting or dead
	}
	switch s := pc.Node.(type) {
	case *ast.VarSpec:
		if call, ok := s.Value.(*ast.CallExpr); ok {
			capped = p.call(c, t, call, w, move, emit, maxDepth)
			break
		}
		emitResults(p.declare(s, w), p.after(s))
	case *ast.SkipStmt:
		emit(move(w, p.after(s)))
	case *ast.AssignStmt:
		if call, ok := s.Rhs[0].(*ast.CallExpr); ok && len(s.Rhs) == 1 {
			capped = p.call(c, t, call, w, move, emit, maxDepth)
			break
		}
		emitResults(p.assign(s, w), p.after(s))
	case *ast.CallStmt:
		capped = p.call(c, t, s.Call, w, move, emit, maxDepth)
	case *ast.ReturnStmt:
		var v uint64
		if s.Result != nil {
			var site ast.Expr
			v, site = p.eval(s.Result, w)
			if site != nil {
				emit(move(w, errPoint(site)))
				break
			}
			v &= mask(top.Proc.Result.Bits())
		}
		p.ret(c, t, v, emit)
	case *ast.IfStmt:
		then := p.entryPoint(s.Then)
		els := p.after(s)
		if s.Else != nil {
			els = p.entryPoint(s.Else)
		}
		p.branch(s.Cond, w, then, els, move, emit)
	case *ast.WhileStmt:
		p.branch(s.Cond, w, p.entryPoint(s.Body), p.after(s), move, emit)
	case *ast.BranchStmt:
		target := p.Info.Targets[s]
		switch s.Tok {
		case token.BREAK:
			emit(move(w, p.after(target)))
		case token.CONTINUE:
			emit(move(w, Point{target, Stmt}))
		default:
			l := target.(*ast.LabeledStmt)
			emit(move(w, p.entryPoint(l)))
		}
	case *ast.AssertStmt:
		emitResults(p.check(s, w), p.after(s))
	case *ast.AtomicStmt:
		emitResults(p.atomic(s.Body.List, w), p.after(s))
	case *ast.StartStmt:
		args, site := p.args(s.Call, w)
		if site != nil {
			emit(move(w, errPoint(site)))
			break
		}
		if len(c.Threads) >= maxThreads {
			cutoff = true
			emit(move(w, Point{s, Cutoff}))
			break
		}
		d := move(w, p.after(s))
		d.Threads = append(d.Threads, []Frame{p.newFrame(p.Info.ProcOf(s.Call), args)})
		emit(d)
	default:
		panic("interp: unexpected statement")
	}
	return out, cutoff, capped
}

func (p *Program) branch(cond ast.Expr, w world, then, els Point, move func(world, Point, ...Frame) Config, emit func(Config)) {
	if _, ok := cond.(*ast.Wildcard); ok {
		emit(move(w, then))
		emit(move(w, els))
		return
	}
	v, site := p.eval(cond, w)
	switch {
	case site != nil:
		emit(move(w, errPoint(site)))
	case v == 1:
		emit(move(w, then))
	default:
		emit(move(w, els))
	}
}

func (p *Program) args(call *ast.CallExpr, w world) ([]uint64, ast.Expr) {
	args := make([]uint64, len(call.Args))
	for i, a := range call.Args {
		v, site := p.eval(a, w)
		if site != nil {
			return nil, site
		}
		args[i] = v
	}
	return args, nil
}

// call pushes the callee's frame; it reports whether the depth cap
// stopped it.
func (p *Program) call(c Config, t int, call *ast.CallExpr, w world, move func(world, Point, ...Frame) Config, emit func(Config), maxDepth int) bool {
	stack := c.Threads[t]
	node := stack[len(stack)-1].PC.Node
	args, site := p.args(call, w)
	if site != nil {
		emit(move(w, errPoint(site)))
		return false
	}
	if len(stack)+1 > maxDepth {
		return true
	}
	emit(move(w, Point{node, Wait}, p.newFrame(p.Info.ProcOf(call), args)))
	return false
}

// ret pops the top frame of thread t returning v and delivers v to the
// caller in the same step.
func (p *Program) ret(c Config, t int, v uint64, emit func(Config)) {
	d := c.clone()
	st := d.Threads[t]
	st = st[:len(st)-1]
	d.Threads[t] = st
	if len(st) == 0 {
		emit(d)
		return
	}
	caller := &st[len(st)-1]
	w := world{g: d.Globals, l: caller.Locals}
	var x *types.Var
	k := 0
	switch s := caller.PC.Node.(type) {
	case *ast.VarSpec:
		x = p.Info.Specs[s]
	case *ast.AssignStmt:
		x = p.Info.VarOf(s.Lhs[0])
		if ix, ok := s.Lhs[0].(*ast.IndexExpr); ok {
			var site ast.Expr
			if k, site = p.indexOf(ix, w); site != nil {
				caller.PC = errPoint(site)
				emit(d)
				return
			}
		}
	}
	if x != nil {
		p.store(w, x, k, v)
	}
	caller.PC = p.after(caller.PC.Node)
	emit(d)
}

// Options bound an exploration, as explicit.Options do.
type Options struct {
	Contexts   int
	MaxDepth   int
	MaxThreads int
	MaxConfigs int
}

// Reach is a reached configuration with the fewest contexts.
type Reach struct {
	Config   Config
	Contexts int
}

// Result is the outcome of Explore.
type Result struct {
	Reached     []Reach
	CutOff      bool
	DepthCapped bool
	TooMany     bool // more than MaxConfigs configurations
}

// Explore enumerates the configurations reachable within opts.Contexts
// contexts, with the fewest contexts for each, by the same definition as
// package pds/explicit: the first step of any thread starts context 1, a
// step by the thread that made the last step stays in its context, a step
// by another thread starts a new one.
func (p *Program) Explore(opts Options) *Result {
	type state struct {
		c    Config
		last int
	}
	res := &Result{}
	best := map[string]int{}      // (config, last) -> fewest contexts
	reached := map[string]Reach{} // config -> fewest contexts
	key := func(c Config, last int) string { return c.Key() + "#" + strconv.Itoa(last) }
	buckets := make([][]state, opts.Contexts+2)
	for _, c := range p.Initial() {
		best[key(c, -1)] = 0
		buckets[0] = append(buckets[0], state{c, -1})
	}
	for j := 0; j <= opts.Contexts; j++ {
		for i := 0; i < len(buckets[j]); i++ {
			s := buckets[j][i]
			if best[key(s.c, s.last)] < j {
				continue
			}
			ck := s.c.Key()
			if r, ok := reached[ck]; !ok || r.Contexts > j {
				reached[ck] = Reach{s.c, j}
			}
			if opts.MaxConfigs > 0 && len(reached) > opts.MaxConfigs {
				res.TooMany = true
				return res
			}
			for t := range s.c.Threads {
				nj := j
				if t != s.last {
					nj = j + 1
				}
				if nj > opts.Contexts {
					continue
				}
				succ, cut, capped := p.Successors(s.c, t, opts.MaxThreads, opts.MaxDepth)
				res.CutOff = res.CutOff || cut
				res.DepthCapped = res.DepthCapped || capped
				for _, d := range succ {
					k := key(d, t)
					if b, ok := best[k]; ok && b <= nj {
						continue
					}
					best[k] = nj
					buckets[nj] = append(buckets[nj], state{d, t})
				}
			}
		}
	}
	keys := make([]string, 0, len(reached))
	for k := range reached {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		res.Reached = append(res.Reached, reached[k])
	}
	return res
}
