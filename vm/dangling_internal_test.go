package vm

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestDanglingReference: a reference to an object the heap no longer holds
// (left by unsafe pointer arithmetic the VM decoded to a collected
// object: bytedance/gopkg's xxhash3 TestLen17_128 crashed gmc in the leak
// check's walk) neither crashes the state hash nor the leak check: the
// hash names it as dangling, and a transition that reads through it fails
// the run with an internal error naming the location, as other Go panics
// of the interpreter do.
func TestDanglingReference(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/dangling"})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{Checks: Checks{Leak: true, Race: true}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Start(e)
	for s.Err() == nil && len(s.Choices()) > 0 {
		// the objects the globals point to are dropped from the heap, as
		// the VM's collection drops what it finds unreachable
		for _, id := range m.allGlobals {
			for _, c := range s.heap.get(id).Cells {
				if p, ok := c.(Pointer); ok && p.Obj != 0 && s.heap.get(p.Obj) != nil {
					s.heap.mutChunk(int(p.Obj>>chunkBits), s.epoch).objs[p.Obj&(1<<chunkBits-1)] = nil
				}
			}
		}
		s.hashed, s.chashed = false, false
		_ = s.Hash() // (no panic)
		s.checkLeaks()
		s = m.Step(s, 0)
	}
	if err := s.Err(); err == nil || err.Kind != KindInternal || !strings.Contains(err.Msg, "main.go:") {
		t.Fatalf("got %v, want an internal error naming main.go", err)
	}
}
