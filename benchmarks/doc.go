// Package benchmarks holds the models and the harness that compare eager
// and lazy splitting.
package benchmarks
