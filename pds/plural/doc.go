// Package plural writes counts with their nouns, "1 state" and "2
// states", for every text the module shows: the command line's output,
// the library's errors and limits, the readers' messages and the
// benchmark reports. It is the one place where a count chooses its
// noun's form, so that no message says "1 states".
//
// It imports only the standard library and sits below every other
// package of the module but bdd (docs/design.md, "Import rules"), so
// that any of them, the readers included, may use it. It lives in pds's
// tree, the lowest that speaks to users; bdd, below pds, words its one
// count itself.
package plural
