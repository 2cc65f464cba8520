// Package engines is the table of cbreach's analysis engines: one
// interface, Engine, and for each engine its name, the units its bound
// counts, the settings it takes and how to make it from them. The
// command line, the benchmark harness and the shared test cases all
// choose an engine here, and so can a verifier that embeds cbreach.
//
// The engines are siblings behind Engine and share the vocabulary of
// package cbr (Options, Result, Found, Trace, the limits):
//
//   - "cbr" (package cbr/tuples): the jMoped paper's symbolic context-bounded
//     reachability over view tuples, eager or lazy splitting;
//   - "seq" (package cbr/seq): Lal and Reps' reduction to one sequential
//     pushdown network, its bound in rounds of round-robin;
//   - "explicit" (package cbr/states): a search over concrete
//     configurations with Spin's state caching and a partial-order
//     reduction, for small models;
//   - "auto" (package cbr/auto): a portfolio of cbr (lazy) and explicit,
//     run side by side; the first conclusive answer is returned and the
//     other engine stopped. It is built from the two through this seam's
//     vocabulary alone, with the explicit engine on a copy of the
//     network in a BDD manager of its own.
//
// # The seam
//
// Engine is the one interface: Analyze(ctx, net, cbr.Options). It is
// declared here, where it is used, and the engines satisfy it without
// naming it. An Entry says what a front door (the command line, the
// task suites, the benchmark harness) needs to offer, run and show an
// engine without knowing it: the units its bound counts (its default
// first); the settings it takes, each described by its engine
// (cbr.Setting: the name its flag and task option have, kind, default,
// choices, help, aliases), and New, which makes the engine from their
// values (engines.Settings, by name) or refuses one with a
// cbr.SettingError; whether it deepens the bound itself and whether it
// checks targets; its progress line; a sample model, which
// TestEveryEngineAndReader (cmd/cbreach) runs; and Figures, the figures
// of a run that analysed nothing (every result carries its engine's own,
// cbr.Figures). Adding an engine is one package that implements Analyze
// and describes itself, and one row of All; the command line, the
// benchmarks and the shared test cases pick it up from there.
// The table imports every engine, which is why it is not the vocabulary
// (package cbr) and why no engine imports it (docs/design.md, "Import
// rules"); auto, which imports two engines, sits on a floor of its own
// between them and the table.
package engines
