// Package split turns the result of one thread's post* into view tuples,
// eagerly (one global value per tuple) or lazily (safe partitions of the
// confluence relation).
package split
