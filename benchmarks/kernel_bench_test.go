package benchmarks

import (
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
)

// kernelSettings are the BDD kernel settings BenchmarkKernelConfig
// compares: the defaults first, then one setting changed at a time.
var kernelSettings = []struct {
	name string
	cfg  bdd.Config
}{
	{"default", bdd.Config{}},
	{"table-2^14", bdd.Config{NodeTable: 1 << 14}},
	{"table-2^18", bdd.Config{NodeTable: 1 << 18}},
	{"table-2^20", bdd.Config{NodeTable: 1 << 20}},
	{"cache-2^13", bdd.Config{CacheSize: 1 << 13}},
	{"cache-2^17", bdd.Config{CacheSize: 1 << 17}},
	{"ratio-10", bdd.Config{CacheRatio: 10}},
	{"ratio-50", bdd.Config{CacheRatio: 50}},
	{"ratio-100", bdd.Config{CacheRatio: 100}},
	{"minfree-10", bdd.Config{MinFree: 10}},
	{"minfree-40", bdd.Config{MinFree: 40}},
}

// BenchmarkKernelConfig measures the BDD kernel's settings (bdd.Config:
// initial node table and cache, the cache's growth with the table, the
// free nodes a garbage collection must leave) on the scaling models, lazy
// cbr with the defaults and the whole bound explored, one setting changed
// at a time against the defaults:
//
//	go test ./benchmarks -run '^$' -bench KernelConfig -benchtime 2x
func BenchmarkKernelConfig(b *testing.B) {
	models := []Experiment{
		{Model: "bluetooth-v2-a3s2", File: "bluetooth-v2-a3s2.pds", Contexts: 5, Split: "lazy"},
		{Model: "bst-i2s1", File: "bst-i2s1.pds", Contexts: 5, Split: "lazy"},
		{Model: "vector-java5-b16", Bits: 16, Contexts: 3, Split: "lazy"},
		{Model: "bluetooth-lalreps-n4", File: "bluetooth-lalreps-n4.pds", Contexts: 5, Split: "lazy"},
	}
	for _, e := range models {
		for _, k := range kernelSettings {
			b.Run(fmt.Sprintf("%s/k%d/%s", e.Model, e.Contexts, k.name), func(b *testing.B) {
				name, src, err := e.Source()
				if err != nil {
					b.Fatal(err)
				}
				var peak int
				for b.Loop() {
					net, err := frontend.CompileWith(name, src, frontend.Options{BDD: k.cfg})
					if err != nil {
						b.Fatal(err)
					}
					r, err := analyze(tuples.Name, engines.Settings{"split": e.Split}, net, cbr.Options{Bound: e.Contexts, All: true})
					if err != nil {
						b.Fatal(err)
					}
					peak = r.Stats.PeakNodes
				}
				b.ReportMetric(float64(peak), "peak-nodes")
			})
		}
	}
}
