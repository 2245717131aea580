package gantt

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// shapes is a plotter of bars, arrows and vertical lines in data
// coordinates.
type shapes struct {
	bars   []bar
	arrows [][4]float64 // x0, y0, x1, y1
	vlines [][3]float64 // x, y0, y1
}

type bar struct {
	x0, x1, y, half float64
	color           color.Color
}

// bar adds a bar over [x0, x1) at row y, half as high as half, clipped to
// [from, to].
func (s *shapes) bar(x0, x1, y, half float64, c color.Color, from, to float64) {
	x0, x1 = math.Max(x0, from), math.Min(x1, to)
	if x1 > x0 {
		s.bars = append(s.bars, bar{x0: x0, x1: x1, y: y, half: half, color: c})
	}
}

func (s *shapes) arrow(x0, y0, x1, y1 float64) {
	s.arrows = append(s.arrows, [4]float64{x0, y0, x1, y1})
}

func (s *shapes) vline(x, y0, y1 float64) { s.vlines = append(s.vlines, [3]float64{x, y0, y1}) }

// Plot implements plot.Plotter.
func (s *shapes) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, b := range s.bars {
		pts := []vg.Point{
			{X: tx(b.x0), Y: ty(b.y - b.half)}, {X: tx(b.x1), Y: ty(b.y - b.half)},
			{X: tx(b.x1), Y: ty(b.y + b.half)}, {X: tx(b.x0), Y: ty(b.y + b.half)},
		}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
	line := draw.LineStyle{Color: flowColor, Width: vg.Points(0.7)}
	for _, a := range s.arrows {
		x0, y0, x1, y1 := tx(a[0]), ty(a[1]), tx(a[2]), ty(a[3])
		c.StrokeLine2(line, x0, y0, x1, y1)
		// the head: two short strokes back from the tip
		ang := math.Atan2(float64(y1-y0), float64(x1-x0))
		for _, d := range []float64{-0.45, 0.45} {
			hx := x1 - vg.Length(5*math.Cos(ang+d))
			hy := y1 - vg.Length(5*math.Sin(ang+d))
			c.StrokeLine2(line, x1, y1, hx, hy)
		}
	}
	red := draw.LineStyle{Color: errorColor, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
	for _, v := range s.vlines {
		c.StrokeLine2(red, tx(v[0]), ty(v[1]), tx(v[0]), ty(v[2]))
	}
}
