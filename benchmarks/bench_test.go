package benchmarks

import (
	"context"
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
)

// analyze runs the named engine of the table (package cbr/engines) with
// its settings: the Go benchmarks choose their engines as the command
// line does.
func analyze(name string, set engines.Settings, net *pds.Network, opts cbr.Options) (*cbr.Result, error) {
	entry, err := engines.Lookup(name)
	if err != nil {
		return nil, err
	}
	eng, err := entry.New(set)
	if err != nil {
		return nil, err
	}
	return eng.Analyze(context.Background(), net, opts)
}

// runInProcess runs an experiment as the harness's tasks do (the whole
// bound, every view tuple counted, no limit on eager splits, no traces),
// but in this process, through the table of engines: a Go benchmark
// times the analysis itself, many times over, which a cbreach process per
// run (the harness's way, through cbreach suite) cannot do.
func runInProcess(e Experiment) Run {
	r := Run{Experiment: e, Fewest: -1}
	net, want, err := e.load()
	if err != nil {
		r.Status, r.Detail = StatusError, err.Error()
		return r
	}
	r.Expected = want
	// MaxTuples -1: no limit (0 would be the engine's default limit).
	res, err := analyze(tuples.Name, engines.Settings{"split": e.Split, "prune": "none"}, net,
		cbr.Options{Bound: e.Contexts, All: true, Limits: cbr.Limits{MaxTuples: -1}})
	if res == nil || err != nil {
		r.Status, r.Detail = StatusError, fmt.Sprint(err)
		return r
	}
	st := res.Stats
	r.Verdict, r.Fewest = res.Verdict, res.Contexts()
	r.ViewTuples, r.TuplesPerLevel, r.PostStarCalls, r.PeakNodes, r.Time = st.ViewTuples, st.TuplesPerLevel, st.PostStarCalls, st.PeakNodes, st.Time
	r.Status, r.Detail = check(&r, res.Reason)
	return r
}

// bench runs one experiment per iteration and reports its view tuples and
// peak BDD nodes.
func bench(b *testing.B, e Experiment) {
	b.Helper()
	var r Run
	for b.Loop() {
		r = runInProcess(e)
		if r.Status != StatusOK {
			b.Fatalf("%s: %s: %s", e.ID(), r.Status, r.Detail)
		}
	}
	b.ReportMetric(float64(r.ViewTuples), "tuples")
	b.ReportMetric(float64(r.PeakNodes), "peak-nodes")
}

func bluetooth(name string, k int, s string) Experiment {
	return Experiment{Family: "bluetooth", Model: name, File: name + ".pds", Threads: "-", Contexts: k, Split: s}
}

// The paper's Table 2 cases: version 1 with 1 adder + 1 stopper at 3
// contexts, version 2 with 2 + 1 at 5, version 3 with 1 + 2 at 4.
func BenchmarkBluetoothV1Eager(b *testing.B) {
	bench(b, bluetooth("bluetooth-v1-a1s1", 3, "eager"))
}
func BenchmarkBluetoothV1Lazy(b *testing.B) { bench(b, bluetooth("bluetooth-v1-a1s1", 3, "lazy")) }
func BenchmarkBluetoothV2Eager(b *testing.B) {
	bench(b, bluetooth("bluetooth-v2-a2s1", 5, "eager"))
}
func BenchmarkBluetoothV2Lazy(b *testing.B) { bench(b, bluetooth("bluetooth-v2-a2s1", 5, "lazy")) }
func BenchmarkBluetoothV3Eager(b *testing.B) {
	bench(b, bluetooth("bluetooth-v3-a1s2", 4, "eager"))
}
func BenchmarkBluetoothV3Lazy(b *testing.B) { bench(b, bluetooth("bluetooth-v3-a1s2", 4, "lazy")) }

// vector runs the Vector model at 3 contexts for a few widths of x.
func vector(b *testing.B, fixed bool, s string) {
	java := map[bool]string{false: "5", true: "6"}[fixed]
	for _, bits := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("bits=%d", bits), func(b *testing.B) {
			bench(b, Experiment{Family: "vector", Model: fmt.Sprintf("vector-java%s-b%d", java, bits), Bits: bits, Fixed: fixed,
				Threads: "-", Contexts: 3, Split: s})
		})
	}
}

func BenchmarkVectorJava5Eager(b *testing.B) { vector(b, false, "eager") }
func BenchmarkVectorJava5Lazy(b *testing.B)  { vector(b, false, "lazy") }
func BenchmarkVectorJava6Eager(b *testing.B) { vector(b, true, "eager") }
func BenchmarkVectorJava6Lazy(b *testing.B)  { vector(b, true, "lazy") }
