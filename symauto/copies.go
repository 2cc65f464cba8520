package symauto

import "github.com/cbreach/cbreach/pds"

// The copies of the globals and of the local block, by role. A network's
// layout holds pds.GlobalCopies and pds.LocalCopies copies; pds names the
// ones its rules read and write, this package names and uses the others
// (doc.go has the table from the paper's notation).
const (
	GCur    = pds.GCur  // G: current globals
	GNext   = pds.GNext // G': after a rule
	GEntry  = 2         // Ge: at entry of the frame a transition reads
	GLink   = 3         // Gl: a callee's entry values, on mid-state and epsilon labels
	GStart  = 4         // Gs: at the start of the context; between contexts, the tuple's global
	GStart2 = 5         // Gt: a second start copy, for binary relations on start globals

	numGlobalCopies = 6

	LCur   = pds.LCur   // L: the top frame's locals
	LNext  = pds.LNext  // L': after a rule
	LSaved = pds.LSaved // L'': the frame saved below a push
	LEntry = 3          // Le: at entry of the frame
	LLink  = 4          // Ll: a callee's entry locals

	numLocalCopies = 5
)

// The layout must hold every copy named here: these fail to compile when
// pds declares fewer.
const (
	_ = uint(pds.GlobalCopies - numGlobalCopies)
	_ = uint(pds.LocalCopies - numLocalCopies)
)
