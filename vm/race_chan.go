package vm

// Channels in the race detector, as the Go runtime annotates them
// (runtime/chan.go: racenotify, racesync, closechan):
//
//   - Each buffer slot of a buffered channel is a synchronization object.
//     The kth send and the kth receive use slot k mod C, and every
//     operation on a slot acquires the slot's clock and releases into it.
//     So the kth send is ordered before the kth receive completes, and the
//     kth receive before the (k+C)th send completes (a channel of capacity C
//     used as a counting semaphore orders its critical sections). Slot
//     clocks accumulate (as the runtime does for channels of zero-size
//     elements): operations on one slot form a happens-before chain in the
//     memory model, so accumulation adds no edge the model lacks.
//   - An unbuffered send and receive meet: both goroutines exchange clocks
//     through slot 0 (a send is ordered before the receive completes, the
//     receive before the send completes).
//   - close writes the channel (a send or close not ordered with it is a
//     race, as a send reads the channel) and releases the channel's own
//     clock; every receive that returns because the channel is closed —
//     parked before the close (woken by it) or arriving after — acquires it,
//     and so do senders woken by the close (they panic).

// slotClock returns the clock of buffer slot i (slot 0 for unbuffered
// channels).
func (c *chanData) slotClock(i int) vclock {
	if i < len(c.slots) {
		return c.slots[i]
	}
	return nil
}

// setSlotClock replaces the clock of slot i. Slot slices are immutable
// (shared by the states a channel was copied to): a write copies.
func (c *chanData) setSlotClock(i int, vc vclock) {
	n := make([]vclock, max(len(c.slots), i+1))
	copy(n, c.slots)
	n[i] = vc
	c.slots = n
}

// sameClock reports whether a and b are the same clock (the same entries
// in the same memory: clocks are immutable).
func sameClock(a, b vclock) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// slotNotify is racenotify: goroutine g (the running one when partner is 0,
// else the parked partner) acquires slot i's clock and releases its own
// into it.
func (t *thread) slotNotify(obj ObjID, c *chanData, i int, partner int) {
	t.logSync(EvSlot, partner, Pointer{Obj: obj, Off: int32(i)}, 0)
	if !t.raceSyncEnabled() {
		return
	}
	var g *goroutine
	if partner == 0 {
		g = t.g
		t.myClock()
	} else {
		g = t.s.mutG(partner)
		if g.vc == nil {
			g.vc = oneClock(g.id)
		}
	}
	slot := c.slotClock(i)
	joined := g.vc.join(slot, t.s.race)
	// the slot's new clock is slot ⊔ joined, which is joined itself (its
	// entries are the slot's and g's, the retired left out)
	if !sameClock(joined, slot) {
		c.setSlotClock(i, joined)
	}
	g.vc = joined.tick(g.id, t.s.race)
}

// chanRendezvous is racesync: an unbuffered send and receive exchange
// clocks (through slot 0, accumulated), both ways.
func (t *thread) chanRendezvous(obj ObjID, c *chanData, partner int) {
	if !t.raceSyncEnabled() {
		return
	}
	t.slotNotify(obj, c, 0, 0)
	t.slotNotify(obj, c, 0, partner)
	t.slotNotify(obj, c, 0, 0)
}

// chanAccess records the channel operation as an access of the channel
// itself: sends read it, close writes it (Go reports a send racing with
// close). Off -1 is no cell of the object. A timer's send (no frame) is
// the runtime's, not the program's: no access.
func (t *thread) chanAccess(fr *frame, ch Chan, write bool) {
	if fr == nil {
		return
	}
	t.raceAccess(fr, Pointer{Obj: ch.Obj, Off: -1}, 1, write)
}

// raceSlice checks and records an access of the first n elements of sl
// (the backing array's cells: copy, append, string conversions).
func (t *thread) raceSlice(fr *frame, sl Slice, elem *RType, n int, write bool) {
	if n > 0 && sl.Obj != 0 {
		t.raceAccess(fr, Pointer{Obj: sl.Obj, Off: sl.Off}, n*elem.Size, write)
	}
}

// raceMap checks and records an access of map m, one location as in Go's
// detector (lookups and iteration read it; assignments, delete and clear
// write it).
func (t *thread) raceMap(fr *frame, m ObjID, write bool) {
	if m != 0 {
		t.raceAccess(fr, Pointer{Obj: m, Off: -1}, 1, write)
	}
}

// chanAcquireClose orders the close of channel obj before goroutine
// partner (0: the running one), whose receive returns because of it.
func (t *thread) chanAcquireClose(obj ObjID, partner int) {
	if partner == 0 {
		t.raceAcquire(Pointer{Obj: obj})
		return
	}
	t.noteSync(SyncWake, obj, partner)
	t.logSync(EvAcquire, partner, Pointer{Obj: obj}, 0)
	if !t.raceSyncEnabled() {
		return
	}
	g := t.s.mutG(partner)
	if g.vc == nil {
		g.vc = oneClock(g.id)
	}
	g.vc = g.vc.join(t.syncClock(Pointer{Obj: obj}), t.s.race)
}
