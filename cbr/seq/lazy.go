package seq

import (
	"context"
	"sort"
	"time"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/symauto"
)

// lazy is the state of the lazy form's analysis (doc.go, "The lazy
// form"): the network, every thread's automaton after its last round and
// its effect.
type lazy struct {
	s  *Net
	sp *symauto.Space
	m  *bdd.Manager

	auto   []*symauto.Auto // thread j after its last round
	effect []bdd.Node      // E_j: its starts (x?) and ends (x@) of the rounds so far, over G

	endToMid, startToMid *bdd.Renaming // x@ -> mid, x? -> mid (mid: x@ in GNext)
	shift                *bdd.Renaming // x@r -> x@(r+1) in GNext
	swap                 *bdd.Renaming // x? -> x@ and x@ -> x? in GNext
	nextToCur            *bdd.Renaming // x@, x? in GNext -> GCur
	mid, round           bdd.VarSet    // x@ in GNext; $round in G
	free                 bdd.VarSet    // x@, x? and $round in G: what the first round's entry sets
	init1                bdd.Node      // x@1 holds the original initial values

	// For traces (trace.go).
	hist                   *history
	endToStart, startToEnd *bdd.Renaming // x@r <-> x?r
	nextToStart, unshift   *bdd.Renaming // x@r in GNext -> x?r; x?(r+1) -> x@r
	init1AsStart           bdd.Node      // x?1 holds the original initial values
	startSet, endSet       bdd.VarSet    // x?, x@ (G)
	tupleSet, firstStart   bdd.VarSet    // both; x?1
}

func newLazy(s *Net) *lazy {
	n := s.Net
	m := n.M
	z := &lazy{s: s, sp: symauto.NewSpace(n), m: m, auto: make([]*symauto.Auto, s.Threads), effect: make([]bdd.Node, s.Threads)}
	ref := func(g *pds.Global, c int) bdd.Ref { return bdd.Ref{Var: g.Var, Copy: c} }
	var ends, starts, mids, startMids, shFrom, shTo, swFrom, swTo, ncFrom, ncTo []bdd.Ref
	var nsFrom, nsTo, usFrom, usTo, firsts []bdd.Ref
	for i := range s.copies {
		for r := range s.Rounds {
			x, q := s.copies[i][r], s.guess[i][r]
			ends, mids = append(ends, ref(x, pds.GCur)), append(mids, ref(x, pds.GNext))
			starts, startMids = append(starts, ref(q, pds.GCur)), append(startMids, ref(x, pds.GNext))
			if r+1 < s.Rounds {
				shFrom, shTo = append(shFrom, ref(x, pds.GCur)), append(shTo, ref(s.copies[i][r+1], pds.GNext))
				usFrom, usTo = append(usFrom, ref(s.guess[i][r+1], pds.GCur)), append(usTo, ref(x, pds.GCur))
			}
			swFrom = append(swFrom, ref(q, pds.GCur), ref(x, pds.GCur))
			swTo = append(swTo, ref(x, pds.GNext), ref(q, pds.GNext))
			ncFrom = append(ncFrom, ref(x, pds.GNext), ref(q, pds.GNext))
			ncTo = append(ncTo, ref(x, pds.GCur), ref(q, pds.GCur))
			nsFrom, nsTo = append(nsFrom, ref(x, pds.GNext)), append(nsTo, ref(q, pds.GCur))
		}
		firsts = append(firsts, ref(s.guess[i][0], pds.GCur))
	}
	z.endToStart, z.startToEnd = m.Renaming(ends, starts), m.Renaming(starts, ends)
	z.nextToStart = m.Renaming(nsFrom, nsTo)
	if len(usFrom) > 0 {
		z.unshift = m.Renaming(usFrom, usTo)
	}
	z.startSet, z.endSet = m.Set(starts...), m.Set(ends...)
	z.tupleSet = m.Union(z.startSet, z.endSet)
	z.firstStart = m.Set(firsts...)
	z.endToMid = m.Renaming(ends, mids)
	z.startToMid = m.Renaming(starts, startMids)
	z.shift = m.Renaming(shFrom, shTo)
	z.swap = m.Renaming(swFrom, swTo)
	z.nextToCur = m.Renaming(ncFrom, ncTo)
	z.mid = m.Set(mids...)
	var rs []bdd.Ref
	for _, g := range s.round.bits {
		rs = append(rs, ref(g, pds.GCur))
	}
	z.round = m.Set(rs...)
	z.free = m.Union(z.tupleSet, z.round)
	z.init1 = m.Translate(s.Orig.M, s.Orig.InitRel(pds.GCur), s.mapping(s.Orig, n, 0))
	z.init1AsStart = m.Rename(z.init1, z.endToStart)
	return z
}

// compose returns a then b: a relation from a's starts to b's ends, where
// b started where a ended.
func (z *lazy) compose(a, b bdd.Node) bdd.Node {
	m := z.m
	return m.AndExists(m.Rename(a, z.endToMid), m.Rename(b, z.startToMid), z.mid)
}

// identity relates the starts of the first r rounds to equal ends.
func (z *lazy) identity(r int) bdd.Node {
	m, n := z.m, z.s.Net
	id := m.True()
	for i := range z.s.copies {
		for k := range r {
			id = m.And(id, m.Eq(n.GlobalVec(z.s.copies[i][k], pds.GCur), n.GlobalVec(z.s.guess[i][k], pds.GCur)))
		}
	}
	return id
}

// entry returns the relation that starts thread j's round k+1 (k rounds
// done, 0-based j): over its starts x?1..x?k and ends x@1..x@k of the
// rounds done, and the start of round k+1 in both x?(k+1) and x@(k+1).
// Thread j's ends are the starts of thread j+1, and so on to the last
// thread, whose ends d, after the initial globals, are thread 1's starts
// of rounds 1..k+1: [init, d]. Threads 1..j-1 run their k+1 rounds from
// there, and their ends e must be thread j's starts: e_1..e_k those it
// had, e_(k+1) the new one. Threads after j have their effects of k
// rounds, threads before j those of k+1 (they have run it).
func (z *lazy) entry(j, k int) bdd.Node {
	m, n := z.m, z.s.Net
	d := z.identity(k)
	for i := z.s.Threads - 1; i > j && k > 0; i-- {
		d = z.compose(z.effect[i], d) // (no rounds done: nothing to compose)
	}
	// Shift: thread 1's start of round r+1 is d_r.
	e := m.And(m.Rename(m.Rename(d, z.shift), z.nextToCur), z.init1)
	for i := range j {
		e = z.compose(e, z.effect[i])
	}
	// e relates thread j's ends (x?) to its starts (x@): swap the two.
	e = m.Rename(m.Rename(e, z.swap), z.nextToCur)
	for i := range z.s.copies {
		e = m.And(e, m.Eq(n.GlobalVec(z.s.copies[i][k], pds.GCur), n.GlobalVec(z.s.guess[i][k], pds.GCur)))
	}
	return e
}

// runLazy runs the lazy form: round by round, thread by thread, the
// thread moved to its next round by entry, post*, its effect and its
// error labels. Without opts.All it returns after the first thread that
// reaches an error label. It returns the rounds it explored completely;
// with opts.Traces, z keeps the history the traces are built from
// (buildTraces, after the run).
func (s *Net) runLazy(ctx context.Context, opts options, res *Result, start time.Time, z *lazy) (complete int, cut, err error) {
	m := z.m
	if opts.Traces {
		z.hist = &history{in: make([][]*symauto.Auto, s.Threads), effect: make([][]bdd.Node, s.Threads), where: map[*pds.Label][2]int{}}
	}
	errs := map[*pds.Label]*pds.Label{} // copy -> original error or cutoff label
	for _, l := range s.errs {
		errs[s.labels[l]] = l
	}
	seen := res.labels() // the initial configurations' errors are reported
	for k := range s.Rounds {
		complete = k // rounds done
		var sites []Site
		for j := range s.Threads {
			a, vars := z.auto[j], z.round
			if a == nil {
				// The copies start free, without the validity of their
				// type (doc.go, "Validity"): entry gives each round's
				// copies their values when the round starts.
				a, vars = z.sp.Init(s.Net.Threads[j]), z.free
			}
			a = a.Reassign(vars, m.And(z.entry(j, k), s.round.is(m, pds.GCur, uint64(k))))
			if z.hist != nil {
				z.hist.in[j] = append(z.hist.in[j], a)
			}
			sat := symauto.NewSaturation(a, k+1)
			steps, err := s.saturate(ctx, sat, k+1, opts, res, start)
			res.Stats.PostStarCalls++
			res.Stats.PostStarSteps += steps
			if err != nil {
				return complete, cut, err
			}
			a = sat.Result()
			z.auto[j] = a
			z.effect[j] = m.Exists(a.Accepting(), z.round)
			if z.hist != nil {
				z.hist.effect[j] = append(z.hist.effect[j], z.effect[j])
			}
			for _, t := range a.Tops(func(l *pds.Label) bool { return errs[l] != nil }) {
				switch l := errs[t.Label]; {
				case l.Kind == pds.Cutoff:
					if cut == nil {
						cut = s.cutoffErr(l)
					}
				case !seen[l]:
					seen[l] = true
					sites = append(sites, Site{Label: l, Thread: j, Rounds: k + 1})
					if z.hist != nil {
						z.hist.where[l] = [2]int{j, k}
					}
				}
			}
			if err := m.Err(); err != nil {
				return complete, cut, err
			}
			if len(sites) > 0 && !opts.All {
				break
			}
		}
		sort.SliceStable(sites, func(a, b int) bool { return sites[a].Label.ID < sites[b].Label.ID })
		if err := s.report(sites, opts, res); err != nil {
			return complete, cut, err
		}
		if len(sites) > 0 && !opts.All {
			return k, cut, nil // round k+1 was not explored to the end
		}
	}
	// Every round is explored, for the runs with at most the thread
	// bound's threads when a start was cut off.
	return s.Rounds, cut, nil
}

// buildTraces gives every violation of res its trace (trace.go), checked
// by replay on the network with thread slots.
func (z *lazy) buildTraces(ctx context.Context, res *Result) {
	res.SetTraces(z.s.Orig, func(f cbr.Found) (*cbr.Trace, bool, error) {
		tr, err := z.traceOf(ctx, f)
		if e := z.m.Err(); e != nil {
			err = e
		}
		return tr, true, err
	})
}
