package tuples_test

import (
	"context"
	"os"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
)

// BenchmarkStartup is what a run of the bundled example spends before
// its search gets going: compiling the model (with its BDD manager) and
// one context.
func BenchmarkStartup(b *testing.B) {
	src, err := os.ReadFile("../../examples/bluetooth.pds")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		net, err := frontend.Compile("bluetooth.pds", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (tuples.Engine{}).Analyze(context.Background(), net, cbr.Options{Bound: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
