package seq_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/frontend"
	"github.com/stretchr/testify/require"
)

// TestLimits: a node limit met anywhere (thread slots, the construction
// and its validation, post*) and a cancelled context give UNKNOWN with
// the limit, never an error or a wrong verdict.
func TestLimits(t *testing.T) {
	src, err := os.ReadFile("../../examples/spawn.pds")
	require.NoError(t, err)
	for _, f := range forms {
		for _, nodes := range []int{100, 1000, 4000, 10000, 30000, 100000} {
			net, err := frontend.Compile("spawn.pds", src)
			require.NoError(t, err)
			net.MaxThreads = 3
			res, err := seq.Engine{Eager: !f.lazy}.Analyze(context.Background(), net, cbr.Options{Bound: 2, Limits: cbr.Limits{MaxNodes: nodes}})
			require.NoError(t, err, "%s, %d nodes", f.name, nodes)
			if res.Verdict != cbr.Safe {
				require.Equal(t, cbr.Unknown, res.Verdict, "%s, %d nodes", f.name, nodes)
				require.True(t, errors.Is(res.Limit, cbr.ErrNodeLimit), "%s, %d nodes: %v", f.name, nodes, res.Limit)
				require.Less(t, res.Complete, 2, "%s, %d nodes", f.name, nodes)
			}
		}
		net, err := frontend.Compile("spawn.pds", src)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := seq.Engine{Eager: !f.lazy}.Analyze(ctx, net, cbr.Options{Bound: 2})
		require.NoError(t, err)
		require.Equal(t, cbr.Unknown, res.Verdict, f.name)
		require.ErrorIs(t, res.Limit, context.Canceled, f.name)
	}
}

// TestBuildStopsPromptly: a deadline stops the construction of the eager
// form's network on 1,000 threads (its switches are quadratic in the
// threads, built from relations the kernel answers from its caches) and
// gives UNKNOWN with the time limit, within a generous margin of the
// deadline, not when the construction would have ended (seconds later).
func TestBuildStopsPromptly(t *testing.T) {
	var src strings.Builder
	src.WriteString("int<4> x;\nproc m() { x = x + 1; assert(x != 15); }\n")
	for range 1000 {
		src.WriteString("start m();\n")
	}
	net, err := frontend.Compile("threads.pds", []byte(src.String()))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := seq.Engine{Eager: true}.Analyze(ctx, net, cbr.Options{Bound: 4, All: true})
	require.NoError(t, err)
	require.Equal(t, cbr.Unknown, res.Verdict)
	require.ErrorIs(t, res.Limit, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 300*time.Millisecond+time.Second)
}
