package cuba

import "github.com/cbreach/cbreach/pds"

// EngineTarget returns tg as the analysis engines take it: the shared
// state's value and, per thread, its top label or an empty stack.
func (inst *Instance) EngineTarget(tg *Target) pds.Target {
	t := pds.Target{Name: "visible state " + tg.String(), Pos: tg.Pos, Never: tg.Unreachable,
		Globals: []pds.Value{{Global: inst.Shared, Value: tg.Shared}}}
	for _, l := range tg.Tops {
		if l == nil {
			t.Tops = append(t.Tops, pds.Top{Empty: true})
		} else {
			t.Tops = append(t.Tops, pds.Top{Label: l})
		}
	}
	return t
}
