package cover

import (
	"testing"

	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/split"
	"github.com/cbreach/cbreach/symauto"
	"github.com/stretchr/testify/require"
)

// TestPruneLastThread: counting preemptions, a kept tuple covers a new
// one with the same configurations only when it has fewer preemptions,
// or as many and the same last thread (or none): the last thread decides
// whether the next switch is free. Checked on the identical-tuple test
// and on subsumption, with the same tuple offered again under each pair of
// (preemptions, last thread).
func TestPruneLastThread(t *testing.T) {
	net, err := frontend.Compile("two.pds", []byte("int<1> x;\nproc p() { x = 1; }\nstart p();\nstart p();\n"))
	require.NoError(t, err)
	sp := symauto.NewSpace(net)
	views := []*symauto.Auto{sp.Init(net.Threads[0]), sp.Init(net.Threads[1])}
	tuples, err := split.New(split.Lazy, sp).Initial(views)
	require.NoError(t, err)
	require.Len(t, tuples, 1)
	for _, after := range []int{Never, 0} { // identical tuples; subsumption
		s := New(net.M, sp.CurSet(), 2, Config{After: after, Last: -1, LastLimit: DefaultLastLimit, LastAllowance: DefaultLastAllowance, Preempt: true})
		offer := func(level, last int) bool {
			tp := tuples[0]
			tp.Views = append([]*symauto.Auto(nil), tp.Views...)
			drop, _ := s.Check(&tp, level, last)
			return drop
		}
		require.False(t, offer(1, 0), "after %d: the first tuple is kept", after)
		require.True(t, offer(1, 0), "after %d: the same with the same last thread is dropped", after)
		require.False(t, offer(1, 1), "after %d: the same with another last thread is kept", after)
		require.True(t, offer(2, 1), "after %d: with more preemptions it is dropped", after)
		require.False(t, offer(0, 0), "after %d: with fewer preemptions it is kept", after)
	}
}
