package reachcases

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/bdd"
	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/randnet"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
)

// Answer is what an engine says about a network within a bound.
type Answer struct {
	Verdict  cbr.Verdict
	Contexts int      // the fewest contexts of a violation, -1 when none
	Sites    []string // every violation site as label@contexts, sorted
	// Threads is the thread bound the coverage assumes
	// (cbr.Result.ThreadBound): the network's, when a start beyond it
	// was met within the bound; 0 when none was.
	Threads int
}

func (a Answer) String() string {
	s := fmt.Sprintf("%s in %d contexts at %v", a.Verdict, a.Contexts, a.Sites)
	if a.Threads > 0 {
		s += fmt.Sprintf(" with at most %d threads", a.Threads)
	}
	return s
}

// NewAnswer returns the answer of a verdict and its sites (label@contexts,
// in any order).
func NewAnswer(v cbr.Verdict, sites []string) Answer {
	a := Answer{Verdict: v, Contexts: -1, Sites: append([]string(nil), sites...)}
	sort.Strings(a.Sites)
	for _, s := range a.Sites {
		if c := siteContexts(s); a.Contexts < 0 || c < a.Contexts {
			a.Contexts = c
		}
	}
	return a
}

func siteContexts(site string) int {
	c, err := strconv.Atoi(site[strings.LastIndexByte(site, '@')+1:])
	if err != nil {
		panic(fmt.Sprintf("reachcases: site %q is not label@contexts", site))
	}
	return c
}

// Case is a named reachability question.
type Case struct {
	Name  string
	Build func() (*pds.Network, error) // a fresh network on every call
	K     int                          // the largest bound the case is asked with
	// Want is the answer at bound K, known by construction; nil when the
	// explicit reference's answer is the expectation.
	Want *Answer
	// Seed and Params are set for a randnet case.
	Seed   uint64
	Params randnet.Params
	// OpenBits is the number of bits of data the case leaves open
	// (globals that start with any value), 0 when none.
	OpenBits int
}

// At returns the expected answer at bound k <= K: the sites of Want
// reached with at most k contexts; safe when there are none. Only for a
// case with Want.
func (c Case) At(k int) Answer {
	var sites []string
	for _, s := range c.Want.Sites {
		if siteContexts(s) <= k {
			sites = append(sites, s)
		}
	}
	if len(sites) == 0 {
		return NewAnswer(cbr.Safe, nil)
	}
	return NewAnswer(cbr.Violation, sites)
}

// bundled compiles a .pds file of this module, named from the module's
// root (found from the working directory, which go test sets to the
// package's directory).
func bundled(name string) func() (*pds.Network, error) {
	return func() (*pds.Network, error) {
		dir, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			up := filepath.Dir(dir)
			if up == dir {
				return nil, fmt.Errorf("reachcases: no go.mod above the working directory for %s", name)
			}
			dir = up
		}
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		return frontend.Compile(filepath.Base(name), src)
	}
}

func compile(name, src string) func() (*pds.Network, error) {
	return func() (*pds.Network, error) { return frontend.Compile(name, []byte(src)) }
}

func want(v cbr.Verdict, sites ...string) *Answer {
	a := NewAnswer(v, sites)
	return &a
}

// Cases returns the hand-made cases, each with its answer known by
// construction.
func Cases() []Case {
	cs := []Case{
		{
			// Thread 0 adds one to a 2-bit counter any number of times;
			// thread 1 fails when it sees 2: inc runs, then check.
			Name: "counter",
			Build: compile("counter.pds", `
int<2> x;
proc inc() {
  while (?) { x = x + 1; }
}
proc check() {
  assert(x != 2);
}
start inc();
start check();
`),
			K:    3,
			Want: want(cbr.Violation, "check.L7.assert@2"),
		},
		{
			// The lost update of examples/lostupdate.pds: worker A reads,
			// worker B runs completely, A writes back, the checker runs.
			Name:  "lostupdate",
			Build: bundled("examples/lostupdate.pds"),
			K:     4,
			Want:  want(cbr.Violation, "check.L22.assert@4"),
		},
		{
			// A started procedure with a local of an enum of 3
			// constants (2 bits, one code unused): t0 starts sp, sp sets
			// g, t0 fails.
			Name: "enum-slot",
			Build: compile("enumslot.pds", `
enum E { A, B, C };
bool g;
proc sp() { E l1 = B; g = true; }
proc t0() { start sp(); assert(!g); }
start t0();
`),
			K:    3,
			Want: want(cbr.Violation, "t0.L5.assert@3"),
		},
		{
			// A started thread's locals other than its parameters start
			// at 0 (the thread slots carry the parameters only): safe.
			Name: "slot-fresh-locals",
			Build: compile("fresh.pds", `
bool seen;
proc sp(int<2> p) { int<2> l; bool b; assert(l == 0 && !b && p == 2); seen = true; }
proc m() { start sp(2); start sp(2); assert(!seen); }
start m();
`),
			K:    3,
			Want: want(cbr.Violation, "m.L4.assert@3"),
		},
		overwrite("open/overwrite", 8),
		{
			// Open data in two globals of 4 bits: check fails at once
			// from any start where y != x + 1 (1 context), and init makes
			// them 1 and 2 from every start value.
			Name: "open/two",
			Build: compile("two.pds", `
int<4> x = ?;
int<4> y = ?;
proc init() { x = 1; y = 2; }
proc check() { assert(x + 1 == y); }
start init(); start check();
`),
			K:        2,
			Want:     want(cbr.Violation, "check.L5.assert@1"),
			OpenBits: 8,
		},
		{
			// Thread 0 sets g1 and fails when it then sees it false;
			// thread 1 waits for g1 and sets it to !g0, false: t0, t1,
			// t0 (3 contexts, 1 preemption). Counting preemptions, lazy
			// splitting first reaches it through a tuple of thread 1
			// run first where it could not move (g1 false at the
			// start), so that the walk back of its trace has an empty
			// first context (TestPreemptionTraceEmptyContext).
			Name: "free-empty-context",
			Build: compile("empty.pds", `
bool g0 = true;
bool g1 = ?;
proc h0(int<2> d, int<2> p0) { g1 = true; }
proc t0() { h0(2, 3); assert(!(!g1)); }
proc t1(int<3> a0) { atomic { assume(g1); } g1 = !(g0); }
start t0();
start t1(2);
`),
			K:        3,
			Want:     want(cbr.Violation, "t0.L5.assert@3"),
			OpenBits: 1,
		},
		{
			// The running example of the jMoped paper's Section 2.4;
			// it has no error label.
			Name:  "paper",
			Build: Paper,
			K:     3,
			Want:  want(cbr.Safe),
		},
	}
	for n := 2; n <= 5; n++ {
		cs = append(cs, Case{
			Name:  fmt.Sprintf("enum-slot-%d", n),
			Build: compile(fmt.Sprintf("enumslot%d.pds", n), EnumSlotSource(n)),
			K:     3,
			Want:  want(cbr.Violation, "t0.L10.assert@3"),
		})
	}
	if tier.Long() {
		cs = append(cs, Wide()...)
	}
	return cs
}

// Wide returns the hand-made cases of open data of 16 bits, which the
// long tier adds to Cases: the explicit engines take every one of its
// 65,536 start values (the explicit reference past its cap on
// configurations, ReferenceConfigs, gives no answer on some, and the
// explicit engine is then the reference); eager splitting, one view tuple
// per value, refuses its first split within a test's budget. Lazy
// splitting keeps the start values in a few classes. Each program's
// threads overwrite the open data early, so that the explicit engines'
// states per start value stay few.
func Wide() []Case {
	return []Case{
		overwrite("open/overwrite-16", 16),
		{
			// An open local of 16 bits in a started procedure: worker
			// gives l any value, raises hit when it is 4660, overwrites
			// it and raises ready; main starts worker, waits for ready
			// and fails when hit is set: main, worker, main (3 contexts).
			Name: "open/local-16",
			Build: compile("local16.pds", `
bool hit;
bool ready;
proc worker() {
  int<16> l = ?;
  if (l == 4660) { hit = true; }
  l = 7;
  ready = true;
}
proc main() {
  start worker();
  assume(ready);
  assert(!hit);
}
start main();
`),
			K:        3,
			Want:     want(cbr.Violation, "main.L13.assert@3"),
			OpenBits: 16,
		},
		{
			// Two open globals of 8 bits compared: init raises same when
			// they start equal and overwrites both with 1 and 2; check
			// waits for same and fails when it sees 1 and 2, which only
			// init's overwrite makes (both start equal): init, check (2
			// contexts).
			Name: "open/compare-8-8",
			Build: compile("compare88.pds", `
int<8> x = ?;
int<8> y = ?;
bool same;
proc init() { if (x == y) { same = true; } x = 1; y = 2; }
proc check() { assume(same); assert(x != 1 || y != 2); }
start init(); start check();
`),
			K:        3,
			Want:     want(cbr.Violation, "check.L6.assert@2"),
			OpenBits: 16,
		},
		{
			// A global of 16 bits overwritten by one thread and compared
			// by another, twice: writer sets x = 4660 and phase 1; reader
			// checks x == 4660 (it holds: only writer writes) and sets
			// phase 2; writer sets x = 22136 and phase 3; reader fails
			// when it sees 22136: writer, reader, writer, reader (4
			// contexts). A start value of 22136 does not fail it earlier:
			// reader waits for phase 3.
			Name: "open/handover-16",
			Build: compile("handover16.pds", `
int<16> x = ?;
int<2> phase;
proc writer() { x = 4660; phase = 1; assume(phase == 2); x = 22136; phase = 3; }
proc reader() {
  assume(phase == 1);
  assert(x == 4660);
  phase = 2;
  assume(phase == 3);
  assert(x != 22136);
}
start writer(); start reader();
`),
			K:        4,
			Want:     want(cbr.Violation, "reader.L10.assert@4"),
			OpenBits: 16,
		},
		{
			// Safe: init overwrites the open global before it raises
			// ready, and check reads it only after.
			Name: "open/safe-16",
			Build: compile("safe16.pds", `
int<16> x = ?;
bool ready;
proc init() { x = 12345; ready = true; }
proc check() { assume(ready); assert(x == 12345); }
start init(); start check();
`),
			K:        3,
			Want:     want(cbr.Safe),
			OpenBits: 16,
		},
	}
}

// EnumSlotSource is a program whose started procedure has a parameter and
// a local of an enum of n constants (n >= 2): t0 starts sp with the
// next-to-last constant, sp sets g when its parameter and its local hold
// the constants they were given, and t0 then fails its assertion. The
// violation needs 3 contexts (t0 starts sp; sp sets g; t0 asserts): within
// 2 rounds of round-robin, not 1.
func EnumSlotSource(n int) string {
	var consts []string
	for i := range n {
		consts = append(consts, fmt.Sprintf("C%d", i))
	}
	return fmt.Sprintf(`
enum E { %s };
bool g;
proc sp(E p) {
  E l = C%d;
  if (p == C%d && l == C%d) { g = true; }
}
proc t0() {
  start sp(C%d);
  assert(!g);
}
start t0();
`, strings.Join(consts, ", "), n-1, n-2, n-1, n-2)
}

// overwrite is the case of open data overwritten: x starts with any of
// 2^w values, init overwrites it and raises ready; check and other wait
// for ready. The assertion fails only when other sets x = 7 between init
// and check: init, other, check (3 contexts). Every start value of x
// reaches x = 5, and the waiting threads' views do not tell them apart:
// lazy splitting keeps them in one class.
func overwrite(name string, w int) Case {
	return Case{
		Name: name,
		Build: compile("overwrite.pds", fmt.Sprintf(`
int<%d> x = ?;
bool ready = false;
proc init() { x = 5; ready = true; }
proc check() { assume(ready); assert(x == 5); }
proc other() { assume(ready); x = 7; }
start init(); start check(); start other();
`, w)),
		K:        3,
		Want:     want(cbr.Violation, "check.L5.assert@3"),
		OpenBits: w,
	}
}

// Paper builds the running example of the jMoped paper's Sections 2.4
// and 3.1: one enum global G with values g, g', g″ (0, 1, 2), stack
// alphabet a, b, ∆1 = {<g,a> -> <g',b>}, ∆2 = {<g,a> -> <g″,a>, <g',a>
// -> <g″,b>}, initially (g, a, a).
func Paper() (*pds.Network, error) {
	b := pds.NewBuilder(pds.Options{})
	G := b.Global("G", pds.EnumType("glob", "g", "g'", "g''"), pds.Init{Value: 0}, pds.Pos{})
	p1 := b.Proc("p1", nil, pds.Pos{})
	a1, b1 := b.Label(p1, "a", pds.Pos{}), b.Label(p1, "b", pds.Pos{})
	p2 := b.Proc("p2", nil, pds.Pos{})
	a2, b2 := b.Label(p2, "a", pds.Pos{}), b.Label(p2, "b", pds.Pos{})
	b.Thread("1", pds.Call(p1))
	b.Thread("2", pds.Call(p2))
	n, m := b.Net(), b.Manager()
	is := func(v uint64) bdd.Node { return m.Eq(n.GlobalVec(G, pds.GCur), m.ConstVec(v, 2)) }
	to := func(v uint64) bdd.Node { return m.Eq(n.GlobalVec(G, pds.GNext), m.ConstVec(v, 2)) }
	const g, g1, g2 = 0, 1, 2
	b.Step(a1, b1, m.And(is(g), to(g1)), pds.Pos{})
	b.Step(a2, a2, m.And(is(g), to(g2)), pds.Pos{})
	b.Step(a2, b2, m.And(is(g1), to(g2)), pds.Pos{})
	return b.Build()
}

// The sizes of the random campaign of the differential tests: the number
// of fixed seeds in the everyday tier and in the long one, and the number
// of seeds the long tier draws anew on every run (see package tier).
const (
	EverydaySeeds = 12
	LongSeeds     = 300
	RotatingSeeds = 100
)

// RandomSeeds returns the seeds of the differential tests' random cases
// for the tier that runs (tier.Seeds with the sizes above).
func RandomSeeds(t testing.TB) []uint64 {
	t.Helper()
	return tier.Seeds(t, EverydaySeeds, LongSeeds, RotatingSeeds)
}

// Random returns the random cases of the seeds: programs with 2 or 3
// threads, forks and error labels, and no recursion (so the explicit
// reference is exact); K is 4 with 2 threads, 3 with 3. One seed in three
// starts threads in a loop (randnet.Params.LoopFork), so that the thread
// bound is met and the coverage it qualifies is compared.
func Random(seeds []uint64) []Case {
	var cs []Case
	for _, seed := range seeds {
		p := randnet.Params{Threads: 2 + int(seed%2), GlobalBits: 1 + int(seed%3), Procs: 2 + int(seed%2), Labels: 2 + int(seed%3),
			LocalBits: int(seed % 3), Rules: 3 + int(seed%4), Forks: seed%3 != 0, LoopFork: seed%3 == 1, Errors: true, MaxThreads: 3 + int(seed%2)}
		k := 4
		if p.Threads == 3 {
			k = 3
		}
		cs = append(cs, Case{
			Name:   fmt.Sprintf("random/seed=%d", seed),
			Build:  func() (*pds.Network, error) { return randnet.Generate(seed, p) },
			K:      k,
			Seed:   seed,
			Params: p,
		})
	}
	return cs
}

// The widths of the open global of RandomOpen's cases, by tier, taken
// by seed in turn. The explicit engines (the reference among them)
// enumerate every initial value, so a case of w bits costs them about 2^w
// times the same case without open data: at 8 bits tens of milliseconds a
// bound. Eager splitting enumerates them too and gives no answer past a
// test's budget of view tuples (reachcases.NoAnswer). The view-tuple
// engine's post* (both splittings) pays for a thread that increments the
// open global in a loop: saturation adds one value a step, so its steps
// grow as 2^w (drawn seed 148823123, 1 context, lazy: 6,219 steps and
// 1.5 s at 10 bits, 24,651 and 7.0 s at 12; seed 377488711 more than
// 60,661 steps in 15 s at 16 bits), and the comparison of configuration
// sets with it. RandomOpen's programs stop at 8 bits in the long tier
// too; RandomWide's (12 and 16 bits) never increment the open global,
// and the hand-made cases of Wide have 16 bits.
var (
	EverydayOpenWidths = []int{3, 5, 8, 8}
	LongOpenWidths     = []int{4, 6, 8, 8}
)

// OpenWidths returns the widths of the tier that runs.
func OpenWidths() []int { return tier.Pick(EverydayOpenWidths, LongOpenWidths) }

// The sizes of the open-data campaign, as RandomSeeds's: fixed seeds
// 1 to EverydayOpenSeeds in both tiers, and in the long tier as many
// drawn ones as RotatingOpenSeeds. A drawn program with open data costs
// cbr/tuples' TestDifferential minutes of processor time, most of it
// eager splitting with pruning, which processes up to its budget of view
// tuples (20,000, a post* each) before it answers or stops (CBREACH_SEED=5150:
// drawn seed 394725665, 6 bits, 200 s of processor time; the two
// first drawn seeds together with TestSharedPostStar's long tier, 360 s).
const (
	EverydayOpenSeeds = 4
	RotatingOpenSeeds = 1
)

// OpenSeeds returns the seeds of the open-data cases for the tier that
// runs.
func OpenSeeds(t testing.TB) []uint64 {
	t.Helper()
	return tier.Seeds(t, EverydayOpenSeeds, EverydayOpenSeeds, RotatingOpenSeeds)
}

// RandomOpen returns the open-data cases of the seeds: the programs of
// Random with a global o that starts with any value of a width taken
// from widths in turn, which threads keep, overwrite, increment and
// compare (randnet.Params.OpenBits), and initial locals that start with
// any value.
func RandomOpen(seeds []uint64, widths []int) []Case {
	cs := Random(seeds)
	for i := range cs {
		c := &cs[i]
		w := widths[int(c.Seed%uint64(len(widths)))]
		c.Name = fmt.Sprintf("random-open/bits=%d/seed=%d", w, c.Seed)
		c.Params.OpenBits, c.OpenBits = w, w
		seed, p := c.Seed, c.Params
		c.Build = func() (*pds.Network, error) { return randnet.Generate(seed, p) }
	}
	return cs
}

// LongWideWidths are the widths of RandomWide's open global in the long
// tier, taken by seed in turn.
var LongWideWidths = []int{16}

// WideSeeds are the seeds of RandomWide's cases in the long tier: two
// fixed programs of 16 bits, each about 30 s of cbr/tuples'
// TestDifferential (1.6 GB of peak RSS for both). The explicit engines
// enumerate the open values, which not every random program affords: on
// seeds 1 to 4 within 3 or 4 contexts the explicit-state engine took 15
// to more than 60 s a run (1.7 million states on seed 3), and on seed 1
// within 2 contexts, with its traces, it held more than 8 GiB. Drawn
// seeds could do the same, so there are none.
var WideSeeds = []uint64{2, 4}

// RandomWide returns random programs with wide open data, for the long
// tier: those of RandomOpen with the width taken from widths in turn and
// randnet.Params.OpenNoCount set (no thread increments o, so that post*
// takes no step per value; the rest of each program is the same), within
// 2 contexts (K): the explicit engines enumerate the 2^w start values.
func RandomWide(seeds []uint64, widths []int) []Case {
	cs := RandomOpen(seeds, widths)
	for i := range cs {
		c := &cs[i]
		c.Name = strings.Replace(c.Name, "random-open/", "random-wide/", 1)
		c.Params.OpenNoCount, c.K = true, 2
		seed, p := c.Seed, c.Params
		c.Build = func() (*pds.Network, error) { return randnet.Generate(seed, p) }
	}
	return cs
}

// RandomVars returns cases with many open globals (issue 38): the
// programs of Random with globals more globals of bits bits each that
// start with any value, which threads copy into one another, overwrite,
// compare and (at 3 bits or fewer) increment (randnet.Params.OpenGlobals),
// asked within k contexts (K). OpenBits is their total width: the
// explicit engines and eager splitting enumerate 2^OpenBits start values,
// so only small widths suit them.
func RandomVars(seeds []uint64, globals, bits, k int) []Case {
	cs := Random(seeds)
	for i := range cs {
		c := &cs[i]
		c.Name = fmt.Sprintf("random-vars/globals=%d/bits=%d/seed=%d", globals, bits, c.Seed)
		c.Params.OpenGlobals, c.Params.OpenGlobalBits = globals, bits
		c.OpenBits, c.K = globals*bits, k
		seed, p := c.Seed, c.Params
		c.Build = func() (*pds.Network, error) { return randnet.Generate(seed, p) }
	}
	return cs
}

// Lookup returns the hand-made case of that name; it panics when there is
// none.
func Lookup(name string) Case {
	for _, c := range Cases() {
		if c.Name == name {
			return c
		}
	}
	panic("reachcases: no case " + name)
}

// DiffReach lists the differences between two maps from configurations to
// their fewest contexts, wanted and got, named for the message: at most
// eight lines and a count, sorted; empty when they agree.
func DiffReach(want, got map[string]int, wantName, gotName string) string {
	var lines []string
	for k, v := range want {
		if w, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("only in %s: %s (%d contexts)", wantName, k, v))
		} else if v != w {
			lines = append(lines, fmt.Sprintf("contexts differ: %s %s %d %s %d", k, wantName, v, gotName, w))
		}
	}
	for k, w := range got {
		if _, ok := want[k]; !ok {
			lines = append(lines, fmt.Sprintf("only in %s: %s (%d contexts)", gotName, k, w))
		}
	}
	sort.Strings(lines)
	if len(lines) > 8 {
		lines = append(lines[:8], fmt.Sprintf("... %d differences", len(lines)))
	}
	return strings.Join(lines, "\n")
}
