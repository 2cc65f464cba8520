package bdd

// SetMaxNodes changes the node limit (0: none) for the computations that
// follow; an analysis sets its own limit on a manager it shares.
func (m *Manager) SetMaxNodes(n int) { m.cfg.MaxNodes = n }
