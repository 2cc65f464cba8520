// Package symauto holds BDD-labelled P-automata for one thread's view and
// computes post* by symbolic saturation with procedure summaries.
package symauto
