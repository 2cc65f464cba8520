package bdd

import (
	"fmt"
	"testing"
)

// workload is a computation the benchmarks time, on a manager with one
// Uint variable x of the given width and three copies. It returns a
// relation over x/0, x/1 and x/2, and its meaning in Go for the test that
// checks the workload at small widths.
type workload struct {
	name string
	run  func(m *Manager, x Var, w int) Node
	want func(a, b, c, w uint64) bool
}

var workloads = []workload{
	{"Mul", func(m *Manager, x Var, w int) Node {
		// x0 * k == x1 + x2, k odd: linear in w, unlike x0 * x1.
		k := uint64(0x9E3779B97F4A7C15)
		return m.Eq(m.Mul(m.Vec(Ref{x, 0}), m.ConstVec(k, w)), m.Add(m.Vec(Ref{x, 1}), m.Vec(Ref{x, 2})))
	}, func(a, b, c, w uint64) bool { return a*0x9E3779B97F4A7C15&mask(int(w)) == (b+c)&mask(int(w)) }},
	{"AddLt", func(m *Manager, x Var, w int) Node {
		return m.Lt(m.Add(m.Vec(Ref{x, 0}), m.Vec(Ref{x, 1})), m.Sub(m.Vec(Ref{x, 2}), m.ConstVec(3, w)))
	}, func(a, b, c, w uint64) bool { return (a+b)&mask(int(w)) < (c-3)&mask(int(w)) }},
	{"Image", func(m *Manager, x Var, w int) Node {
		// One image step through the relation x1 == x0 + x2 of a set of
		// x0, renamed back: the values x0 + x2 for x0 < x2.
		set := m.Lt(m.Vec(Ref{x, 0}), m.Vec(Ref{x, 2}))
		rel := m.Assign(m.Vec(Ref{x, 1}), m.Add(m.Vec(Ref{x, 0}), m.Vec(Ref{x, 2})))
		img := m.AndExists(set, rel, m.Set(Ref{x, 0}))
		return m.Rename(img, m.Renaming([]Ref{{x, 1}}, []Ref{{x, 0}}))
	}, func(a, b, c, w uint64) bool {
		for v := uint64(0); v <= mask(int(w)); v++ {
			if v < c && (v+c)&mask(int(w)) == a {
				return true
			}
		}
		return false
	}},
}

func workloadManager(tb testing.TB, w int) (*Manager, Var) {
	tb.Helper()
	l := NewLayout()
	x := l.Uint("x", w, 3)
	m, err := New(l, Config{})
	if err != nil {
		tb.Fatal(err)
	}
	return m, x
}

// TestWorkloads checks the benchmarked computations at width 4.
func TestWorkloads(t *testing.T) {
	for _, wl := range workloads {
		m, x := workloadManager(t, 4)
		f := &fixture{m: m}
		refs := []Ref{{x, 0}, {x, 1}, {x, 2}}
		f.checkNode(t, wl.name, wl.run(m, x, 4), refs, func(v []uint64) bool { return wl.want(v[0], v[1], v[2], 4) })
	}
}

func benchmarkWorkload(b *testing.B, wl workload, w int) {
	m, x := workloadManager(b, w)
	for b.Loop() {
		wl.run(m, x, w)
	}
	if err := m.Err(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(m.PeakNodes()), "peak-nodes")
}

func BenchmarkMul16(b *testing.B)   { benchmarkWorkload(b, workloads[0], 16) }
func BenchmarkAddLt16(b *testing.B) { benchmarkWorkload(b, workloads[1], 16) }
func BenchmarkImage8(b *testing.B)  { benchmarkWorkload(b, workloads[2], 8) }

// BenchmarkWorkloads runs every workload at several widths, on a fresh
// manager each time (no warm cache).
func BenchmarkWorkloads(b *testing.B) {
	for _, wl := range workloads {
		for _, w := range []int{8, 16} {
			b.Run(fmt.Sprintf("%s/%d", wl.name, w), func(b *testing.B) {
				for b.Loop() {
					m, x := workloadManager(b, w)
					wl.run(m, x, w)
				}
			})
		}
	}
}
