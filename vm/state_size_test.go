package vm

import (
	"testing"
	"unsafe"
)

// TestStateSize keeps a State within 512 bytes: Step allocates one at every
// transition, and 512 is the largest size class whose objects need no
// malloc header (at 528 bytes a State took 576 and a header: a stateful
// DFS allocated 3 % more bytes a state). A new field belongs with the
// packed flags at the end of State, or in a structure transitions share.
func TestStateSize(t *testing.T) {
	if n := unsafe.Sizeof(State{}); n > 512 {
		t.Errorf("State is %d bytes, more than 512 (see state.go's packed fields)", n)
	}
}
