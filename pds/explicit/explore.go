package explicit

import (
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/plural"
)

// Options bound an exploration.
type Options struct {
	Contexts   int // k >= 1: at most k contexts (k-1 context switches); any thread may run first
	MaxDepth   int // stack depth cap (default 16): a push beyond it is not explored and sets Result.DepthCapped
	MaxThreads int // default n.MaxThreads; a fork when this many threads exist moves the parent to n.CutoffLabel(rule) instead and sets Result.CutOff
	MaxConfigs int // 0 = no limit; exceeding it returns an error
}

// Reach is a reachable configuration with the fewest contexts that reach it.
type Reach struct {
	Config   Config
	Contexts int
}

// Violation is an error label on top of a thread's stack in a reachable
// configuration, with the fewest contexts that reach such a configuration.
type Violation struct {
	Label    *pds.Label
	Thread   int
	Contexts int
	Config   Config
}

// Result is the outcome of Explore.
type Result struct {
	Reached     []Reach     // every distinct configuration reachable within the bound, sorted by Config.Key()
	Violations  []Violation // one per error label reached, with the fewest contexts; sorted by (Contexts, Label.ID)
	CutOff      bool        // a fork met the thread bound
	DepthCapped bool        // a push met the depth cap
}

// state is a node of the explored graph: a configuration and the thread
// that made the last step (-1 for none), which together with the number of
// contexts used decide what may happen next.
type state struct {
	key  string
	last int
}

type item struct {
	config Config
	state
}

// ErrTooManyConfigs is wrapped by the error of an exploration that would
// hold more than Options.MaxConfigs configurations.
var ErrTooManyConfigs = errors.New("too many configurations")

// Explore enumerates every configuration of n reachable from Initial(n)
// within opts.Contexts contexts, with the fewest contexts for each.
//
// A context is a maximal run of steps of one thread. Initial configurations
// have 0 contexts; the first step of any thread starts context 1; a step by
// the thread that made the last step stays in the context; a step by
// another thread starts a new one. The explored states are (configuration,
// last thread) pairs, processed in buckets of increasing context count,
// breadth first within a bucket; a state is expanded only with the fewest
// contexts it was reached with, which dominates every other count. So the
// first time a configuration is expanded its count is the fewest.
//
// Cost: every reachable state times the rules of its top labels times the
// enumerated solutions; meant for small models only. It returns an error
// for opts.Contexts < 1, when more than opts.MaxConfigs configurations are
// reached (if set), or when the BDD manager fails.
func Explore(n *pds.Network, opts Options) (res *Result, err error) {
	k := opts.Contexts
	if k < 1 {
		return nil, fmt.Errorf("explicit: context bound %d: at least one context is needed", k)
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(bddError)
			if !ok {
				panic(r)
			}
			res, err = nil, e
		}
	}()
	x := newExploration(n, opts)
	if err := x.initial(); err != nil {
		return nil, err
	}
	for j := 0; j <= k; j++ {
		if err := x.bucket(j); err != nil {
			return nil, err
		}
	}
	if err := n.M.Err(); err != nil {
		return nil, errors.Join(errors.New("explicit: BDD error"), err)
	}
	x.finish()
	return x.res, nil
}

// exploration is the state of one Explore: the explored states with the
// fewest contexts each was queued with, the queue of states by context
// count, and the configurations reached.
type exploration struct {
	n                    *pds.Network
	k                    int // the context bound
	maxConfigs           int
	maxDepth, maxThreads int
	cs                   *constraints
	best                 map[state]int     // fewest contexts each state was queued with
	reached              map[string]*Reach // by Config.Key()
	buckets              [][]item          // by number of contexts
	res                  *Result
}

func newExploration(n *pds.Network, opts Options) *exploration {
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	maxThreads := opts.MaxThreads
	if maxThreads <= 0 {
		maxThreads = n.MaxThreads
	}
	return &exploration{n: n, k: opts.Contexts, maxConfigs: opts.MaxConfigs, maxDepth: maxDepth, maxThreads: maxThreads,
		cs: newConstraints(n), best: map[state]int{}, reached: map[string]*Reach{},
		buckets: make([][]item, opts.Contexts+1), res: &Result{}}
}

// queue adds the state (c, last) to bucket j unless it was queued with at
// most j contexts already: the extended states (s, n, p) of Holzmann and
// Florian's Fig. 3, a configuration with its context count and the thread
// that ran last, each kept with its fewest count.
func (x *exploration) queue(j int, c Config, key string, last int) {
	s := state{key, last}
	if b, ok := x.best[s]; ok && b <= j {
		return
	}
	x.best[s] = j
	x.buckets[j] = append(x.buckets[j], item{c, s})
}

// initial queues the initial configurations, C0 of the jMoped paper's
// Section 2.3, with 0 contexts and no last thread. Every initial
// configuration is reached: when there are more than MaxConfigs, it says
// so before enumerating them.
func (x *exploration) initial() error {
	n := x.n
	if x.maxConfigs > 0 {
		if count := InitialCount(n); count.Cmp(big.NewInt(int64(x.maxConfigs))) > 0 {
			return fmt.Errorf("explicit: more than %s within %s: %s initial configurations: %w", plural.Count(x.maxConfigs, "configuration"), plural.Count(x.k, "context"), FormatCount(count), ErrTooManyConfigs)
		}
	}
	EachInitial(n, func(c Config) bool {
		x.queue(0, c, c.Key(), -1)
		return true
	})
	return nil
}

// bucket expands the states reached with exactly j contexts, breadth
// first; the bucket grows while it is expanded (a step of the last thread
// stays in its context). A state queued again later with fewer contexts is
// skipped here. A configuration expanded for the first time is reached
// with j contexts, the fewest: post*≤k of Section 2.3, one count at a time.
func (x *exploration) bucket(j int) error {
	for i := 0; i < len(x.buckets[j]); i++ {
		it := x.buckets[j][i]
		if x.best[it.state] < j {
			continue // queued again later with fewer contexts
		}
		if _, ok := x.reached[it.key]; !ok {
			x.reached[it.key] = &Reach{Config: it.config, Contexts: j}
			if x.maxConfigs > 0 && len(x.reached) > x.maxConfigs {
				return fmt.Errorf("explicit: more than %s within %s: %w", plural.Count(x.maxConfigs, "configuration"), plural.Count(x.k, "context"), ErrTooManyConfigs)
			}
		}
		x.expand(it, j)
	}
	x.buckets[j] = nil
	return nil
}

// expand queues the successors of a state reached with j contexts by one
// step of each thread: the thread that ran last continues its context,
// any other starts a new one (a context switch), within the bound k.
func (x *exploration) expand(it item, j int) {
	for t := range it.config.Threads {
		nj := j
		if t != it.last {
			nj = j + 1
		}
		if nj > x.k {
			continue
		}
		succ, _, cut, capped := successors(x.cs, it.config, t, x.maxThreads, x.maxDepth, nil, false)
		x.res.CutOff = x.res.CutOff || cut
		x.res.DepthCapped = x.res.DepthCapped || capped
		for _, d := range succ {
			x.queue(nj, d, d.Key(), t)
		}
	}
}

// finish fills the result: the configurations reached, sorted by key, and
// the violations found among them.
func (x *exploration) finish() {
	keys := make([]string, 0, len(x.reached))
	for key := range x.reached {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		x.res.Reached = append(x.res.Reached, *x.reached[key])
	}
	x.res.Violations = violations(x.res.Reached)
}

// violations returns, for each error label on top of a thread's stack in
// a configuration of reached (sorted by key), the violation with the
// fewest contexts, then the smallest thread, then the smallest key;
// sorted by (Contexts, Label.ID).
func violations(reached []Reach) []Violation {
	byLabel := map[*pds.Label]*Violation{}
	for _, r := range reached {
		for t, stack := range r.Config.Threads {
			if len(stack) == 0 {
				continue
			}
			l := stack[len(stack)-1].Label
			if !l.Kind.IsError() {
				continue
			}
			// Fewest contexts, then smallest thread; keys ascend, so on a
			// full tie the first (smallest key) stays.
			if v, ok := byLabel[l]; !ok || r.Contexts < v.Contexts || r.Contexts == v.Contexts && t < v.Thread {
				byLabel[l] = &Violation{Label: l, Thread: t, Contexts: r.Contexts, Config: r.Config}
			}
		}
	}
	var vs []Violation
	for _, v := range byLabel {
		vs = append(vs, *v)
	}
	sort.Slice(vs, func(a, b int) bool {
		va, vb := vs[a], vs[b]
		if va.Contexts != vb.Contexts {
			return va.Contexts < vb.Contexts
		}
		return va.Label.ID < vb.Label.ID
	})
	return vs
}
