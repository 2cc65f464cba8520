// Package symauto holds BDD-labelled P-automata for the view of one thread
// (a regular set of (global valuation, stack) configurations) and computes
// post* by symbolic saturation with procedure summaries: the jMoped paper's
// Sections 2.3 and 3.2, Schwoon's thesis ("Model-Checking Pushdown
// Systems", 2002, ch. 3 and 4), docs/design.md "Symbolic automata and post*" and
// docs/poststar.md.
//
// # Automata
//
// An [Auto] has one initial state p, one final state s and mid-states. A
// mid-state is named by a [StateName]: the label a push put on top and the
// context level of that push, so summaries of different contexts never mix
// (the states holding an initial stack of several frames are named apart).
// Labels are BDDs over copies of the globals and the local block; which
// copies a label carries depends on the kind of transition:
//
//	p -γ-> q     T(G, L, Ge, Le [, Gs])       top frame: current values and its entry values
//	m -γ-> q     M(Gl, Ll, L, Ge, Le [, Gs])  callee entered with (Gl, Ll); caller at γ
//	p -ε-> m     E(G, R, Gl, Ll [, Gs])       a return: internal to post*
//	p -ε-> s     F(G [, Gs])                  the thread has finished
//
// A word (g, γ1 l1 ... γn ln) is accepted when the labels along a path can
// be chained: the entry values a transition names (Ge, Le) are the callee
// entry values (Gl, Ll) of the next one. Transitions into s drop their
// entry values: the bottom frame has no caller. Gs, the globals at the
// start of the context, appears only while a splitter has tagged the view
// (Tag). An Auto is a value: every operation returns a new one.
//
// # Copies
//
// The network's layout holds pds.GlobalCopies copies of every global and
// pds.LocalCopies of the local block; pds names those its rules use, this
// package names the others and gives every copy its role (copies.go):
//
//	paper  name     role
//	G      GCur     current globals (a rule's input; pds)
//	G'     GNext    after a rule (pds)
//	Ge     GEntry   at entry of the frame a transition reads
//	Gl     GLink    a callee's entry values, on mid-state and epsilon labels
//	Gs     GStart   at the start of the context; between contexts the tuple's global (lazy)
//	Gt     GStart2  a second start copy, for relations between start globals (confluence, order)
//	L      LCur     the top frame's locals (pds)
//	L'     LNext    after a rule: the new top (pds)
//	L''    LSaved   the frame saved below a push (pds)
//	Le     LEntry   at entry of the frame
//	Ll     LLink    a callee's entry locals
//	R      ret      the return register, one copy (pds.Network.RetVar)
//
// Within, the simulation between two automata, needs a second set of
// parameters apart from the first: it renames the second automaton's Gl,
// Ll to GNext, LNext and its Ge, Le to GStart, LSaved, copies that no
// untagged label uses (simLinkG ... simEntryL in within.go). A
// [Simulation] first tries the relation that ties each parameter to the
// same parameter of the other automaton (one copy, no renaming), which is
// a simulation too and decides most tests; it computes the full relation
// only where that one leaves globals unproven, and evaluates the initial
// states only at the globals asked about (Simulation.At).
//
// # Saturation
//
// [Saturation] is a stepwise object (Step, Done, Result, an OnAdd
// early-stop hook; [PostStar] runs it to the end with cancellation). Its
// worklist holds label differences of transitions leaving p; each step
// applies the rules of the transition's label:
//
//	rule             adds                                                   Schwoon
//	step γ -> γ'     p -γ'-> q  with image(d)                                lines 9-10
//	push γ -> γe γr  p -γe-> m(γe, level) and m -γr-> q, and composes the    lines 11-17
//	                 new m -γr-> q with the epsilons already into m
//	pop  γ -> ε      p -ε-> q; into a mid-state, composed with each          lines 7-8, 18-20
//	                 m -γr-> q' through γr's receive relation
//
// The receive relation (pds.Label.Recv) stores the returned value in the
// same composition that pops the frame, and the register R is quantified
// there: no context switch can see it (docs/design.md, "Return values"). Epsilon
// transitions into mid-states are dropped from the result.
//
// [Saturation.Changed] over-approximates the start globals whose post*
// added anything: the union over transitions of the label growth projected
// onto Gs (docs/design.md, "Stale start globals").
//
// # Queries
//
// Acceptance is a backward fixpoint over states with BDD labels (mid-states
// can form cycles through recursion), computed once per automaton and
// cached. On it rest: [Auto.Accepting] (U'(gs, g) of the paper's Section
// 3.2), [Auto.TopGlobals] and [Auto.Tops] (error labels on top),
// [Auto.Finished], and [Auto.Trim]. Splitting uses [Auto.Tag],
// [Auto.Restrict] (the paper's equation (2)) and [Auto.Rebase] (equation
// (1)); [Auto.Canonical] and [Auto.Hash] let the driver recognise identical
// tuples (both are kept with the automaton until it changes, and Equal
// answers at once for one pointer). For tests and tools: [Auto.Contains], [Auto.Enumerate] (explicit
// configurations up to a depth), [Auto.Dump] and [Auto.WriteDOT] (below).
//
// # Drawing
//
// [Auto.WriteDOT] writes an automaton as it is in Graphviz's DOT
// language, for people debugging post* or a splitter: a node per state
// (p marked initial, s final), an edge per transition labelled with its
// stack symbol, the size of its BDD and its relation printed as
// --print-rules prints a rule's (pds.Network.FormatFields: the first
// pds.MaxPrintedAssignments assignments, then their number) over the
// copies named x, x@e, x@l, x@s for the globals' G, Ge, Gl, Gs and y,
// y@e, f.y@l for the locals' L, Le, Ll. It is library API only; the
// command line draws traces (--dot), not automata. Render with
// "dot -Tsvg view.dot".
//
// # Witnesses
//
// For counterexample traces, [Saturation.Record] makes a saturation keep
// every label increment with its origin (the rule and the increment it
// read, or the two labels of a composition), and [Saturation.Back] walks
// a concrete accepted [Path] of the result back to the automaton the
// saturation started from, step by step: Schwoon's witness generation for
// post* in symbolic form (docs/traces.md). [Auto.PickPath],
// [Auto.FindPath] and [Auto.WordGlobals] choose and find concrete paths;
// [Space.Concrete] reads their values. Every choice is the least
// (bdd.Manager.Pick), so the same automaton gives the same path.
//
// # Cost
//
// A saturation step costs one relational product per rule of the label
// (plus a renaming); the number of steps is bounded by the number of label
// growths, at most the number of transitions times the number of values
// their labels can take, and in practice a few per transition.
package symauto
