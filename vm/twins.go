package vm

import "time"

// Twins: goroutines of a state that an automorphism of the state maps onto
// each other.
//
// The hash names goroutines by their place in a canonical order (hash.go)
// in which goroutines with the same summary key (identical workers at the
// same place of the same code, their registers alike up to which objects
// they reference) are neighbours. Such goroutines are only candidates: two
// workers with the same key may still differ in what the rest of the
// state makes of them (their places in a channel's queue of senders, the
// objects they reference, a captured value in their own heap objects),
// and the order the hash breaks their ties in does not tell (the hash is
// sound with any order; it merges fewer states when the order is not the
// best one). Twins decides it exactly: a permutation π of the goroutines
// is an automorphism of state s when the walk of s with the goroutines
// renamed by π — the canonical order with the goroutines π moves put in
// each other's places — hashes as the walk of s does. The walk names
// every object by where it first reaches it and every goroutine by its
// place, so two equal walks are one state described twice: the renaming
// of goroutines by π together with the renaming of objects that maps the
// object numbered n by one walk to the object numbered n by the other
// maps s onto itself (as far as the hash sees a state: the visited sets
// of the searches already rely on it seeing all of it; collisions of the
// 64-bit hash aside). Automorphisms compose, so one walk with the
// goroutines of a run rotated proves, for any two of them, an
// automorphism that maps one to the other and fixes every goroutine
// outside the run (a power of the rotation); a class proved by swaps with
// its first member has the same property (products of those swaps).
//
// What an automorphism π of s preserves: the choices of a goroutine g and
// of π(g) are alike (the same kind, select case and data side); the
// successor of s by g's choice is the successor by π(g)'s, renamed by π;
// every error (a panic, a deadlock, a leak, a race, a failed assertion, a
// target reached) is one of the renamed execution too. So a search may
// explore one choice of each set of twins' alike choices and count the
// others as explored up to renaming; guide's searches decide which, with
// their sleep sets and preemption bounds (guide/symmetric.go). Once the
// program has seen goroutine ids (runtime.Stack's text), ids are part of
// the state and no goroutine has a twin.

// maxTwinWalks bounds the walks Twins spends on a run of candidates that
// is not symmetric as a whole (pairs tried one by one).
const maxTwinWalks = 24

// twinRuns returns the runs of goroutines of s with the same summary key
// in the canonical order (gorder's marks), walking the state again when
// its record was dropped.
func (s *State) twinRuns() [][]int32 {
	s.Hash()
	if s.gorder == nil && s.gs.len() > 0 { // dropped (DropRanks): walk again
		h := s.walk(s.m.hashRoots)
		s.setRanks(h.order, h.sums)
		h.release()
	}
	var runs [][]int32
	for i := 0; i < len(s.gorder); {
		j := i + 1
		for j < len(s.gorder) && s.gorder[j] < 0 {
			j++
		}
		if j-i > 1 {
			run := make([]int32, j-i)
			for k := range run {
				run[k] = max(s.gorder[i+k], -s.gorder[i+k])
			}
			runs = append(runs, run)
		}
		i = j
	}
	return runs
}

// Twins returns the classes of twins among the goroutines of s that have
// a choice and that among accepts (nil: all): for any two goroutines of a
// class (two or more goroutine ids, in the hash's canonical order) an
// automorphism of s maps one to the other and fixes every goroutine
// outside the class (see above). Goroutines in no class have no twin
// there. It costs nothing on a state without candidates (goroutines with
// the same summary key) and about one hash of the state per class of
// candidates otherwise. None once the program has seen goroutine ids,
// nor at a data choice. Past deadline (wall-clock Unix nanoseconds; 0:
// none) it proves no more (fewer twins only leave fewer choices out): a
// state whose hash is large costs tens of milliseconds a proof, and a
// check's bounded search, stopped at the time limit, waited 0.7 s for a
// state's proofs (otter's TestCache_InvariantsAfterConcurrentLoad).
func (s *State) Twins(among func(g int) bool, deadline int64) [][]int {
	if s.idsSeen || s.err != nil || s.exited || s.data != nil && s.data.pending != nil {
		return nil
	}
	hash := s.Hash()
	var classes [][]int
	for _, run := range s.twinRuns() {
		var cand []int
		for _, id := range run {
			if g := s.getG(int(id)); g != nil && s.enabled(g) && (among == nil || among(int(id))) {
				cand = append(cand, int(id))
			}
		}
		classes = append(classes, s.proveTwins(hash, cand, deadline)...)
	}
	return classes
}

// proveTwins splits cand, goroutines with the same summary key in
// canonical order, into classes of twins (see Twins): the whole of it
// when its rotation is an automorphism, else the goroutines a swap with
// the first one proves, then the same with the rest, within maxTwinWalks
// walks, and none past deadline (Twins).
func (s *State) proveTwins(hash uint64, cand []int, deadline int64) [][]int {
	if len(cand) < 2 || past(deadline) {
		return nil
	}
	if s.isAutomorphism(hash, rotationOf(cand)) {
		return [][]int{cand}
	}
	walks := 1
	var classes [][]int
	for len(cand) >= 2 && walks < maxTwinWalks {
		class, rest := []int{cand[0]}, []int(nil)
		for _, g := range cand[1:] {
			walks++
			if walks <= maxTwinWalks && !past(deadline) && s.isAutomorphism(hash, swapOf(cand[0], g)) {
				class = append(class, g)
			} else {
				rest = append(rest, g)
			}
		}
		if len(class) > 1 {
			classes = append(classes, class)
		}
		cand = rest
	}
	return classes
}

// past reports whether the wall-clock deadline (Unix nanoseconds; 0:
// none) has passed.
func past(deadline int64) bool { return deadline != 0 && time.Now().UnixNano() >= deadline }

// swapOf returns the permutation of goroutine ids that swaps a and b.
func swapOf(a, b int) map[int]int { return map[int]int{a: b, b: a} }

// rotationOf returns the permutation that maps each goroutine of ids to
// the next one, and the last to the first.
func rotationOf(ids []int) map[int]int {
	p := make(map[int]int, len(ids))
	for i, g := range ids {
		p[g] = ids[(i+1)%len(ids)]
	}
	return p
}

// isAutomorphism reports whether renaming the goroutines of s by perm
// (goroutine id to goroutine id; the others stay) maps s onto itself:
// whether the walk of s so renamed hashes as s does (hash, s.Hash()).
func (s *State) isAutomorphism(hash uint64, perm map[int]int) bool {
	return s.renamedHash(perm) == hash
}

// renamedHash is Hash of the walk of s with each goroutine g moved to the
// place of perm[g] in the canonical order (perm permutes its keys), the
// race detector's summary and the spin records included.
func (s *State) renamedHash(perm map[int]int) uint64 {
	place := func(gs []*goroutine, sums []*gsum) {
		at := make(map[int]int, len(perm)) // goroutine id → its place
		for i, g := range gs {
			if _, ok := perm[g.id]; ok {
				at[g.id] = i
			}
		}
		moved := make([]*goroutine, len(gs))
		movedSums := make([]*gsum, len(gs))
		for id, to := range perm {
			i, j := at[id], at[to]
			moved[j], movedSums[j] = gs[i], sums[i]
		}
		for _, i := range at {
			gs[i], sums[i] = moved[i], movedSums[i]
		}
	}
	h := s.walkPermuted(s.m.hashRoots, clockWhole, place)
	defer h.release()
	if s.race != nil {
		h.raceSummary()
	}
	c := s.contentHash()
	for g := range s.gs.all() { // as Hash: the goroutines spinning in this very state
		if g.spin != nil && g.spin.spinning && g.spin.fp == c {
			h.gid(g.id)
		}
	}
	return h.h
}
