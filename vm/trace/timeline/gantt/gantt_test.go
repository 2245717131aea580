package gantt_test

import (
	"bytes"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/timeline"
	"github.com/gmc-go/gmc/vm/trace/timeline/gantt"
)

// handoff is the timeline of the timeline package's test program (four
// goroutines, channels, a mutex, a WaitGroup, a leak).
func handoff(t *testing.T) *timeline.File {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: filepath.Join("..", "testdata", "handoff")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{RecordSync: true, Checks: vm.Checks{Leak: true}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewBuilder(m, "handoff")
	b.SetInfo("entry", "main")
	final, _, _ := trace.RandomRun(m, e, 1, 10000, b.Observe)
	b.Finish(final, final.Err())
	return b.File()
}

// TestChart: the chart has a labelled row per goroutine, starts where the
// entry starts, and encodes as a PNG of the requested size.
func TestChart(t *testing.T) {
	f := handoff(t)
	start := gantt.EntryStart(f)
	first := -1.0
	for _, e := range f.TraceEvents {
		if e.Ph == "X" && e.Cat == "step" && e.Args["func"] == "main.main" && (first < 0 || e.Ts < first) {
			first = e.Ts
		}
	}
	if start != first || start <= 0 {
		t.Errorf("EntryStart = %v, want %v (the first transition of main.main, after the initializers)", start, first)
	}
	p, w, h, err := gantt.Plot(f, gantt.Options{From: -1})
	if err != nil {
		t.Fatal(err)
	}
	ticks := p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, ","); got != "g1 main.main,g2 main.main.func1,g3 main.main.func2,g4 main.main.func3" {
		t.Errorf("rows %q", got)
	}
	if p.X.Min != start {
		t.Errorf("window starts at %v, want %v", p.X.Min, start)
	}
	var buf bytes.Buffer
	if err := gantt.WritePNG(f, gantt.Options{DPI: 50}, &buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if got, want := img.Bounds().Dx(), int(float64(w/vg.Inch)*50+0.5); got != want {
		t.Errorf("width %d px, want %d", got, want)
	}
	if got, want := img.Bounds().Dy(), int(float64(h/vg.Inch)*50+0.5); got != want {
		t.Errorf("height %d px, want %d", got, want)
	}
	if _, _, _, err := gantt.Plot(&timeline.File{}, gantt.Options{}); err == nil {
		t.Error("a timeline without tracks gave no error")
	}
}
