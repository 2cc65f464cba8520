package symauto

import "github.com/cbreach/cbreach/bdd"

// AtSim exports atSim to the tests.
func (s *Simulation) AtSim(x bdd.Node) bdd.Node { return s.atSim(x) }
