package benchmarks

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// hasVector tells whether runs has a Vector run to plot: one that was not
// cut off.
func hasVector(runs []Run) bool {
	for i := range runs {
		if runs[i].Family == "vector" && runs[i].Complete() {
			return true
		}
	}
	return false
}

// series are the Vector plot's lines: Java version and splitting, with a
// colour and a glyph each.
var series = []struct {
	fixed bool
	split string
	label string
	color color.RGBA
	glyph draw.GlyphDrawer
}{
	{false, "eager", "Java 5 eager", color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, draw.CircleGlyph{}},
	{false, "lazy", "Java 5 lazy", color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, draw.CircleGlyph{}},
	{true, "eager", "Java 6 eager", color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, draw.SquareGlyph{}},
	{true, "lazy", "Java 6 lazy", color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, draw.SquareGlyph{}},
}

// WriteVectorPlot writes an SVG with two panels for the Vector runs: view
// tuples against the width of x, and analysis time against it, both with a
// logarithmic y axis, one line per Java version and splitting. Runs cut off
// by a limit are left out. The paper's eager view tuples (Table 1, bits 1
// to 8) are drawn dashed for comparison. Without Vector runs the panels
// are empty.
func WriteVectorPlot(w io.Writer, runs []Run, env Env) error {
	c := vgsvg.New(11*vg.Inch, 4.5*vg.Inch)
	if err := drawVector(draw.New(c), runs, env); err != nil {
		return err
	}
	_, err := c.WriteTo(w)
	return err
}

// drawVector draws the two panels of WriteVectorPlot side by side.
func drawVector(dc draw.Canvas, runs []Run, env Env) error {
	tuples := plot.New()
	tuples.Title.Text = "Vector: view tuples (3 contexts)"
	tuples.Y.Label.Text = "view tuples"
	times := plot.New()
	times.Title.Text = fmt.Sprintf("Vector: analysis time (%s/%s, %d CPUs, %s kernel)", env.GOOS, env.GOARCH, env.NumCPU, env.Kernel)
	times.Y.Label.Text = "time (s)"
	maxBits := 1
	for _, p := range []*plot.Plot{tuples, times} {
		p.X.Label.Text = "bits of x"
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Legend.Top = true
		p.Legend.Left = true
		p.Add(plotter.NewGrid())
	}
	for _, s := range series {
		var tup, sec, paper plotter.XYs
		for i := range runs {
			r := &runs[i]
			if r.Family != "vector" || r.Fixed != s.fixed || r.Split.String() != s.split || !r.Complete() {
				continue
			}
			maxBits = max(maxBits, r.Bits)
			tup = append(tup, plotter.XY{X: float64(r.Bits), Y: float64(max(r.ViewTuples, 1))})
			sec = append(sec, plotter.XY{X: float64(r.Bits), Y: max(r.Time.Seconds(), 1e-4)})
			if r.Paper.ViewTuples > 0 && s.split == "eager" {
				paper = append(paper, plotter.XY{X: float64(r.Bits), Y: float64(r.Paper.ViewTuples)})
			}
		}
		for _, xys := range []plotter.XYs{tup, sec, paper} {
			sort.Slice(xys, func(i, j int) bool { return xys[i].X < xys[j].X })
		}
		if err := addLine(tuples, tup, s.label, s.color, s.glyph, false); err != nil {
			return err
		}
		if err := addLine(times, sec, s.label, s.color, s.glyph, false); err != nil {
			return err
		}
		if err := addLine(tuples, paper, s.label+" (paper)", s.color, s.glyph, true); err != nil {
			return err
		}
	}
	ticks := plot.ConstantTicks(bitTicks(maxBits))
	for _, p := range []*plot.Plot{tuples, times} {
		p.X.Min, p.X.Max = 0.5, float64(maxBits)+0.5
		p.X.Tick.Marker = ticks
		// Room above the data for the legend in the top left corner; a
		// positive range even without data (a log scale needs one).
		if !(p.Y.Min > 0 && p.Y.Max >= p.Y.Min) {
			p.Y.Min, p.Y.Max = 1, 1
		}
		decades := math.Log10(p.Y.Max / p.Y.Min)
		p.Y.Min /= 1.5
		p.Y.Max *= math.Pow(10, 0.2+0.6*decades)
	}
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 4, PadY: vg.Inch / 8, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 8}
	plots := [][]*plot.Plot{{tuples, times}}
	canvases := plot.Align(plots, tiles, dc)
	tuples.Draw(canvases[0][0])
	times.Draw(canvases[0][1])
	return nil
}

func addLine(p *plot.Plot, xys plotter.XYs, label string, col color.RGBA, glyph draw.GlyphDrawer, dashed bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color = col
	l.Width = vg.Points(1.5)
	s.Color = col
	s.Shape = glyph
	s.Radius = vg.Points(2.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Width = vg.Points(1)
		s.Shape = draw.CrossGlyph{}
	}
	p.Add(l, s)
	p.Legend.Add(label, l, s)
	return nil
}

func bitTicks(maxBits int) []plot.Tick {
	step := 1
	if maxBits > 10 {
		step = 2
	}
	var t []plot.Tick
	for b := 1; b <= maxBits; b++ {
		label := ""
		if b == 1 || b%step == 0 {
			label = fmt.Sprint(b)
		}
		t = append(t, plot.Tick{Value: float64(b), Label: label})
	}
	return t
}
