package main

import (
	"fmt"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds/plural"
)

// visibleWords says the criterion that proved a verdict for every bound
// from the reachable visible states (cbr's documentation, "Visible
// states").
func visibleWords(v *cbr.VisibleConvergence, u cbr.Unit) string {
	return fmt.Sprintf("the reachable visible states (%d: the globals with every thread's top of stack) stop growing at %s: none is new with %s, "+
		"and each of the %s a return can produce (over-approximated with the top %s of every stack) is reachable by then",
		v.States, units(v.Level, u), units(v.Explored, u), plural.Count(v.Generators, "visible state"), plural.Count(v.Depth, "frame"))
}
