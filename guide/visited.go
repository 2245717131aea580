package guide

import "math/bits"

// hashSet is the visited set of the stateful searches: state hashes in
// an open-addressed table of 8-byte slots (linear probing, at most 3/4
// full). A map[uint64]bool takes 16 bytes a slot, and with its groups'
// control words ~36 bytes an entry at 1 M states; this takes 11–21.
type hashSet struct {
	slots []uint64 // 0: empty (the hash 0 is kept in zero)
	shift uint     // 64 - log2(len(slots))
	n     int      // hashes in slots
	zero  bool     // the hash 0 is in the set
}

// hashSetMin is the initial number of slots.
const hashSetMin = 1 << 12

// add inserts h and reports whether it was new.
func (s *hashSet) add(h uint64) bool {
	if h == 0 {
		was := s.zero
		s.zero = true
		return !was
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := s.home(h); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			s.slots[i] = h
			s.n++
			return true
		}
	}
}

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
	if h == 0 {
		return s.zero
	}
	if len(s.slots) == 0 {
		return false
	}
	mask := uint64(len(s.slots) - 1)
	for i := s.home(h); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// home is h's first slot (the high bits of h mixed once more: a state
// hash is well mixed, this guards against one that is not).
func (s *hashSet) home(h uint64) uint64 {
	return (h * 0x9e3779b97f4a7c15) >> s.shift
}

// grow doubles the table (or makes the first one) and reinserts.
func (s *hashSet) grow() {
	old := s.slots
	size := max(2*len(old), hashSetMin)
	s.slots = make([]uint64, size)
	s.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := uint64(size - 1)
	for _, h := range old {
		if h == 0 {
			continue
		}
		i := s.home(h)
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = h
	}
}
