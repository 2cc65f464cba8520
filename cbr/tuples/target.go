package tuples

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// Targets (pds.Target, CUBA's visible states) are checked in every
// tuple and post* result, with the start-global correlation.

// topGlobals returns the globals under which v satisfies the condition.
func topGlobals(v *symauto.Auto, c Top) bdd.Node {
	switch {
	case c.Any:
		return v.Accepting()
	case c.Empty:
		return v.Finished()
	}
	return v.TopGlobals(c.Label)
}

func targetTop(t *pds.Target, i int) pds.Top {
	if i < len(t.Tops) {
		return t.Tops[i]
	}
	return pds.Top{Any: true}
}

// targetGlobals returns the target's condition on the current globals.
func targetGlobals(n *pds.Network, t *pds.Target) bdd.Node {
	m := n.M
	if t.Never {
		return m.False()
	}
	r := m.True()
	for _, v := range t.Globals {
		r = m.And(r, m.Value(bdd.Ref{Var: v.Global.Var, Copy: pds.GCur}, v.Value))
	}
	return r
}

// checkTargets reports the targets reached in tuple t (active < 0) or in
// the post* result of its active thread: with the start globals Gs of the
// tagged result, EXISTS Gs, G. Globals(G) AND top_active(Gs, G) AND every
// other view's condition at Gs (their stacks did not move).
func (a *analysis) checkTargets(t split.Tuple, active int, post *symauto.Auto, level int) error {
	m := a.net.M
	for k := range a.opts.Targets {
		tg := &a.opts.Targets[k]
		if a.found[tg] {
			continue
		}
		cond := targetGlobals(a.net, tg)
		if active < 0 {
			cond = m.And(cond, t.Domain)
			for i, v := range t.Views {
				cond = m.And(cond, topGlobals(v, targetTop(tg, i)))
			}
		} else {
			others := m.True()
			for i, v := range t.Views {
				if i != active {
					others = m.And(others, topGlobals(v, targetTop(tg, i)))
				}
			}
			cond = m.And(cond, topGlobals(post, targetTop(tg, active)), a.sp.CurToStart(others))
		}
		if cond.IsFalse() {
			continue
		}
		a.found[tg] = true
		a.traceFound(tg, active)
		if err := a.addFound(cbr.Found{Kind: pds.Normal, Target: tg, Pos: tg.Pos, Thread: active, Contexts: level, Message: tg.Name}); err != nil {
			return err
		}
	}
	return nil
}
