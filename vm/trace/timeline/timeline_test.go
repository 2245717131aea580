package timeline_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
	"github.com/gmc-go/gmc/vm/trace/timeline"
)

// build runs testdata/handoff under the seeded random scheduler with the
// leak check and returns its timeline as parsed JSON.
func build(t *testing.T, prog *load.Program, seed uint64) timeline.File {
	t.Helper()
	m := vm.New(prog, vm.Options{RecordSync: true, Checks: vm.Checks{Leak: true}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	b := timeline.NewBuilder(m, "handoff")
	final, _, _ := trace.RandomRun(m, e, seed, 100000, b.Observe)
	if final.Err() == nil || final.Err().Kind != vm.KindLeak {
		t.Fatalf("seed %d: want a leak, got %v", seed, final.Err())
	}
	b.Finish(final, final.Err())
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	var f timeline.File
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatalf("timeline is not JSON: %v", err)
	}
	return f
}

// TestTimeline: under several schedules the timeline has a named track
// per goroutine, well-nested slices on each track, a blocked slice for
// the leaked goroutine, and flows from the send to the receive of both
// channels, from the unlock to the lock, and from each go statement.
func TestTimeline(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "handoff")})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			f := build(t, prog, seed)
			names := map[int]string{}
			slices := map[int][]timeline.Event{}
			flows := map[int][]timeline.Event{}
			blocked := 0
			for _, e := range f.TraceEvents {
				switch e.Ph {
				case "M":
					if e.Name == "thread_name" {
						names[e.Tid] = e.Args["name"].(string)
					}
				case "X":
					slices[e.Tid] = append(slices[e.Tid], e)
					if e.Cat == "blocked" {
						blocked++
					}
				case "s", "f":
					flows[e.ID] = append(flows[e.ID], e)
				}
			}
			for g := 1; g <= 4; g++ {
				if !strings.HasPrefix(names[g], fmt.Sprintf("goroutine %d [main.", g)) {
					t.Errorf("goroutine %d track named %q", g, names[g])
				}
				if len(slices[g]) == 0 {
					t.Errorf("goroutine %d has no slices", g)
				}
			}
			if want := "goroutine 4 [main.main.func3]"; names[4] != want {
				t.Errorf("track 4 named %q, want %q", names[4], want)
			}
			for g, ss := range slices {
				if err := wellNested(ss); err != nil {
					t.Errorf("goroutine %d: %v", g, err)
				}
			}
			if blocked != 1 {
				t.Errorf("%d blocked slices, want 1 (the leaked goroutine)", blocked)
			}
			kinds := map[string]int{}
			for id, fl := range flows {
				if len(fl) != 2 || fl[0].Ph != "s" || fl[1].Ph != "f" || fl[0].Name != fl[1].Name || fl[0].Ts > fl[1].Ts || fl[0].Tid == fl[1].Tid {
					t.Errorf("flow %d is not a start and a later finish on another track: %+v", id, fl)
					continue
				}
				kinds[fl[0].Name]++
			}
			for name, want := range map[string]int{"chan send → chan receive": 2, "go": 3, "sync.Mutex.Unlock → sync.Mutex.Lock": 1} {
				if kinds[name] != want {
					t.Errorf("%d flows %q, want %d (flows: %v)", kinds[name], name, want, kinds)
				}
			}
		})
	}
}

// wellNested reports an error unless any two slices are disjoint or one
// contains the other.
func wellNested(ss []timeline.Event) error {
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].Ts != ss[j].Ts {
			return ss[i].Ts < ss[j].Ts
		}
		return ss[i].Dur > ss[j].Dur
	})
	var stack []timeline.Event
	for _, s := range ss {
		for len(stack) > 0 && stack[len(stack)-1].Ts+stack[len(stack)-1].Dur <= s.Ts {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			if s.Ts+s.Dur > top.Ts+top.Dur {
				return fmt.Errorf("slice %s [%g,%g) overlaps %s [%g,%g)", s.Name, s.Ts, s.Ts+s.Dur, top.Name, top.Ts, top.Ts+top.Dur)
			}
		}
		stack = append(stack, s)
	}
	return nil
}
