package guide

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestBoundZeroAbstract measures how far bound 0 of a test is from what
// a symmetry reduction could reach (benchmarks/RESULTS.md, session 10):
// GMC_BOUND0_ABSTRACT=DIR:PKG:TEST explores every schedule with no
// preemption (as the bounded search does at bound 0, each state looked
// up) and logs the steps, the distinct visited keys (state hash and the
// preemptible goroutine's rank) and the distinct abstractions — the
// multiset of the goroutines' stacks and status with the preemptible one
// marked, every value left out — which no reduction that keeps goroutine
// positions apart can go below.
func TestBoundZeroAbstract(t *testing.T) {
	spec := strings.SplitN(os.Getenv("GMC_BOUND0_ABSTRACT"), ":", 3)
	if len(spec) != 3 {
		t.Skip("GMC_BOUND0_ABSTRACT=DIR:PKG:TEST not set")
	}
	prog, err := load.Load(load.Config{Dir: spec[0], Patterns: []string{spec[1]}})
	if err != nil {
		t.Fatal(err)
	}
	o, _ := syncOnly(vm.Options{Checks: vm.Checks{Leak: true, Race: true}})
	m := vm.New(prog, o)
	e, err := m.FindEntry(spec[2])
	if err != nil {
		t.Fatal(err)
	}
	se := newSearcher(context.Background(), m, Config{TimeLimit: 2 * time.Minute})
	visited := map[boundKey]bool{}
	abstract := map[string]bool{}
	steps := 0
	var explore func(s *vm.State)
	explore = func(s *vm.State) {
		cs := s.Choices()
		if len(cs) == 0 || s.Err() != nil {
			return
		}
		last := preemptible(s, cs)
		k := boundKey{s.Hash(), -1}
		if last >= 0 {
			k.last = s.GoRank(last)
		}
		if visited[k] {
			return
		}
		visited[k] = true
		var gs []string
		for _, g := range s.Goroutines() {
			d := g.Status + " " + g.Wait
			if g.ID == last {
				d = "* " + d
			}
			for _, f := range g.Stack {
				d += fmt.Sprintf(" %s/%d/%d", f.Func, f.Loc.Block, f.Loc.Index)
			}
			gs = append(gs, d)
		}
		sort.Strings(gs)
		abstract[strings.Join(gs, "\n")] = true
		for i, c := range cs {
			if last >= 0 && c.Kind != vm.ChooseTimer && c.G != last {
				continue // a preemption
			}
			steps++
			explore(se.step(s, i))
		}
	}
	explore(startObserved(m, e, nil))
	t.Logf("%s: bound 0: %d steps, %d distinct keys, %d distinct abstractions", spec[2], steps, len(visited), len(abstract))
}
