// Package split turns the result of one thread's post* into view tuples:
// eagerly, one global valuation per tuple (Qadeer and Rehof), or lazily, by
// a safe partition of the start globals (the jMoped paper's Section 3;
// docs/design.md, "Eager splitting", "Lazy splitting", "Stale start globals").
//
// # Input
//
// A [Tuple] holds one view per thread (symauto.Auto, untagged) and its
// Domain, the globals at which every view accepts. Before post* the driver
// tags the active view with the start global (Gs = G, restricted to the
// domain); post* then yields U(gs, g', α') and [Splitter.Split] receives
// it with the start globals whose post* added something
// (symauto.Saturation.Changed).
//
// # Steps
//
//  1. U'(Gs, G) = U.Accepting(), a fixpoint over the automaton's states.
//  2. Stale start globals are dropped: live = changed AND EXISTS G. U'.
//     Nothing live, no new tuple (the dropped slices are in the old tuple;
//     their other successors come from its other threads and siblings).
//     This is what keeps lazy at or below eager's tuple count.
//  3. Classes. Eager: every live gs, then every end global g' reachable from
//     it, is a class of its own (one global per tuple). Lazy: [Splitter.Partition]
//     runs Algorithm 2 on S = NOT C over live x live, with C the confluence
//     relation ([Splitter.Confluence]: two distinct start globals that reach
//     a common global), using BDD operations only. y0 is the least element
//     left under the lexicographic order Ord (built once, over the copies Gs
//     and Gt), so the classes come out in a deterministic order.
//  4. For each class Gj: the active view is EXISTS gs in Gj. U (equation (2),
//     symauto.Auto.Restrict, applied to every transition the context may have
//     tagged, internal ones included, empty labels dropped); every other view
//     is EXISTS gs. V(gs) AND Gj(gs) AND U'(gs, g') (equation (1),
//     symauto.Auto.Rebase). The new domain is EXISTS gs. Gj AND U'.
//
// Steps 1 to 3, the active view of step 4 and the new domain depend on
// the post* result alone: [Splitter.Parts] computes them once, and
// [Splitter.Apply] makes the tuples of one old tuple from them, rebasing
// its other views (each view once per class: tuples that share a post*
// result often share other views too). [Splitter.Split] is the two in a
// row; the driver keeps a result's Parts while other tuples of its level
// will ask for the same post* (cbr's documentation, "Shared post*
// results").
//
// Theorem 1 of the paper makes the union of the new tuples exactly post*
// of the old tuple; the tests check it on the paper's running example and,
// through the driver, against the explicit semantics on random programs.
//
// # Cost
//
// Confluence is one relational product over G; Algorithm 2 runs one inner
// loop per class, each iteration a few conjunctions and quantifications
// over two copies of the globals. The automata work is one Restrict and
// n-1 Rebase per class, each a pass over the transitions plus a Trim.
package split
