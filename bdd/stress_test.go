package bdd

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/stretchr/testify/require"
)

// expr is a random unsigned expression, as a Vec and in Go.
type expr struct {
	text string
	vec  Vec
	eval func(vals []uint64) uint64 // over the refs of randomExprs
}

// randomExpr builds a random expression of the given depth over refs.
func (f *fixture) randomExpr(rng *rand.Rand, refs []Ref, depth int) expr {
	m := f.m
	if depth == 0 || rng.IntN(4) == 0 {
		if rng.IntN(3) == 0 {
			k, w := rng.Uint64N(16), 1+rng.IntN(4)
			return expr{fmt.Sprintf("%d:%d", k, w), m.ConstVec(k, w), func([]uint64) uint64 { return k & mask(w) }}
		}
		i := rng.IntN(len(refs))
		return expr{fmt.Sprintf("%s/%d", m.L.Name(refs[i].Var), refs[i].Copy), m.Vec(refs[i]), func(v []uint64) uint64 { return v[i] }}
	}
	a, b := f.randomExpr(rng, refs, depth-1), f.randomExpr(rng, refs, depth-1)
	w := max(len(a.vec), len(b.vec))
	bin := func(name string, vec Vec, op func(x, y uint64) uint64) expr {
		return expr{fmt.Sprintf("(%s %s %s)", a.text, name, b.text), vec, func(v []uint64) uint64 {
			return op(a.eval(v), b.eval(v)) & mask(w)
		}}
	}
	switch rng.IntN(5) {
	case 0:
		return bin("+", m.Add(a.vec, b.vec), func(x, y uint64) uint64 { return x + y })
	case 1:
		return bin("-", m.Sub(a.vec, b.vec), func(x, y uint64) uint64 { return x - y })
	case 2:
		return bin("*", m.Mul(a.vec, b.vec), func(x, y uint64) uint64 { return x * y })
	case 3:
		nw := 1 + rng.IntN(4)
		return expr{fmt.Sprintf("resize(%s, %d)", a.text, nw), m.Resize(a.vec, nw), func(v []uint64) uint64 { return a.eval(v) & mask(nw) }}
	default:
		c := f.randomExpr(rng, refs, 0)
		return expr{fmt.Sprintf("(%s < %s ? %s : %s)", c.text, a.text, a.text, b.text),
			m.IteVec(m.Lt(c.vec, a.vec), a.vec, b.vec), func(v []uint64) uint64 {
				if c.eval(v) < a.eval(v) {
					return a.eval(v)
				}
				return b.eval(v)
			}}
	}
}

// TestStress builds random relations on a tiny node table, collecting Go's
// garbage often so that rudd frees nodes and reuses their slots between and
// during operations, and checks every relation when built and again later,
// after many collections, while it is still referenced.
func TestStress(t *testing.T) {
	iters := tier.Pick(600, 2400)
	f := newFixture(t, Config{NodeTable: 100, CacheSize: 16})
	m := f.m
	rng := rand.New(rand.NewPCG(1, 2))
	refs := []Ref{{f.u[2], 0}, {f.u[3], 1}, {f.u[1], 2}, {f.u[4], 0}}
	type kept struct {
		text string
		node Node
		pred func(v []uint64) bool
	}
	var ring [25]kept
	cmps := []struct {
		name string
		op   func(a, b Vec) Node
		f    func(a, b uint64) bool
	}{
		{"==", m.Eq, func(a, b uint64) bool { return a == b }},
		{"!=", m.Ne, func(a, b uint64) bool { return a != b }},
		{"<", m.Lt, func(a, b uint64) bool { return a < b }},
		{">=", m.Ge, func(a, b uint64) bool { return a >= b }},
	}
	for i := range iters {
		a, b := f.randomExpr(rng, refs, 3), f.randomExpr(rng, refs, 3)
		c := cmps[rng.IntN(len(cmps))]
		k := kept{fmt.Sprintf("%s %s %s", a.text, c.name, b.text), c.op(a.vec, b.vec),
			func(v []uint64) bool { return c.f(a.eval(v), b.eval(v)) }}
		switch rng.IntN(3) {
		case 0: // combine with an older relation
			o := ring[rng.IntN(len(ring))]
			if o.pred != nil {
				inner := k
				k = kept{"(" + k.text + ") xor (" + o.text + ")", m.Xor(k.node, o.node),
					func(v []uint64) bool { return inner.pred(v) != o.pred(v) }}
			}
		case 1: // quantify a variable away
			j := rng.IntN(len(refs))
			inner := k
			k = kept{fmt.Sprintf("exists %v. %s", refs[j], k.text), m.Exists(k.node, m.Set(refs[j])),
				func(v []uint64) bool {
					w := append([]uint64(nil), v...)
					for x := uint64(0); x <= mask(m.L.Bits(refs[j].Var)); x++ {
						w[j] = x
						if inner.pred(w) {
							return true
						}
					}
					return false
				}}
		}
		f.checkNode(t, k.text, k.node, refs, k.pred)
		slot := rng.IntN(len(ring))
		if o := ring[slot]; o.pred != nil {
			f.checkNode(t, "kept "+o.text, o.node, refs, o.pred)
		}
		ring[slot] = k
		if i%7 == 0 {
			runtime.GC()
		}
	}
	for _, o := range ring {
		f.checkNode(t, "kept "+o.text, o.node, refs, o.pred)
	}
	require.NoError(t, m.Err())
	checkRefs(t, m)
	t.Logf("rudd collections: %d, table %d nodes", f.ruddGCs(), m.Nodes())
	require.Greater(t, f.ruddGCs(), 20, "the stress test must make rudd collect")
}
