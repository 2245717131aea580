package vm

import "sort"

// The race detector's part of a state's hash. Two states that differ only
// in their vector clocks and shadows may still differ in the races their
// futures report, so a search that merges states by hash would miss races
// if the hash ignored them. Raw clocks never repeat; what decides every
// future report is, for each remembered access, which clocks cover it
// (clock[a.g] >= a.c): a later access by goroutine g is ordered after a
// exactly when g's clock by then covers a, and every future clock is a
// join of present ones — goroutines', synchronization addresses', channel
// slots', timers' — plus fresh epochs that no remembered access carries (a
// goroutine's current epoch is private: it ticks after every release). So
// the hash takes, for each access of a reachable cell, its goroutine, kind
// and the set of present clocks that cover it, and leaves out accesses
// every goroutine and timer already covers (they can no longer race).

// raceSummary hashes the race detector's state of the objects the walk
// reached, in their canonical order.
func (h *hasher) raceSummary() {
	s := h.s
	var live []vclock           // goroutines in canonical order, then timers in order
	for _, g := range h.order { // as the walk named them
		live = append(live, g.vc)
	}
	for _, tm := range s.timers {
		live = append(live, tm.vc)
	}
	var syncs []vclock // synchronization addresses and channel slots
	for _, id := range h.queue {
		o := s.heap.get(id)
		if len(o.clocks) > 0 {
			offs := make([]int32, 0, len(o.clocks))
			for off := range o.clocks {
				offs = append(offs, off)
			}
			sort.Slice(offs, func(i, j int) bool { return offs[i] < offs[j] })
			for _, off := range offs {
				syncs = append(syncs, o.clocks[off])
			}
		}
		if c := o.Chan; c != nil {
			syncs = append(syncs, c.slots...)
		}
	}
	entry := func(n int, off int32, a access, write bool) {
		all := true
		for _, vc := range live {
			if vc[a.g] < a.c {
				all = false
				break
			}
		}
		if all {
			return
		}
		h.int(int64(n))
		h.int(int64(off))
		h.gid(a.g) // by rank; every ended goroutine alike (it accesses nothing more)
		k := byte(0)
		if write {
			k |= 1
		}
		if a.atomic {
			k |= 2
		}
		h.byte(k)
		for _, group := range [2][]vclock{live, syncs} {
			var bits uint64
			for i, vc := range group {
				if vc[a.g] >= a.c {
					bits |= 1 << (i % 64)
				}
				if i%64 == 63 {
					h.u64(bits)
					bits = 0
				}
			}
			h.u64(bits)
		}
	}
	for n, id := range h.queue {
		o := s.heap.get(id)
		if len(o.shadow) == 0 {
			continue
		}
		offs := make([]int32, 0, len(o.shadow))
		for off := range o.shadow {
			offs = append(offs, off)
		}
		sort.Slice(offs, func(i, j int) bool { return offs[i] < offs[j] })
		for _, off := range offs {
			sh := o.shadow[off]
			if sh.w.c != 0 {
				entry(n+1, off, sh.w, true)
			}
			for _, r := range sh.reads {
				entry(n+1, off, r, false)
			}
		}
	}
}
