package randnet_test

import (
	"github.com/cbreach/cbreach/internal/randnet"
	"testing"
)

func TestGen(t *testing.T) {
	for s := uint64(0); s < 200; s++ {
		_, err := randnet.Generate(s, randnet.Params{Threads: 2, GlobalBits: 3, Procs: 3, Labels: 4, LocalBits: 2, Rules: 6, Recursive: s%2 == 0, Forks: true, Errors: true, MaxThreads: 4})
		if err != nil {
			t.Fatal(s, err)
		}
	}
}
