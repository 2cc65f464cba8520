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
			{Threads: 2, GlobalBits: 2, Procs: 3, Labels: 4, LocalBits: 2, Rules: 6, Forks: true, Errors: true, MaxThreads: 4, OpenGlobals: 6, OpenGlobalBits: 3},
			{Threads: 2, GlobalBits: 1, Procs: 2, Labels: 3, LocalBits: 1, Rules: 5, Errors: true, MaxThreads: 2, OpenGlobals: 24, OpenGlobalBits: 32},
		} {
			if (p.Density > 0 || p.OpenGlobals > 0) && s >= 20 || p.OpenGlobalBits > 8 && s >= 4 {
				continue // table relations, and many wide globals, are slower to build
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
