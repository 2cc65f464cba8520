package explicit

import "github.com/cbreach/cbreach/pds"

// Satisfies reports whether c is a state of the target t: the globals t
// names have their values and every thread's top its condition. A thread
// that does not exist (not started yet) satisfies only the condition Any.
func (c Config) Satisfies(t *pds.Target) bool {
	if t.Never {
		return false
	}
	for _, v := range t.Globals {
		if c.Globals[v.Global.Index] != v.Value {
			return false
		}
	}
	for i, top := range t.Tops {
		if top.Any {
			continue
		}
		if i >= len(c.Threads) {
			return false
		}
		st := c.Threads[i]
		switch {
		case top.Empty:
			if len(st) != 0 {
				return false
			}
		case len(st) == 0 || st[len(st)-1].Label != top.Label:
			return false
		}
	}
	return true
}
