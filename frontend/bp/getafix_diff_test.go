package bp

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/seq"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
)

// getafixGen writes a random Getafix program: three globals, init and two
// threads of a few statements each (assignments of an expression or *,
// if, while with a bounded body, assume, and now and then an assert or a
// goto SLIC_ERROR, in init too), each procedure with one local.
type getafixGen struct {
	r *rand.Rand
	b strings.Builder
}

func (g *getafixGen) expr(depth int) string {
	vars := []string{"g0", "g1", "g2", "l"}
	switch n := g.r.Intn(8); {
	case depth == 0 || n < 3:
		return vars[g.r.Intn(len(vars))]
	case n == 3:
		return []string{"T", "F"}[g.r.Intn(2)]
	case n == 4:
		return "!" + g.expr(depth-1)
	}
	op := []string{"&", "|", "^", "="}[g.r.Intn(4)]
	return "(" + g.expr(depth-1) + " " + op + " " + g.expr(depth-1) + ")"
}

func (g *getafixGen) stmt(depth int, errors bool) string {
	lhs := []string{"g0", "g1", "g2", "l"}[g.r.Intn(4)]
	switch n := g.r.Intn(12); {
	case n < 5:
		if g.r.Intn(4) == 0 {
			return lhs + " := *;"
		}
		return lhs + " := " + g.expr(2) + ";"
	case n < 7 && depth > 0:
		return "if " + g.expr(2) + " then " + g.stmt(depth-1, errors) + " fi"
	case n < 8 && depth > 0:
		return "while " + g.expr(1) + " do " + g.stmt(depth-1, errors) + " od"
	case n < 9:
		return "assume(" + g.expr(2) + ");"
	case n < 11 && errors:
		if g.r.Intn(2) == 0 {
			return "if " + g.expr(2) + " then goto SLIC_ERROR; fi"
		}
		return "assert(" + g.expr(2) + ");"
	}
	return "skip;"
}

func (g *getafixGen) proc(name string, errors bool) {
	fmt.Fprintf(&g.b, "void %s() begin\n  decl l;\n", name)
	for range 2 + g.r.Intn(3) {
		fmt.Fprintf(&g.b, "  %s\n", g.stmt(1, errors))
	}
	g.b.WriteString("  goto E;\n  SLIC_ERROR: skip;\n  E: skip;\nend\n")
}

func getafixProgram(seed uint64) string {
	g := &getafixGen{r: rand.New(rand.NewSource(int64(seed)))}
	inits := []string{"", " := 0", " := 1"}
	fmt.Fprintf(&g.b, "decl g0%s, g1%s, g2%s;\n", inits[g.r.Intn(3)], inits[g.r.Intn(3)], inits[g.r.Intn(3)])
	g.proc("init", g.r.Intn(3) == 0)
	g.proc("t1", true)
	g.proc("t2", true)
	return g.b.String()
}

// TestGetafixDifferential checks init's final states and every engine on
// random Getafix programs. First, against an independent computation:
// the network with init still in thread 0, run alone on the explicit
// reference semantics within one context, reaches exactly the global
// valuations with thread 0 finished that the read network starts from
// (or, when init fails, the first error label in label order, under the
// same globals). Then cbr eager and lazy and the explicit engine give the
// reference's sites and fewest contexts within 3 contexts, and the lazy
// sequential reduction the same labels within at most as many rounds (0
// exactly where 0 contexts); every trace is replayed by its engine.
func TestGetafixDifferential(t *testing.T) {
	ctx := context.Background()
	for _, seed := range tier.Seeds(t, 30, 400, 100) {
		src := getafixProgram(seed)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			raw, err := read("g.bp", []byte(src), Options{Options: pds.Options{MaxThreads: 3}}, true)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			n, err := Read("g.bp", []byte(src), pds.Options{MaxThreads: 3})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			alone, err := raw.WithInitial(nil, raw.Threads[:1])
			if err != nil {
				t.Fatal(err)
			}
			ex, err := explicit.Explore(alone, explicit.Options{Contexts: 1, MaxConfigs: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			var failed *pds.Label // of raw; n's labels are their namesakes
			for _, v := range ex.Violations {
				if failed == nil || v.Label.ID < failed.ID {
					failed = v.Label
				}
			}
			name := func(l *pds.Label) string {
				if l == nil {
					return ""
				}
				return l.Name
			}
			want := map[string]bool{}
			for _, r := range ex.Reached {
				st := r.Config.Threads[0]
				if failed == nil && len(st) == 0 || failed != nil && len(st) > 0 && st[len(st)-1].Label == failed {
					want[fmt.Sprint(r.Config.Globals)] = true
				}
			}
			got := map[string]bool{}
			for _, c := range explicit.Initial(n) {
				got[fmt.Sprint(c.Globals)] = true
				if st := c.Threads[0]; failed == nil && len(st) != 0 || failed != nil && (len(st) != 1 || st[0].Label.Name != failed.Name) {
					t.Fatalf("thread 0 starts with %v, want init finished or at %v\n%s", st, failed, src)
				}
			}
			if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
				t.Fatalf("initial globals %v, init alone reaches %v (failing at %q)\n%s", sortedKeys(got), sortedKeys(want), name(failed), src)
			}

			const k = 3
			ref, err := explicit.Explore(n, explicit.Options{Contexts: k, MaxConfigs: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			var sitesRef []string
			for _, v := range ref.Violations {
				sitesRef = append(sitesRef, fmt.Sprintf("%s@%d", v.Label.Name, v.Contexts))
			}
			slices.Sort(sitesRef)
			for _, split := range []split.Strategy{split.Eager, split.Lazy} {
				res, err := tuples.Engine{Split: split}.Analyze(ctx, n, cbr.Options{Bound: k, All: true, Traces: true})
				if err != nil {
					t.Fatal(err)
				}
				if got := sites(res.Violations); !slices.Equal(got, sitesRef) {
					t.Errorf("cbr %v: %v, reference %v\n%s", split, got, sitesRef, src)
				}
				checkTraces(t, fmt.Sprint("cbr ", split), res.Violations)
			}
			xr, err := states.Engine{}.Analyze(ctx, n, cbr.Options{Bound: k, All: true, Traces: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := sites(xr.Violations); !slices.Equal(got, sitesRef) {
				t.Errorf("explicit engine: %v, reference %v\n%s", got, sitesRef, src)
			}
			checkTraces(t, "explicit engine", xr.Violations)
			sr, err := seq.Engine{}.Analyze(ctx, n, cbr.Options{Bound: k, All: true, Traces: true})
			if err != nil {
				t.Fatal(err)
			}
			checkTraces(t, "seq", sr.Violations)
			rounds := map[*pds.Label]int{}
			for _, f := range sr.Violations {
				rounds[f.Label] = f.Contexts
			}
			for _, v := range ref.Violations {
				r, ok := rounds[v.Label]
				if !ok || r > v.Contexts || (r == 0) != (v.Contexts == 0) {
					t.Errorf("seq: %s within %d rounds (found %v), reference %d contexts\n%s", v.Label.Name, r, ok, v.Contexts, src)
				}
			}
		})
	}
}

func sortedKeys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
