// Package readers is the table of cbreach's input formats: for each
// reader its name, how a file of it is recognised, the files that go with
// it, a sample model of the repository, and the function that reads a
// file into a network. The command line and the suite runner choose and
// read an input here, and name no reader package; so can a verifier that
// embeds cbreach.
//
//   - "pds" (package frontend): cbreach's modelling language. The suffix
//     .pds chooses it, and so does a name no suffix chooses; sample
//     examples/bluetooth.pds.
//   - "bp" (package frontend/bp): concurrent Boolean programs. The suffix
//     .bp or --bp; its Sniff, a procedure's begin, explains why a .pds
//     failed. Sample benchmarks/boolean/bluetooth-v1.bp.
//   - "cuba" (package frontend/cuba): CUBA's concurrent pushdown systems.
//     --cuba only, since their suffix .pds is the .pds language's; its
//     Sniff, a count of shared states and then a block or a rule, matches
//     no .pds program (Sniff.Sure). The .init beside the system (--init)
//     is required, the .spec (--target) names the target. Sample
//     cmd/cbreach/testdata/cuba/two.pds.
//
// # The seam
//
// A Reader row says what the command line and the task files need to know
// before reading: its Name (--format NAME, a task's kind), a line of Doc
// for the help, the Noun its messages call a file, a Flag of its own
// (--bp, --cuba: aliases of --format bp, --format cuba), its Suffixes, a
// Sniff that recognises its content, its Companions (a flag, a suffix
// under which it is found beside the input, whether it is required,
// whether it names targets), the Lang of its traces' statements, and a
// Sample. Read takes a path, an Open (so that "-" can be standard input
// and tests can serve files from memory) and Options (the thread bound,
// the context and the BDD limits, the companions' files) and returns an
// Input: the network, the targets, the text and the files read. Adding a
// format (C programs with pthreads, SV-COMP's .i and .c files) is one
// package under frontend and one row of All; the command line, its help,
// the suite runner and the tests that run every sample through every
// engine pick it up from there.
//
// # Choosing
//
// A file is read by the reader the flags name, or else by the one its
// suffix chooses (the first row to list the suffix, in any case), or else
// by the first row; standard input ("-") has no suffix. Content is a
// hint, never a choice: a Sniff that is not sure may match a valid input
// of another format, and a format that needs files beside its input is
// better named than guessed. So a file that a sure Sniff of another reader
// matches (a CUBA system named .pds) is refused before reading, with the
// flag that reads it; when reading fails, a file another reader's Sniff
// matches is said to be that reader's (a Boolean program named .pds), and
// one its suffix's reader's Sniff misses is said not to be in that format,
// with the ways to read it otherwise. Recognize says what a file is, from
// the same rules: a sure Sniff, then the suffix, then the first row.
//
// # Imports
//
// The table imports every reader, as package cbr/engines imports every
// engine; no reader imports it, and it imports no engine and not the
// vocabulary (package cbr): the language of traces is a name (Lang) that
// the command maps to package cbr/tracefmt's (docs/design.md, "Import
// rules").
package readers
