package vm

import "fmt"

// The sanity pass (Options.Sanity, for tests, as go/ssa's sanity.go checks
// the functions it builds): after each transition, the invariants that the
// race detector and the scheduler rely on are checked, and a violation
// panics with a SanityError naming the transition. The invariants:
//
//   - clocks only grow: every goroutine's vector clock, and the clock of
//     every synchronization address the transition wrote, is at least what
//     it was before the transition;
//   - a goroutine parked in a channel operation (waitWake, no pending
//     wake) is on exactly one wait queue of one channel, one parked in a
//     select on at least one (one per case at most), one parked in
//     Cond.Wait on exactly one Cond's queue; a goroutine that can run and
//     has no pending wake is on no queue;
//   - no pending timer is due in the past: timers fire when the clock
//     reaches their due time, never later.

// SanityError is a broken invariant of the VM (a bug of gmc, not of the
// program under test).
type SanityError struct{ Msg string }

func (e *SanityError) Error() string { return "vm sanity: " + e.Msg }

// sanity checks the invariants of ns, reached from prev by one transition.
func (ns *State) sanity(prev *State) {
	fail := func(format string, args ...any) {
		panic(&SanityError{Msg: fmt.Sprintf("after %s by goroutine %d at depth %d: ", ns.last.Op, ns.last.G, ns.depth) + fmt.Sprintf(format, args...)})
	}
	for g := range ns.gs.all() {
		if g == nil {
			continue
		}
		if pg := prev.getG(g.id); pg != nil && !pg.vc.leq(g.vc, ns.race) {
			fail("the clock of goroutine %d went back: %v -> %v", g.id, pg.vc, g.vc)
		}
	}
	chanQ, condQ := map[int]int{}, map[int]int{}
	ns.eachObject(func(id ObjID, o *Object) {
		if o.epoch == ns.epoch && len(o.clocks) > 0 {
			if po := prev.heap.get(id); po != nil {
				for off, vc := range po.clocks {
					if !vc.leq(o.clocks[off], ns.race) {
						fail("the clock of synchronization address %d+%d went back", id, off)
					}
				}
			}
		}
		if c := o.Chan; c != nil {
			for _, q := range [][]waiter{c.recvq, c.sendq} {
				for _, w := range q {
					chanQ[w.g]++
				}
			}
		}
		for v := range o.refCells() {
			if q, ok := v.(*condQueue); ok && q != nil {
				for _, id := range q.ids {
					condQ[id]++
				}
			}
		}
	})
	for g := range ns.gs.all() {
		if g == nil || g.wake != nil {
			continue
		}
		n, nc := chanQ[g.id], condQ[g.id]
		switch {
		case g.status != gBlocked:
			if g.status == gRunnable && g.nstate == 0 && (n > 0 || nc > 0) {
				fail("goroutine %d can run but is on %d channel and %d Cond queues", g.id, n, nc)
			}
		case g.wait.kind != waitWake:
		case g.wait.reason == "select":
			if n == 0 {
				fail("goroutine %d is parked in a select on no channel", g.id)
			}
		case g.wait.reason == "sync.Cond.Wait":
			if nc != 1 {
				fail("goroutine %d is parked in Cond.Wait on %d queues", g.id, nc)
			}
		case g.wait.reason == "chan send" || g.wait.reason == "chan receive":
			if n != 1 {
				fail("goroutine %d is parked in %q on %d queues", g.id, g.wait.reason, n)
			}
		}
	}
	for _, tm := range ns.timers {
		if tm.when < ns.clock {
			fail("a timer due at %d is pending at %d", tm.when, ns.clock)
		}
	}
}

// leq reports whether clock v is at most o, pointwise, but for the
// entries of the goroutines r retired (which o may have dropped).
func (v vclock) leq(o vclock, r *raceState) bool {
	for _, e := range v {
		if o.get(e.g) < e.v && !r.isRetired(e.g) {
			return false
		}
	}
	return true
}

// eachObject calls f on every object of the heap.
func (s *State) eachObject(f func(ObjID, *Object)) {
	for ci := range s.heap.numChunks() {
		c := s.heap.chunk(ci)
		if c == nil {
			continue
		}
		for i, o := range c.objs {
			if o != nil {
				f(ObjID(ci<<chunkBits|i), o)
			}
		}
	}
}
