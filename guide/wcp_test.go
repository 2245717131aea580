package guide

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/loc"
	"golang.org/x/tools/go/ssa"
)

// TestWCPRaces runs the WCP analysis over hand-written runs (the
// examples of Kini, Mathur and Viswanathan's rules, and Go's hard
// orderings) and checks which pairs of accesses it finds racing.
func TestWCPRaces(t *testing.T) {
	fn := &ssa.Function{}
	at := func(i int) loc.Loc { return loc.Loc{Fn: fn, Index: i} }
	const l, m, x, y, ch = 100, 101, 1, 2, 200
	lock := func(g int32, id vm.ObjID) vm.Event {
		return vm.Event{Kind: vm.EvLock, Mode: vm.LockWrite, G: g, Obj: id}
	}
	unlock := func(g int32, id vm.ObjID) vm.Event {
		return vm.Event{Kind: vm.EvUnlock, Mode: vm.LockWrite, G: g, Obj: id}
	}
	rlock := func(g int32, id vm.ObjID) vm.Event {
		return vm.Event{Kind: vm.EvLock, Mode: vm.LockRead, G: g, Obj: id}
	}
	runlock := func(g int32, id vm.ObjID) vm.Event {
		return vm.Event{Kind: vm.EvUnlock, Mode: vm.LockRead, G: g, Obj: id}
	}
	acc := func(k vm.EventKind, g int32, cell vm.ObjID, site int) vm.Event {
		return vm.Event{Kind: k, G: g, N: 1, Obj: cell, At: at(site)}
	}
	wr := func(g int32, cell vm.ObjID, site int) vm.Event { return acc(vm.EvWrite, g, cell, site) }
	rd := func(g int32, cell vm.ObjID, site int) vm.Event { return acc(vm.EvRead, g, cell, site) }
	gostmt := vm.Event{Kind: vm.EvGo, G: 1, Peer: 2}
	cases := []struct {
		name string
		evs  []vm.Event
		want [][2]int // the sites of each race, earlier first
	}{
		{"unsynchronized", []vm.Event{gostmt, wr(1, x, 1), rd(2, x, 2)}, [][2]int{{1, 2}}},
		{"go statement orders", []vm.Event{wr(1, x, 1), gostmt, rd(2, x, 2)}, nil},
		// two critical sections of l that do not conflict: happens-before
		// orders the write before the read through l, WCP does not
		{"classic", []vm.Event{gostmt, wr(1, x, 1), lock(1, l), wr(1, y, 3), unlock(1, l),
			lock(2, l), rd(2, 9, 4), unlock(2, l), rd(2, x, 2)}, [][2]int{{1, 2}}},
		// rule (a): the critical sections conflict on y
		{"conflicting sections", []vm.Event{gostmt, wr(1, x, 1), lock(1, l), wr(1, y, 3), unlock(1, l),
			lock(2, l), rd(2, y, 4), unlock(2, l), rd(2, x, 2)}, nil},
		// rule (b): goroutine 1's section of l holds a section of m whose
		// write goroutine 3 reads in its own section of m before it
		// releases s, which goroutine 2 acquires inside its section of l:
		// so goroutine 1's acquisition of l is ordered before goroutine
		// 2's release of it, and goroutine 1's release before goroutine
		// 2's (rule (b)), and the write of x inside the first section
		// before the read after the second
		{"rule b", []vm.Event{gostmt, {Kind: vm.EvGo, G: 1, Peer: 3},
			lock(1, l), lock(1, m), wr(1, y, 3), unlock(1, m), wr(1, x, 1), unlock(1, l),
			lock(3, m), rd(3, y, 4), unlock(3, m), {Kind: vm.EvRelease, G: 3, Obj: 300},
			lock(2, l), {Kind: vm.EvAcquire, G: 2, Obj: 300}, unlock(2, l), rd(2, x, 2)}, nil},
		// a channel is a hard ordering: send before the receive completes
		{"channel", []vm.Event{gostmt, wr(1, x, 1), lock(1, l), unlock(1, l),
			vm.Event{Kind: vm.EvSlot, G: 1, Obj: ch}, lock(2, l), unlock(2, l),
			vm.Event{Kind: vm.EvSlot, G: 2, Obj: ch}, rd(2, x, 2)}, nil},
		// read sections of an RWMutex never order each other, even when
		// they read the same cell
		{"read sections", []vm.Event{gostmt, wr(1, x, 1), rlock(1, l), rd(1, y, 3), runlock(1, l),
			rlock(2, l), rd(2, y, 4), runlock(2, l), rd(2, x, 2)}, [][2]int{{1, 2}}},
		// two atomic accesses never race; an atomic and a plain one do
		{"atomics", []vm.Event{gostmt, acc(vm.EvAtomicWrite, 1, x, 1), acc(vm.EvAtomicRead, 2, x, 2),
			wr(2, x, 5)}, [][2]int{{1, 5}}},
		// a WaitGroup-like release and acquire orders
		{"release acquire", []vm.Event{gostmt, wr(2, x, 2), vm.Event{Kind: vm.EvRelease, G: 2, Obj: 300},
			vm.Event{Kind: vm.EvAcquire, G: 1, Obj: 300}, wr(1, x, 1)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := wcpRaces(c.evs, 10)
			if len(got) != len(c.want) {
				var sites [][2]int
				for _, r := range got {
					sites = append(sites, [2]int{r[0].At.Index, r[1].At.Index})
				}
				t.Fatalf("races between sites %v, want %v", sites, c.want)
			}
			for i, r := range got {
				if r[0].At.Index != c.want[i][0] || r[1].At.Index != c.want[i][1] {
					t.Errorf("race %d between sites %d and %d, want %v", i, r[0].At.Index, r[1].At.Index, c.want[i])
				}
			}
		})
	}
}

// TestRunSignature: a run's signature does not depend on how its
// goroutines interleave, on their ids, nor on how many times one repeats
// an event; another location, another kind of event, or one more
// goroutine changes it.
func TestRunSignature(t *testing.T) {
	// (no function: the hashes, and so the test, are the same from run
	// to run)
	at := func(i int) loc.Loc { return loc.Loc{Index: i} }
	wr := func(g int32, site int) vm.Event { return vm.Event{Kind: vm.EvWrite, G: g, N: 1, Obj: 7, At: at(site)} }
	rd := func(g int32, site int) vm.Event { return vm.Event{Kind: vm.EvRead, G: g, N: 1, Obj: 7, At: at(site)} }
	sig := func(evs ...vm.Event) uint64 {
		return runSignature(func(f func(*vm.Event) bool) {
			for i := range evs {
				if !f(&evs[i]) {
					return
				}
			}
		})
	}
	base := sig(wr(1, 1), rd(2, 2), wr(1, 3), rd(2, 4))
	for _, c := range []struct {
		name string
		same bool
		s    uint64
	}{
		{"interleaved otherwise", true, sig(rd(2, 2), wr(1, 1), rd(2, 4), wr(1, 3))},
		{"other goroutine ids", true, sig(wr(5, 1), rd(9, 2), wr(5, 3), rd(9, 4))},
		{"a loop once more", true, sig(wr(1, 1), rd(2, 2), wr(1, 3), wr(1, 3), rd(2, 4))},
		{"another location", false, sig(wr(1, 1), rd(2, 2), wr(1, 5), rd(2, 4))},
		{"a read for a write", false, sig(wr(1, 1), rd(2, 2), rd(1, 3), rd(2, 4))},
		{"one more goroutine", false, sig(wr(1, 1), rd(2, 2), wr(1, 3), rd(2, 4), rd(3, 2))},
		{"swapped between goroutines", false, sig(wr(1, 1), rd(2, 2), rd(1, 4), wr(2, 3))},
	} {
		if (c.s == base) != c.same {
			t.Errorf("%s: same signature %v, want %v", c.name, c.s == base, c.same)
		}
	}
}
