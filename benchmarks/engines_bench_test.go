package benchmarks

import (
	"fmt"
	"testing"

	"github.com/cbreach/cbreach/cbr"
	"github.com/cbreach/cbreach/cbr/engines"
	"github.com/cbreach/cbreach/cbr/states"
	"github.com/cbreach/cbreach/cbr/tuples"
	"github.com/cbreach/cbreach/frontend"
	"github.com/cbreach/cbreach/pds"
)

// engineModels are the models on which the explicit engine and lazy cbr
// are compared: the Bluetooth versions at the paper's bounds and Vector
// (Java 5) at 1 to 8 bits, 3 contexts.
func engineModels() []Experiment {
	es := []Experiment{
		bluetooth("bluetooth-v1-a1s1", 3, "lazy"),
		bluetooth("bluetooth-v2-a2s1", 5, "lazy"),
		bluetooth("bluetooth-v3-a1s2", 4, "lazy"),
	}
	for _, bits := range []int{1, 2, 4, 6, 8} {
		es = append(es, Experiment{Family: "vector", Model: fmt.Sprintf("vector-java5-b%d", bits), Bits: bits, Contexts: 3, Split: "lazy"})
	}
	return es
}

func compileExperiment(b *testing.B, e Experiment) *pds.Network {
	name, src, err := e.Source()
	if err != nil {
		b.Fatal(err)
	}
	net, err := frontend.Compile(name, src)
	if err != nil {
		b.Fatal(err)
	}
	return net
}

// BenchmarkEngines compares the explicit engine (with and without its
// partial-order reduction) with lazy cbr on the same models and bounds,
// the whole bound explored (--all): where explicit search wins and where
// the BDDs do. It reports the states the explicit engine expanded (and
// logs them per bound, as the Spin and CHESS papers tabulate them) and
// the view tuples of cbr.
//
//	go test ./benchmarks -run '^$' -bench Engines -benchtime 3x -v
func BenchmarkEngines(b *testing.B) {
	for _, e := range engineModels() {
		for _, eng := range []string{"explicit", "explicit-no-por", "cbr-lazy"} {
			b.Run(e.Model+"/k"+fmt.Sprint(e.Contexts)+"/"+eng, func(b *testing.B) {
				var nstates, ntuples int
				var perBound []int
				for b.Loop() {
					net := compileExperiment(b, e)
					if eng == "cbr-lazy" {
						r, err := analyze(tuples.Name, engines.Settings{}, net, cbr.Options{Bound: e.Contexts, All: true})
						if err != nil {
							b.Fatal(err)
						}
						ntuples = r.Stats.ViewTuples
						continue
					}
					r, err := analyze(states.Name, engines.Settings{"no-por": fmt.Sprint(eng == "explicit-no-por")}, net, cbr.Options{Bound: e.Contexts, All: true})
					if err != nil {
						b.Fatal(err)
					}
					if r.Verdict == cbr.Unknown {
						b.Fatalf("%s: %s", e.ID(), r.Reason)
					}
					nstates, perBound = states.Figures(r).States, states.Figures(r).StatesPerLevel
				}
				if eng == "cbr-lazy" {
					b.ReportMetric(float64(ntuples), "tuples")
					return
				}
				b.ReportMetric(float64(nstates), "states")
				b.Logf("%s %s: states expanded per bound %v", e.ID(), eng, perBound)
			})
		}
	}
}
