// Copyright (c) 2021 Silvano DAL ZILIO
//
// MIT License

package rudd

import "math/bits"

// functions for Prime number calculations

func hasFactor(src int, n int) bool {
	if (src != n) && (src%n == 0) {
		return true
	}
	return false
}

func hasEasyFactors(src int) bool {
	return hasFactor(src, 3) || hasFactor(src, 5) || hasFactor(src, 7) || hasFactor(src, 11) || hasFactor(src, 13)
}

func primeGte(src int) int {
	if src%2 == 0 {
		src++
	}

	for {
		if hasEasyFactors(src) {
			src = src + 2
			continue
		}
		if isPrime(src) {
			return src
		}
		src = src + 2
	}
}

func primeLte(src int) int {
	if src == 0 {
		return 1
	}

	if src%2 == 0 {
		src--
	}

	for {
		if hasEasyFactors(src) {
			src = src - 2
			continue
		}
		if isPrime(src) {
			return src
		}
		src = src - 2
	}
}

// isPrime reports whether n is prime (cbreach: exactly, for every n below
// 2^64, by Miller-Rabin with the first twelve primes as bases, where
// rudd took math/big's ProbablyPrime, which seeds a math/rand source on
// every call: half a percent of a small run, whose caches grow a few
// times).
func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	bases := [...]uint64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}
	u := uint64(n)
	for _, p := range bases {
		if u%p == 0 {
			return u == p
		}
	}
	d, r := u-1, 0
	for d%2 == 0 {
		d, r = d/2, r+1
	}
	mulmod := func(a, b uint64) uint64 {
		hi, lo := bits.Mul64(a, b)
		_, rem := bits.Div64(hi, lo, u)
		return rem
	}
	for _, a := range bases {
		x := uint64(1)
		for e, b := d, a; e > 0; e >>= 1 {
			if e&1 == 1 {
				x = mulmod(x, b)
			}
			b = mulmod(b, b)
		}
		if x == 1 || x == u-1 {
			continue
		}
		composite := true
		for range r - 1 {
			if x = mulmod(x, x); x == u-1 {
				composite = false
				break
			}
		}
		if composite {
			return false
		}
	}
	return true
}
