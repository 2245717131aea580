package trace

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// TestChoicesOf: the range of a goroutine's choices, with and without a
// timer choice (goroutine 0) at the end.
func TestChoicesOf(t *testing.T) {
	cases := []struct {
		gids   []int32
		g      int
		lo, hi int
	}{
		{[]int32{1, 2, 3, 4, 5, 0}, 5, 4, 5},
		{[]int32{1, 2, 2, 2, 5, 0}, 2, 1, 4},
		{[]int32{1, 2, 3}, 3, 2, 3},
		{[]int32{1, 3, 0}, 2, 1, 1},
		{[]int32{1, 3, 0}, 0, 0, 0},
		{[]int32{4, 4}, 4, 0, 2},
	}
	for _, c := range cases {
		if lo, hi := choicesOf(c.gids, c.g); lo != c.lo || hi != c.hi {
			t.Errorf("choicesOf(%v, %d) = %d, %d; want %d, %d", c.gids, c.g, lo, hi, c.lo, c.hi)
		}
	}
}

// pingPong loads the VM's ping-pong test program (three exchanges).
func pingPong(t *testing.T) (*vm.Machine, vm.Entry) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: filepath.Join("..", "testdata", "pingpong")})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{Args: []string{"3"}})
	e, err := m.FindEntry("")
	if err != nil {
		t.Fatal(err)
	}
	return m, e
}

// TestStickyWalkRunNext: in the ping-pong program, a go statement makes the
// new goroutine runnext, a send that wakes the receiver makes it runnext,
// and running a goroutine clears it; a sticky walk ends the program.
func TestStickyWalkRunNext(t *testing.T) {
	m, e := pingPong(t)
	var sawGo, sawWake bool
	prev := 0
	s, _, _ := Walk(m, e, WalkConfig{Seed: 1, MaxDepth: 10000, Stay: 0.9}, func(s *vm.State) {
		last := s.LastStep()
		if last.G == prev && prev != 0 && s.RunNext() == prev {
			t.Errorf("runnext goroutine %d ran but is still runnext", prev)
		}
		switch rn := s.RunNext(); {
		case last.Op == "go":
			sawGo = true
			if ids := s.GoroutineIDs(); rn != ids[len(ids)-1] {
				t.Errorf("after a go statement runnext is %d, want the new goroutine %d", rn, ids[len(ids)-1])
			}
		case last.Op == "chan send" && rn != 0 && rn != last.G:
			sawWake = true
		}
		prev = s.RunNext()
	})
	if !s.Exited() || s.Err() != nil {
		t.Fatalf("the walk did not end the program: %v", s.Err())
	}
	if !sawGo || !sawWake {
		t.Errorf("saw a go statement %v, a send waking a receiver %v", sawGo, sawWake)
	}
}

// TestNewest: without randomness the newest-first scheduler runs the last
// goroutine on while it can, else the goroutine started last, and ends the
// ping-pong program.
func TestNewest(t *testing.T) {
	m, e := pingPong(t)
	rng := rand.New(rand.NewPCG(1, 2))
	s := m.Start(e)
	var gids []int32
	for s.NumChoices() > 0 {
		gids = s.AppendChoiceGoroutines(gids[:0])
		i := Newest(s, gids, 0, rng)
		want := gids[len(gids)-1]
		if lo, hi := choicesOf(gids, s.LastStep().G); lo < hi {
			want = int32(s.LastStep().G)
		}
		if gids[i] != want {
			t.Fatalf("at depth %d Newest took goroutine %d of %v, want %d", s.Depth(), gids[i], gids, want)
		}
		s = m.Step(s, i)
	}
	if !s.Exited() || s.Err() != nil {
		t.Fatalf("the program did not end: %v", s.Err())
	}
}
