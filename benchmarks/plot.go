package benchmarks

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/cbreach/cbreach/pds/plural"
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
// colour, a glyph and a dash pattern each. Java 5 and Java 6 lazy have the
// same view tuples at every width, so their lines lie on each other: Java
// 5 has large open circles under a solid line, Java 6 small filled
// triangles over a dashed one, so that both stay visible.
var series = []struct {
	fixed  bool
	split  string
	label  string
	color  color.RGBA
	glyph  draw.GlyphDrawer
	radius vg.Length
	dashes []vg.Length
}{
	{false, "eager", "Java 5 eager", color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, draw.RingGlyph{}, 4, nil},
	{false, "lazy", "Java 5 lazy", color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, draw.RingGlyph{}, 4, nil},
	{true, "eager", "Java 6 eager", color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, draw.PyramidGlyph{}, 2.5, []vg.Length{5, 3}},
	{true, "lazy", "Java 6 lazy", color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, draw.PyramidGlyph{}, 2.5, []vg.Length{5, 3}},
}

// The paper's figures are drawn thin and dotted, with a cross (Java 5) or
// a plus (Java 6) in the colour of the matching series.
var (
	paperDashes = []vg.Length{1.5, 2}
	grey        = color.RGBA{R: 0x66, G: 0x66, B: 0x66, A: 0xff}
)

// upArrowGlyph marks a run cut off by the time limit: an arrow pointing
// up, "more than this".
type upArrowGlyph struct{}

func (upArrowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.5)})
	var shaft vg.Path
	shaft.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	shaft.Line(vg.Point{X: pt.X, Y: pt.Y + r})
	c.Stroke(shaft)
	var head vg.Path
	head.Move(vg.Point{X: pt.X, Y: pt.Y + 2*r})
	head.Line(vg.Point{X: pt.X - r, Y: pt.Y + r/2})
	head.Line(vg.Point{X: pt.X + r, Y: pt.Y + r/2})
	head.Close()
	c.Fill(head)
}

// WriteVectorPlot writes an SVG with two panels for the Vector runs, view
// tuples and analysis time against the width of x, both with a
// logarithmic y axis, one line per Java version and splitting, and a
// legend below them. The paper's figures (SEC08 Table 1, bits 1 to 8) are
// drawn dotted: eager view tuples, and eager and lazy times (its lazy runs
// have 3 view tuples, as ours). A run cut off by the time limit is an
// arrow, at the limit in the time panel (a dashed line marks it) and at
// the view tuples it had reached in the other. Without Vector runs the
// panels are empty.
func WriteVectorPlot(w io.Writer, runs []Run, env Env) error {
	return writeSVG(w, 11.5*vg.Inch, 6.2*vg.Inch, func(dc draw.Canvas) error { return drawVector(dc, runs, env) })
}

// writeSVG draws a picture of the given size with paint and writes it as
// SVG.
func writeSVG(w io.Writer, width, height vg.Length, paint func(draw.Canvas) error) error {
	c := vgsvg.New(width, height)
	if err := paint(draw.New(c)); err != nil {
		return err
	}
	_, err := c.WriteTo(w)
	return err
}

// drawNotes writes lines of grey text at the top of c, one under the
// other, and returns the height they take.
func drawNotes(c draw.Canvas, notes []string) vg.Length {
	sty := draw.TextStyle{Color: grey, Font: font.From(plot.DefaultFont, 9), Handler: plot.DefaultTextHandler}
	for i, n := range notes {
		c.FillText(sty, vg.Point{X: c.Min.X + vg.Inch/4, Y: c.Max.Y - vg.Inch/5 - vg.Length(i)*vg.Points(12)}, n)
	}
	return vg.Inch/5 + vg.Length(len(notes))*vg.Points(12)
}

// drawVector draws the two panels of WriteVectorPlot side by side, and the
// legend under them.
func drawVector(dc draw.Canvas, runs []Run, env Env) error {
	tuples := plot.New()
	tuples.Title.Text = "Vector: view tuples, 3 contexts"
	tuples.Y.Label.Text = "view tuples"
	times := plot.New()
	times.Title.Text = "Vector: analysis time, 3 contexts"
	times.Y.Label.Text = "time (s)"
	for _, p := range []*plot.Plot{tuples, times} {
		p.X.Label.Text = "bits of x"
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Add(plotter.NewGrid())
	}
	ours, paper := plot.NewLegend(), plot.NewLegend()
	var cutLegend *plot.Legend
	maxBits, cutSecs, eagerBits := 1, 0.0, 0
	for _, s := range series {
		var tup, sec, paperTup, paperSec, cutTup, cutSec plotter.XYs
		for i := range runs {
			r := &runs[i]
			if r.Family != "vector" || r.Fixed != s.fixed || r.Split != s.split {
				continue
			}
			x := float64(r.Bits)
			if s.split == "eager" {
				eagerBits = max(eagerBits, r.Bits)
			}
			switch {
			case r.Complete():
				maxBits = max(maxBits, r.Bits)
				tup = append(tup, plotter.XY{X: x, Y: float64(max(r.ViewTuples, 1))})
				sec = append(sec, plotter.XY{X: x, Y: max(r.Time.Seconds(), 1e-4)})
			case r.Status == StatusTimeout:
				maxBits = max(maxBits, r.Bits)
				limit := r.Time.Seconds()
				if env.Timeout > 0 {
					limit = env.Timeout.Seconds()
				}
				cutTup = append(cutTup, plotter.XY{X: x, Y: float64(max(r.ViewTuples, 1))})
				if limit > 0 { // else unknown: no point on the log scale
					cutSecs = max(cutSecs, limit)
					cutSec = append(cutSec, plotter.XY{X: x, Y: limit})
				}
			}
			if r.Paper.ViewTuples > 0 && s.split == "eager" {
				paperTup = append(paperTup, plotter.XY{X: x, Y: float64(r.Paper.ViewTuples)})
			}
			if r.Paper.Seconds > 0 {
				paperSec = append(paperSec, plotter.XY{X: x, Y: r.Paper.Seconds})
			}
		}
		for _, xys := range []plotter.XYs{tup, sec, paperTup, paperSec, cutTup, cutSec} {
			sort.Slice(xys, func(i, j int) bool { return xys[i].X < xys[j].X })
		}
		l, g, err := line(tup, s.color, s.glyph, s.radius, s.dashes, vg.Points(1.5))
		if err != nil {
			return err
		}
		if l != nil {
			tuples.Add(l, g)
			ours.Add(s.label, l, g)
		}
		if l, g, err = line(sec, s.color, s.glyph, s.radius, s.dashes, vg.Points(1.5)); err != nil {
			return err
		} else if l != nil {
			times.Add(l, g)
			if len(tup) == 0 {
				ours.Add(s.label, l, g)
			}
		}
		paperGlyph := draw.GlyphDrawer(draw.CrossGlyph{})
		if s.fixed {
			paperGlyph = draw.PlusGlyph{}
		}
		for _, pl := range []struct {
			p   *plot.Plot
			xys plotter.XYs
		}{{tuples, paperTup}, {times, paperSec}} {
			if l, g, err = line(pl.xys, s.color, paperGlyph, 3, paperDashes, vg.Points(1)); err != nil {
				return err
			} else if l != nil {
				pl.p.Add(l, g)
				if pl.p == times || len(paperSec) == 0 {
					paper.Add(s.label+" (paper)", l, g)
				}
			}
		}
		for _, pl := range []struct {
			p   *plot.Plot
			xys plotter.XYs
		}{{tuples, cutTup}, {times, cutSec}} {
			if len(pl.xys) == 0 {
				continue
			}
			sc, err := plotter.NewScatter(pl.xys)
			if err != nil {
				return err
			}
			sc.Color, sc.Shape, sc.Radius = s.color, upArrowGlyph{}, 3.5
			pl.p.Add(sc)
			if pl.p == times || len(cutSec) == 0 {
				if cutLegend == nil {
					lg := plot.NewLegend()
					cutLegend = &lg
				}
				cutLegend.Add(s.label+" cut off by the time limit: at the limit, and at the view tuples reached", sc)
			}
		}
	}
	if cutSecs > 0 {
		// The time limit as a dashed line across the panel, with its value.
		lim, err := plotter.NewLine(plotter.XYs{{X: 0.5, Y: cutSecs}, {X: float64(maxBits) + 0.5, Y: cutSecs}})
		if err != nil {
			return err
		}
		lim.Color, lim.Width, lim.Dashes = grey, vg.Points(1), []vg.Length{6, 3}
		times.Add(lim)
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: 0.6, Y: cutSecs}},
			Labels: []string{fmt.Sprintf("time limit %g s", cutSecs)}})
		if err != nil {
			return err
		}
		lab.TextStyle[0].Color = grey
		lab.Offset = vg.Point{Y: vg.Points(3)}
		times.Add(lab)
	}
	ticks := plot.ConstantTicks(bitTicks(maxBits))
	for _, p := range []*plot.Plot{tuples, times} {
		p.X.Min, p.X.Max = 0.5, float64(maxBits)+0.5
		p.X.Tick.Marker = ticks
		// A positive range even without data (a log scale needs one), with
		// a margin above and below the data.
		if !(p.Y.Min > 0 && p.Y.Max >= p.Y.Min) {
			p.Y.Min, p.Y.Max = 1, 1
		}
		p.Y.Min /= 2
		p.Y.Max *= 3
		p.Y.Min = math.Pow(10, math.Floor(math.Log10(p.Y.Min)))
		p.Y.Max = math.Pow(10, math.Ceil(math.Log10(p.Y.Max)))
	}

	// The panels above, the legend in the bottom strip.
	const legendHeight = 1.5 * vg.Inch
	top := draw.Crop(dc, 0, 0, legendHeight, 0)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 2, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 16, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 4}
	canvases := plot.Align([][]*plot.Plot{{tuples, times}}, tiles, top)
	tuples.Draw(canvases[0][0])
	times.Draw(canvases[0][1])

	bottom := draw.Crop(dc, 0, 0, 0, -(dc.Max.Y - dc.Min.Y - legendHeight))
	notes := []string{
		fmt.Sprintf("cbreach: %s/%s, %s, %s BDD kernel; the whole bound explored, no deduplication (the paper's counting).",
			orUnknown(env.GOOS), orUnknown(env.GOARCH), plural.Count(env.NumCPU, "CPU"), orUnknown(env.Kernel)),
		"Paper (SEC08, Table 1): jMoped on the compiled Java library, AMD 3 GHz, bits 1 to 8; its lazy runs have 3 view tuples, as ours.",
	}
	if eagerBits > 0 && eagerBits < maxBits {
		notes = append(notes, fmt.Sprintf("Eager was not run beyond %s here (the harness's --set large adds 11 to 16 bits).", plural.Count(eagerBits, "bit")))
	}
	notesHeight := drawNotes(bottom, notes)
	legends := []*plot.Legend{&ours, &paper}
	if cutLegend != nil {
		legends = append(legends, cutLegend)
	}
	lx := bottom.Min.X + vg.Inch/4
	widths := []vg.Length{2 * vg.Inch, 2.6 * vg.Inch, 6 * vg.Inch}
	for i, l := range legends {
		l.Top, l.Left = true, true
		l.TextStyle.Font.Size = vg.Points(10)
		l.ThumbnailWidth = vg.Points(28)
		l.Padding = vg.Points(3)
		c := draw.Crop(bottom, lx-bottom.Min.X, 0, 0, -notesHeight)
		c.Max.X = c.Min.X + widths[i]
		l.Draw(c)
		lx += widths[i]
	}
	return nil
}

// line is a line with a glyph at every point, or nil for no points.
func line(xys plotter.XYs, col color.RGBA, glyph draw.GlyphDrawer, radius vg.Length, dashes []vg.Length, width vg.Length) (*plotter.Line, *plotter.Scatter, error) {
	if len(xys) == 0 {
		return nil, nil, nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, nil, err
	}
	l.Color, l.Width, l.Dashes = col, width, dashes
	s.Color, s.Shape, s.Radius = col, glyph, radius
	return l, s, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
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
