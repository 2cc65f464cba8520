package explicit_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

var noPos = pds.Pos{}

func mustBuild(t testing.TB, b *pds.Builder) *pds.Network {
	t.Helper()
	n, err := b.Build()
	require.NoError(t, err)
	require.NoError(t, n.Validate())
	return n
}

func explore(t testing.TB, n *pds.Network, opts explicit.Options) *explicit.Result {
	t.Helper()
	res, err := explicit.Explore(n, opts)
	require.NoError(t, err)
	checkResult(t, n, opts, res)
	return res
}

// checkResult checks the invariants every result must satisfy.
func checkResult(t testing.TB, n *pds.Network, opts explicit.Options, res *explicit.Result) {
	t.Helper()
	seen := map[string]bool{}
	for i, r := range res.Reached {
		key := r.Config.Key()
		require.False(t, seen[key], "configuration %s listed twice", r.Config.Format(n))
		seen[key] = true
		if i > 0 {
			require.Less(t, res.Reached[i-1].Config.Key(), key, "Reached not sorted by key")
		}
		require.GreaterOrEqual(t, r.Contexts, 0)
		require.LessOrEqual(t, r.Contexts, opts.Contexts)
		require.Len(t, r.Config.Globals, len(n.Globals))
	}
	for i, v := range res.Violations {
		require.True(t, v.Label.Kind.IsError())
		s := v.Config.Threads[v.Thread]
		require.Same(t, v.Label, s[len(s)-1].Label)
		if i > 0 {
			p := res.Violations[i-1]
			require.True(t, p.Contexts < v.Contexts || p.Contexts == v.Contexts && p.Label.ID < v.Label.ID, "violations out of order")
		}
	}
}

// formatted maps each reached configuration's Format to its contexts.
func formatted(n *pds.Network, res *explicit.Result) map[string]int {
	m := map[string]int{}
	for _, r := range res.Reached {
		m[r.Config.Format(n)] = r.Contexts
	}
	return m
}

// requireReached compares a result with the expected configurations (by
// Format) and their fewest contexts, printing both sides sorted on failure.
func requireReached(t testing.TB, n *pds.Network, res *explicit.Result, want map[string]int) {
	t.Helper()
	got := formatted(n, res)
	if len(got) != len(res.Reached) {
		t.Fatalf("Format is not injective on this result")
	}
	require.Equal(t, dump(want), dump(got))
}

func dump(m map[string]int) string {
	var lines []string
	for k, v := range m {
		lines = append(lines, k+"  @"+string(rune('0'+v)))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Relation helpers over a network under construction.
type rel struct {
	n *pds.Network
	m *bdd.Manager
}

func relOf(b *pds.Builder) rel { return rel{b.Net(), b.Manager()} }

func (r rel) c(v uint64, bits int) bdd.Vec { return r.m.ConstVec(v, bits) }

// g returns copy c of global x.
func (r rel) g(x *pds.Global, c int) bdd.Vec { return r.n.GlobalVec(x, c) }

// l returns copy c of local x.
func (r rel) l(x *pds.Local, c int) bdd.Vec { return r.n.LocalVec(x, c) }

// setG is "x' = e, every other global unchanged".
func (r rel) setG(x *pds.Global, e bdd.Vec) bdd.Node {
	return r.m.And(r.m.Assign(r.g(x, pds.GNext), e), r.n.Unchanged(x))
}

// setL is "x' = e, every other local of x's procedure unchanged" (LNext).
func (r rel) setL(x *pds.Local, e bdd.Vec) bdd.Node {
	return r.m.And(r.m.Assign(r.l(x, pds.LNext), e), r.n.LocalsUnchanged(x.Proc, pds.LNext, x))
}

// same is "globals and p's locals unchanged" (LNext).
func (r rel) same(p *pds.Proc) bdd.Node {
	return r.m.And(r.n.Unchanged(), r.n.LocalsUnchanged(p, pds.LNext))
}
