package benchmarks

import (
	"os"
	"path/filepath"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/pds"
)

// heapPeak samples the bytes of live heap objects during a run.
type heapPeak struct {
	sample []metrics.Sample
	peak   uint64
	calls  int
}

func newHeapPeak() *heapPeak {
	return &heapPeak{sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
}

func (h *heapPeak) observe() {
	metrics.Read(h.sample)
	h.peak = max(h.peak, h.sample[0].Value.Uint64())
}

// BenchmarkTraces measures what traces cost: for each model, the analysis
// with traces off and on (the default lazy splitting and pruning, first
// violation), reporting the analysis time, the time to build and replay
// the trace and its ratio to the analysis time of the same run, the peak
// BDD node table occupancy and the peak live heap.
//
//	go test ./benchmarks -run '^$' -bench Traces -benchtime 3x
func BenchmarkTraces(b *testing.B) {
	type model struct {
		name  string
		k     int
		build func() (*pds.Network, []pds.Target)
	}
	compile := func(e Experiment) func() (*pds.Network, []pds.Target) {
		return func() (*pds.Network, []pds.Target) { return compileExperiment(b, e), nil }
	}
	models := []model{
		{"bluetooth-v2-a2s1", 5, compile(bluetooth("bluetooth-v2-a2s1", 5, "lazy"))},
		{"vector-java5-b16", 3, compile(Experiment{Model: "vector-java5-b16", Bits: 16, Contexts: 3})},
	}
	dir := filepath.Join("..", "..", "shared", "benchmarks", "cuba-pldi18")
	if _, err := os.Stat(dir); err == nil {
		models = append(models, model{"cuba-Bluetooth3-11", 7, func() (*pds.Network, []pds.Target) {
			inst, tg := readCuba(b, dir, "Bluetooth3-11")
			return inst.Net, tg
		}})
	} else {
		b.Logf("CUBA's suite is not at %s: Bluetooth3-11 left out", dir)
	}
	for _, m := range models {
		for _, on := range []bool{false, true} {
			name := m.name + "/traces=off"
			if on {
				name = m.name + "/traces=on"
			}
			b.Run(name, func(b *testing.B) {
				var res *cbr.Result
				var peak uint64
				for b.Loop() {
					net, targets := m.build()
					h := newHeapPeak()
					opts := cbr.Options{Bound: m.k, Traces: on, Targets: targets, OnProgress: func(cbr.Progress) { h.observe() }}
					r, err := analyze(tuples.Name, engines.Settings{}, net, opts)
					if err != nil || r.Verdict != cbr.Violation {
						b.Fatalf("%s: %v %v", m.name, r.Verdict, err)
					}
					h.observe()
					if on && r.Violations[0].Trace == nil {
						b.Fatalf("%s: no trace: %v", m.name, r.Violations[0].TraceErr)
					}
					res, peak = r, h.peak
				}
				st := res.Stats
				b.ReportMetric(st.Time.Seconds(), "analysis-s")
				b.ReportMetric(float64(st.PeakNodes), "peak-nodes")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
				if on {
					b.ReportMetric(st.TraceTime.Seconds(), "trace-s")
					b.ReportMetric(float64(st.TraceTime)/float64(max(st.Time, time.Nanosecond)), "trace/analysis")
					b.ReportMetric(float64(len(res.Violations[0].Trace.Configs())-1), "steps")
				}
			})
		}
	}
}
