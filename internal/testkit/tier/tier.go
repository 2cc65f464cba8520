// Package tier says which tier of the test suite is running and gives the
// random campaigns their seeds.
//
// The suite has two tiers. The everyday tier is plain `go test ./...`: every
// test runs, at a size that proves each property on a few cases, with fixed
// seeds, so that it stays a few minutes on a 2-core machine. The long tier
// runs when CBREACH_LONG=1 is set: the random campaigns at their full size,
// the large models, and the tests that start external services or run
// whole suites.
//
// A long campaign runs the fixed seeds 1 to n (the same programs every run,
// so that a regression is caught where it was first seen) and then a block
// of seeds drawn from the campaign seed. The campaign seed is new on every
// run (drawn from the clock) and printed at the start of each test binary;
// CBREACH_SEED=s replays it:
//
//	CBREACH_LONG=1 CBREACH_SEED=s go test ./cbr/tuples -run 'TestDifferential'
//
// A test that takes its seeds from Seeds logs the campaign seed too, so a
// failing test's output names it.
package tier

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The environment variables of the switch and of the replay.
const (
	LongEnv = "CBREACH_LONG"
	SeedEnv = "CBREACH_SEED"
)

// Long reports whether the long tier runs: CBREACH_LONG is 1 or true.
func Long() bool {
	v := os.Getenv(LongEnv)
	return v == "1" || v == "true"
}

// Pick returns everyday in the everyday tier and long in the long tier.
func Pick[T any](everyday, long T) T {
	if Long() {
		return long
	}
	return everyday
}

// SkipUnlessLong skips t in the everyday tier, saying why it belongs to
// the long one.
func SkipUnlessLong(t testing.TB, why string) {
	t.Helper()
	if !Long() {
		t.Skipf("long tier (set %s=1): %s", LongEnv, why)
	}
}

var (
	campaignOnce sync.Once
	campaign     uint64
	campaignErr  error
)

// Campaign returns this process's campaign seed: CBREACH_SEED when it is
// set, else one drawn from the clock. It is printed to standard error the
// first time it is asked for in the long tier. An unreadable CBREACH_SEED
// is an error.
func Campaign() (uint64, error) {
	campaignOnce.Do(func() {
		campaign, campaignErr = parseCampaign(os.Getenv(SeedEnv), time.Now())
		if campaignErr == nil && Long() {
			fmt.Fprintf(os.Stderr, "long campaign seed %d (%s=1 %s=%d replays it)\n", campaign, LongEnv, SeedEnv, campaign)
		}
	})
	return campaign, campaignErr
}

// parseCampaign returns the campaign seed that the value of CBREACH_SEED
// gives, or one drawn from the clock when it is empty.
func parseCampaign(env string, now time.Time) (uint64, error) {
	if env == "" {
		return uint64(now.UnixNano()) % 1_000_000_000, nil
	}
	c, err := strconv.ParseUint(env, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("tier: %s=%q is not a seed (a number from 0 to 2^64-1)", SeedEnv, env)
	}
	return c, nil
}

// rotating returns the n seeds that campaign c draws.
func rotating(c uint64, n int) []uint64 {
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = RotatingBase + mix(c*1_000_003+uint64(i))%1_000_000_000
	}
	return seeds
}

// mix is SplitMix64's finaliser: consecutive inputs give unrelated
// outputs.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// RotatingBase is where the rotating seeds start: every rotating seed is
// at least this, so it never names a case of the fixed seeds.
const RotatingBase = 1_000_000

// Seeds returns the seeds of a random campaign. In the everyday tier they
// are 1 to everyday. In the long tier they are 1 to long, the fixed
// campaign, then rotating seeds drawn from the campaign seed (each at
// least RotatingBase), which change from run to run; the campaign seed is
// logged on t. With everyday > long, the long tier runs everyday fixed
// seeds too.
func Seeds(t testing.TB, everyday, long, drawn int) []uint64 {
	t.Helper()
	var seeds []uint64
	n := everyday
	if Long() {
		n = max(long, everyday)
	}
	for s := 1; s <= n; s++ {
		seeds = append(seeds, uint64(s))
	}
	if !Long() || drawn == 0 {
		return seeds
	}
	c, err := Campaign()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("campaign seed %d: %d fixed seeds and %d drawn from it (%s=1 %s=%d replays them)", c, n, drawn, LongEnv, SeedEnv, c)
	return append(seeds, rotating(c, drawn)...)
}
