package vm_test

import (
	"os"
	"testing"
	"time"

	"github.com/gmc-go/gmc/internal/goker"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// highest-id-first walk, the current goroutine continues until it blocks
func TestZZDebug(t *testing.T) {
	name := os.Getenv("ZZ")
	if name == "" {
		t.Skip()
	}
	cases, _ := goker.Cases()
	for _, c := range cases {
		if c.Name != name {
			continue
		}
		prog, err := load.Load(load.Config{Dir: c.Dir})
		if err != nil {
			t.Fatal(err)
		}
		m := vm.New(prog, vm.Options{Checks: vm.Checks{Leak: true}, Sched: vm.SchedSync})
		e, _ := m.FindEntry(c.Func)
		s := m.Start(e)
		start := time.Now()
		var gids []int32
		for d := 0; d < 3000000; d++ {
			gids = s.AppendChoiceGoroutines(gids[:0])
			if len(gids) == 0 {
				break
			}
			i := len(gids) - 1
			if gids[i] == 0 {
				i--
			}
			last := int32(s.LastStep().G)
			for j, g := range gids {
				if g == last && s.LastStep().Op != "runtime.Gosched" {
					i = j
					break
				}
			}
			s = m.Step(s, i)
			if s.Depth()%100000 == 0 {
				t.Logf("depth %d g%d %s %v", s.Depth(), s.LastStep().G, s.LastStep().Op, time.Since(start))
			}
		}
		if err := s.Err(); err != nil {
			t.Logf("end at %d: %s %s %v", s.Depth(), err.Kind, err.Msg, time.Since(start))
			for _, g := range err.Goroutines {
				t.Logf("  %s", goker.LeakLine(g))
			}
		} else {
			t.Logf("end at %d exited %v", s.Depth(), s.Exited())
		}
	}
}
