package tuples_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/internal/testkit/reachcases"
	"github.com/cbreach/cbreach/pds"
	"github.com/cbreach/cbreach/pds/explicit"
	"github.com/cbreach/cbreach/split"
	"github.com/stretchr/testify/require"
)

// traceOf analyses a case with traces on and returns its first violation.
func traceOf(t *testing.T, net *pds.Network, e tuples.Engine, k int) cbr.Found {
	r, err := e.Analyze(t.Context(), net, cbr.Options{Bound: k, Traces: true})
	require.NoError(t, err)
	require.Equal(t, cbr.Violation, r.Verdict)
	f := r.Violations[0]
	require.NoError(t, f.TraceErr)
	require.NotNil(t, f.Trace)
	return f
}

// clone copies a trace deeply, so that a mutation leaves the original.
func clone(tr *cbr.Trace) *cbr.Trace {
	c := &cbr.Trace{Initial: cloneConfig(tr.Initial)}
	for _, ctx := range tr.Contexts {
		nc := cbr.TraceContext{Thread: ctx.Thread}
		for _, s := range ctx.Steps {
			nc.Steps = append(nc.Steps, cbr.TraceStep{Rule: s.Rule, After: cloneConfig(s.After), Starts: s.Starts})
		}
		c.Contexts = append(c.Contexts, nc)
	}
	return c
}

func cloneConfig(c explicit.Config) explicit.Config {
	d := explicit.Config{Globals: append([]uint64(nil), c.Globals...)}
	for _, st := range c.Threads {
		var fs []explicit.Frame
		for _, f := range st {
			fs = append(fs, explicit.Frame{Label: f.Label, Locals: append([]uint64(nil), f.Locals...)})
		}
		d.Threads = append(d.Threads, fs)
	}
	return d
}

// traceCase returns a network with a violation and its bound: a case of
// reachcases, or the bundled Bluetooth example (5 contexts).
func traceCase(t *testing.T, name string) (*pds.Network, int) {
	if name == "bluetooth" {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", "bluetooth.pds"))
		require.NoError(t, err)
		net, err := frontend.Compile("bluetooth.pds", src)
		require.NoError(t, err)
		return net, 5
	}
	c := reachcases.Lookup(name)
	net, err := c.Build()
	require.NoError(t, err)
	return net, c.K
}

// TestTraceMutations: the replay accepts the traces of the hand-made
// cases and rejects every corruption of one step: another thread for a
// context, another value of a global or of a local after a step, a step
// left out, another rule of the same label named for a step, another
// initial value (of a global with one; an open one may start with any);
// an empty context added; a violation claiming one context fewer or more
// than the trace has. The open cases' traces start from one value of
// their open data, which the threads overwrite.
func TestTraceMutations(t *testing.T) {
	for _, name := range []string{"counter", "lostupdate", "bluetooth", "open/overwrite", "open/two"} {
		net, k := traceCase(t, name)
		f := traceOf(t, net, tuples.Engine{}, k)
		eng, err := net.WithThreadSlots(net.MaxThreads)
		require.NoError(t, err)
		require.NoError(t, clone(f.Trace).Check(eng, f, cbr.Contexts), name)
		mutants := 0
		reject := func(what string, tr *cbr.Trace) {
			t.Helper()
			mutants++
			err := tr.Check(eng, f, cbr.Contexts)
			require.Error(t, err, "%s: %s was accepted", name, what)
			require.True(t, errors.Is(err, cbr.ErrBadTrace), "%s: %s: %v", name, what, err)
		}
		for i, ctx := range f.Trace.Contexts {
			for th := range f.Trace.Initial.Threads {
				if th == ctx.Thread {
					continue
				}
				tr := clone(f.Trace)
				tr.Contexts[i].Thread = th
				reject(fmt.Sprintf("context %d run by thread %d", i+1, th), tr)
			}
			for j, s := range ctx.Steps {
				for g, v := range s.After.Globals {
					if net.Globals[g].Type.Bits == 0 {
						continue
					}
					tr := clone(f.Trace)
					tr.Contexts[i].Steps[j].After.Globals[g] = v ^ 1
					reject(fmt.Sprintf("context %d step %d with %s changed", i+1, j+1, net.Globals[g].Name), tr)
				}
				st := s.After.Threads[ctx.Thread]
				if len(st) > 0 && len(st[len(st)-1].Locals) > 0 {
					tr := clone(f.Trace)
					top := tr.Contexts[i].Steps[j].After.Threads[ctx.Thread]
					top[len(top)-1].Locals[0] ^= 1
					reject(fmt.Sprintf("context %d step %d with a local changed", i+1, j+1), tr)
				}
				if len(ctx.Steps) > 1 {
					tr := clone(f.Trace)
					tr.Contexts[i].Steps = append(tr.Contexts[i].Steps[:j:j], tr.Contexts[i].Steps[j+1:]...)
					reject(fmt.Sprintf("context %d without step %d", i+1, j+1), tr)
				}
				for _, r := range eng.RulesFrom(s.Rule.From) {
					if r == s.Rule {
						continue
					}
					// Another rule of the same label, when it does not make
					// the same step (a rule that does is as good a witness).
					before := f.Trace.Initial
					if j > 0 {
						before = ctx.Steps[j-1].After
					} else if i > 0 {
						prev := f.Trace.Contexts[i-1].Steps
						before = prev[len(prev)-1].After
					}
					succ, err := explicit.NewStepper(eng, 0, 64).By(before, ctx.Thread, r)
					require.NoError(t, err)
					if slices.ContainsFunc(succ, func(d explicit.Config) bool { return d.Key() == s.After.Key() }) {
						continue
					}
					tr := clone(f.Trace)
					tr.Contexts[i].Steps[j].Rule = r
					reject(fmt.Sprintf("context %d step %d by rule %d", i+1, j+1, r.Index), tr)
				}
			}
		}
		for g := range f.Trace.Initial.Globals {
			if net.Globals[g].Init.Any {
				continue
			}
			tr := clone(f.Trace)
			tr.Initial.Globals[g] ^= 1
			reject("another initial value of "+net.Globals[g].Name, tr)
		}
		tr := clone(f.Trace)
		last := tr.Contexts[len(tr.Contexts)-1]
		other := (last.Thread + 1) % len(tr.Initial.Threads)
		tr.Contexts = append(tr.Contexts[:len(tr.Contexts)-1], cbr.TraceContext{Thread: other}, last)
		reject("an empty context", tr)
		for _, d := range []int{-1, 1} {
			g := f
			g.Contexts += d
			mutants++
			err := clone(f.Trace).Check(eng, g, cbr.Contexts)
			require.ErrorIs(t, err, cbr.ErrBadTrace, "%s: a violation with %d contexts accepted the trace", name, g.Contexts)
		}
		t.Logf("%s: %d contexts, %d mutants rejected", name, len(f.Trace.Contexts), mutants)
	}
}

// format renders a trace for comparisons.
func format(net *pds.Network, tr *cbr.Trace) string {
	var b strings.Builder
	b.WriteString(tr.Initial.Format(net) + "\n")
	for _, c := range tr.Contexts {
		for _, s := range c.Steps {
			fmt.Fprintf(&b, "%d %d %s\n", c.Thread, s.Rule.Index, s.After.Format(net))
		}
	}
	return b.String()
}

// TestTraceDeterministic: the same input gives the same trace, eager and
// lazy, whatever the pruning.
func TestTraceDeterministic(t *testing.T) {
	for _, e := range []tuples.Engine{{}, {Split: split.Eager, Prune: tuples.PruneNone}, {SubsumeAfter: 4}} {
		var first string
		for run := 0; run < 3; run++ {
			net, _ := traceCase(t, "bluetooth")
			f := traceOf(t, net, e, 5)
			eng, _ := net.WithThreadSlots(net.MaxThreads)
			s := format(eng, f.Trace)
			if run == 0 {
				first = s
				continue
			}
			require.Equal(t, first, s, "run %d differs", run)
		}
	}
}

// TestTraceFeatures: traces through forks in a loop, recursion with
// return values, atomic blocks and "?" initial values, eager and lazy,
// replayed (Analyze checks them) with the fewest contexts.
func TestTraceFeatures(t *testing.T) {
	cases := []struct {
		name, src string
		k, want   int
	}{
		{"start in a loop", `
int<3> sum;
int<2> count;
proc worker(int<2> id) { atomic { sum = sum + id; count = count + 1; } }
proc main() {
  int<2> i;
  i = 1;
  while (i < 3) { start worker(i); i = i + 1; }
  assume(count == 2);
  assert(sum == 2);
}
start main();
`, 4, 4},
		{"recursion with results", `
int<3> n = ?;
proc down() : int<3> {
  int<3> r;
  if (n == 0) { return 0; }
  n = n - 1;
  r = down();
  return r + 1;
}
proc main() {
  int<3> d;
  d = down();
  assert(d < 6);
}
proc other() { n = 7; }
start main();
start other();
`, 3, 1},
	}
	for _, tc := range cases {
		for _, s := range []split.Strategy{split.Lazy, split.Eager} {
			net, err := frontend.Compile("case.pds", []byte(tc.src))
			require.NoError(t, err, tc.name)
			f := traceOf(t, net, tuples.Engine{Split: s}, tc.k)
			require.Equal(t, tc.want, f.Contexts, "%s %s", tc.name, s)
			require.Len(t, f.Trace.Contexts, tc.want, "%s %s", tc.name, s)
		}
	}
}
