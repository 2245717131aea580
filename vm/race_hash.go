package vm

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"sync/atomic"
	"unsafe"
)

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
// reached, in their canonical order. It allocates nothing once its
// buffers (raceScratch, kept with the walk's numbering table) have grown
// to the state's size: it runs at every state a search hashes.
func (h *hasher) raceSummary() {
	s := h.s
	x := h.raceScratch()
	defer x.done()
	// the live clocks, flattened: the goroutines' in canonical order (as
	// the walk named them; from their summaries), then the timers' in order
	live := x.live[:0]
	for _, sum := range h.sums {
		live = append(live, sum.vc)
	}
	for _, tm := range s.timers {
		live = append(live, tm.vc)
	}
	x.live = live
	// synchronization addresses and channel slots; the objects with
	// accesses to summarize, in canonical order; and for each goroutine
	// that made some (wanted), the latest epoch of its accesses (by id)
	syncs, views, wanted := x.syncs[:0], x.views[:0], x.wanted[:0]
	for _, n := range h.raced { // (in queue order: drain noted them)
		o := s.heap.get(h.queue[n])
		v := s.raceView(o)
		syncs = append(syncs, v.syncs...)
		if len(v.accs) > 0 {
			views = append(views, viewAt{int(n) + 1, v})
			for _, e := range v.latest {
				// (an epoch 0 or a negative goroutine is never left out:
				// nothing covers it, and it names no clock entry)
				if e.g >= 0 && e.c > 0 && !s.race.isRetired(e.g) {
					x.grow(e.g)
					if x.latest[e.g] == 0 {
						wanted = append(wanted, e.g)
					}
					x.latest[e.g] = max(x.latest[e.g], e.c)
				}
			}
		}
	}
	x.syncs, x.views, x.wanted = syncs, views, wanted
	h.work += len(live) + len(syncs)
	if len(views) == 0 {
		s.retire(nil)
		return
	}
	// An access every live clock covers is left out: every live clock
	// has an entry for its goroutine, the least of them at least its
	// epoch (liveMin, by goroutine id; 0: some live clock has none). Each
	// live clock is read once for the goroutines of the accesses (slot:
	// 1 + their index in wanted, by id).
	slot, liveMin, latest := x.slot, x.liveMin, x.latest
	for k, g := range wanted {
		slot[g] = int32(k + 1)
	}
	count, least := reuse(x.count, len(wanted)), reuseDirty(x.least, len(wanted))
	x.count, x.least = count, least
	for k := range least {
		least[k] = math.MaxUint64
	}
	for _, vc := range live {
		for _, e := range vc {
			if e.g >= 0 && e.g < len(slot) && slot[e.g] != 0 && e.v > 0 {
				k := slot[e.g] - 1
				count[k]++
				least[k] = min(least[k], e.v)
			}
		}
	}
	// the goroutines of the other accesses (rest) are those whose latest
	// access is not covered so; the clocks that cover their accesses are
	// listed for them only (want), the synchronization clocks (as many as
	// the slots of every channel buffer) read only for them
	rest := x.rest[:0]
	for k, g := range wanted {
		slot[g] = 0
		if count[k] == len(live) {
			liveMin[g] = least[k]
		}
		if !covered(liveMin, g, latest[g]) {
			rest = append(rest, g)
		}
	}
	x.rest = rest
	s.retire(rest)
	if len(rest) == 0 {
		return
	}
	sort.Ints(rest)
	// want[k] lists the clocks (index: live, then syncs) with a nonzero
	// entry for rest[k] (slot: 1 + k, by id)
	for len(x.want) < len(rest) {
		x.want = append(x.want, nil)
	}
	want := x.want[:len(rest)]
	for k, g := range rest {
		slot[g] = int32(k + 1)
		want[k] = want[k][:0]
	}
	for i, vc := range live {
		for _, e := range vc {
			if e.g >= 0 && e.g < len(slot) && slot[e.g] != 0 && e.v > 0 {
				k := slot[e.g] - 1
				want[k] = append(want[k], clockEntry{int32(i), e.v})
			}
		}
	}
	for i, vc := range syncs {
		at := int32(len(live) + i)
		for _, e := range vc { // (none for most slots of a large channel buffer)
			if e.v > 0 && e.g >= 0 && e.g < len(slot) && slot[e.g] != 0 {
				k := slot[e.g] - 1
				want[k] = append(want[k], clockEntry{at, e.v})
			}
		}
	}
	// the covering clocks of an access depend only on its goroutine and
	// epoch: each distinct pair is summarized once, as the bitmap of the
	// clocks (live, then syncs) that cover it and a digest of it (an
	// access of a goroutine outside rest has none: no clock names it)
	// (memos[k]: rest[k]'s first few epochs, scanned; the others in memo)
	for len(x.memos) < len(rest) {
		x.memos = append(x.memos, nil)
	}
	memos := x.memos[:len(rest)]
	for k := range memos {
		memos[k] = memos[k][:0]
	}
	nl := int32(len(live))
	liveWords, syncWords := len(live)/64+1, len(syncs)/64+1
	var none *cover // the cover of an access no clock covers
	coverOf := func(a epochAccess) cover {
		k := -1
		if a.g >= 0 && a.g < len(slot) && slot[a.g] != 0 {
			k = int(slot[a.g] - 1)
		}
		if k < 0 {
			if none == nil {
				words := x.bitmap(liveWords + syncWords)
				d := hasher{h: fnvOffset}
				for _, w := range words {
					d.u64(w)
				}
				none = &cover{words, d.h}
			}
			return *none
		}
		for _, m := range memos[k] {
			if m.c == a.c {
				return m.cv
			}
		}
		full := len(memos[k]) == maxScanned
		if full {
			if cv, ok := x.memo[epochOf{a.g, a.c}]; ok {
				return cv
			}
		}
		words := x.bitmap(liveWords + syncWords)
		for _, e := range want[k] {
			if e.v >= a.c {
				if e.i < nl {
					words[e.i/64] |= 1 << (e.i % 64)
				} else {
					i := e.i - nl
					words[int32(liveWords)+i/64] |= 1 << (i % 64)
				}
			}
		}
		d := hasher{h: fnvOffset}
		for _, w := range words {
			d.u64(w)
		}
		cv := cover{words, d.h}
		if full {
			if x.memo == nil {
				x.memo = map[epochOf]cover{}
			}
			x.memo[epochOf{a.g, a.c}] = cv
		} else {
			memos[k] = append(memos[k], epochCover{a.c, cv})
		}
		return cv
	}
	reads := x.reads[:0]
	defer func() { x.reads = reads[:0] }()
	for _, va := range views {
		accs := va.v.accs
		// the goroutine alone that reaches the object: what its clock
		// covers is covered (race_owner.go)
		var ownerVC vclock
		if k := h.own.owner(va.n - 1); k >= 0 {
			ownerVC = h.order[k].vc
		}
		for i := 0; i < len(accs); {
			// one cell's (or run's) accesses: its write, then its reads
			j := i + 1
			for j < len(accs) && accs[j].off == accs[i].off && accs[j].run == accs[i].run {
				j++
			}
			reads = reads[:0]
			var w *coveredRead
			for k := i; k < j; k++ {
				r := &accs[k]
				a := &r.a
				if a.c == 0 || s.race.isRetired(a.g) || covered(liveMin, a.g, a.c) || (ownerVC != nil && ownerVC.get(a.g) >= a.c) {
					continue // every goroutine and timer covers it, or the owner
				}
				cv := coverOf(*a)
				if r.write {
					h.int(int64(va.n))
					h.int(int64(r.off))
					h.int(int64(r.run))
					h.gid(a.g) // by rank; every ended goroutine alike (it accesses nothing more)
					k := byte(1)
					if a.atomic {
						k |= 2
					}
					h.byte(k)
					h.u64(cv.digest)
					x.write = coveredRead{cv.words, cv.digest, a.atomic}
					w = &x.write
					continue
				}
				reads = append(reads, coveredRead{cv.words, cv.digest, a.atomic})
			}
			x.minimal = minimalReads(reads, w, x.minimal[:0])
			for _, r := range x.minimal {
				h.int(int64(va.n))
				h.int(int64(accs[i].off))
				h.int(int64(accs[i].run))
				k := byte(0)
				if r.atomic {
					k |= 2
				}
				h.byte(k)
				h.u64(r.digest)
			}
			i = j
		}
	}
}

// retire retires the ended goroutines (raceState) that have made no
// remembered access of a reachable object that some live goroutine's or
// pending timer's clock does not cover: those not in rest, the goroutines
// of such accesses, which raceSummary found (ascending).
func (s *State) retire(rest []int) {
	r := s.race
	if s.nextG <= 1 {
		return
	}
	words := (s.nextG + 63) / 64
	var bits []uint64
	for g := range s.gs.all() { // the live goroutines stay
		if bits == nil {
			bits = make([]uint64, words)
		}
		bits[g.id/64] |= 1 << (g.id % 64)
	}
	if bits == nil {
		bits = make([]uint64, words)
	}
	for _, g := range rest {
		if g >= 0 && g < s.nextG {
			bits[g/64] |= 1 << (g % 64)
		}
	}
	bits[0] |= 1 // (no goroutine 0)
	changed := r.upTo != s.nextG
	for i := range bits {
		var old uint64
		if i < len(r.retired) {
			old = r.retired[i]
		}
		stay := bits[i]
		if i == words-1 && s.nextG%64 != 0 {
			stay |= ^uint64(0) << (s.nextG % 64) // ids not yet given
		}
		bits[i] = old | ^stay
		changed = changed || bits[i] != old
	}
	if changed {
		s.race = &raceState{retired: bits, upTo: s.nextG}
	}
}

// retireEvery is the number of goroutines a run starts between the race
// summaries that maybeRetire makes.
const retireEvery = 64

// maybeRetire makes the race summary of a state whose run has started
// retireEvery goroutines since the last one (raceState): it retires the
// goroutines a hash would, so that clocks stay as small in a run that is
// not hashed as in one that is (errgroup's TestGoLimit: 1,025 workers
// and a random walk's clocks of 200 entries on average, 16 with a
// summary every 64 starts).
func (s *State) maybeRetire() {
	if s.race == nil || s.err != nil || s.exited || s.nextG < s.race.upTo+retireEvery {
		return
	}
	h := s.walk(s.m.hashRoots)
	h.raceSummary()
	h.release()
}

// coveredRead is a remembered access as the race summary sees it: the
// bitmap of the present clocks that cover it (raceSummary), its digest,
// and whether it is atomic.
type coveredRead struct {
	words  []uint64
	digest uint64
	atomic bool
}

// dominates reports whether access a makes remembered read r redundant
// for every future race: a future access that r races with races with a
// too. A future access is ordered after a remembered one exactly when its
// clock (a join of present clocks and fresh epochs) takes in some present
// clock that covers it; so when every clock that covers a covers r, r
// uncovered means a uncovered. And a must conflict with whatever r
// conflicts with: r is read only by writes, a plain r by atomic writes
// too, which an atomic a does not race with.
func (a *coveredRead) dominates(r *coveredRead) bool {
	if !a.atomic || r.atomic {
		for i, x := range a.words {
			if x&^r.words[i] != 0 {
				return false
			}
		}
		return true
	}
	return false
}

// minimalReads appends to out a cell's reads without those
// another read or the cell's write w (nil: none) dominates, one of each
// set of equal ones, sorted by digest: what decides whether a future
// write races with some read of the cell, which is all a read is ever
// checked for (raceCell). Which read it would be, and whose, does not
// matter: the error is the race at the future write, and a read's
// goroutine, while it lives, has a clock among those that cover the read
// (it never races with itself). The reduction keeps the summary exact for
// the future: every transition maps each read's set of covering clocks by
// the same monotone function (a join takes in the clocks it joins, an
// ended goroutine's or freed address's clock drops out, a tick adds an
// epoch no remembered access carries), so a dominated read stays
// dominated; a new read by a goroutine replaces that goroutine's older
// read, which the new one dominates; a write clears the reads or keeps
// those it does not cover, a dominated read only with its dominator.
// vm TestRaceSummaryMinimalReads checks states that differ only in
// dominated reads hash equally and states whose futures race differently
// do not.
func minimalReads(reads []coveredRead, w *coveredRead, out []coveredRead) []coveredRead {
	// (the survivors are found first and only they sorted: a cell read by
	// forty goroutines keeps a few; equal reads are one value, so which
	// of them stays does not change the result)
	from := len(out)
	for i := range reads {
		r := &reads[i]
		if w != nil && w.dominates(r) {
			continue
		}
		dominated := false
		for k := range reads {
			o := &reads[k]
			if k != i && o.dominates(r) && (!r.dominates(o) || k < i) {
				// (of two that dominate each other, the first stays)
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, *r)
		}
	}
	if len(out)-from > 1 {
		slices.SortFunc(out[from:], func(a, b coveredRead) int {
			switch {
			case a.digest != b.digest:
				return cmp.Compare(a.digest, b.digest)
			case a.atomic == b.atomic:
				return 0
			case !a.atomic: // plain first: it dominates the atomic with the same clocks
				return -1
			}
			return 1
		})
	}
	return out
}

// covered reports whether every live clock covers epoch c of goroutine g
// (liveMin: see raceSummary).
func covered(liveMin []uint64, g int, c uint64) bool {
	return g >= 0 && g < len(liveMin) && liveMin[g] >= c
}

// remembered is an access the race summary covers: the cell (the first
// of a run of consecutive cells with equal shadows: a bulk copy or clear,
// summarized once with its length), the access (its goroutine, epoch and
// whether it is atomic: the summary needs no location, and a view
// without pointers costs the collector nothing) and whether it is a
// write.
type remembered struct {
	off   int32
	run   int32
	a     epochAccess
	write bool
}

// epochAccess is what the race summary reads of an access.
type epochAccess struct {
	g      int
	c      uint64
	atomic bool
}

func epochAccessOf(a access) epochAccess { return epochAccess{a.g, a.c, a.atomic} }

// raceView is the race detector's state of one object in the order the
// race summary reads it: the clocks of its synchronization addresses by
// offset, then those of its channel buffer's slots, then the
// remembered accesses of its cells by offset (each cell's write, then its
// reads), and the latest epoch of the accesses of each goroutine that
// made some (0 if all of them are 0).
type raceView struct {
	syncs  []vclock
	accs   []remembered
	latest []epochOf
}

// epochOf is an epoch of goroutine g.
type epochOf struct {
	g int
	c uint64
}

// raceView returns object o's race view, cached in o once o is frozen
// (its epoch is older than the state's: it is copied before any write,
// and the copy starts without one).
func (s *State) raceView(o *Object) *raceView {
	if p := atomic.LoadPointer(&o.race); p != nil {
		return (*raceView)(p)
	}
	v := &raceView{}
	var slots []vclock
	if c := o.Chan; c != nil {
		slots = c.slots
	}
	if len(o.clocks)+len(slots) > 0 {
		v.syncs = make([]vclock, 0, len(o.clocks)+len(slots))
		if len(o.clocks) > 0 {
			offs := make([]int32, 0, len(o.clocks))
			for off := range o.clocks {
				offs = append(offs, off)
			}
			slices.Sort(offs)
			for _, off := range offs {
				v.syncs = append(v.syncs, o.clocks[off])
			}
		}
		v.syncs = append(v.syncs, slots...)
	}
	if o.hasShadow() {
		// (counted first: the view is made for every object a
		// transition wrote, at every state hashed)
		n := 0
		o.shadowRuns(func(_, _ int32, sh *cellShadow) {
			if sh.w.c != 0 {
				n++
			}
			n += len(sh.reads)
		})
		if n > 0 {
			v.accs = make([]remembered, 0, n)
			o.shadowRuns(func(off, run int32, sh *cellShadow) {
				if sh.w.c != 0 {
					v.accs = append(v.accs, remembered{off, run, epochAccessOf(sh.w), true})
				}
				for _, r := range sh.reads {
					v.accs = append(v.accs, remembered{off, run, epochAccessOf(r), false})
				}
			})
			// the latest epoch of each goroutine's accesses: all of them
			// by goroutine, then the greatest of each
			l := make([]epochOf, len(v.accs))
			for i, r := range v.accs {
				l[i] = epochOf{r.a.g, r.a.c}
			}
			slices.SortFunc(l, func(a, b epochOf) int {
				if a.g != b.g {
					return cmp.Compare(a.g, b.g)
				}
				return cmp.Compare(b.c, a.c)
			})
			v.latest = slices.CompactFunc(l, func(a, b epochOf) bool { return a.g == b.g })
		}
	}
	if o.epoch != s.epoch {
		atomic.StorePointer(&o.race, unsafe.Pointer(v))
	}
	return v
}

// shadowRuns calls f on each run of consecutive cells of o's shadow that
// remember the same accesses (sameShadow) and remember some: the offset of
// its first cell, its length and the shadow.
func (o *Object) shadowRuns(f func(off, run int32, sh *cellShadow)) {
	if o.shp != nil {
		sp := o.shp
		for idx := 0; idx < sp.n; {
			if sp.pages[idx>>pageBits] == nil { // (nil shadows)
				idx = (idx>>pageBits + 1) << pageBits
				continue
			}
			sh := sp.get(idx)
			end := idx + 1
			for end < sp.n && sameShadow(sp.get(end), sh) {
				end++
			}
			if sh != nil {
				f(int32(idx-1), int32(end-idx), sh)
			}
			idx = end
		}
		return
	}
	forRuns(o.shadow, f)
}

// forRuns is shadowRuns over a shadow slice.
func forRuns(shadow []*cellShadow, f func(off, run int32, sh *cellShadow)) {
	for idx := 0; idx < len(shadow); {
		sh := shadow[idx]
		end := idx + 1
		for end < len(shadow) && sameShadow(shadow[end], sh) {
			end++
		}
		if sh != nil {
			f(int32(idx-1), int32(end-idx), sh)
		}
		idx = end
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
