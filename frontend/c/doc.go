// Package c reads C programs with pthreads, as SV-COMP's ConcurrencySafety
// tasks hold them, into a pushdown network.
package c
