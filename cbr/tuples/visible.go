package tuples

import (
	"context"
	"fmt"
	"strings"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// VisibleStates explores the whole bound and counts, for every j from 0
// to the bound, the distinct visible states reachable within j contexts:
// a global valuation together with the top label of every thread's stack
// (or an empty stack). This is the coverage per bound the iterative
// context-bounding paper reports, and what CUBA computes for instances
// without a target. The visible states of a tuple at a global value g are
// the product of the threads' tops at g, since a tuple's configurations at
// g are the product of its views at g.
func visibleStates(ctx context.Context, net *pds.Network, opts options) ([]int, *cbr.Result, error) {
	k := opts.Bound
	first := map[string]int{} // visible state -> fewest contexts
	m := net.M
	inner := opts.OnTuple
	opts.All, opts.KeepLast = true, true
	opts.OnTuple = func(level int, t split.Tuple) {
		if inner != nil {
			inner(level, t)
		}
		for _, key := range visible(net, t) {
			if old, ok := first[key]; !ok || level < old {
				first[key] = level
			}
		}
	}
	res, err := analyze(ctx, net, opts)
	if err != nil {
		return nil, res, err
	}
	if err := m.Err(); err != nil {
		return nil, res, err
	}
	counts := make([]int, k+1)
	for _, j := range first {
		for b := j; b <= k; b++ {
			counts[b]++
		}
	}
	return counts, res, nil
}

// visible lists the visible states of a tuple as strings
// "g1,g2,...|top0,top1,..." ("-" for an empty stack).
func visible(net *pds.Network, t split.Tuple) []string {
	m := net.M
	type top struct {
		name string
		g    bdd.Node
	}
	tops := make([][]top, len(t.Views))
	for i, v := range t.Views {
		if f := v.Finished(); !f.IsFalse() {
			tops[i] = append(tops[i], top{"-", f})
		}
		for _, tp := range v.Tops(nil) {
			tops[i] = append(tops[i], top{tp.Label.Name, tp.Globals})
		}
	}
	vecs := make([]bdd.Vec, len(net.Globals))
	for i, g := range net.Globals {
		vecs[i] = net.GlobalVec(g, pds.GCur)
	}
	var out []string
	m.Enumerate(t.Domain, vecs, func(vals []uint64) bool {
		gv := m.True()
		for i := len(vals) - 1; i >= 0; i-- {
			gv = m.And(m.Eq(vecs[i], m.ConstVec(vals[i], len(vecs[i]))), gv)
		}
		prefix := strings.Trim(fmt.Sprint(vals), "[]")
		var rec func(i int, acc []string)
		rec = func(i int, acc []string) {
			if i == len(tops) {
				out = append(out, prefix+"|"+strings.Join(acc, ","))
				return
			}
			for _, tp := range tops[i] {
				if !m.And(tp.g, gv).IsFalse() {
					rec(i+1, append(acc, tp.name))
				}
			}
		}
		rec(0, nil)
		return true
	})
	return out
}
