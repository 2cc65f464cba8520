package explicit

import (
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/cbreach/cbreach/pds"
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

// ErrTooManyConfigs is wrapped by the error of an exploration that would
// hold more than Options.MaxConfigs configurations.
var ErrTooManyConfigs = errors.New("too many configurations")

func Explore(n *pds.Network, opts Options) (res *Result, err error) {
	k := opts.Contexts
	if k < 1 {
		return nil, fmt.Errorf("explicit: context bound %d: at least one context is needed", k)
	}
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	maxThreads := opts.MaxThreads
	if maxThreads <= 0 {
		maxThreads = n.MaxThreads
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

	res = &Result{}
	cs := newConstraints(n)
	best := map[state]int{}        // fewest contexts each state was queued with
	reached := map[string]*Reach{} // by Config.Key()
	buckets := make([][]item, k+1) // by number of contexts
	queue := func(j int, c Config, key string, last int) {
		s := state{key, last}
		if b, ok := best[s]; ok && b <= j {
			return
		}
		best[s] = j
		buckets[j] = append(buckets[j], item{c, s})
	}
	// Every initial configuration is reached: when there are more than
	// MaxConfigs, say so before enumerating them.
	if opts.MaxConfigs > 0 {
		if count := InitialCount(n); count.Cmp(big.NewInt(int64(opts.MaxConfigs))) > 0 {
			return nil, fmt.Errorf("explicit: more than %d configurations within %d contexts: %s initial configurations: %w", opts.MaxConfigs, k, FormatCount(count), ErrTooManyConfigs)
		}
	}
	EachInitial(n, func(c Config) bool {
		queue(0, c, c.Key(), -1)
		return true
	})
	for j := 0; j <= k; j++ {
		for i := 0; i < len(buckets[j]); i++ { // the bucket grows while we go
			it := buckets[j][i]
			if best[it.state] < j {
				continue // queued again later with fewer contexts
			}
			if _, ok := reached[it.key]; !ok {
				reached[it.key] = &Reach{Config: it.config, Contexts: j}
				if opts.MaxConfigs > 0 && len(reached) > opts.MaxConfigs {
					return nil, fmt.Errorf("explicit: more than %d configurations within %d contexts: %w", opts.MaxConfigs, k, ErrTooManyConfigs)
				}
			}
			for t := range it.config.Threads {
				nj := j
				if t != it.last {
					nj = j + 1
				}
				if nj > k {
					continue
				}
				succ, _, cut, capped := successors(cs, it.config, t, maxThreads, maxDepth, nil, false)
				res.CutOff = res.CutOff || cut
				res.DepthCapped = res.DepthCapped || capped
				for _, d := range succ {
					queue(nj, d, d.Key(), t)
				}
			}
		}
		buckets[j] = nil
	}
	if err := n.M.Err(); err != nil {
		return nil, errors.Join(errors.New("explicit: BDD error"), err)
	}

	keys := make([]string, 0, len(reached))
	for key := range reached {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	byLabel := map[*pds.Label]*Violation{}
	for _, key := range keys {
		r := reached[key]
		res.Reached = append(res.Reached, *r)
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
	for _, v := range byLabel {
		res.Violations = append(res.Violations, *v)
	}
	sort.Slice(res.Violations, func(a, b int) bool {
		va, vb := res.Violations[a], res.Violations[b]
		if va.Contexts != vb.Contexts {
			return va.Contexts < vb.Contexts
		}
		return va.Label.ID < vb.Label.ID
	})
	return res, nil
}
