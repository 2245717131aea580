package guide

import (
	"math/rand/v2"
	"testing"
)

// TestHashSet checks the visited set against a map: random hashes,
// repeats, the hash 0, and clustered hashes (probing
// and growth).
func TestHashSet(t *testing.T) {
	var s hashSet
	want := map[uint64]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	check := func(h uint64) {
		added := s.add(h)
		if added == want[h] {
			t.Fatalf("add(%#x) = %v with the hash %s", h, added, map[bool]string{true: "present", false: "absent"}[want[h]])
		}
		want[h] = true
	}
	for i := 0; i < 20000; i++ {
		switch i % 4 {
		case 0, 1:
			check(r.Uint64())
		case 2: // a hash seen before, or 0
			check(uint64(r.IntN(50)))
		case 3: // hashes that differ only in their top bits
			check(uint64(r.IntN(8)) << 60)
		}
	}
	for h := range want {
		if !s.has(h) {
			t.Fatalf("has(%#x) = false after add", h)
		}
	}
	for i := 0; i < 1000; i++ {
		h := r.Uint64()
		if s.has(h) != want[h] {
			t.Fatalf("has(%#x) = %v, want %v", h, s.has(h), want[h])
		}
	}
	if got := s.n + map[bool]int{true: 1}[s.zero]; got != len(want) {
		t.Fatalf("%d hashes in the set, want %d", got, len(want))
	}
}
