// Package gantt draws a timeline (a trace-event file of package timeline)
// as a Gantt chart with gonum/plot, for documents where a trace viewer is
// not at hand.
//
// The chart has one row per goroutine (goroutine 1 at the top, labelled
// with its track name), the virtual time in transitions along the x axis,
// a bar for each running slice, a pale bar for a goroutine blocked until
// the end of the run, a marker per channel, select, lock, unlock,
// WaitGroup and go operation (one marker shape and colour per kind of
// operation, with a legend), a thin arrow per flow (send → receive, unlock
// → lock, go → start), and a red line where the error was found. A window
// [From, To) of transitions can be drawn instead of the whole run; by
// default the chart starts where the entry starts, after the package's
// initialization.
package gantt

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gmc-go/gmc/vm/trace/timeline"
)

// Options choose the window and size of the chart.
type Options struct {
	// From and To bound the window in transitions; To <= From means the
	// end of the run. With From < 0 the window starts at the entry (see
	// EntryStart).
	From, To float64
	// Width of the image (default 10 inches); the height follows from the
	// number of goroutines.
	Width vg.Length
	// DPI of a PNG (default 150).
	DPI int
}

// opKinds are the kinds of operations marked, in legend order: a name, a
// test on the operation, and how the marker looks.
var opKinds = []struct {
	name  string
	match func(op string) bool
	shape draw.GlyphDrawer
	color color.Color
}{
	{"chan send", eq("chan send"), draw.TriangleGlyph{}, color.RGBA{R: 0x1b, G: 0x9e, B: 0x77, A: 0xff}},
	{"chan receive", eq("chan receive"), draw.PyramidGlyph{}, color.RGBA{R: 0xd9, G: 0x5f, B: 0x02, A: 0xff}},
	{"select", eq("select"), draw.CircleGlyph{}, color.RGBA{R: 0x75, G: 0x70, B: 0xb3, A: 0xff}},
	{"chan close", eq("chan close"), draw.CrossGlyph{}, color.RGBA{R: 0xe7, G: 0x29, B: 0x8a, A: 0xff}},
	{"lock", func(op string) bool { return strings.HasSuffix(op, "Lock") && !strings.HasSuffix(op, "Unlock") }, draw.BoxGlyph{}, color.RGBA{R: 0x66, G: 0x66, B: 0x66, A: 0xff}},
	{"unlock", func(op string) bool { return strings.HasSuffix(op, "Unlock") }, draw.SquareGlyph{}, color.RGBA{R: 0x66, G: 0x66, B: 0x66, A: 0xff}},
	{"WaitGroup, Once, Cond", func(op string) bool {
		return strings.HasPrefix(op, "sync.WaitGroup") || strings.HasPrefix(op, "sync.Once") || strings.HasPrefix(op, "sync.Cond")
	}, draw.RingGlyph{}, color.RGBA{R: 0xa6, G: 0x76, B: 0x1d, A: 0xff}},
	{"go", eq("go"), draw.PlusGlyph{}, color.Black},
}

func eq(s string) func(string) bool { return func(op string) bool { return op == s } }

var (
	runColor     = color.RGBA{R: 0x4c, G: 0x78, B: 0xa8, A: 0xff}
	blockedColor = color.RGBA{R: 0xf2, G: 0xb8, B: 0xb5, A: 0xff}
	flowColor    = color.RGBA{R: 0x40, G: 0x40, B: 0x40, A: 0xa0}
	errorColor   = color.RGBA{R: 0xd0, G: 0x10, B: 0x10, A: 0xff}
)

// EntryStart returns the first transition of the entry named in the
// file's otherData ("entry"): the start of its first step slice in a
// function of the entry. It is 0 when there is none.
func EntryStart(f *timeline.File) float64 {
	entry, _ := f.OtherData["entry"].(string)
	if entry == "" {
		return 0
	}
	start := math.Inf(1)
	for _, e := range f.TraceEvents {
		fn, _ := e.Args["func"].(string)
		if e.Ph == "X" && e.Cat == "step" && (strings.HasSuffix(fn, "."+entry) || strings.Contains(fn, "."+entry+".")) {
			start = math.Min(start, e.Ts)
		}
	}
	if math.IsInf(start, 1) {
		return 0
	}
	return start
}

// Plot draws the chart.
func Plot(f *timeline.File, o Options) (*plot.Plot, vg.Length, vg.Length, error) {
	names := map[int]string{}
	title := "timeline"
	end := 0.0
	for _, e := range f.TraceEvents {
		switch {
		case e.Ph == "M" && e.Name == "thread_name":
			names[e.Tid], _ = e.Args["name"].(string)
		case e.Ph == "M" && e.Name == "process_name":
			title, _ = e.Args["name"].(string)
		case e.Ph == "X":
			end = math.Max(end, e.Ts+e.Dur)
		}
	}
	if len(names) == 0 {
		return nil, 0, 0, fmt.Errorf("the timeline has no goroutine tracks")
	}
	from, to := o.From, o.To
	if from < 0 {
		from = EntryStart(f)
	}
	if to <= from {
		to = end
	}
	ids := make([]int, 0, len(names))
	for id := range names {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	row := map[int]float64{}
	var ticks []plot.Tick
	for i, id := range ids {
		row[id] = float64(len(ids) - 1 - i)
		ticks = append(ticks, plot.Tick{Value: row[id], Label: shortName(names[id])})
	}
	in := func(t float64) bool { return t >= from && t <= to }

	p := plot.New()
	p.Title.Text = title
	if msg, ok := f.OtherData["error"].(map[string]any); ok {
		p.Title.Text += "\n" + firstLine(fmt.Sprint(msg["message"]))
	}
	p.X.Label.Text = fmt.Sprintf("transition (virtual time, transitions %.0f-%.0f)", from, to)
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.7, float64(len(ids))-0.3
	p.X.Min = from
	p.X.Max = to + (to-from)*0.28 // room for the legend on the right

	sh := &shapes{}
	var errAt []float64
	marks := make([]plotter.XYs, len(opKinds))
	for _, e := range f.TraceEvents {
		y, ok := row[e.Tid]
		switch {
		case !ok && e.Ph != "i":
		case e.Ph == "X" && e.Cat == "running":
			sh.bar(e.Ts, e.Ts+e.Dur, y, 0.32, runColor, from, to)
		case e.Ph == "X" && e.Cat == "blocked":
			sh.bar(e.Ts, e.Ts+e.Dur, y, 0.2, blockedColor, from, to)
		case e.Ph == "i" && e.Cat == "error":
			errAt = append(errAt, e.Ts)
		case e.Ph == "i" && in(e.Ts):
			for k, ok := range opKinds {
				if ok.match(e.Name) {
					marks[k] = append(marks[k], plotter.XY{X: e.Ts, Y: y})
					break
				}
			}
		}
	}
	starts := map[int]timeline.Event{}
	for _, e := range f.TraceEvents {
		switch e.Ph {
		case "s":
			starts[e.ID] = e
		case "f":
			s, ok := starts[e.ID]
			if ok && in(s.Ts) && in(e.Ts) {
				sh.arrow(s.Ts, row[s.Tid], e.Ts, row[e.Tid])
			}
		}
	}
	for _, t := range errAt {
		if in(t) {
			sh.vline(t, -0.5, float64(len(ids))-0.5)
		}
	}
	p.Add(sh)
	for k, xys := range marks {
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, 0, 0, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Shape: opKinds[k].shape, Color: opKinds[k].color, Radius: vg.Points(3.5)}
		p.Add(sc)
		p.Legend.Add(opKinds[k].name, sc)
	}
	p.Legend.Top = true
	p.Legend.Left = false
	w := o.Width
	if w == 0 {
		w = 10 * vg.Inch
	}
	h := vg.Length(len(ids))*0.42*vg.Inch + 1.6*vg.Inch
	return p, w, h, nil
}

// WritePNG draws the chart as a PNG image to w.
func WritePNG(f *timeline.File, o Options, w io.Writer) error {
	p, wd, ht, err := Plot(f, o)
	if err != nil {
		return err
	}
	dpi := o.DPI
	if dpi == 0 {
		dpi = 150
	}
	c := vgimg.NewWith(vgimg.UseWH(wd, ht), vgimg.UseDPI(dpi))
	p.Draw(draw.New(c))
	_, err = vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}

// shortName turns "goroutine 3 [main.f.func1]" into "g3 main.f.func1".
func shortName(track string) string {
	var id int
	var rest string
	if n, _ := fmt.Sscanf(track, "goroutine %d", &id); n == 1 {
		if i := strings.IndexByte(track, '['); i >= 0 {
			rest = " " + strings.TrimSuffix(track[i+1:], "]")
		}
		return fmt.Sprintf("g%d%s", id, rest)
	}
	return track
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }
