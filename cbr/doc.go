// Package cbr is the worklist driver of context-bounded reachability.
package cbr
