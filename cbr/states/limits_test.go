package states_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

const deepSrc = `
bool flag;
proc deep() {
  if (flag) { deep(); }
  assert(flag);
}
proc main() {
  flag = true;
  deep();
}
start main();
`

const deepAndBadSrc = `
bool flag = true;
int<1> z;
proc deep() {
  if (flag) { deep(); }
}
proc bad() {
  assert(z == 1);
}
start deep();
start bad();
`

func compileSrc(t *testing.T, src string, threads int) *pds.Network {
	t.Helper()
	net, err := frontend.CompileWith("test.pds", []byte(src), frontend.Options{MaxThreads: threads})
	require.NoError(t, err)
	return net
}

// TestLimits: every limit gives Unknown with the limit named, never Safe;
// a violation found before a limit is still reported.
func TestLimits(t *testing.T) {
	bt := compile(t, filepath.Join("..", "..", "examples", "bluetooth.pds"))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel2()
	<-expired.Done()
	spawn := filepath.Join("..", "..", "examples", "spawn.pds")
	src := must(t, spawn)
	cases := []struct {
		name   string
		ctx    context.Context
		net    *pds.Network
		eng    states.Engine
		opts   cbr.Options
		limit  error
		reason string
	}{
		{"depth", context.Background(), compileSrc(t, deepSrc, 0), states.Engine{MaxDepth: 5}, cbr.Options{}, cbr.ErrDepthLimit, "stack depth limit of 5 frames reached"},
		{"memory", context.Background(), bt, states.Engine{MaxStateBytes: 20000}, cbr.Options{Bound: 5}, cbr.ErrMemoryLimit, "memory limit reached (the stored states would take more than 20000 bytes)"},
		{"threads", context.Background(), compileSrc(t, src, 2), states.Engine{}, cbr.Options{Bound: 4}, cbr.ErrThreadBound, "would exceed the thread bound of 2 threads"},
		{"cancel", cancelled, bt, states.Engine{}, cbr.Options{Bound: 5}, context.Canceled, "cancelled"},
		{"deadline", expired, bt, states.Engine{}, cbr.Options{Bound: 5}, context.DeadlineExceeded, "time limit reached"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.eng.Analyze(tc.ctx, tc.net, tc.opts)
			require.NoError(t, err)
			require.Equal(t, cbr.Unknown, r.Verdict, r.Reason)
			require.True(t, errors.Is(r.Limit, tc.limit), "limit %v", r.Limit)
			require.Contains(t, r.Reason, tc.reason)
		})
	}
	// The same programs within their limits.
	r, err := states.Engine{}.Analyze(context.Background(), compileSrc(t, src, 0), cbr.Options{Bound: 4})
	require.NoError(t, err)
	require.Equal(t, cbr.Safe, r.Verdict, r.Reason)

	// A violation below the depth limit is reported, with the limit.
	r, err = states.Engine{MaxDepth: 4}.Analyze(context.Background(), compileSrc(t, deepAndBadSrc, 0), cbr.Options{Bound: 2, All: true})
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, r.Verdict)
	require.ErrorIs(t, r.Limit, cbr.ErrDepthLimit)
}

func must(t *testing.T, file string) string {
	t.Helper()
	net := compile(t, file) // checks it compiles
	_ = net
	b, err := readFile(file)
	require.NoError(t, err)
	return string(b)
}

// TestDeterministic: two runs give the same figures and violations.
func TestDeterministic(t *testing.T) {
	net := compile(t, filepath.Join("..", "..", "benchmarks", "models", "bluetooth-v2-a1s2.pds"))
	var first *cbr.Result
	for range 3 {
		r, err := states.Engine{}.Analyze(context.Background(), net, cbr.Options{Bound: 5, All: true})
		require.NoError(t, err)
		r.Stats.Time = 0
		if first == nil {
			first = r
			continue
		}
		require.Equal(t, states.Figures(first), states.Figures(r))
		require.Equal(t, first.Violations, r.Violations)
	}
}

// TestOpenInitialData: open initial data of 22 and 32 bits. Under a
// bound on the stored states that cannot hold the initial configurations
// the run says so before enumerating any; under a time limit alone it
// enumerates them one at a time and stops at the deadline. Both answer
// Unknown, promptly.
func TestOpenInitialData(t *testing.T) {
	src := func(bits int) string {
		return fmt.Sprintf("int<%d> x = ?; proc init() { x = 0; } proc t2() { assert(x == 0); } start init(); start t2();", bits)
	}
	for _, bits := range []int{22, 32} {
		net := compileSrc(t, src(bits), 0)
		start := time.Now()
		r, err := states.Engine{MaxStateBytes: 512 << 20}.Analyze(context.Background(), net, cbr.Options{})
		require.NoError(t, err)
		require.Less(t, time.Since(start), time.Second)
		require.Equal(t, cbr.Unknown, r.Verdict, r.Reason)
		require.ErrorIs(t, r.Limit, cbr.ErrMemoryLimit)
		require.Equal(t, fmt.Sprintf("2^%d initial configurations: more than the memory limit allows (at least 133 bytes each, 512 MiB in all)", bits), r.Reason)
		require.Equal(t, -1, r.Complete)

		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start = time.Now()
		r, err = states.Engine{}.Analyze(ctx, net, cbr.Options{})
		cancel()
		require.NoError(t, err)
		require.Less(t, time.Since(start), 2*time.Second, "the deadline must stop the enumeration")
		require.Equal(t, cbr.Unknown, r.Verdict, r.Reason)
		require.ErrorIs(t, r.Limit, context.DeadlineExceeded)
		require.Equal(t, -1, r.Complete)
	}
	// Open data the bound holds is searched: x = 1 fails the assertion.
	r, err := states.Engine{MaxStateBytes: 512 << 20}.Analyze(context.Background(), compileSrc(t, src(8), 0), cbr.Options{})
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, r.Verdict, r.Reason)
}
