package cbr

import (
	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
)

// Target is a visible state to reach: a condition on the globals together
// with the top of every thread's stack. It is reached when some reachable
// configuration satisfies all parts at once (CUBA's .spec targets).
type Target struct {
	Name    string
	Pos     pds.Pos
	Globals bdd.Node // over the current globals (pds.GCur); True for any
	Tops    []Top    // by thread; threads beyond the slice may have any stack
}

// Top is the condition on one thread's stack in a Target.
type Top struct {
	Any   bool       // any stack, empty or not
	Empty bool       // the thread has finished
	Label *pds.Label // otherwise: this label on top
}

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

func (t *Target) top(i int) Top {
	if i < len(t.Tops) {
		return t.Tops[i]
	}
	return Top{Any: true}
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
		var cond bdd.Node
		if active < 0 {
			cond = m.And(tg.Globals, t.Domain)
			for i, v := range t.Views {
				cond = m.And(cond, topGlobals(v, tg.top(i)))
			}
		} else {
			others := m.True()
			for i, v := range t.Views {
				if i != active {
					others = m.And(others, topGlobals(v, tg.top(i)))
				}
			}
			cond = m.And(tg.Globals, topGlobals(post, tg.top(active)), a.sp.CurToStart(others))
		}
		if cond.IsFalse() {
			continue
		}
		a.found[tg] = true
		if err := a.addFound(Found{Kind: pds.Normal, Target: tg, Pos: tg.Pos, Thread: active, Contexts: level, Message: tg.Name}); err != nil {
			return err
		}
	}
	return nil
}
