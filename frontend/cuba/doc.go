// Package cuba reads the concurrent pushdown systems of CUBA (Liu and
// Wahl, "Context-Unbounded Analysis of Concurrent Pushdown Systems",
// PLDI 2018) into a [pds.Network], with their initial configuration and
// target visible state.
//
// # The format
//
// A system is three files (docs/benchmarks.md describes the suite):
//
//   - .pds: "#" starts a comment to the end of the line; blank lines are
//     skipped; "\r" is white space, so CRLF files read as LF files. The
//     first line is the count S of shared states 0..S-1. Then blocks, each
//     starting with a line "PDA l1 l2" (a declared symbol range, which the
//     suite does not respect and this reader only records). One block is
//     one thread, thread 0 first. Every further line of a block is a rule
//     over shared states s, s' and stack symbols a, b, c (unsigned
//     integers, each thread with its own namespace):
//     "s a -> s' b c" pushes (b on top, c below it), "s a -> s' b"
//     overwrites the top a by b, "s a -> s' -" pops. A rule fires when the
//     shared state is s and the thread's top is a, and sets the shared
//     state to s'. A thread with an empty stack is finished.
//   - .init: one line "q|w0,w1,..." with the initial shared state q and one
//     stack per thread, in block order; a stack is symbols separated by
//     ".", bottom first, top last. An empty stack is written "" or "-".
//   - .spec: one line "q|t0,t1,..." with a target visible state: a shared
//     state and each thread's top symbol, "-" for an empty stack.
//
// Fields are separated by white space in .pds lines; white space around
// the fields of .init and .spec lines is ignored. A UTF-8 byte-order mark
// at the very start of any of the three files is skipped.
//
// [LooksLikeSystem] tells, from the first lines only, whether a source is
// a CUBA .pds file rather than a program of the .pds modelling language
// (package frontend), which shares the extension.
//
// # The mapping
//
//	CUBA                      pds
//	shared states 0..S-1      global "shared", pds.EnumType("shared", "0", ..., "S-1")
//	                          (ceil(log2 S) bits, at least one; Validate checks
//	                          that no rule produces a value >= S)
//	block i                   procedure T<i> without locals, thread T<i>
//	stack symbol a of i       label T<i>.<a> of T<i>, created in increasing
//	                          symbol order, for every symbol of i's rules and
//	                          initial stack; its position is the first occurrence
//	s a -> s' b c             Push(T<i>.a, T<i>.b, T<i>.c, rel)
//	s a -> s' b               Step(T<i>.a, T<i>.b, rel)
//	s a -> s' -               Pop(T<i>.a, rel)
//	rel                       shared == s ∧ shared' == s'
//	.init q|w0,...            shared's initial value q; thread i's frames w_i,
//	                          bottom first, without locals
//	.spec                     a [Target]: shared state and per thread a label or nil
//
// No return values are passed (no receive relations), so a pop leaves the
// shared state at s' and exposes the symbol below. A procedure's entry is
// its lowest symbol; CUBA has no calls by entry, so it does not matter.
// A target symbol that never occurs in its thread has no label; the
// Target is then marked Unreachable instead of rejected.
//
// # Errors
//
// Malformed input is never a panic. Errors are collected in an [ErrorList]
// (the module's one error list, shared with package frontend and
// pds.Network.Validate) of "file:line: message" entries in file order, at
// most [MaxErrors] of them and then "too many errors": a rule before the
// first block, a missing or zero shared-state count, a state out of range
// 0..S-1, a symbol above [MaxSymbol], a non-numeric, negative or
// overflowing number, a malformed line, a number of initial stacks or
// target tops different from the number of blocks. [Read] returns either
// an Instance or errors; [ParsePDS] returns the partial [System] along
// with its errors.
package cuba
