package rudd

import (
	"math/big"
	"testing"
)

// TestIsPrime checks isPrime against math/big's ProbablyPrime (exact
// below 2^64) on every number up to 2^17 and on ranges near the sizes
// the tables take.
func TestIsPrime(t *testing.T) {
	check := func(n int) {
		if got, want := isPrime(n), big.NewInt(int64(n)).ProbablyPrime(0); got != want {
			t.Fatalf("isPrime(%d) = %v, want %v", n, got, want)
		}
	}
	for n := -2; n <= 1<<17; n++ {
		check(n)
	}
	for _, base := range []int{1 << 20, 1 << 24, 1<<31 - 1000, 1 << 40, 1<<62 - 1000} {
		for n := base; n < base+2000; n++ {
			check(n)
		}
	}
	// Strong pseudoprimes to several small bases.
	for _, n := range []int{2047, 1373653, 25326001, 3215031751, 2152302898747, 3474749660383, 341550071728321, 3825123056546413051} {
		check(n)
	}
}
