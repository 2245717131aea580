package vm_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestSpinAdvancesTime: a goroutine that spins while the others sleep
// lets virtual time advance, so the program ends under every schedule.
func TestSpinAdvancesTime(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "spin")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"select", "gosched", "mutex", "mutexes", "clock"} {
		t.Run(c, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Args: []string{c}, Checks: vm.Checks{Leak: true}, Sanity: true})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			for seed := uint64(1); seed <= 5; seed++ {
				s, _, _ := trace.RandomRun(m, e, seed, 100000, nil)
				if err := s.Err(); err != nil || !s.Exited() {
					t.Fatalf("seed %d: got %s (exited %v) at depth %d, want a normal exit", seed, errString(err), s.Exited(), s.Depth())
				}
				if got := s.Output(0); got != c+"\n" {
					t.Fatalf("seed %d: output %q, want %q", seed, got, c+"\n")
				}
			}
		})
	}
}

// TestTimerChoice: with Options.TimerChoice (--timing any) a pending
// timer can fire while goroutines run (the search finds the panic);
// without it, only when every goroutine is blocked or spins: a 1ns timer
// does not fire within a loop that never blocks, and a minute's timer does
// not fire within a loop that takes a select's default on each iteration
// while it works, nor when it also reads the clock there (no schedule
// panics).
func TestTimerChoice(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "spin")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"afterfunc", "pollonce", "stamponce"} {
		for _, choice := range []bool{false, true} {
			m := vm.New(prog, vm.Options{Args: []string{c}, TimerChoice: choice})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.DFS, MaxStates: 100000})
			want := guide.VerdictNoError
			if choice {
				want = guide.VerdictError
			}
			if res.Verdict != want {
				t.Errorf("%s, TimerChoice %v: verdict %s, want %s", c, choice, res.Verdict, want)
			}
			if choice && res.Final != nil && res.Final.Err().Kind != vm.KindPanic {
				t.Errorf("%s, TimerChoice: error %s, want the panic", c, errString(res.Final.Err()))
			}
		}
	}
}

// TestTimerChoiceDepth: with Options.TimerChoiceDepth (a race flip's
// set-up) a pending timer may fire as a choice in the states of depth
// below it only: the 1ns timer of afterfunc is a choice in the loop's
// first states and none after, and the search finds the panic only when
// the depth reaches into the loop.
func TestTimerChoiceDepth(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "spin")})
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{0, 1, 1 << 20} {
		m := vm.New(prog, vm.Options{Args: []string{"afterfunc"}, TimerChoiceDepth: depth})
		e, err := m.FindEntry("main")
		if err != nil {
			t.Fatal(err)
		}
		offered := 0
		s := m.Start(e)
		for s.Err() == nil && !s.Exited() {
			j := 0
			for i, c := range s.Choices() {
				if c.Kind == vm.ChooseTimer {
					if s.Depth() >= depth {
						t.Fatalf("depth limit %d: a timer choice at depth %d", depth, s.Depth())
					}
					offered++
				} else if j == 0 {
					j = i
				}
			}
			s = m.Step(s, j)
		}
		if depth > 1 && offered == 0 {
			t.Errorf("depth limit %d: no timer choice offered", depth)
		}
		res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.DFS, MaxStates: 100000})
		want := guide.VerdictNoError
		if depth > 1 {
			want = guide.VerdictError
		}
		if res.Verdict != want {
			t.Errorf("depth limit %d: verdict %s, want %s", depth, res.Verdict, want)
		}
	}
}

// TestTickerKeptHang: main blocked forever while only a ticker fires, or
// while a goroutine handles every tick, is a hang (it used to loop forever
// inside one transition, or to run until the search's bounds); programs
// that wait for ticks or sleep while a ticker runs end normally. Each hang
// replays.
func TestTickerKeptHang(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: filepath.Join("testdata", "tickhang")})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arg, msg string // msg: in the hang's message; "" for no error
	}{
		{"idle", "only tickers fire"},
		{"worker", "blocked forever while the program cycles"},
		{"count", ""},
		{"sleep", ""},
		{"deadline", ""},
	} {
		t.Run(c.arg, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Args: []string{c.arg}, Checks: vm.Checks{Leak: true}, Sanity: true})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 200000})
			var got *vm.Error
			if res.Final != nil {
				got = res.Final.Err()
			}
			if c.msg == "" {
				if res.Verdict != guide.VerdictNoError {
					t.Fatalf("verdict %s %s, want no error", res.Verdict, errString(got))
				}
				return
			}
			if res.Verdict != guide.VerdictError || got.Kind != vm.KindHang || !strings.Contains(got.Msg, c.msg) {
				t.Fatalf("verdict %s %s, want the hang", res.Verdict, errString(got))
			}
			rs, _, err := trace.Replay(m, e, res.Choices, nil)
			if err != nil || errString(rs.Err()) != errString(res.Final.Err()) {
				t.Fatalf("replay: %v %s", err, errString(rs.Err()))
			}
		})
	}
}
