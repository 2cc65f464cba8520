package auto

// WithoutCancel returns e letting both engines run to their end.
func WithoutCancel(e Engine) Engine {
	e.noCancel = true
	return e
}

// Holding returns e holding the named engine back until the other has
// returned, or the portfolio stops it.
func Holding(e Engine, engine string) Engine {
	for i, n := range names {
		if n == engine {
			e.hold = 1 + i
		}
	}
	return e
}
