package main

import "testing"

// TestGCPercentFor: a small live heap gets gcPercent, a middling one the
// headroom of gcHeadroom, a large one GOGC=gcFloor.
func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, gcPercent},
		{20 << 20, gcPercent},
		{80 << 20, 200},
		{160 << 20, 100},
		{200 << 20, 80},
		{320 << 20, gcFloor},
		{2 << 30, gcFloor},
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}
