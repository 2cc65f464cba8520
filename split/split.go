package split

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/symauto"
)

// Strategy selects how post* results are split into view tuples.
type Strategy int

const (
	// Lazy splits by a safe partition of the start globals (the paper's
	// Section 3): tuples may hold many global values.
	Lazy Strategy = iota
	// Eager keeps one global value per tuple (Qadeer and Rehof).
	Eager
)

func (s Strategy) String() string {
	if s == Eager {
		return "eager"
	}
	return "lazy"
}

// Parse returns the strategy named "eager" or "lazy".
func Parse(name string) (Strategy, error) {
	switch name {
	case "lazy":
		return Lazy, nil
	case "eager":
		return Eager, nil
	}
	return Lazy, fmt.Errorf("split: unknown strategy %q (want eager or lazy)", name)
}

// Tuple is a view tuple: one view per thread, all over the same globals,
// which Domain (over G) lists.
type Tuple struct {
	Views  []*symauto.Auto
	Domain bdd.Node
	// Class is, for a tuple made by Split when Splitter.Classes is set,
	// the start globals (over Gs) of the context that made it: those of
	// its class that reach the tuple's globals. Counterexample traces walk
	// back through it.
	Class bdd.Node
}

// ErrTupleLimit is wrapped by the error of an eager split that would
// enumerate more global values than Splitter.MaxTuples.
var ErrTupleLimit = errors.New("view tuple limit reached")

// Splitter computes view tuples. It keeps the BDDs that do not depend on
// the tuple (the order relation, the inequality of start copies).
type Splitter struct {
	Strategy Strategy
	// MaxTuples bounds the tuples one eager split (or the eager initial
	// tuples) may create; 0 means no bound. Eager splitting enumerates
	// global values, so an unconstrained 32-bit global is 2^32 tuples:
	// the split is refused up front with ErrTupleLimit instead.
	MaxTuples int
	// Classes makes Split record each new tuple's class of start globals
	// (Tuple.Class), for traces; it costs a quantification per tuple.
	Classes bool
	sp      *symauto.Space
	lt      bdd.Node // Gs < Gt under the lexicographic order (Algorithm 2's L)
	neq     bdd.Node // Gs != Gt
	gvecs   []bdd.Vec
}

// New returns a splitter for the space.
func New(s Strategy, sp *symauto.Space) *Splitter {
	return &Splitter{Strategy: s, sp: sp, lt: sp.StartOrder(), neq: sp.StartsDiffer(), gvecs: sp.GlobalVecs()}
}

// Initial returns the initial tuples: the initial views as one tuple
// (lazy), or one tuple per initial global value (eager; an error wrapping
// ErrTupleLimit when they are more than MaxTuples).
func (x *Splitter) Initial(views []*symauto.Auto) ([]Tuple, error) {
	m := x.sp.M
	dom := m.True()
	for _, v := range views {
		dom = m.And(dom, v.Accepting())
	}
	if dom.IsFalse() {
		return nil, nil
	}
	if x.Strategy == Lazy {
		return []Tuple{{Views: trimAll(views), Domain: dom}}, nil
	}
	if err := x.limit(dom, "the initial configurations", x.sp.CurSet()); err != nil {
		return nil, err
	}
	var ts []Tuple
	for _, g := range x.values(dom) {
		if err := m.Err(); err != nil {
			return nil, err // a limit or the deadline: stop enumerating
		}
		t := Tuple{Views: make([]*symauto.Auto, len(views)), Domain: g}
		for i, v := range views {
			t.Views[i] = v.RestrictGlobals(g)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// limit returns an error wrapping ErrTupleLimit when set, counted over
// the variables vars, has more than MaxTuples elements.
func (x *Splitter) limit(set bdd.Node, what string, vars bdd.VarSet) error {
	if x.MaxTuples <= 0 || x.fits(vars) {
		return nil
	}
	n := x.sp.M.Count(set, vars)
	if n.Cmp(big.NewInt(int64(x.MaxTuples))) <= 0 {
		return nil
	}
	return fmt.Errorf("split: eager splitting of %s would create %s view tuples, more than the limit of %d: %w", what, n, x.MaxTuples, ErrTupleLimit)
}

// fits reports whether the variables of vars cannot take more than
// MaxTuples values at all: then limit needs no count (on most models it
// never does, and it runs once per eager split).
func (x *Splitter) fits(vars bdd.VarSet) bool {
	bits := x.sp.M.SetBits(vars)
	return bits < 62 && 1<<bits <= x.MaxTuples
}

func trimAll(vs []*symauto.Auto) []*symauto.Auto {
	out := make([]*symauto.Auto, len(vs))
	for i, v := range vs {
		out[i] = v.Trim()
	}
	return out
}

// values enumerates the global valuations in set (over G), each as the
// BDD G == value, in ascending order of Enumerate; it stops at a limit of
// the manager (the run's deadline included: every value costs BDD
// operations, which watch it), and the callers check the manager's error.
func (x *Splitter) values(set bdd.Node) []bdd.Node {
	m := x.sp.M
	var out []bdd.Node
	m.Enumerate(set, x.gvecs, func(vals []uint64) bool {
		if m.Err() != nil {
			return false
		}
		g := m.True()
		for i := len(vals) - 1; i >= 0; i-- {
			g = m.And(m.Eq(x.gvecs[i], m.ConstVec(vals[i], len(x.gvecs[i]))), g)
		}
		out = append(out, g)
		return true
	})
	return out
}

// Split returns the tuples that represent the result of one context of
// thread active: t is the tuple before the context, post the saturated
// tagged view of the active thread, changed the start globals whose post*
// added something (symauto.Saturation.Changed), level the context level of
// the new tuples. Start globals that are stale (nothing new) are dropped
// first (docs/design.md, "Stale start globals"); with none left there are no
// new tuples. The errors are an eager split beyond MaxTuples and a limit
// of the manager (its error, once set). It is
// Parts, with the start globals the other views of t cannot tell apart
// (Others), followed by Apply.
func (x *Splitter) Split(t Tuple, active int, post *symauto.Auto, changed bdd.Node, level int) ([]Tuple, error) {
	p, err := x.Parts(post, changed, level, Others(t, active))
	if err != nil {
		return nil, err
	}
	return x.Apply(t, active, p), nil
}

// Others returns the views of t but the active thread's: those whose
// relation Alike lazy splitting respects.
func Others(t Tuple, active int) []*symauto.Auto {
	out := make([]*symauto.Auto, 0, len(t.Views))
	for i, v := range t.Views {
		if i != active {
			out = append(out, v)
		}
	}
	return out
}

// Alike returns the pairs of start globals (over Gs and Gt) at which no
// view of t but the active thread's tells the two apart: the
// conjunction of their symauto.Auto.Alike. Lazy splitting keeps two
// confluent start globals apart only outside this relation; eager
// ignores it. Split and Parts never build it: they compute the pairs of
// the confluence relation outside it, and the start globals alike to one
// start global, from the views directly (symauto.Auto.TellApart and
// AlikeTo), which is the same but over fewer pairs or one copy of the
// globals.
func (x *Splitter) Alike(t Tuple, active int) bdd.Node {
	m := x.sp.M
	r := m.True()
	if x.Strategy == Eager {
		return r
	}
	for i, v := range t.Views {
		if i != active {
			if r = m.And(r, v.Alike()); r.IsFalse() {
				break
			}
		}
	}
	return r
}

// Parts is the part of a split that depends on the post* result alone
// (and, for lazy, on the relation Alike of the tuple's other views when
// live start globals are confluent; NeedsAlike), not on the rest of the
// tuple it came from: the new views of the active thread, each
// with its relation between start and current globals and the new
// tuple's domain (and class). Tuples whose active thread had the same
// view and domain share it, and with it the other views rebased so far.
type Parts struct {
	views   []*symauto.Auto
	rels    []bdd.Node // over Gs and G
	doms    []bdd.Node // over G: the start globals of rels
	classes []bdd.Node // over Gs, when Splitter.Classes is set
	rebased map[rebaseKey]*symauto.Auto
	// needsAlike: some live start globals are confluent, so the classes
	// depend on the other views (Alike).
	needsAlike bool
}

// NeedsAlike reports whether the parts depend on the relation Alike of
// the tuple they were made for (some live start globals are confluent);
// when not, every tuple with the same post* result can share them.
func (p *Parts) NeedsAlike() bool { return p.needsAlike }

// rebaseKey is a view of another thread and the part it is rebased for.
type rebaseKey struct {
	view *symauto.Auto
	part int
}

// Parts splits post (arguments as for Split) into the active thread's
// new views, by start global for Eager, by class of a safe partition for
// Lazy; others are the views of the tuple's other threads (Others):
// lazy may put two confluent start globals in one class when they are
// alike for every one of them (Alike). They are asked only when two live
// start globals are confluent (Parts.NeedsAlike); otherwise the parts
// depend on the post* result alone. Tuples whose active thread had the
// same view and domain (and, when the parts need it, the same other
// views) share the parts.
func (x *Splitter) Parts(post *symauto.Auto, changed bdd.Node, level int, others []*symauto.Auto) (*Parts, error) {
	sp, m := x.sp, x.sp.M
	u := post.Accepting() // U'(Gs, G)
	live := m.And(changed, m.Exists(u, sp.CurSet()))
	p := &Parts{rebased: map[rebaseKey]*symauto.Auto{}}
	if live.IsFalse() {
		return p, nil
	}
	if x.Strategy == Eager {
		if err := x.splitEager(p, post, u, live, level); err != nil {
			return nil, err
		}
	} else {
		x.splitLazy(p, post, u, live, others, level)
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	for _, rel := range p.rels {
		p.doms = append(p.doms, m.Exists(rel, sp.StartSet()))
		if x.Classes {
			p.classes = append(p.classes, m.Exists(rel, sp.CurSet()))
		}
	}
	return p, nil
}

// Apply returns the tuples of t after the active thread's context split
// into p: each part's view, with the other views of t rebased through the
// part's relation (the paper's equation (1)), each rebased view made once
// per part. At a limit of the manager it stops early (the caller checks
// the manager's error).
func (x *Splitter) Apply(t Tuple, active int, p *Parts) []Tuple {
	out := make([]Tuple, 0, len(p.views))
	for j, w := range p.views {
		if x.sp.M.Err() != nil {
			break // a limit: the caller checks the manager's error
		}
		nt := Tuple{Views: make([]*symauto.Auto, len(t.Views)), Domain: p.doms[j]}
		if x.Classes {
			nt.Class = p.classes[j]
		}
		for i, v := range t.Views {
			if i == active {
				nt.Views[i] = w
				continue
			}
			k := rebaseKey{v, j}
			r := p.rebased[k]
			if r == nil {
				r = v.Rebase(p.rels[j])
				p.rebased[k] = r
			}
			nt.Views[i] = r
		}
		out = append(out, nt)
	}
	return out
}

// splitEager makes a part of each live start global and end global
// (Qadeer and Rehof; docs/design.md, "Eager splitting").
func (x *Splitter) splitEager(p *Parts, post *symauto.Auto, u, live bdd.Node, level int) error {
	sp, m := x.sp, x.sp.M
	if err := x.limit(m.And(u, live), "one post* result", m.Union(sp.StartSet(), sp.CurSet())); err != nil {
		return err
	}
	for _, gs := range x.values(sp.StartToCur(live)) {
		if err := m.Err(); err != nil {
			return err // a limit or the deadline: stop enumerating
		}
		class := sp.CurToStart(gs)
		w := post.Restrict(class, level) // once per start global, not per end global
		ends := m.Exists(m.And(u, class), sp.StartSet())
		for _, g := range x.values(ends) {
			p.views = append(p.views, w.RestrictGlobals(g))
			p.rels = append(p.rels, m.And(class, g))
		}
	}
	return nil
}

// splitLazy makes a part of each class of a safe partition of the live
// start globals (the paper's Section 3; docs/design.md, "Lazy splitting").
//
// The conflicts C' = C AND NOT Alike come from the confluent pairs
// (over Gs and Gt) that each other view tells apart
// (symauto.Auto.TellApart), the seeds from the start globals alike to y0
// for every other view (symauto.Auto.AlikeTo, over one copy): Alike
// itself, over two copies of every global, is never built.
func (x *Splitter) splitLazy(p *Parts, post *symauto.Auto, u, live bdd.Node, others []*symauto.Auto, level int) {
	sp, m := x.sp, x.sp.M
	c := m.And(x.Confluence(u), live, sp.StartToStart2(live))
	if !c.IsFalse() {
		p.needsAlike = true
		apart := m.False()
		for _, v := range others {
			d := v.TellApart(c)
			apart = m.Or(apart, d)
			if c = m.Diff(c, d); c.IsFalse() {
				break
			}
		}
		c = apart
	}
	alikeTo := func(y bdd.Node) bdd.Node {
		r := m.True()
		for _, v := range others {
			if r = m.And(r, v.AlikeTo(y)); r.IsFalse() {
				break
			}
		}
		return r
	}
	for _, class := range x.partition(live, c, alikeTo) {
		p.views = append(p.views, post.Restrict(class, level))
		p.rels = append(p.rels, m.And(class, u))
	}
}

// Confluence returns C(Gs, Gt): two distinct start globals from which the
// active thread can reach a common global (the paper's Definition 2 and
// Section 3.2), given U'(Gs, G).
func (x *Splitter) Confluence(u bdd.Node) bdd.Node {
	sp, m := x.sp, x.sp.M
	ut := sp.StartToStart2(u)
	return m.And(x.neq, m.AndExists(u, ut, sp.CurSet()))
}

// Partition computes a safe partition of the start globals in live (over
// Gs), given U'(Gs, G) and alike (over Gs and Gt: start globals no other
// view tells apart, an equivalence relation as Splitter.Alike's is; True
// when there is no such view, False for the paper's relation), by the
// paper's Algorithm 2 with each class seeded by the alike class of its
// least element ([partition]; the package documentation, "Seeded
// classes", proves the partition safe for C' = C AND NOT alike).
// Classes come out in increasing order of their least elements, so runs
// are deterministic.
func (x *Splitter) Partition(u, live, alike bdd.Node) []bdd.Node {
	sp, m := x.sp, x.sp.M
	c := m.And(x.Confluence(u), live, sp.StartToStart2(live))
	return x.partition(live, m.Diff(c, alike), func(y bdd.Node) bdd.Node { return m.AndExists(alike, y, sp.Start2Set()) })
}

// partition is Algorithm 2 on the start globals in live (over Gs), with
// the conflicts c (over Gs and Gt, within live x live, symmetric: C' =
// C AND NOT alike) and each class seeded with the alike class of its
// least element (alikeTo(y) returns, over Gs, the start globals alike to
// y, one valuation over Gt). Without conflicts live is one class. With BDD operations only: repeatedly take y0, the least
// element left under the lexicographic order; F(x) = left(x) AND NOT
// c(x, y0) (the paper's S(x, y0)); the seed is y0 and every x in F alike
// to y0; the rest of F loses what conflicts with the seed, then the
// smaller element of every conflicting pair in it until no conflict is
// left (the paper's inner loop); the class is the seed and that rest.
// With alike False the seed is y0 alone and this is Algorithm 2 exactly.
// Each class takes the whole alike class of its y0 among the elements
// left, so there are at most as many classes as alike classes meet live.
// Each costs one outer pass and at most two inner ones (after one removal
// no conflicting pair is left: of a pair x < y in what is left, x would
// have been removed), so the work grows with the number of classes, not
// with the number of globals.
func (x *Splitter) partition(live, c bdd.Node, alikeTo func(y bdd.Node) bdd.Node) []bdd.Node {
	sp, m := x.sp, x.sp.M
	if c.IsFalse() {
		return []bdd.Node{live}
	}
	gt := sp.Start2Set()
	gsSet := sp.StartSet()
	left := live // over Gs
	var classes []bdd.Node
	for !left.IsFalse() {
		// Line 3: y0 is the least element left (over Gt):
		// least(P)(y) = P(y) AND NOT EXISTS x. P(x) AND x < y.
		leftT := sp.StartToStart2(left)
		y0 := m.Diff(leftT, m.AndExists(left, x.lt, gsSet))
		// Line 4: F(x) = S(x, y0), the elements left that do not
		// conflict with y0.
		f := m.Diff(left, m.AndExists(c, y0, gt))
		seed := m.Or(sp.Start2ToStart(y0), m.And(f, alikeTo(y0)))
		seed = x.clique(seed, c) // a no-op when alike is an equivalence relation
		rest := m.Diff(f, seed)
		if !rest.IsFalse() {
			rest = m.Diff(rest, m.AndExists(c, sp.StartToStart2(seed), gt))
			rest = x.clique(rest, c)
		}
		class := m.Or(seed, rest)
		classes = append(classes, class)
		// Line 11: remove the class from S.
		left = m.Diff(left, class)
		if m.Err() != nil {
			break // a limit: the caller checks the manager's error
		}
	}
	return classes
}

// clique removes from f (over Gs) the smaller element of every pair in f
// that conflicts under c (over Gs and Gt), until no such pair is left:
// the inner loop of Algorithm 2 (lines 5 to 9).
func (x *Splitter) clique(f, c bdd.Node) bdd.Node {
	sp, m := x.sp, x.sp.M
	for {
		// Line 6: D(x, y) = L(x, y) AND F(x) AND F(y) AND NOT S(x, y),
		// with L(x, y) = x < y; line 8 removes x.
		// (The order relation last: F and c make the pairs few.)
		rm := m.AndExists(m.And(c, f, sp.StartToStart2(f)), x.lt, sp.Start2Set())
		if rm.IsFalse() {
			return f
		}
		f = m.Diff(f, rm)
	}
}
