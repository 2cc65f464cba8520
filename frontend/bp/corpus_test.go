package bp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
)

// corpusThreads is the thread bound of the corpus runs: the SATABS
// programs create threads in a loop without bound.
const corpusThreads = 3

// expectation is a corpus file's first line: "// EXPECTED: violation,
// fewest contexts N" or "// EXPECTED: safe within K contexts".
type expectation struct {
	violation bool
	k         int
}

func parseExpected(src string) (expectation, error) {
	line, _, _ := strings.Cut(src, "\n")
	var e expectation
	if _, err := fmt.Sscanf(line, "// EXPECTED: violation, fewest contexts %d", &e.k); err == nil {
		e.violation = true
		return e, nil
	}
	if _, err := fmt.Sscanf(line, "// EXPECTED: safe within %d contexts", &e.k); err == nil {
		return e, nil
	}
	return e, fmt.Errorf("no EXPECTED line: %q", line)
}

// TestCorpus runs every Boolean program of benchmarks/boolean under the
// symbolic engine (eager and lazy) and the explicit reference, and checks
// the verdict and the fewest contexts of its EXPECTED line.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("../../benchmarks/boolean/*.bp")
	if err != nil || len(files) < 12 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := parseExpected(string(src))
			if err != nil {
				t.Fatal(err)
			}
			n, err := Read(filepath.Base(f), src, pds.Options{MaxThreads: corpusThreads})
			if err != nil {
				t.Fatal(err)
			}
			sn, err := n.WithThreadSlots(n.MaxThreads)
			if err != nil {
				t.Fatal(err)
			}
			for _, split := range []split.Strategy{split.Eager, split.Lazy} {
				res, err := tuples.Engine{Split: split}.Analyze(context.Background(), sn, cbr.Options{Bound: want.k})
				if err != nil {
					t.Fatal(err)
				}
				if want.violation {
					if res.Verdict != cbr.Violation || res.Contexts() != want.k {
						t.Errorf("%v: got %s with %d contexts, want a violation with %d", split, res.Verdict, res.Contexts(), want.k)
					}
				} else if res.Verdict == cbr.Violation {
					t.Errorf("%v: got a violation with %d contexts, want none within %d", split, res.Contexts(), want.k)
				}
				if want.violation && want.k > 1 {
					res, err := tuples.Engine{Split: split}.Analyze(context.Background(), sn, cbr.Options{Bound: want.k - 1})
					if err != nil {
						t.Fatal(err)
					}
					if res.Verdict == cbr.Violation {
						t.Errorf("%v: got a violation with %d contexts, want none", split, res.Contexts())
					}
				}
			}
			ex, err := explicit.Explore(n, explicit.Options{Contexts: want.k, MaxThreads: corpusThreads, MaxConfigs: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			got := none
			if len(ex.Violations) > 0 {
				got = ex.Violations[0].Contexts
			}
			if !want.violation {
				want.k = none
			}
			if got != want.k {
				t.Errorf("explicit: got fewest contexts %d, want %d (%d: none)", got, want.k, none)
			}
		})
	}
}
