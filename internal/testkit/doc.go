// Package testkit holds the kits the tests of every floor share, above
// every engine: reachcases (the shared table of cases every engine
// variant runs), randnet (random pushdown networks for the differential
// campaigns) and tier (the everyday and long tiers of the suite). Only
// tests import them: internal/ holds nothing the library uses.
package testkit
