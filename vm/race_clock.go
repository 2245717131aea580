package vm

// This file holds the race detector's vector clocks (race.go): a
// goroutine's, a synchronization address's, a timer's. A clock is
// immutable once shared: join and tick return a new one.

// vclock is a vector clock: the nonzero logical times of goroutines, by
// goroutine id ascending (a goroutine without an entry is at time 0).
// Immutable: clocks are shared by states and goroutines, and every
// operation returns a new one. A sorted array rather than a map: joins
// are merges, the race summary reads the entries in order as they are,
// and the collector has no pointers to trace in them.
type vclock []clockPair

// clockPair is a clock's entry v for goroutine g.
type clockPair struct {
	g int
	v uint64
}

// get returns v's entry for goroutine g.
func (v vclock) get(g int) uint64 {
	if len(v) <= 16 {
		for _, e := range v {
			if e.g >= g {
				if e.g == g {
					return e.v
				}
				return 0
			}
		}
		return 0
	}
	lo, hi := 0, len(v)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v[m].g < g {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(v) && v[lo].g == g {
		return v[lo].v
	}
	return 0
}

// join returns the least clock above v and o, without the entries of
// the goroutines r retired (see raceState); v itself when o adds nothing.
func (v vclock) join(o vclock, r *raceState) vclock {
	if len(o) == 0 {
		return v
	}
	changed := false
	i := 0
	for _, e := range o {
		for i < len(v) && v[i].g < e.g {
			i++
		}
		if (i == len(v) || v[i].g != e.g || v[i].v < e.v) && !r.isRetired(e.g) {
			changed = true
			break
		}
	}
	if !changed {
		return v
	}
	n := make(vclock, 0, len(v)+len(o))
	i, j := 0, 0
	for i < len(v) || j < len(o) {
		var e clockPair
		switch {
		case j == len(o) || i < len(v) && v[i].g < o[j].g:
			e = v[i]
			i++
		case i == len(v) || o[j].g < v[i].g:
			e = o[j]
			j++
		default:
			e = clockPair{v[i].g, max(v[i].v, o[j].v)}
			i++
			j++
		}
		if !r.isRetired(e.g) {
			n = append(n, e)
		}
	}
	return n
}

// tick returns v with goroutine g's entry one higher, without the
// entries of the goroutines r retired.
func (v vclock) tick(g int, r *raceState) vclock {
	n := make(vclock, 0, len(v)+1)
	done := false
	for _, e := range v {
		if !done && e.g >= g {
			if e.g == g {
				n = append(n, clockPair{g, e.v + 1})
				done = true
				continue
			}
			n = append(n, clockPair{g, 1})
			done = true
		}
		if !r.isRetired(e.g) {
			n = append(n, e)
		}
	}
	if !done {
		n = append(n, clockPair{g, 1})
	}
	return n
}

// oneClock is the clock of a goroutine that has done nothing yet: its own
// entry 1.
func oneClock(g int) vclock { return vclock{{g, 1}} }
