package states

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// reduction classifies steps for the partial-order reduction (package
// documentation, "Partial-order reduction"): a step is local when it
// neither reads nor writes a global and starts no thread, and invisible
// when, besides, the top it leaves is named by no target.
type reduction struct {
	localFrom []bool // by label ID: every rule from the label is a local step, push or pop, none a fork
	hasPop    []bool // by label ID: some rule from the label is a pop
	localRecv []bool // by label ID: the label receives a return without reading or writing globals
	named     []bool // by label ID: a target names the label as a top
	empty     bool   // a target asks for a finished thread
}

// classify computes the reduction's tables from the rules' relations.
func (a *search) classify() {
	n := a.net
	m := n.M
	var cur, nxt []bdd.Vec
	frame := m.True()
	for _, g := range n.Globals {
		c, x := n.GlobalVec(g, pds.GCur), n.GlobalVec(g, pds.GNext)
		cur, nxt = append(cur, c), append(nxt, x)
		frame = m.And(frame, m.Eq(c, x))
	}
	// independent: rel is (G' = G) AND a relation on the other variables.
	independent := func(rel bdd.Node) bool {
		if len(cur) == 0 {
			return true
		}
		rest := m.Exists(rel, m.SetOf(append(append([]bdd.Vec{}, cur...), nxt...)...))
		return rel.Equal(m.And(frame, rest))
	}
	r := &reduction{localFrom: make([]bool, len(n.Labels)), hasPop: make([]bool, len(n.Labels)),
		localRecv: make([]bool, len(n.Labels)), named: make([]bool, len(n.Labels))}
	for _, l := range n.Labels {
		r.localFrom[l.ID] = len(n.RulesFrom(l)) > 0
		for _, rule := range n.RulesFrom(l) {
			if rule.Kind == pds.Pop {
				r.hasPop[l.ID] = true
			}
			if rule.Kind == pds.Fork || !independent(rule.Rel) {
				r.localFrom[l.ID] = false
			}
		}
		r.localRecv[l.ID] = l.Recv == nil || independent(*l.Recv)
	}
	for _, tg := range a.opts.Targets {
		for _, top := range tg.Tops {
			switch {
			case top.Any:
			case top.Empty:
				r.empty = true
			default:
				r.named[top.Label.ID] = true
			}
		}
	}
	if m.Err() == nil {
		a.por = r
	}
}

// local reports whether every step of thread t from c is local: its top
// label's rules are, and a pop returns into a label that receives locally.
func (r *reduction) local(c explicit.Config, t int) bool {
	s := c.Threads[t]
	top := s[len(s)-1].Label
	if !r.localFrom[top.ID] {
		return false
	}
	return !r.hasPop[top.ID] || len(s) < 2 || r.localRecv[s[len(s)-2].Label.ID]
}

// invisible reports whether thread t's stack in d, reached by a local
// step of t, has a top no target names.
func (r *reduction) invisible(d explicit.Config, t int) bool {
	s := d.Threads[t]
	if len(s) == 0 {
		return !r.empty
	}
	return !r.named[s[len(s)-1].Label.ID]
}
