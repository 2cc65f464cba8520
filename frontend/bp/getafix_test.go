package bp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// sites lists a run's violations as label@units, in label order.
func sites(fs []cbr.Found) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s@%d", f.Label.Name, f.Contexts))
	}
	slices.Sort(out)
	return out
}

// checkTraces fails on a violation without its replayed trace.
func checkTraces(t *testing.T, what string, fs []cbr.Found) {
	t.Helper()
	for _, f := range fs {
		if f.Trace == nil {
			t.Errorf("%s: %s has no trace: %v", what, f.Label.Name, f.TraceErr)
		}
	}
}

// TestGetafixEngines runs the Getafix programs of TestSemantics (init's
// final states as the initial configurations; a failure inside init with
// 0 contexts) on every engine with every violation asked for: cbr eager
// and lazy, the explicit engine and the reference pds/explicit must
// report the same sites with the same fewest contexts; the sequential
// reduction (lazy and eager) the same labels, each within at most as many
// rounds as contexts, with 0 rounds exactly where 0 contexts (and any
// other only if the reference reaches it within n·k contexts, n threads).
// Every trace
// is replayed by its engine.
func TestGetafixEngines(t *testing.T) {
	ctx := context.Background()
	for _, tc := range semanticCases {
		if !strings.HasPrefix(tc.name, "getafix") {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			n, err := Read(tc.name+".bp", []byte(tc.src), pds.Options{MaxThreads: 3})
			if err != nil {
				t.Fatal(err)
			}
			ref, err := explicit.Explore(n, explicit.Options{Contexts: tc.k, MaxConfigs: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, v := range ref.Violations {
				want = append(want, fmt.Sprintf("%s@%d", v.Label.Name, v.Contexts))
			}
			slices.Sort(want)
			if got := fewest(t, n, tc.k); got != tc.want {
				t.Fatalf("reference: fewest contexts %d, want %d", got, tc.want)
			}
			for _, split := range []split.Strategy{split.Eager, split.Lazy} {
				res, err := tuples.Engine{Split: split}.Analyze(ctx, n, cbr.Options{Bound: tc.k, All: true, Traces: true})
				if err != nil {
					t.Fatal(err)
				}
				if got := sites(res.Violations); !slices.Equal(got, want) {
					t.Errorf("cbr %v: %v, reference %v", split, got, want)
				}
				checkTraces(t, fmt.Sprint("cbr ", split), res.Violations)
			}
			xr, err := states.Engine{}.Analyze(ctx, n, cbr.Options{Bound: tc.k, All: true, Traces: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := sites(xr.Violations); !slices.Equal(got, want) {
				t.Errorf("explicit engine: %v, reference %v", got, want)
			}
			checkTraces(t, "explicit engine", xr.Violations)
			for _, lazy := range []bool{true, false} {
				sr, err := seq.Engine{Eager: !lazy}.Analyze(ctx, n, cbr.Options{Bound: tc.k, All: true, Traces: true})
				if err != nil {
					t.Fatal(err)
				}
				checkTraces(t, fmt.Sprint("seq lazy=", lazy), sr.Violations)
				rounds := map[string]int{}
				for _, f := range sr.Violations {
					rounds[f.Label.Name] = f.Contexts
				}
				if len(rounds) != len(ref.Violations) {
					// A label beyond k contexts must be within n·k.
					wide, err := explicit.Explore(n, explicit.Options{Contexts: tc.k * len(n.Threads), MaxConfigs: 1 << 20})
					if err != nil {
						t.Fatal(err)
					}
					if len(rounds) != len(wide.Violations) {
						t.Errorf("seq lazy=%v: %v, reference %v", lazy, sites(sr.Violations), want)
					}
				}
				for _, v := range ref.Violations {
					r, ok := rounds[v.Label.Name]
					if !ok || r > v.Contexts || (r == 0) != (v.Contexts == 0) {
						t.Errorf("seq lazy=%v: %s within %d rounds (found %v), reference %d contexts", lazy, v.Label.Name, r, ok, v.Contexts)
					}
				}
			}
		})
	}
}

// TestFibonacciEngines runs the Getafix-style programs of
// benchmarks/boolean on every engine, all violations asked for, traces
// on: cbr eager and lazy, the explicit engine and pds/explicit within the
// EXPECTED bound must agree on the sites and fewest contexts; the lazy
// sequential reduction within the rounds the violation needs must find
// the same label with those rounds (long tier only: the sequential runs
// take seconds to tens of seconds on a loaded machine).
func TestFibonacciEngines(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		file   string
		rounds int // the rounds the violation needs, or the rounds checked
	}{
		{"fib4-14.bp", 5},
		{"fib8-34.bp", 4},
		{"fib8-safe.bp", 4},
		{"fib16-123.bp", 6},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "..", "benchmarks", "boolean", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			want, err := parseExpected(string(src))
			if err != nil {
				t.Fatal(err)
			}
			n, err := Read(tc.file, src, pds.Options{MaxThreads: 4})
			if err != nil {
				t.Fatal(err)
			}
			ref, err := explicit.Explore(n, explicit.Options{Contexts: want.k, MaxConfigs: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			var sitesRef []string
			for _, v := range ref.Violations {
				sitesRef = append(sitesRef, fmt.Sprintf("%s@%d", v.Label.Name, v.Contexts))
			}
			slices.Sort(sitesRef)
			if want.violation != (len(ref.Violations) > 0) || want.violation && ref.Violations[0].Contexts != want.k {
				t.Fatalf("reference: %v, EXPECTED %+v", sitesRef, want)
			}
			for _, split := range []split.Strategy{split.Eager, split.Lazy} {
				res, err := tuples.Engine{Split: split}.Analyze(ctx, n, cbr.Options{Bound: want.k, All: true, Traces: true})
				if err != nil {
					t.Fatal(err)
				}
				if got := sites(res.Violations); !slices.Equal(got, sitesRef) {
					t.Errorf("cbr %v: %v, reference %v", split, got, sitesRef)
				}
				checkTraces(t, fmt.Sprint("cbr ", split), res.Violations)
			}
			xr, err := states.Engine{}.Analyze(ctx, n, cbr.Options{Bound: want.k, All: true, Traces: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := sites(xr.Violations); !slices.Equal(got, sitesRef) {
				t.Errorf("explicit engine: %v, reference %v", got, sitesRef)
			}
			checkTraces(t, "explicit engine", xr.Violations)
			if !tier.Long() {
				return
			}
			sr, err := seq.Engine{}.Analyze(ctx, n, cbr.Options{Bound: tc.rounds, Traces: true})
			if err != nil {
				t.Fatal(err)
			}
			checkTraces(t, "seq", sr.Violations)
			if !want.violation {
				if len(sr.Violations) > 0 {
					t.Errorf("seq: %v within %d rounds; the program is safe", sites(sr.Violations), tc.rounds)
				}
				return
			}
			if len(sr.Violations) == 0 || sr.Violations[0].Label != ref.Violations[0].Label || sr.Contexts() != tc.rounds {
				t.Errorf("seq: %v within %d rounds, want %s with %d rounds", sites(sr.Violations), tc.rounds, ref.Violations[0].Label.Name, tc.rounds)
			}
		})
	}
}
