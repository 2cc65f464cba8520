package tuples_test

import (
	"context"
	"os"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/split"
)

func benchModel(b *testing.B, file string, k int, s split.Strategy) {
	benchOpts(b, file, tuples.Engine{Split: s, Prune: tuples.PruneNone}, cbr.Options{Bound: k, All: true})
}

func benchOpts(b *testing.B, file string, e tuples.Engine, opts cbr.Options) {
	src, err := os.ReadFile(file)
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		net, err := frontend.Compile(file, src)
		if err != nil {
			b.Fatal(err)
		}
		r, err := e.Analyze(context.Background(), net, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Stats.ViewTuples), "tuples")
	}
}

func BenchmarkBluetoothLazy(b *testing.B) {
	benchModel(b, "../../frontend/testdata/bluetooth.pds", 5, split.Lazy)
}
func BenchmarkBluetoothEager(b *testing.B) {
	benchModel(b, "../../frontend/testdata/bluetooth.pds", 5, split.Eager)
}

func BenchmarkBST(b *testing.B) { benchModel(b, "../../benchmarks/models/bst-i2.pds", 5, split.Lazy) }

// BenchmarkBluetoothDefault is the command line's default run on the
// bundled example: lazy, 5 contexts, stop at the first violation, covered
// tuples dropped.
func BenchmarkBluetoothDefault(b *testing.B) {
	benchOpts(b, "../../examples/bluetooth.pds", tuples.Engine{Split: split.Lazy, SubsumeAfter: -1}, cbr.Options{Bound: 5})
}

// BenchmarkBluetoothDedup is the same run with identical tuples dropped
// only.
func BenchmarkBluetoothDedup(b *testing.B) {
	benchOpts(b, "../../examples/bluetooth.pds", tuples.Engine{Split: split.Lazy, Prune: tuples.PruneIdentical}, cbr.Options{Bound: 5})
}
