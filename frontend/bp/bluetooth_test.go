package bp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/internal/testkit/tier"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/split"
)

// bluetooth writes the Bluetooth driver of the jMoped paper (Section 5.2;
// benchmarks/models/bluetooth-v*.pds) as a Boolean program: version 1, 2
// or 3 with the given numbers of adders and stoppers. pendingIo is the
// three-bit counter p2 p1 p0, and dec's atomic block one parallel
// assignment. Thread 0 (main) chooses the role it plays and starts the
// other threads at the labels of theirs, so that, as in the .pds models,
// any role can run first.
func bluetooth(version, adders, stoppers int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Bluetooth driver, version %d: %d adder(s), %d stopper(s).\n", version, adders, stoppers)
	b.WriteString(`decl p0 := 1, p1 := 0, p2 := 0;   // pendingIo = 1
decl stoppingFlag := 0, stoppingEvent := 0, stopped := 0;

void dec() begin
  decl zero;
  // atomic { pendingIo = pendingIo - 1; pio = pendingIo; }
  p0, p1, p2, zero := !p0, p1 ^ !p0, p2 ^ (!p1 & !p0), p0 & !p1 & !p2;
  if zero then stoppingEvent := 1; fi
end

bool inc() begin
`)
	if version == 1 {
		b.WriteString(`  if stoppingFlag then return 0; fi
  p0, p1, p2 := !p0, p1 ^ p0, p2 ^ (p1 & p0);
  return 1;
end
`)
	} else {
		b.WriteString(`  p0, p1, p2 := !p0, p1 ^ p0, p2 ^ (p1 & p0);
  if stoppingFlag then dec(); return 0; fi
  return 1;
end
`)
	}
	b.WriteString(`
void add() begin
  decl ok;
  ok := inc();
`)
	if version == 3 {
		b.WriteString("  if ok then assert(!stopped); dec(); fi\n")
	} else {
		b.WriteString("  if ok then assert(!stopped); fi\n  dec();\n")
	}
	b.WriteString(`end

void stop() begin
  stoppingFlag := 1;
  dec();
  while !stoppingEvent do od
  stopped := 1;
end

void main() begin
  goto RA, RS;
`)
	role := func(label, own string, a, s int) {
		fmt.Fprintf(&b, "%s:\n", label)
		for i := 0; i < a; i++ {
			b.WriteString("  start_thread goto TA;\n")
		}
		for i := 0; i < s; i++ {
			b.WriteString("  start_thread goto TS;\n")
		}
		fmt.Fprintf(&b, "  goto %s;\n", own)
	}
	role("RA", "TA", adders-1, stoppers)
	role("RS", "TS", adders, stoppers-1)
	b.WriteString(`TA: add();
  goto E;
TS: stop();
E: skip;
end
`)
	return b.String()
}

var expectedRE = regexp.MustCompile(`EXPECTED: (assertion violation, fewest contexts (\d+)|safe for every bound)`)

// TestBluetooth checks that the Boolean-program driver gives the verdict
// and fewest contexts of the EXPECTED line of the matching .pds model,
// under eager and lazy splitting, and that the files bluetooth-v*.bp of
// benchmarks/boolean are this generator's output.
func TestBluetooth(t *testing.T) {
	all, err := filepath.Glob("../../benchmarks/models/bluetooth-v*-a*s*.pds")
	// The paper's nine mixes; the scaling model (3 adders, 2 stoppers)
	// is left out: it is there for the cost per context, not the verdict.
	var models []string
	for _, m := range all {
		if filepath.Base(m) != "bluetooth-v2-a3s2.pds" {
			models = append(models, m)
		}
	}
	if err != nil || len(models) != 9 {
		t.Fatalf("got %d models, %v", len(models), err)
	}
	for _, model := range models {
		var v, a, s int
		if _, err := fmt.Sscanf(filepath.Base(model), "bluetooth-v%d-a%ds%d.pds", &v, &a, &s); err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("v%d-a%ds%d", v, a, s), func(t *testing.T) {
			src, err := os.ReadFile(model)
			if err != nil {
				t.Fatal(err)
			}
			m := expectedRE.FindStringSubmatch(string(src))
			if m == nil {
				t.Fatal("no EXPECTED line")
			}
			want, k := 0, 6 // safe: checked up to 6 contexts
			if m[2] != "" {
				want, _ = strconv.Atoi(m[2])
				k = want
			}
			if k > 4 {
				tier.SkipUnlessLong(t, "a bound above 4")
			}
			n, err := Read("bt.bp", []byte(bluetooth(v, a, s)), pds.Options{MaxThreads: a + s})
			if err != nil {
				t.Fatal(err)
			}
			sn, err := n.WithThreadSlots(a + s)
			if err != nil {
				t.Fatal(err)
			}
			for _, split := range []split.Strategy{split.Eager, split.Lazy} {
				res, err := tuples.Engine{Split: split}.Analyze(context.Background(), sn, cbr.Options{Bound: k})
				if err != nil {
					t.Fatal(err)
				}
				got := 0
				if res.Verdict == cbr.Violation {
					got = res.Contexts()
				} else if res.Verdict != cbr.Safe {
					t.Fatalf("%v: got %s (%s)", split, res.Verdict, res.Reason)
				}
				if got != want {
					t.Errorf("%v: got fewest contexts %d, want %d (0: safe within %d)", split, got, want, k)
				}
			}
		})
	}
	for _, v := range []int{1, 2, 3} {
		name := fmt.Sprintf("../../benchmarks/boolean/bluetooth-v%d.bp", v)
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		_, body, _ := strings.Cut(string(src), "\n") // the EXPECTED line
		if body != bluetooth(v, 1, 2) {
			t.Errorf("%s is not bluetooth(%d, 1, 2)", name, v)
		}
	}
}
