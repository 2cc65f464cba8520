package schema

import "encoding/json"

// The engine's figures in Stats: written after the common ones under
// the engine's key, read back into Engines.

// common are the common figures, as JSON lays them out.
type common Stats

// MarshalJSON writes the common figures, then the engine's.
func (s Stats) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(common(s))
	if err != nil || s.Engine == "" || s.EngineStats == nil {
		return b, err
	}
	key, err := json.Marshal(s.Engine)
	if err != nil {
		return nil, err
	}
	val, err := json.Marshal(s.EngineStats)
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1:len(b)-1], ',')
	out = append(append(append(out, key...), ':'), val...)
	return append(out, '}'), nil
}

// UnmarshalJSON reads the common figures, and the engine's into
// Engines.
func (s *Stats) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*common)(s)); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for _, k := range []string{"timeSeconds", "postStarSteps", "peakNodes", "kernel"} {
		delete(all, k)
	}
	if len(all) > 0 {
		s.Engines = all
	}
	return nil
}

// Figure reads the figure named key of the engine's figures read from
// JSON into v, and reports whether there was one of v's type.
func (s Stats) Figure(key string, v any) bool {
	for _, raw := range s.Engines {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		if f, ok := m[key]; ok && json.Unmarshal(f, v) == nil {
			return true
		}
	}
	return false
}
