package timeline_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/timeline"
)

// flowPair is the start and the finish of one flow.
type flowPair struct {
	name     string
	from, to float64
	src, dst int
}

func flowPairs(f *timeline.File) []flowPair {
	starts := map[int]timeline.Event{}
	var out []flowPair
	for _, e := range f.TraceEvents {
		switch e.Ph {
		case "s":
			starts[e.ID] = e
		case "f":
			s := starts[e.ID]
			out = append(out, flowPair{name: e.Name, from: s.Ts, to: e.Ts, src: s.Tid, dst: e.Tid})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out
}

// TestPairs: under many schedules, each value through a buffered channel
// (including the one a parked sender hands over when a receive makes
// room) is drawn from its send to the receive that took it, in FIFO
// order; and each select is drawn from the sender whose value it took.
func TestPairs(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "chans")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{RecordSync: true, Sched: vm.SchedSync})
	cases := []struct {
		entry string
		name  string // the flows between goroutines 1 and the others
		n     int
	}{
		{"Buffered", "chan send → chan receive", 4},
		{"Select", "chan send → select", 2},
	}
	for _, c := range cases {
		e, err := m.FindEntry(c.entry)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 20; seed++ {
			t.Run(fmt.Sprint(c.entry, seed), func(t *testing.T) {
				b := timeline.NewBuilder(m, c.entry)
				final, _, _ := trace.RandomRun(m, e, seed, 10000, b.Observe)
				if final.Err() != nil || !final.Exited() {
					t.Fatalf("run ended with %v", final.Err())
				}
				b.Finish(final, nil)
				var got []flowPair
				for _, p := range flowPairs(b.File()) {
					if p.name != "go" {
						got = append(got, p)
					}
				}
				if len(got) != c.n {
					t.Fatalf("%d flows %v, want %d %q", len(got), got, c.n, c.name)
				}
				for i, p := range got {
					if p.name != c.name || p.dst != 1 || p.src == 1 || p.from >= p.to {
						t.Errorf("flow %+v, want %q from a sender to goroutine 1", p, c.name)
					}
					if i > 0 && p.to <= got[i-1].to {
						t.Errorf("flows %+v and %+v cross: values received out of order", got[i-1], p)
					}
				}
			})
		}
	}
}
