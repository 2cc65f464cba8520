package explicit_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// Random small networks with every rule kind (steps, calls with receive
// relations, returns with values, forks, error labels), each relation a
// random finite table. They are explored natively and through
// WithThreadSlots (which must agree), and checked for properties that hold
// for every network: more contexts never lose a configuration nor raise
// its count.

// domain is one input or output of a random relation: a Vec and how many
// valid values it has.
type domain struct {
	vec  bdd.Vec
	size uint64
}

func globalDomains(n *pds.Network, c int) []domain {
	var ds []domain
	for _, g := range n.Globals {
		if !g.Hidden {
			ds = append(ds, domain{n.GlobalVec(g, c), sizeOf(g.Type)})
		}
	}
	return ds
}

func localDomains(n *pds.Network, p *pds.Proc, c int) []domain {
	var ds []domain
	for _, l := range p.Locals {
		ds = append(ds, domain{n.LocalVec(l, c), sizeOf(l.Type)})
	}
	return ds
}

func sizeOf(t pds.Type) uint64 {
	if t.Kind == pds.Enum {
		return uint64(len(t.Values))
	}
	return 1 << t.Bits
}

// randomRel returns a relation that maps each valuation of ins, with
// probability density, to one or two random valuations of outs.
func randomRel(rng *rand.Rand, m *bdd.Manager, ins, outs []domain, density float64) bdd.Node {
	rel := m.False()
	vals := make([]uint64, len(ins))
	var rec func(i int, acc bdd.Node)
	rec = func(i int, acc bdd.Node) {
		if i == len(ins) {
			if rng.Float64() >= density {
				return
			}
			for k := 1 + rng.Intn(2); k > 0; k-- {
				out := acc
				for _, d := range outs {
					out = m.And(out, m.Eq(d.vec, m.ConstVec(uint64(rng.Int63n(int64(d.size))), len(d.vec))))
				}
				rel = m.Or(rel, out)
			}
			return
		}
		for v := uint64(0); v < ins[i].size; v++ {
			vals[i] = v
			rec(i+1, m.And(acc, m.Eq(ins[i].vec, m.ConstVec(v, len(ins[i].vec)))))
		}
	}
	rec(0, m.True())
	return rel
}

func cat(dss ...[]domain) []domain {
	var r []domain
	for _, ds := range dss {
		r = append(r, ds...)
	}
	return r
}

var randomTypes = []pds.Type{pds.BoolType(), pds.IntType(2), pds.EnumType("tri", "u", "v", "w")}

// randomNet builds a random network from seed, with room for 4 threads.
func randomNet(t testing.TB, seed int64) *pds.Network {
	rng := rand.New(rand.NewSource(seed))
	b := pds.NewBuilder(pds.Options{MaxThreads: 4})
	for i := 0; i < 1+rng.Intn(2); i++ {
		init := pds.Init{Any: rng.Intn(4) == 0}
		typ := randomTypes[rng.Intn(len(randomTypes))]
		if !init.Any {
			init.Value = uint64(rng.Int63n(int64(sizeOf(typ))))
		}
		b.Global(fmt.Sprintf("g%d", i), typ, init, noPos)
	}
	resT := randomTypes[rng.Intn(2)]
	type proc struct {
		p      *pds.Proc
		labels []*pds.Label // normal labels
		err    *pds.Label
	}
	mk := func(name string, result *pds.Type, params, locals int) *proc {
		p := &proc{p: b.Proc(name, result, noPos)}
		for i := 0; i < params; i++ {
			b.Param(p.p, fmt.Sprintf("p%d", i), randomTypes[rng.Intn(2)], noPos)
		}
		for i := 0; i < locals; i++ {
			b.Local(p.p, fmt.Sprintf("x%d", i), randomTypes[rng.Intn(2)], noPos)
		}
		for i := 0; i < 3; i++ {
			p.labels = append(p.labels, b.Label(p.p, fmt.Sprintf("%s%d", name, i), noPos))
		}
		if rng.Intn(2) == 0 {
			p.err = b.ErrorLabel(p.p, name+".err", pds.Assert, "", noPos)
		}
		return p
	}
	main := mk("main", nil, 0, rng.Intn(2))
	worker := mk("w", nil, rng.Intn(3), 0)
	fn := mk("f", &resT, 1, 0)
	b.Spawnable(worker.p)
	frame := func(p *pds.Proc) pds.Frame {
		f := pds.Frame{Label: p.Entry, Locals: make([]pds.Init, len(p.Locals))}
		for i, l := range p.Locals {
			if rng.Intn(3) == 0 {
				f.Locals[i] = pds.Init{Any: true}
			} else {
				f.Locals[i] = pds.Init{Value: uint64(rng.Int63n(int64(sizeOf(l.Type))))}
			}
		}
		return f
	}
	b.Thread("T0", frame(main.p))
	if rng.Intn(2) == 0 {
		b.Thread("T1", frame(worker.p))
	}

	n, m := b.Net(), b.Manager()
	const density = 0.6
	G, G2 := globalDomains(n, pds.GCur), globalDomains(n, pds.GNext)
	L := func(p *pds.Proc) []domain { return localDomains(n, p, pds.LCur) }
	pick := func(p *proc) *pds.Label {
		if p.err != nil && rng.Intn(5) == 0 {
			return p.err
		}
		return p.labels[rng.Intn(len(p.labels))]
	}
	for _, p := range []*proc{main, worker, fn} {
		for _, from := range p.labels {
			for r := 0; r < 1+rng.Intn(2); r++ {
				in := cat(G, L(p.p))
				switch k := rng.Intn(10); {
				case k < 4: // step
					to := pick(p)
					b.Step(from, to, randomRel(rng, m, in, cat(G2, localDomains(n, to.Proc, pds.LNext)), density), noPos)
				case k < 6: // call f, maybe receiving its value
					ret := p.labels[rng.Intn(len(p.labels))]
					b.Push(from, fn.p.Entry, ret, randomRel(rng, m, in, cat(G2, localDomains(n, fn.p, pds.LNext), localDomains(n, p.p, pds.LSaved)), density), noPos)
					if ret.Recv == nil && rng.Intn(2) == 0 {
						R := domain{n.RetVec(n.RetBits), 1 << n.RetBits}
						b.SetRecv(ret, randomRel(rng, m, cat(G, []domain{R}, L(p.p)), cat(G2, localDomains(n, p.p, pds.LNext)), 1))
					}
				case k < 8 && p != fn: // fork a worker
					b.Fork(from, pick(p), worker.p, randomRel(rng, m, in, cat(G2, localDomains(n, p.p, pds.LNext), localDomains(n, worker.p, pds.LSaved)), density), noPos)
				default: // return
					R := domain{n.RetVec(resT.Bits), sizeOf(resT)}
					outs := G2
					if p == fn {
						outs = cat(G2, []domain{R})
					}
					b.Pop(from, randomRel(rng, m, in, outs, density), noPos)
				}
			}
		}
	}
	net, err := b.Build()
	require.NoError(t, err, "seed %d", seed)
	return net
}

// randomBudget bounds the configurations of one random exploration; the
// rare networks that exceed it are skipped (and counted).
const randomBudget = 3000

func TestRandomSlotsAgree(t *testing.T) {
	seeds := int64(150)
	if testing.Short() {
		seeds = 25
	}
	checked, skipped := 0, 0
	for seed := int64(1); seed <= seeds; seed++ {
		// The subtest's name carries the seed into every failure message.
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			n := randomNet(t, seed)
			if !n.HasForks() {
				return
			}
			max := len(n.Threads) + 1 + int(seed%2)
			k := 1 + int(seed%3)
			d, ok := crossCheckBudget(t, n, k, max, 3, randomBudget)
			if !ok {
				skipped++
				return
			}
			if d != "" {
				t.Fatalf("seed %d, k=%d, threads=%d: native forks and thread slots disagree:\n%s", seed, k, max, d)
			}
			checked++
		})
	}
	t.Logf("%d networks with forks compared, %d over budget", checked, skipped)
	require.Greater(t, checked, int(seeds)/2, "too few networks compared")
}

func TestRandomMonotoneInContexts(t *testing.T) {
	checked := 0
	for seed := int64(1000); seed < 1030; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			n := randomNet(t, seed)
			var prev map[string]int
			for k := 1; k <= 3; k++ {
				opts := explicit.Options{Contexts: k, MaxThreads: 3, MaxDepth: 3, MaxConfigs: randomBudget}
				res, err := explicit.Explore(n, opts)
				if err != nil {
					require.ErrorContains(t, err, "more than", "seed %d", seed)
					return
				}
				checkResult(t, n, opts, res)
				checked++
				cur := map[string]int{}
				for _, r := range res.Reached {
					cur[r.Config.Key()] = r.Contexts
				}
				for key, j := range prev {
					jj, ok := cur[key]
					require.True(t, ok, "seed %d: k=%d loses a configuration of k=%d", seed, k, k-1)
					require.Equal(t, j, jj, "seed %d: fewest contexts changed with k=%d", seed, k)
				}
				for key, j := range cur {
					if j < k && k > 1 {
						_, ok := prev[key]
						require.True(t, ok, "seed %d: k=%d finds a configuration with %d contexts that k=%d missed", seed, k, j, k-1)
					}
				}
				// Every successor of a configuration reached with j < k
				// contexts, by any thread, is reached with at most j+1.
				for _, r := range res.Reached {
					if r.Contexts >= k {
						continue
					}
					for th := range r.Config.Threads {
						succ, _, _ := explicit.Successors(n, r.Config, th, 3, 3)
						for _, s := range succ {
							jj, ok := cur[s.Key()]
							require.True(t, ok, "seed %d: successor %s of %s missing", seed, s.Format(n), r.Config.Format(n))
							require.LessOrEqual(t, jj, r.Contexts+1, "seed %d", seed)
						}
					}
				}
				prev = cur
			}
		})
	}
	require.Greater(t, checked, 45)
}
