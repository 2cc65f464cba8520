package randnet_test

import (
	"testing"

	"github.com/cbreach/cbreach/internal/testkit/randnet"
)

func TestGen(t *testing.T) {
	for s := uint64(0); s < 200; s++ {
		for _, p := range []randnet.Params{
			{Threads: 2, GlobalBits: 3, Procs: 3, Labels: 4, LocalBits: 2, Rules: 6, Recursive: s%2 == 0, Forks: true, Errors: true, MaxThreads: 4},
			{Threads: 2, Procs: 3, Labels: 3, LocalBits: 2, Rules: 6, Recursive: s%2 == 0, Forks: true, Errors: true, MaxThreads: 4, Density: 0.6, Enums: true, AnyLocals: true},
			{Threads: 3, GlobalBits: 2, Procs: 3, Labels: 4, LocalBits: 2, Rules: 6, Forks: true, Errors: true, MaxThreads: 4, OpenBits: 16, OpenNoCount: true},
		} {
			if p.Density > 0 && s >= 20 {
				continue // table relations are slower to build
			}
			n, err := randnet.Generate(s, p)
			if err != nil {
				t.Fatalf("seed %d %+v: got %v want no error", s, p, err)
			}
			if err := n.Validate(); err != nil {
				t.Fatalf("seed %d %+v: got %v want a valid network", s, p, err)
			}
		}
	}
}

func TestEnumsNeedDensity(t *testing.T) {
	if _, err := randnet.Generate(1, randnet.Params{Enums: true}); err == nil {
		t.Fatalf("got no error want one for Enums without Density")
	}
}
