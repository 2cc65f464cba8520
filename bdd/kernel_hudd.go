//go:build !buddy

package bdd

// Kernel names rudd's node-table kernel this binary was built with, for
// reports: node counts differ between kernels, results do not.
const Kernel = "hudd"
