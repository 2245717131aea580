package vm

// Objects one goroutine alone reaches, for the race summary
// (race_hash.go). An object that only goroutine X reaches (from its
// frames, through objects no one else reaches) can be accessed next only
// by X, or by a goroutine X hands it to: X stores a reference where the
// other loads it. If that load is ordered after X's store, the other
// goroutine's clock covers everything X's clock covered at the store; if
// it is not, the store and the load are a data race, reported there
// before the object is reached (atomics, channels, sync.Map and the go
// statement order what they hand over). So an access of such an object
// that X's clock covers is covered for every future access, whatever the
// other present clocks say, and the summary leaves it out as it leaves
// out an access every clock covers. The accesses main made to a worker's
// closure before starting it are the common case: which of the other
// workers' clocks cover them records the order in which they were
// started, not a difference in any future.
//
// The walk of the state (hasher.obj, drain) notes, for each object it
// numbers, the goroutine that reached it (the walk hashes the goroutines
// one after another, then the objects they reach in queue order), or
// that more than one reached it, or the globals or a timer did (shared);
// a shared object makes every object it reaches shared (propagated once
// the walk is done, over the references the drain noted).

// owners is the ownership the walk notes, by position in the walk's
// queue: 0 not yet, -1 shared, k+1 the goroutine at position k of the
// canonical order.
type owners struct {
	of    []int32
	cur   int32   // the owner of what the walk hashes now
	at    []int32 // by drained position (from first): where its references start in refs
	first int     // the first position the drain noted
	refs  []int32 // the positions each drained object references, in drain order
	work  []int32 // positions that became shared after the drain noted their references
	drain bool    // the drain is noting references
}

// ownersFor starts the ownership of a walk whose queue holds n objects
// reached from the roots (shared), of which the drain is to take the
// first at position next.
func (t *numbering) ownersFor(n, next int) *owners {
	o := &t.own
	o.of = o.of[:0]
	for range n {
		o.of = append(o.of, -1)
	}
	o.cur, o.first, o.drain = -1, next, false
	o.at, o.refs, o.work = o.at[:0], o.refs[:0], o.work[:0]
	return o
}

// note records a reference to the object at queue position i (fresh: the
// walk numbered it just now) from what the walk hashes now.
func (o *owners) note(i int, fresh bool) {
	switch {
	case fresh:
		o.of = append(o.of, o.cur)
	case o.of[i] != o.cur && o.of[i] != -1:
		o.of[i] = -1
		o.work = append(o.work, int32(i))
	}
	if o.drain {
		o.refs = append(o.refs, int32(i))
	}
}

// drained starts the references of the object at position i.
func (o *owners) drained(i int) {
	o.drain = true
	o.cur = o.of[i]
	o.at = append(o.at, int32(len(o.refs)))
}

// finish propagates sharing to every object a shared one reaches.
func (o *owners) finish() {
	for len(o.work) > 0 {
		i := int(o.work[len(o.work)-1])
		o.work = o.work[:len(o.work)-1]
		k := i - o.first
		if k < 0 || k >= len(o.at) {
			continue // (not drained: reached from nothing else)
		}
		end := len(o.refs)
		if k+1 < len(o.at) {
			end = int(o.at[k+1])
		}
		for _, c := range o.refs[o.at[k]:end] {
			if o.of[c] != -1 {
				o.of[c] = -1
				o.work = append(o.work, c)
			}
		}
	}
}

// owner returns the position in the canonical order of the only
// goroutine that reaches the object at queue position i, or -1.
func (o *owners) owner(i int) int {
	if o == nil || i >= len(o.of) || o.of[i] <= 0 {
		return -1
	}
	return int(o.of[i]) - 1
}
