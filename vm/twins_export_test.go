package vm

// HashRenamed is the hash of s with its goroutines renamed by perm
// (goroutine id to goroutine id), for the tests of twins.
func (s *State) HashRenamed(perm map[int]int) uint64 { return s.renamedHash(perm) }

// Unwinding reports whether a goroutine of s unwinds a panic (its frames
// are hashed with their dead registers: hasher.goroutine).
func (s *State) Unwinding() bool {
	for g := range s.gs.all() {
		for f := g.top; f != nil; f = f.caller {
			if f.unwinding {
				return true
			}
		}
	}
	return false
}

// HashMin is the least hash of s over every order of the goroutines of
// each run of the same summary key (at most 5,040 orders; ok false when
// there are more): a canonical form of the state, unlike Hash, whose
// order of twins that tie breaks ties by id. Two states equal up to a
// renaming of goroutines have the same HashMin.
func (s *State) HashMin() (uint64, bool) {
	runs := s.twinRuns()
	n := 1
	for _, r := range runs {
		for k := 2; k <= len(r); k++ {
			n *= k
		}
		if n > 5040 {
			return 0, false
		}
	}
	best, first := uint64(0), true
	perm := map[int]int{}
	var rec func(i int)
	rec = func(i int) {
		if i == len(runs) {
			if h := s.renamedHash(perm); first || h < best {
				best, first = h, false
			}
			return
		}
		r := runs[i]
		ids := make([]int, len(r))
		for k, id := range r {
			ids[k] = int(id)
		}
		permute(ids, 0, func(p []int) {
			for k, id := range r {
				perm[int(id)] = p[k]
			}
			rec(i + 1)
		})
	}
	rec(0)
	return best, true
}

// permute calls f with every order of a[k:] after a[:k].
func permute(a []int, k int, f func([]int)) {
	if k == len(a) {
		f(a)
		return
	}
	for i := k; i < len(a); i++ {
		a[k], a[i] = a[i], a[k]
		permute(a, k+1, f)
		a[k], a[i] = a[i], a[k]
	}
}
