package seq

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
	"github.com/stretchr/testify/require"
)

// TestHiddenGuesses: on nested.pds (main starts a producer, which starts
// a logger, then a consumer or a checker: 3 slots), the eager form's
// guesses of the slot globals at 3 rounds exclude a slot with a
// procedure code before the counter reached it, and a counter that goes
// down between rounds, and keep the round starts of real runs (a slot
// started and not yet woken, a counter that stays or grows).
func TestHiddenGuesses(t *testing.T) {
	f := filepath.Join("..", "..", "cmd", "cbreach", "testdata", "slots", "nested.pds")
	src, err := os.ReadFile(f)
	require.NoError(t, err)
	net, err := frontend.Compile(f, src)
	require.NoError(t, err)
	eng, err := net.WithThreadSlots(net.MaxThreads)
	require.NoError(t, err)
	s, err := Build(context.Background(), eng, 3, bdd.Config{})
	require.NoError(t, err)
	m := s.Net.M
	index := func(name string) int {
		for i, g := range eng.Globals {
			if g.Name == name {
				require.True(t, g.Hidden, name)
				return i
			}
		}
		t.Fatalf("no global %s", name)
		return -1
	}
	created, proc0 := index("$created"), index("$slot0.proc")
	code := -1
	for i, v := range eng.Globals[proc0].Type.Values {
		if v == "producer" {
			code = i
		}
	}
	require.Positive(t, code)
	guess := func(i, r int, v uint64) bdd.Node {
		return m.Value(bdd.Ref{Var: s.guess[i][r].Var, Copy: pds.GCur}, v)
	}
	sat := func(cs ...bdd.Node) bool { return !m.And(append([]bdd.Node{s.hidden}, cs...)...).IsFalse() }
	// Round 2 starts with the producer started into slot 0, not woken yet;
	// round 3 with it woken (code 0) and the counter at 1 or more.
	require.True(t, sat(guess(created, 1, 1), guess(proc0, 1, uint64(code)), guess(created, 2, 1), guess(proc0, 2, 0)))
	require.True(t, sat(guess(created, 1, 1), guess(created, 2, 3)))
	// A code in slot 0 with no thread started; a counter going down.
	require.False(t, sat(guess(created, 1, 0), m.Not(guess(proc0, 1, 0))))
	require.False(t, sat(guess(created, 1, 2), guess(created, 2, 1)))
	// Slot 0, once woken (counter past it, code 0), is never started again.
	require.False(t, sat(guess(created, 1, 1), guess(proc0, 1, 0), m.Not(guess(proc0, 2, 0))))
}
