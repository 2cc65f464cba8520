package frontend

import (
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/frontend/ast"
	"github.com/cbreach/cbreach/frontend/internal/interp"
	"github.com/cbreach/cbreach/frontend/parser"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
)

// The differential tests run a program on the explicit reference semantics
// of its compiled network (package pds/explicit) and on the interpreter of
// the checked syntax tree (package frontend/internal/interp), and compare
// what both reach, configuration by configuration, in a common observable
// form: the globals, and per thread its stack, each frame as the
// procedure, the control point (the kind and source position of the
// statement it is about to run, or of the error it stopped at) and the
// values of the locals. A waiting caller's point is the statement after its
// call. Hidden variables of the network ($oob, thread slots) are left out,
// and a return label of its own stands for the statement it continues to.

// diffOptions bound a differential run.
type diffOptions struct {
	Contexts   int
	MaxDepth   int
	MaxThreads int
	MaxConfigs int
	NoSym      bool // compile atomic bodies by composition only
	COps       bool // parse with parser.COperators
}

// diffResult is what both sides reached, in observable form.
type diffResult struct {
	reached     map[string]int // observable configuration -> fewest contexts
	cutoff      bool
	depthCapped bool
	tooMany     bool
}

func keyOf(u *unit, node ast.Node, tag string) string {
	p := u.file.Position(node.Pos())
	return fmt.Sprintf("%s@%d:%d", tag, p.Line, p.Col)
}

func formatVals(vs []uint64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ",")
}

// observeNet maps a configuration of the compiled network.
func observeNet(c *compiler, cfg explicit.Config) string {
	var b strings.Builder
	var gs []uint64
	for i, v := range cfg.Globals {
		if !c.net.Globals[i].Hidden {
			gs = append(gs, v)
		}
	}
	b.WriteString("G(" + formatVals(gs) + ")")
	for _, st := range cfg.Threads {
		b.WriteString(" | ")
		for i, f := range st {
			top := i == len(st)-1
			var ls []uint64
			var oob uint64
			for j, v := range f.Locals {
				l := f.Label.Proc.Locals[j]
				if strings.HasPrefix(l.Name, "$") {
					oob = v
					continue
				}
				ls = append(ls, v)
			}
			var key string
			if f.Label.Kind == pds.Cutoff {
				key = fmt.Sprintf("cutoff@%d:%d", f.Label.Pos.Line, f.Label.Pos.Col)
			} else {
				pt := c.points[f.Label]
				if pt == nil {
					key = "?" + f.Label.Name
				} else {
					if pt.tag == "ret" {
						if top && oob > 0 {
							pt = c.points[pt.oob[oob-1]]
						} else {
							pt = c.points[pt.alias]
						}
					}
					key = keyOf(c.u, pt.node, pt.tag)
				}
			}
			fmt.Fprintf(&b, "%s:%s(%s) ", f.Label.Proc.Name, key, formatVals(ls))
		}
	}
	return b.String()
}

// observeInterp maps a configuration of the interpreter.
func observeInterp(u *unit, p *interp.Program, cfg interp.Config) string {
	var b strings.Builder
	b.WriteString("G(" + formatVals(cfg.Globals) + ")")
	for _, st := range cfg.Threads {
		b.WriteString(" | ")
		for _, f := range st {
			pc := f.PC
			if pc.Kind == interp.Wait {
				pc = p.After(pc.Node)
			}
			fmt.Fprintf(&b, "%s:%s(%s) ", f.Proc.Name(), keyOf(u, pc.Node, pc.Kind.String()), formatVals(f.Locals))
		}
	}
	return b.String()
}

func runNet(t testing.TB, c *compiler, o diffOptions) (*diffResult, error) {
	res, err := explicit.Explore(c.net, explicit.Options{Contexts: o.Contexts, MaxDepth: o.MaxDepth, MaxThreads: o.MaxThreads, MaxConfigs: o.MaxConfigs})
	if err != nil {
		if strings.Contains(err.Error(), "more than") {
			return &diffResult{tooMany: true}, nil
		}
		return nil, err
	}
	d := &diffResult{reached: map[string]int{}, cutoff: res.CutOff, depthCapped: res.DepthCapped}
	for _, r := range res.Reached {
		k := observeNet(c, r.Config)
		if old, ok := d.reached[k]; !ok || r.Contexts < old {
			d.reached[k] = r.Contexts
		}
	}
	return d, nil
}

func runInterp(u *unit, o diffOptions) *diffResult {
	p := interp.New(u.file, u.ast, u.info)
	maxThreads := o.MaxThreads
	if maxThreads == 0 {
		maxThreads = pds.DefaultMaxThreads
	}
	maxDepth := o.MaxDepth
	if maxDepth == 0 {
		maxDepth = explicit.DefaultMaxDepth
	}
	res := p.Explore(interp.Options{Contexts: o.Contexts, MaxDepth: maxDepth, MaxThreads: maxThreads, MaxConfigs: o.MaxConfigs})
	if res.TooMany {
		return &diffResult{tooMany: true}
	}
	d := &diffResult{reached: map[string]int{}, cutoff: res.CutOff, depthCapped: res.DepthCapped}
	for _, r := range res.Reached {
		k := observeInterp(u, p, r.Config)
		if old, ok := d.reached[k]; !ok || r.Contexts < old {
			d.reached[k] = r.Contexts
		}
	}
	return d
}

// compareRuns returns a description of the differences, "" when none.
func compareRuns(net, in *diffResult) string {
	var b strings.Builder
	var keys []string
	for k := range net.reached {
		keys = append(keys, k)
	}
	for k := range in.reached {
		if _, ok := net.reached[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		a, okA := net.reached[k]
		i, okI := in.reached[k]
		switch {
		case okA && !okI:
			fmt.Fprintf(&b, "  only compiled (k=%d): %s\n", a, k)
		case !okA && okI:
			fmt.Fprintf(&b, "  only interpreter (k=%d): %s\n", i, k)
		case a != i:
			fmt.Fprintf(&b, "  contexts compiled %d, interpreter %d: %s\n", a, i, k)
		default:
			continue
		}
		if n++; n >= 12 {
			b.WriteString("  ...\n")
			break
		}
	}
	if net.cutoff != in.cutoff {
		fmt.Fprintf(&b, "  cutoff: compiled %v, interpreter %v\n", net.cutoff, in.cutoff)
	}
	if net.depthCapped != in.depthCapped {
		fmt.Fprintf(&b, "  depth capped: compiled %v, interpreter %v\n", net.depthCapped, in.depthCapped)
	}
	if b.Len() > 0 {
		fmt.Fprintf(&b, "  (%d configurations compiled, %d interpreter)\n", len(net.reached), len(in.reached))
	}
	return b.String()
}

// differential compiles src and compares both semantics. It returns
// skipped when either side reached more than MaxConfigs configurations.
func differential(t testing.TB, name, src string, o diffOptions) (skipped bool) {
	t.Helper()
	mode := parser.AllErrors
	if o.COps {
		mode |= parser.COperators
	}
	u, err := checkMode(name, []byte(src), mode)
	if err != nil {
		t.Fatalf("%s does not compile:\n%v\n%s", name, err, numbered(src))
	}
	c, err := compileWith(u, Options{MaxThreads: o.MaxThreads}, o.NoSym)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, numbered(src))
	}
	net, err := runNet(t, c, o)
	if err != nil {
		t.Fatalf("%s: explicit: %v", name, err)
	}
	in := runInterp(u, o)
	if net.tooMany || in.tooMany {
		if net.tooMany != in.tooMany {
			t.Logf("%s: only one side exceeded %d configurations (compiled %v)", name, o.MaxConfigs, net.tooMany)
		}
		return true
	}
	if d := compareRuns(net, in); d != "" {
		t.Errorf("%s: compiled network and interpreter differ (k=%d):\n%s%s", name, o.Contexts, d, numbered(src))
	}
	return false
}

func numbered(src string) string {
	var b strings.Builder
	for i, line := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%3d  %s\n", i+1, line)
	}
	return b.String()
}

func TestDifferentialBluetooth(t *testing.T) {
	src := readTestdata(t, "bluetooth.pds")
	differential(t, "bluetooth.pds", src, diffOptions{Contexts: 3})
}

// randomOptions derives a program shape and a bound from a seed.
func randomOptions(seed int64) (genOptions, diffOptions) {
	r := rand.New(rand.NewSource(seed))
	g := genOptions{
		procs:      2 + r.Intn(2),
		threads:    1 + r.Intn(2),
		recursion:  r.Intn(4) == 0,
		forks:      r.Intn(4) == 0,
		maxStmts:   4,
		maxDepth:   2,
		anyGlobals: r.Intn(2) == 0,
	}
	d := diffOptions{Contexts: 2 + r.Intn(2), MaxDepth: 3, MaxThreads: 3, MaxConfigs: 20000}
	if r.Intn(4) == 0 { // a bigger program
		g.maxStmts, g.maxDepth, g.threads, d.Contexts = 5, 3, 2, 3
	}
	return g, d
}

var (
	flagSeeds = flag.Int("seeds", 320, "number of random programs of the differential test")
	flagSeed  = flag.Int64("seed", -1, "run the differential test on this seed only")
)

func TestDifferentialRandom(t *testing.T) {
	first, n := int64(1), int64(*flagSeeds)
	if *flagSeed >= 0 {
		first, n = *flagSeed, 1
	}
	compared, skipped := 0, 0
	for seed := first; seed < first+n; seed++ {
		g, d := randomOptions(seed)
		src := genProgram(rand.New(rand.NewSource(seed)), g)
		name := fmt.Sprintf("seed%d.pds", seed)
		ok := t.Run(name, func(t *testing.T) {
			if differential(t, name, src, d) {
				skipped++
			} else {
				compared++
			}
			if seed%4 == 0 && strings.Contains(src, "atomic") {
				// the fallback compilation of atomic bodies
				d.NoSym = true
				differential(t, name+"(composition)", src, d)
			}
		})
		if !ok {
			t.Logf("rerun with: go test ./frontend/ -run TestDifferentialRandom -seed %d", seed)
		}
	}
	t.Logf("%d programs compared, %d skipped (more than %d configurations)", compared, skipped, 20000)
	if *flagSeed < 0 && compared < 300 {
		t.Errorf("only %d random programs compared; want at least 300", compared)
	}
}

// TestDifferentialRandomC is the random differential campaign over
// programs that use the nodes only readers build too (genOptions.cops):
// C's operators with their divisions by zero, conversions and
// conditionals in conditions, indices, arguments, initializers, returns
// and atomic bodies. The long tier (CBREACH_LONG=1) runs more seeds and
// seeds drawn from the campaign seed; -seed N reruns one.
func TestDifferentialRandomC(t *testing.T) {
	seeds := tier.Seeds(t, 150, 1500, 500)
	if *flagSeed >= 0 {
		seeds = []uint64{uint64(*flagSeed)}
	}
	compared, skipped := 0, 0
	for _, seed := range seeds {
		g, d := randomOptions(int64(seed))
		g.cops, d.COps = true, true
		src := genProgram(rand.New(rand.NewSource(int64(seed))), g)
		name := fmt.Sprintf("cseed%d.pds", seed)
		ok := t.Run(name, func(t *testing.T) {
			if differential(t, name, src, d) {
				skipped++
			} else {
				compared++
			}
			if seed%4 == 0 && strings.Contains(src, "atomic") {
				d.NoSym = true
				differential(t, name+"(composition)", src, d)
			}
		})
		if !ok {
			t.Logf("rerun with: go test ./frontend/ -run TestDifferentialRandomC -seed %d", seed)
		}
	}
	t.Logf("%d programs compared, %d skipped (more than %d configurations)", compared, skipped, 20000)
	if *flagSeed < 0 && compared < len(seeds)*9/10 {
		t.Errorf("only %d of %d random programs compared", compared, len(seeds))
	}
}

// FuzzDifferential runs the differential test on generated programs, the
// seed chosen by the fuzzer.
func FuzzDifferential(f *testing.F) {
	for seed := int64(0); seed < 8; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		g, d := randomOptions(seed)
		d.MaxConfigs = 5000
		src := genProgram(rand.New(rand.NewSource(seed)), g)
		differential(t, fmt.Sprintf("seed%d.pds", seed), src, d)
	})
}
