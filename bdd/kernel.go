package bdd

// Kernel names the node-table kernel, for reports: cbreach's fork of
// rudd (internal/third_party/rudd) with BuDDy's node table.
const Kernel = "buddy"
