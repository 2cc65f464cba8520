package bdd

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConcurrentManagers runs managers on several goroutines at once, one
// each, as the package allows. rudd numbers the renamings of all managers
// with one unsynchronized counter; the race detector checks that our layer
// serializes it, and the results check that no renaming of a manager is
// confused with another.
func TestConcurrentManagers(t *testing.T) {
	const workers, rounds = 4, 150
	fs := make([]*fixture, workers)
	for w := range fs {
		fs[w] = newFixture(t, Config{NodeTable: 200})
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w, f := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := f.m
			x, y := Ref{f.u[3], 0}, Ref{f.u[4], 0}
			n := m.Lt(m.Vec(x), m.Vec(y))
			for i := range rounds {
				to := Ref{f.u[3], 1 + (i+w)%2}
				got := m.Rename(n, m.Renaming([]Ref{x}, []Ref{to}))
				if !got.Equal(m.Lt(m.Vec(to), m.Vec(y))) {
					errs[w] = errors.New("a renaming gave a wrong result")
					return
				}
			}
			errs[w] = m.Err()
		}()
	}
	wg.Wait()
	for w, err := range errs {
		require.NoError(t, err, "worker %d", w)
	}
}
