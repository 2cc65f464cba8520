package cuba

import "github.com/cbreach/cbreach/cbr/engine"

// EngineTarget returns tg as the analysis engines take it: the shared
// state's value and, per thread, its top label or an empty stack.
func (inst *Instance) EngineTarget(tg *Target) engine.Target {
	t := engine.Target{Name: "visible state " + tg.String(), Pos: tg.Pos, Never: tg.Unreachable,
		Globals: []engine.Value{{Global: inst.Shared, Value: tg.Shared}}}
	for _, l := range tg.Tops {
		if l == nil {
			t.Tops = append(t.Tops, engine.Top{Empty: true})
		} else {
			t.Tops = append(t.Tops, engine.Top{Label: l})
		}
	}
	return t
}
