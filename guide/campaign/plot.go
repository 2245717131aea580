package campaign

import (
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gmc-go/gmc/benchmarks"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// model is the name of a configuration's benchmark: the last element of
// its package path ("./benchmarks/twostage" → "twostage").
func model(pkg string) string { return path.Base(strings.TrimSuffix(pkg, "/")) }

// models returns the models of the summary in suite order, each with the
// indices of its configurations.
func (sm *Summary) models() ([]string, map[string][]int) {
	var names []string
	cfgs := map[string][]int{}
	for c, cfg := range sm.Manifest.Configs {
		m := model(cfg.Pkg)
		if cfgs[m] == nil {
			names = append(names, m)
		}
		cfgs[m] = append(cfgs[m], c)
	}
	return names, cfgs
}

// WritePlots writes, for every model, states-<model>.svg and .png (states
// to the error per configuration, one series per strategy: the average
// with min–max bars, log scale) and, for models with configurations of
// different goroutine counts, density-<model>.svg and .png (error density
// against goroutines: the hardness curves).
func (sm *Summary) WritePlots(dir string) error {
	names, cfgs := sm.models()
	for _, m := range names {
		if p := sm.statesPlot(m, cfgs[m]); p != nil {
			if err := save(p, 2.2*vg.Inch+vg.Length(len(cfgs[m]))*1.1*vg.Inch, 4.5*vg.Inch, filepath.Join(dir, "states-"+m)); err != nil {
				return err
			}
		}
		if p := sm.densityPlot(m, cfgs[m]); p != nil {
			if err := save(p, 7*vg.Inch, 4.5*vg.Inch, filepath.Join(dir, "density-"+m)); err != nil {
				return err
			}
		}
	}
	return nil
}

// save writes the plot as base.svg and as base.png at 150 dpi.
func save(p *plot.Plot, w, h vg.Length, base string) error {
	w = max(w, 5.5*vg.Inch)
	if err := p.Save(w, h, base+".svg"); err != nil {
		return fmt.Errorf("plot %s.svg: %w", base, err)
	}
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(150))
	p.Draw(draw.New(c))
	fh, err := os.Create(base + ".png")
	if err != nil {
		return err
	}
	_, err = vgimg.PngCanvas{Canvas: c}.WriteTo(fh)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("plot %s.png: %w", base, err)
	}
	return nil
}

// minMaxErrors is an XYer with Y error bars.
type minMaxErrors struct {
	plotter.XYs
	plotter.YErrors
}

// statesPlot is the states-to-error plot of model m, nil when no strategy
// found an error in any of its configurations.
func (sm *Summary) statesPlot(m string, cs []int) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: states to the error (average, min–max)", m)
	p.X.Label.Text = "configuration (parameters)"
	p.Y.Label.Text = "states (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = decadeTicks{}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	S := len(sm.Manifest.Strategies)
	lo, hi := math.Inf(1), math.Inf(-1)
	var labels []string
	for _, c := range cs {
		labels = append(labels, paramsLabel(sm.Manifest.Configs[c]))
	}
	any := false
	for s, name := range sm.Manifest.Strategies {
		var pts minMaxErrors
		for i, c := range cs {
			r := sm.Row(c, s)
			if r.States.N == 0 {
				continue
			}
			x := float64(i) + (float64(s)-float64(S-1)/2)*0.7/float64(max(S, 1))
			avg, mn, mx := math.Max(r.States.Avg, 1), math.Max(r.States.Min, 1), math.Max(r.States.Max, 1)
			pts.XYs = append(pts.XYs, plotter.XY{X: x, Y: avg})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{avg - mn, mx - avg})
			lo, hi = math.Min(lo, mn), math.Max(hi, mx)
		}
		sc, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			continue
		}
		sc.GlyphStyle.Color = plotutil.Color(s)
		sc.GlyphStyle.Shape = plotutil.Shape(s)
		sc.GlyphStyle.Radius = vg.Points(3.5)
		if len(pts.XYs) == 0 {
			p.Legend.Add(name+": not found", sc)
			continue
		}
		any = true
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			continue
		}
		eb.LineStyle.Color = plotutil.Color(s)
		p.Add(eb, sc)
		p.Legend.Add(name, sc)
	}
	if !any {
		return nil
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.6, float64(len(cs))-0.4
	// whole decades, with room above for the legend
	p.Y.Min = math.Pow10(int(math.Floor(math.Log10(lo))))
	p.Y.Max = math.Pow10(int(math.Ceil(math.Log10(hi))) + 1)
	return p
}

// densityPlot is the hardness curve of model m: error density against the
// goroutine count, one line per strategy; nil when the configurations do
// not differ in goroutines.
func (sm *Summary) densityPlot(m string, cs []int) *plot.Plot {
	type pt struct {
		g    int
		name string
		c    int
	}
	var pts []pt
	gs := map[int]bool{}
	for _, c := range cs {
		g := sm.Goroutines(c)
		if g == 0 {
			continue
		}
		gs[g] = true
		pts = append(pts, pt{g, sm.Manifest.Configs[c].Name, c})
	}
	if len(gs) < 2 {
		return nil
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].g < pts[j].g })
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: error density against goroutines (equal values drawn slightly apart)", m)
	p.X.Label.Text = "goroutines (main included)"
	p.Y.Label.Text = "error density (trials that found the error / trials)"
	p.Y.Min, p.Y.Max = -0.02, 1.4
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"},
		{Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}}
	var ticks []plot.Tick
	for g := range gs {
		ticks = append(ticks, plot.Tick{Value: float64(g), Label: fmt.Sprint(g)})
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Value < ticks[j].Value })
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = ticks[0].Value-0.5, ticks[len(ticks)-1].Value+0.5
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	S := len(sm.Manifest.Strategies)
	for s, name := range sm.Manifest.Strategies {
		var xys plotter.XYs
		for _, q := range pts {
			r := sm.Row(q.c, s)
			if r.Trials == 0 {
				continue
			}
			// a small offset per strategy keeps equal densities apart
			off := (float64(s) - float64(S-1)/2) * 0.012
			xys = append(xys, plotter.XY{X: float64(q.g), Y: r.Density + off})
		}
		if len(xys) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(xys)
		if err != nil {
			continue
		}
		l.Color = plotutil.Color(s)
		l.Dashes = plotutil.Dashes(s)
		sc.GlyphStyle.Color = plotutil.Color(s)
		sc.GlyphStyle.Shape = plotutil.Shape(s)
		sc.GlyphStyle.Radius = vg.Points(3.5)
		p.Add(l, sc)
		p.Legend.Add(name, l, sc)
	}
	return p
}

// paramsLabel is a configuration's label on a plot: its parameters, or
// its entry when it has none.
func paramsLabel(c benchmarks.Config) string {
	if len(c.Args) > 0 {
		return "(" + strings.Join(c.Args, ",") + ")"
	}
	return c.Name
}

// decadeTicks are log-scale ticks labelled 1, 10, 100, 1k, …, 1M, 10M.
type decadeTicks struct{}

// Ticks returns the ticks of plot.LogTicks with short labels.
func (decadeTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = shortCount(ts[i].Value)
		}
	}
	return ts
}

// shortCount writes a power of ten the short way: 100, 10k, 1M, 1G.
func shortCount(v float64) string {
	for _, u := range []struct {
		f float64
		s string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.f {
			return strconv.FormatFloat(v/u.f, 'f', -1, 64) + u.s
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
