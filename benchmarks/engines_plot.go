package benchmarks

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/cbreach/cbreach/pds/plural"
)

// engineStyle is an engine's line in the engines plot.
var engineStyle = map[string]struct {
	color  color.RGBA
	glyph  draw.GlyphDrawer
	dashes []vg.Length
}{
	"cbr-lazy":  {color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, draw.RingGlyph{}, nil},
	"seq-eager": {color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, draw.SquareGlyph{}, []vg.Length{5, 3}},
	"seq-lazy":  {color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, draw.PyramidGlyph{}, nil},
}

// WriteEnginesPlot draws the engines experiment as an SVG: one panel per
// family (time against its axis, log scale), a line per engine, runs cut
// off by the time limit as arrows at the limit.
func WriteEnginesPlot(w io.Writer, runs []EngineRun, env Env) error {
	return writeSVG(w, 13*vg.Inch, 5.4*vg.Inch, func(dc draw.Canvas) error { return drawEngines(dc, runs, env) })
}

func drawEngines(dc draw.Canvas, runs []EngineRun, env Env) error {
	families := []struct{ id, title string }{
		{"lalreps", "Lal-Reps Bluetooth, K = 3"},
		{"bst", "BST, 2 inserters + 1 searcher"},
		{"vector", "Vector Java 5, K = 3"},
	}
	var panels []*plot.Plot
	legend := plot.NewLegend()
	inLegend := map[string]bool{}
	limit := env.Timeout.Seconds()
	for _, f := range families {
		p := plot.New()
		p.Title.Text = f.title
		p.X.Label.Text = Axis(f.id)
		p.Y.Label.Text = "time (s)"
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Add(plotter.NewGrid())
		minX, maxX := math.Inf(1), math.Inf(-1)
		for _, eng := range Engines {
			st := engineStyle[eng]
			var done, cut plotter.XYs
			for i := range runs {
				r := &runs[i]
				if r.Family != f.id || r.Engine != eng {
					continue
				}
				x := float64(r.X)
				minX, maxX = math.Min(minX, x), math.Max(maxX, x)
				switch r.Status {
				case StatusOK, StatusMismatch:
					done = append(done, plotter.XY{X: x, Y: math.Max(r.Time.Seconds(), 1e-3)})
				case StatusTimeout:
					if limit > 0 {
						cut = append(cut, plotter.XY{X: x, Y: limit})
					}
				}
			}
			l, sc, err := line(done, st.color, st.glyph, 3, st.dashes, vg.Points(1.5))
			if err != nil {
				return err
			}
			if l != nil {
				p.Add(l, sc)
				if !inLegend[eng] {
					inLegend[eng] = true
					legend.Add(eng, l, sc)
				}
			}
			if len(cut) > 0 {
				sc, err := plotter.NewScatter(cut)
				if err != nil {
					return err
				}
				sc.Color, sc.Shape, sc.Radius = st.color, upArrowGlyph{}, 3.5
				p.Add(sc)
				if !inLegend[eng+" cut"] {
					inLegend[eng+" cut"] = true
					legend.Add(eng+": cut off by the time limit", sc)
				}
			}
		}
		if math.IsInf(minX, 0) {
			minX, maxX = 0, 1
		}
		p.X.Min, p.X.Max = minX-0.5, maxX+0.5
		if !(p.Y.Min > 0 && p.Y.Max >= p.Y.Min) {
			p.Y.Min, p.Y.Max = 1, 1
		}
		p.Y.Min = math.Pow(10, math.Floor(math.Log10(p.Y.Min/2)))
		p.Y.Max = math.Pow(10, math.Ceil(math.Log10(p.Y.Max*3)))
		panels = append(panels, p)
	}
	const legendHeight = 1.1 * vg.Inch
	top := draw.Crop(dc, 0, 0, legendHeight, 0)
	tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Inch / 3, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 16, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 4}
	canvases := plot.Align([][]*plot.Plot{panels}, tiles, top)
	for i, p := range panels {
		p.Draw(canvases[0][i])
	}
	bottom := draw.Crop(dc, 0, 0, 0, -(dc.Max.Y - dc.Min.Y - legendHeight))
	notes := []string{
		fmt.Sprintf("cbreach: %s/%s, %s, %s BDD kernel; every engine explores the whole bound; time limit %s per run.",
			orUnknown(env.GOOS), orUnknown(env.GOARCH), plural.Count(env.NumCPU, "CPU"), orUnknown(env.Kernel), timeoutText(env.Timeout)),
		"Bound K: contexts in total for cbr, rounds of round-robin (contexts per thread) for seq; K rounds of n threads hold up to n*K contexts.",
	}
	notesHeight := drawNotes(bottom, notes)
	legend.Top, legend.Left = true, true
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.ThumbnailWidth = vg.Points(28)
	legend.Padding = vg.Points(2)
	lc := draw.Crop(bottom, vg.Inch/4, 0, 0, -notesHeight)
	legend.Draw(lc)
	return nil
}
