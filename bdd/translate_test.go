package bdd

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTranslate moves relations between two managers whose layouts order
// the variables differently, with a renaming that swaps copies, and
// checks every assignment: the result is the source function with its
// variables renamed.
func TestTranslate(t *testing.T) {
	l1 := NewLayout()
	x := l1.Uint("x", 3, 2)
	y := l1.Uint("y", 2, 2)
	src, err := New(l1, Config{})
	require.NoError(t, err)

	l2 := NewLayout()
	z := l2.Bool("z", 1) // an extra variable, first in the order
	y2 := l2.Uint("y", 2, 3)
	x0 := l2.Uint("x0", 3, 2)
	x1 := l2.Uint("x1", 3, 1)
	dst, err := New(l2, Config{})
	require.NoError(t, err)
	f := func(r Ref, b int) (Ref, int) {
		switch {
		case r.Var == x && r.Copy == 0:
			return Ref{x1, 0}, b
		case r.Var == x:
			return Ref{x0, 1}, b
		}
		return Ref{y2, 2 - r.Copy}, b // y copy 0 to 2, copy 1 to 1
	}
	xs, xn := src.Vec(Ref{x, 0}), src.Vec(Ref{x, 1})
	ys, yn := src.Vec(Ref{y, 0}), src.Vec(Ref{y, 1})
	rels := []Node{
		src.True(), src.False(),
		src.Eq(xn, src.Add(xs, src.Resize(ys, 3))),
		src.Or(src.Lt(xs, xn), src.Eq(yn, ys)),
		src.And(src.Value(Ref{x, 0}, 5), src.Not(src.Eq(ys, yn))),
	}
	for i, rel := range rels {
		got := dst.Translate(src, rel, f)
		require.NoError(t, dst.Err())
		for a := uint64(0); a < 8; a++ {
			for an := uint64(0); an < 8; an++ {
				for b := uint64(0); b < 4; b++ {
					for bn := uint64(0); bn < 4; bn++ {
						in := src.And(src.Value(Ref{x, 0}, a), src.Value(Ref{x, 1}, an), src.Value(Ref{y, 0}, b), src.Value(Ref{y, 1}, bn))
						want := !src.And(rel, in).IsFalse()
						out := dst.And(dst.Value(Ref{x1, 0}, a), dst.Value(Ref{x0, 1}, an), dst.Value(Ref{y2, 2}, b), dst.Value(Ref{y2, 1}, bn))
						have := !dst.And(got, out).IsFalse()
						require.Equal(t, want, have, "relation %d at x=%d x'=%d y=%d y'=%d", i, a, an, b, bn)
					}
				}
			}
		}
		for _, r := range dst.Support(got) {
			require.NotEqual(t, z, r.Var, "relation %d mentions a variable it should not", i)
		}
	}
}
