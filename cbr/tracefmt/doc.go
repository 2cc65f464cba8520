// Package tracefmt shows counterexample traces (cbr.Trace) to people: the
// words of their parts, which the command line's text traces use
// (Printer: globals, stacks, configurations, the position and statement
// of each step, how each context began; Describe for a violation), and a
// message-sequence chart in Graphviz's DOT language made of the same
// words (Printer.WriteDOT; docs/traces.md, "Drawing a trace").
//
// A Printer is made for the network the engine ran (cbr.Result.Net),
// which a trace names, and optionally the program's text (Source), from
// which a step's statement is read. Everything it writes is
// deterministic: the same trace gives the same words and the same chart.
//
// # Charts
//
// A chart is one digraph: a lane (a cluster) per thread of the trace,
// a box per context in its thread's lane listing its steps and the
// globals after it, arrows for the switches, and the violation at the
// end. Its labels are escaped for Graphviz: HTML-like labels (the XML
// entities, a line break for a newline) for the boxes, quoted strings
// (backslash and quote escaped) for the rest, so a statement shows as it
// is written whatever characters it holds. It needs Graphviz only to be
// rendered (dot -Tsvg, dot -Tpng).
//
// Like the rest of the library it neither prints nor exits: it writes to
// the io.Writer it is given and returns the writer's error.
package tracefmt
