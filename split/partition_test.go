package split_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// twoGlobals is a network with two globals of 2 bits each (16 global
// valuations) and one thread that does nothing: a space for relations
// over the start copies.
func twoGlobals(t *testing.T) *pds.Network {
	b := pds.NewBuilder(pds.Options{})
	b.Global("x", pds.IntType(2), pds.Init{Any: true}, pds.Pos{})
	b.Global("y", pds.IntType(2), pds.Init{Any: true}, pds.Pos{})
	p := b.Proc("p", nil, pds.Pos{})
	b.Label(p, "a", pds.Pos{})
	b.Thread("t", pds.Call(p))
	net, err := b.Build()
	require.NoError(t, err)
	return net
}

// TestSeededPartition: on random relations U'(Gs, G), sets of live
// start globals and equivalence relations alike (a random class for
// each valuation), Partition returns nonempty disjoint classes that
// cover live, with no two start globals in one class that are confluent
// and not alike (a safe partition for C' = C AND NOT alike), and at most
// one class per alike class that meets live. With a symmetric relation
// that is not transitive the classes are still safe. With alike False (the
// paper's relation) no class holds a confluent pair; with alike True
// live is one class.
func TestSeededPartition(t *testing.T) {
	net := twoGlobals(t)
	m, sp := net.M, symauto.NewSpace(net)
	x := split.New(split.Lazy, sp)
	const n = 16
	val := func(c int, v int) bdd.Node {
		return m.And(m.Value(bdd.Ref{Var: net.Globals[0].Var, Copy: c}, uint64(v&3)),
			m.Value(bdd.Ref{Var: net.Globals[1].Var, Copy: c}, uint64(v>>2)))
	}
	for seed := uint64(0); seed < 200; seed++ {
		r := rand.New(rand.NewPCG(seed, 38))
		u, live, alike := m.False(), m.False(), m.False()
		reach := make([][]bool, n)
		isLive := make([]bool, n)
		class := make([]int, n)
		kinds := 1 + r.IntN(6)
		for a := range n {
			reach[a] = make([]bool, n)
			for g := range n {
				if r.IntN(8) == 0 {
					reach[a][g] = true
					u = m.Or(u, m.And(val(symauto.GStart, a), val(pds.GCur, g)))
				}
			}
			if r.IntN(4) != 0 {
				isLive[a] = true
				live = m.Or(live, val(symauto.GStart, a))
			}
			class[a] = r.IntN(kinds)
		}
		for a := range n {
			for b := range n {
				if class[a] == class[b] {
					alike = m.Or(alike, m.And(val(symauto.GStart, a), val(symauto.GStart2, b)))
				}
			}
		}
		confluent := func(a, b int) bool {
			for g := range n {
				if a != b && reach[a][g] && reach[b][g] {
					return true
				}
			}
			return false
		}
		check := func(name string, eq func(a, b int) bool, classes []bdd.Node) {
			t.Helper()
			seen := make([]int, n)
			for j, c := range classes {
				require.False(t, c.IsFalse(), "seed %d %s: class %d is empty", seed, name, j)
				var in []int
				for a := range n {
					if m.Meets(c, val(symauto.GStart, a)) {
						in = append(in, a)
						seen[a]++
					}
				}
				for _, a := range in {
					for _, b := range in {
						require.False(t, confluent(a, b) && !eq(a, b), "seed %d %s: class %d holds %d and %d, confluent and told apart", seed, name, j, a, b)
					}
				}
			}
			for a := range n {
				want := 0
				if isLive[a] {
					want = 1
				}
				require.Equal(t, want, seen[a], "seed %d %s: start global %d in %d classes", seed, name, a, seen[a])
			}
		}
		classes := x.Partition(u, live, alike)
		check("alike", func(a, b int) bool { return class[a] == class[b] }, classes)
		met := map[int]bool{}
		for a := range n {
			if isLive[a] {
				met[class[a]] = true
			}
		}
		require.LessOrEqual(t, len(classes), len(met), fmt.Sprintf("seed %d: more classes than alike classes meet live", seed))
		check("paper", func(a, b int) bool { return a == b }, x.Partition(u, live, m.False()))
		// A symmetric relation that is not transitive: still safe.
		near := func(a, b int) bool { return a == b || (a^b)&(a^b-1) == 0 && class[a&b] != 0 }
		rel := m.False()
		for a := range n {
			for b := range n {
				if near(a, b) {
					rel = m.Or(rel, m.And(val(symauto.GStart, a), val(symauto.GStart2, b)))
				}
			}
		}
		check("symmetric", near, x.Partition(u, live, rel))
		if !live.IsFalse() {
			require.Len(t, x.Partition(u, live, m.True()), 1, "seed %d: alike True", seed)
		}
	}
}
