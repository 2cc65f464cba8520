package pds

// Target is a visible state to reach: values of some globals together
// with a condition on the top of every thread's stack. It is reached when
// some reachable configuration satisfies all parts at once (CUBA's .spec
// targets). Readers build targets (frontend/cuba); every engine takes them
// in its options and reports a reached one as a violation whose Target is
// set.
type Target struct {
	Name    string
	Pos     Pos
	Globals []Value // globals that must have these values; the others any
	Tops    []Top   // by thread; threads beyond the slice may have any stack
	Never   bool    // a target known to be unreachable (a reader found so)
}

// Value is a global with a value.
type Value struct {
	Global *Global
	Value  uint64
}

// Top is the condition on one thread's stack in a Target.
type Top struct {
	Any   bool   // any stack, empty or not
	Empty bool   // the thread has finished
	Label *Label // otherwise: this label on top
}
