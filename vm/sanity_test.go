package vm

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// TestSanityCatches: the sanity pass reports a clock that went back and a
// goroutine parked in a receive that is on no channel's queue.
func TestSanityCatches(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "race", "chanhandoff")})
	if err != nil {
		t.Fatal(err)
	}
	m := New(prog, Options{Checks: Checks{Race: true}, Sanity: true})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s := m.Start(e)
	var parked *goroutine
	for i := 0; i < 100 && parked == nil && !s.Terminal(); i++ {
		s = m.Step(s, 0) // the main goroutine runs until it parks in <-ch
		for g := range s.gs.all() {
			if g != nil && g.status == gBlocked && g.wait.reason == "chan receive" {
				parked = g
			}
		}
	}
	if parked == nil {
		t.Fatal("no goroutine parked in a receive")
	}
	expectSanityPanic(t, "clock", func() {
		prev := s.thaw()
		prev.mutG(parked.id).vc = vclock{{parked.id, 1 << 40}}
		s.sanity(prev)
	})
	expectSanityPanic(t, "queue", func() {
		ns := s.thaw()
		ns.eachObject(func(id ObjID, o *Object) {
			if o.Chan != nil && len(o.Chan.recvq) > 0 {
				ns.heap.mut(id, ns.epoch).Chan.recvq = nil
			}
		})
		ns.sanity(s)
	})
	s.sanity(s) // and the state itself is sane
}

func expectSanityPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		var se *SanityError
		if r := recover(); r == nil {
			t.Errorf("%s: no sanity error", what)
		} else if err, ok := r.(error); !ok || !errors.As(err, &se) {
			t.Errorf("%s: panic %v, want a *SanityError", what, r)
		}
	}()
	f()
}
