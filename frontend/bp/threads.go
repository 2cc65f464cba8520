package bp

import "github.com/cbreach/cbreach/pds"

// countThreads returns the number of threads the program can have (the
// initial ones and the starts along any run, pds.Flow) over the control
// flow the compiler lays out, on its labels; pds.Unbounded when a
// start_thread can repeat (in a loop, behind a backward goto, in
// recursion).
func (c *compiler) countThreads() int {
	f := &pds.Flow{}
	node := map[*pds.Label]int{}
	at := func(l *pds.Label) int {
		if i, ok := node[l]; ok {
			return i
		}
		for i, x := range l.Proc.Labels {
			node[x] = i
		}
		return node[l]
	}
	for _, v := range c.variants {
		p := v.p.Index
		f.Entry(p, at(v.p.Entry))
		if v.wait != nil {
			f.Step(p, at(v.wait), at(v.p.Entry))
		}
		c.flowStmts(f, v, v.pr.body, v.end, at)
	}
	var initial []int
	for _, p := range c.initial {
		initial = append(initial, p.Index)
	}
	return f.Threads(initial...)
}

func (c *compiler) flowStmts(f *pds.Flow, v *variant, list []*stmt, next *pds.Label, at func(*pds.Label) int) {
	for i, s := range list {
		nx := next
		if i+1 < len(list) {
			nx = v.labels[list[i+1]]
		}
		c.flowStmt(f, v, s, nx, at)
	}
}

// flowStmt adds the edges of one statement, as stmt adds its rules.
func (c *compiler) flowStmt(f *pds.Flow, v *variant, s *stmt, next *pds.Label, at func(*pds.Label) int) {
	from := v.labels[s]
	if from.Kind == pds.Assert {
		return // SLIC_ERROR
	}
	p := v.p.Index
	step := func(to *pds.Label) { f.Step(p, at(from), at(to)) }
	switch s.kind {
	case sGoto:
		for _, t := range s.targets {
			step(v.labels[c.in.scopes[v.pr].labels[t.name]])
		}
	case sReturn:
	case sIf:
		for i := range s.conds {
			step(c.first(v, s.blocks[i], next))
		}
		to := next
		if s.hasElse {
			to = c.first(v, s.blocks[len(s.conds)], next)
		}
		step(to)
		for _, b := range s.blocks {
			c.flowStmts(f, v, b, next, at)
		}
	case sWhile:
		step(c.first(v, s.body, from))
		step(next)
		c.flowStmts(f, v, s.body, from, at)
	case sCall:
		ret := v.extra[s]
		f.Call(p, at(from), at(ret), c.orig[c.in.procs[s.callee.name]].p.Index)
		f.Step(p, at(ret), at(next))
	case sStartThread:
		f.Start(p, at(from), at(next), c.clones[v.pr][s.targets[0].name].p.Index)
	case sEndThread:
		step(v.ended)
	default:
		// skip, assignments, assume, assert (its error label is a dead
		// end), atomic_begin and atomic_end.
		step(next)
	}
}
