package explicit_test

import (
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/stretchr/testify/require"
)

// TestAllowsAgreesWithBy: on the configurations a few steps from the
// initial ones of random networks, Stepper.Allows accepts exactly the
// successors By lists for each rule, and refuses the successors of the
// other rules that By does not list.
func TestAllowsAgreesWithBy(t *testing.T) {
	for _, s := range tier.Seeds(t, 20, 100, 20) {
		seed := int64(s)
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			n := randomNet(t, seed)
			st := explicit.NewStepper(n, 0, 0)
			frontier := explicit.Initial(n)
			for depth := 0; depth < 3 && len(frontier) > 0; depth++ {
				var next []explicit.Config
				for _, c := range frontier[:min(len(frontier), 40)] {
					for th := range c.Threads {
						if len(c.Threads[th]) == 0 {
							continue
						}
						top := c.Threads[th][len(c.Threads[th])-1].Label
						all, _, err := st.Rules(c, th)
						require.NoError(t, err)
						for _, r := range n.RulesFrom(top) {
							by, err := st.By(c, th, r)
							require.NoError(t, err)
							mine := map[string]bool{}
							for _, d := range by {
								mine[d.Key()] = true
								ok, err := st.Allows(c, th, r, d)
								require.NoError(t, err)
								require.True(t, ok, "rule %d from %s to %s", r.Index, c.Format(n), d.Format(n))
							}
							for _, d := range all {
								if !mine[d.Key()] {
									ok, err := st.Allows(c, th, r, d)
									require.NoError(t, err)
									require.False(t, ok, "rule %d does not make %s from %s", r.Index, d.Format(n), c.Format(n))
								}
							}
						}
						next = append(next, all...)
					}
				}
				frontier = next
			}
		})
	}
}
