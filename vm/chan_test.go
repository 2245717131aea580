package vm_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
)

// TestChanBufferSharing: states that share a channel's buffer (copy on
// write) never see each other's sends. Every interleaving of three sends,
// an early receive and the drain is explored; each output holds two
// distinct values of 1, 2, 3, and all six (ordered) pairs appear.
func TestChanBufferSharing(t *testing.T) {
	m, e := machine(t, "bufchan", vm.Options{Sched: vm.SchedSync})
	outs := map[string]bool{}
	type key struct {
		h   uint64
		out string
	}
	seen := map[key]bool{}
	var walk func(s *vm.State, depth int)
	walk = func(s *vm.State, depth int) {
		if depth > 200 {
			t.Fatal("too deep")
		}
		k := key{s.Hash(), s.Output(0)}
		if seen[k] {
			return
		}
		seen[k] = true
		cs := s.Choices()
		if len(cs) == 0 {
			if err := s.Err(); err != nil {
				t.Fatalf("%s: %s", err.Kind, err.Msg)
			}
			outs[s.Output(0)] = true
			return
		}
		// every successor first, then their subtrees: siblings share the
		// parent's buffer when they send
		var next []*vm.State
		for i := range cs {
			next = append(next, m.Step(s, i))
		}
		for _, n := range next {
			walk(n, depth+1)
		}
	}
	walk(m.Start(e), 0)
	var got []string
	for o := range outs {
		f := strings.Fields(o)
		if len(f) != 2 || f[0] == f[1] || strings.Trim(f[0]+f[1], "123") != "" {
			t.Errorf("output %q: want two distinct values of 1, 2, 3", o)
		}
		got = append(got, o)
	}
	sort.Strings(got)
	if len(got) != 6 {
		t.Errorf("outputs %q, want the 6 ordered pairs", got)
	}
}
