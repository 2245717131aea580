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
	h.work += len(live) + len(syncs)
	// The accesses to summarize, in canonical order, and the goroutines
	// that made them. Consecutive cells with equal shadows (a bulk copy
	// or clear) are one run, summarized once with its length.
	type remembered struct {
		n     int
		off   int32
		run   int32
		a     access
		write bool
	}
	var accs []remembered
	want := map[int][]clockEntry{}
	for n, id := range h.queue {
		o := s.heap.get(id)
		for idx := 0; idx < len(o.shadow); {
			sh := o.shadow[idx]
			end := idx + 1
			for end < len(o.shadow) && sameShadow(o.shadow[end], sh) {
				end++
			}
			if sh != nil {
				off, run := int32(idx-1), int32(end-idx)
				if sh.w.c != 0 {
					accs = append(accs, remembered{n + 1, off, run, sh.w, true})
					want[sh.w.g] = nil
				}
				for _, r := range sh.reads {
					accs = append(accs, remembered{n + 1, off, run, r, false})
					want[r.g] = nil
				}
			}
			idx = end
		}
	}
	if len(accs) == 0 {
		return
	}
	// want[g] lists the clocks (index: live, then syncs) with a nonzero
	// entry for g: each live clock is read once, entry by entry, instead
	// of looking g up in every clock for every access (clocks are small
	// maps; there are thousands of them with thousands of goroutines)
	for i, vc := range live {
		if len(vc) == 0 {
			continue
		}
		for g, v := range vc {
			if l, ok := want[g]; ok && v > 0 {
				want[g] = append(l, clockEntry{int32(i), v})
			}
		}
	}
	// an access every live clock covers is left out; the synchronization
	// clocks (as many as the slots of every channel buffer) are read only
	// for the goroutines of the other accesses
	liveCovers := func(a access) bool {
		n := 0
		for _, e := range want[a.g] {
			if e.v >= a.c {
				n++
			}
		}
		return n == len(live)
	}
	var rest []int // the goroutines of the accesses left in, ascending
	inRest := map[int]bool{}
	for _, r := range accs {
		if r.a.c != 0 && !inRest[r.a.g] && !liveCovers(r.a) {
			inRest[r.a.g] = true
			rest = append(rest, r.a.g)
		}
	}
	if len(rest) == 0 {
		return
	}
	sort.Ints(rest)
	for i, vc := range syncs {
		if len(vc) == 0 {
			continue // (most slots of a large channel buffer)
		}
		at := int32(len(live) + i)
		if len(vc) <= len(rest) {
			for g, v := range vc {
				if v > 0 && inRest[g] {
					want[g] = append(want[g], clockEntry{at, v})
				}
			}
			continue
		}
		for _, g := range rest {
			if v := vc[g]; v > 0 {
				want[g] = append(want[g], clockEntry{at, v})
			}
		}
	}
	// the covering clocks of an access depend only on its goroutine and
	// epoch: each distinct pair is summarized once, as a digest of the
	// bitmaps of the clocks (live, then syncs) that cover it
	type epoch struct {
		g int
		c uint64
	}
	type coverage struct {
		all    bool // every live clock covers it
		digest uint64
	}
	memo := map[epoch]coverage{}
	nl := int32(len(live))
	liveWords, syncWords := len(live)/64+1, len(syncs)/64+1
	words := make([]uint64, liveWords+syncWords)
	covers := func(a access) coverage {
		if cv, ok := memo[epoch{a.g, a.c}]; ok {
			return cv
		}
		clear(words)
		liveCover := 0
		for _, e := range want[a.g] {
			if e.v >= a.c {
				if e.i < nl {
					liveCover++
					words[e.i/64] |= 1 << (e.i % 64)
				} else {
					k := e.i - nl
					words[int32(liveWords)+k/64] |= 1 << (k % 64)
				}
			}
		}
		cv := coverage{all: liveCover == len(live)}
		d := hasher{h: fnvOffset}
		for _, w := range words {
			d.u64(w)
		}
		cv.digest = d.h
		memo[epoch{a.g, a.c}] = cv
		return cv
	}
	for _, r := range accs {
		a := r.a
		if a.c == 0 {
			continue // every clock covers it
		}
		cv := covers(a)
		if cv.all {
			continue // every goroutine and timer covers it
		}
		h.int(int64(r.n))
		h.int(int64(r.off))
		h.int(int64(r.run))
		h.gid(a.g) // by rank; every ended goroutine alike (it accesses nothing more)
		k := byte(0)
		if r.write {
			k |= 1
		}
		if a.atomic {
			k |= 2
		}
		h.byte(k)
		h.u64(cv.digest)
	}
}

// sameShadow reports whether two cells remember the same accesses.
func sameShadow(a, b *cellShadow) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.w != b.w || len(a.reads) != len(b.reads) {
		return false
	}
	for i := range a.reads {
		if a.reads[i] != b.reads[i] {
			return false
		}
	}
	return true
}

// clockEntry is clock i's entry v for some goroutine (raceSummary).
type clockEntry struct {
	i int32
	v uint64
}
