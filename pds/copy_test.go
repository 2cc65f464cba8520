package pds_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/stretchr/testify/require"
)

// copyNets returns the networks TestCopyTo copies: the bundled examples
// (forks among them), one with initial globals that no product of
// values describes (Network.WithInitial), and random networks with
// recursion, receive relations, forks and error labels.
func copyNets(t *testing.T) map[string]*pds.Network {
	nets := map[string]*pds.Network{}
	files, err := filepath.Glob(filepath.Join("..", "examples", "*.pds"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		n, err := frontend.Compile(filepath.Base(f), src)
		require.NoError(t, err)
		nets[filepath.Base(f)] = n
	}
	n := nets["lostupdate.pds"]
	m := n.M
	g := n.GlobalVec(n.Globals[0], pds.GCur)
	// The first global is 1 or 3 initially.
	rel := m.Or(m.Eq(g, m.ConstVec(1, len(g))), m.Eq(g, m.ConstVec(3, len(g))))
	x, err := n.WithInitial(&pds.InitGlobals{Rel: rel, By: "test"}, n.Threads)
	require.NoError(t, err)
	nets["lostupdate.pds with initial globals"] = x
	for seed := uint64(1); seed <= 6; seed++ {
		r, err := randnet.Generate(seed, randnet.Params{Threads: 1 + int(seed%2), Procs: 3, Labels: 3, LocalBits: 1 + int(seed/2%2),
			Rules: 3 + int(seed%4), Recursive: true, Forks: true, Errors: true, MaxThreads: 3, Density: 0.6, Enums: true, AnyLocals: true})
		require.NoError(t, err)
		nets[fmt.Sprintf("random seed %d", seed)] = r
	}
	return nets
}

// TestCopyTo copies networks into a second manager of the same layout:
// the copy prints as the original (every relation, receive relation and
// initial relation rendered from its own manager), validates, holds no
// procedure, label, rule or thread of the original, slots its threads as
// the original does (WithThreadSlots), and reaches the same
// configurations with the same fewest contexts on the explicit semantics,
// explored on two goroutines at once, one per manager (the race detector
// checks that the two share nothing that either writes).
func TestCopyTo(t *testing.T) {
	for name, n := range copyNets(t) {
		m, err := bdd.New(n.M.L, bdd.Config{})
		require.NoError(t, err, name)
		c, err := n.CopyTo(m)
		require.NoError(t, err, name)
		require.Same(t, m, c.M, name)
		require.NoError(t, c.Validate(), name)
		require.Equal(t, printed(t, n), printed(t, c), name)

		for i, l := range n.Labels {
			require.NotSame(t, l, c.Labels[i], name)
			require.Equal(t, l.ID, c.Labels[i].ID, name)
			require.Same(t, c.Procs[l.Proc.Index], c.Labels[i].Proc, "%s: label %s", name, l.Name)
		}
		for i, r := range n.Rules {
			require.NotSame(t, r, c.Rules[i], name)
			require.Same(t, c.Labels[r.From.ID], c.Rules[i].From, name)
			require.Equal(t, c.RulesFrom(c.Rules[i].From), rulesOf(c, n.RulesFrom(r.From)), name)
		}
		for i, p := range n.Procs {
			require.NotSame(t, p, c.Procs[i], name)
			for _, l := range c.Procs[i].Locals {
				require.Same(t, c.Procs[i], l.Proc, name)
			}
		}
		for i, th := range n.Threads {
			require.NotSame(t, th, c.Threads[i], name)
		}
		for _, r := range n.Rules {
			if r.Kind == pds.Fork {
				require.Same(t, c.Labels[n.CutoffLabel(r).ID], c.CutoffLabel(c.Rules[r.Index]), name)
			}
		}

		ns, err := n.WithThreadSlots(n.MaxThreads)
		require.NoError(t, err, name)
		cs, err := c.WithThreadSlots(c.MaxThreads)
		require.NoError(t, err, name)
		require.NoError(t, cs.Validate(), name)
		require.Equal(t, printed(t, ns), printed(t, cs), name)

		// The two explorations run at once, each on its own manager.
		var wg sync.WaitGroup
		var got [2]string
		var errs [2]error
		for i, net := range []*pds.Network{n, c} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := explicit.Explore(net, explicit.Options{Contexts: 3, MaxDepth: 4, MaxConfigs: 50000})
				if err != nil {
					errs[i] = err
					return
				}
				var b strings.Builder
				for _, x := range res.Reached {
					fmt.Fprintf(&b, "%s@%d\n", x.Config.Key(), x.Contexts)
				}
				for _, v := range res.Violations {
					fmt.Fprintf(&b, "%s@%d\n", v.Label.Name, v.Contexts)
				}
				got[i] = b.String()
			}()
		}
		wg.Wait()
		require.NoError(t, errs[0], name)
		require.NoError(t, errs[1], name)
		require.NotEmpty(t, got[0], name)
		require.Equal(t, got[0], got[1], name)
	}
}

// TestCopyToLimit: a limit met while copying (here the end of the
// context of a bdd.Manager.Run around the call) is the manager's error,
// and no network is returned; a manager of another layout is a caller's
// bug.
func TestCopyToLimit(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "bluetooth.pds"))
	require.NoError(t, err)
	n, err := frontend.Compile("bluetooth.pds", src)
	require.NoError(t, err)
	m, err := bdd.New(n.M.L, bdd.Config{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var c *pds.Network
	err = m.Run(ctx, bdd.Limits{}, func() (err error) {
		c, err = n.CopyTo(m)
		return err
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, c)
	// The manager serves again after the Run.
	c, err = n.CopyTo(m)
	require.NoError(t, err)
	require.Equal(t, printed(t, n), printed(t, c))

	other, err := bdd.New(bdd.NewLayout(), bdd.Config{})
	require.NoError(t, err)
	require.Panics(t, func() { n.CopyTo(other) })
}

func printed(t *testing.T, n *pds.Network) string {
	var b strings.Builder
	require.NoError(t, n.Print(&b))
	return b.String()
}

// rulesOf returns the rules of c numbered as rs.
func rulesOf(c *pds.Network, rs []*pds.Rule) []*pds.Rule {
	var out []*pds.Rule
	for _, r := range rs {
		out = append(out, c.Rules[r.Index])
	}
	return out
}
