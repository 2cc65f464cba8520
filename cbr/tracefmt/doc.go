// Package tracefmt shows counterexample traces (cbr.Trace) to people: the
// words of their parts, which the command line's text traces use
// (Printer: globals, stacks, configurations, the position and statement
// of each step, how each context began; Describe for a violation).
//
// A Printer is made for the network the engine ran (cbr.Result.Net),
// which a trace names, and optionally the program's text (Source), from
// which a step's statement is read. Everything it writes is
// deterministic: the same trace gives the same words.
//
// Like the rest of the library it neither prints nor exits.
package tracefmt
