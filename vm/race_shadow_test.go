package vm

import (
	"runtime"
	"testing"
)

// TestShadowReadsInPlace: a read by a new goroutine appends to the
// cell's read list in place for one successor of a state only (raceCell,
// cellShadow.extended). On testdata/manyreaders, once three readers have
// read flag (a list of three with room for a fourth), two successors of
// that state, each a different reader's read, must each see their own
// fourth read, the state itself still three: an append in place for both
// would give the first the second's read.
func TestShadowReadsInPlace(t *testing.T) {
	m, s := mainBlocked(t, "manyreaders")
	step := func(s *State, g int) *State {
		t.Helper()
		for i, c := range s.Choices() {
			if c.G == g {
				return m.Step(s, i)
			}
		}
		t.Fatalf("goroutine %d cannot run", g)
		return nil
	}
	if s.Err() != nil || s.gs.len() != 7 {
		t.Fatalf("main did not block with six readers: %v, %d goroutines", s.Err(), s.gs.len())
	}
	var readers []int
	for _, g := range s.gs.slice() {
		if g.id != 1 {
			readers = append(readers, g.id)
		}
	}
	// flagReads returns the read list of the one cell the readers read
	flagReads := func(s *State) []access {
		t.Helper()
		var found []access
		n := 0
		for id := ObjID(1); id < s.heap.next; id++ {
			o := s.heap.get(id)
			if o == nil {
				continue
			}
			for _, c := range o.shadow {
				if c != nil && len(c.reads) > 0 && c.reads[0].g != 1 {
					found = c.reads
					n++
				}
			}
		}
		if n != 1 {
			t.Fatalf("%d cells read by the readers, want 1 (flag)", n)
		}
		return found
	}
	for _, g := range readers[:3] {
		s = step(s, g)
	}
	before := flagReads(s)
	if len(before) != 3 || cap(before) <= len(before) {
		t.Fatalf("flag's reads: %d of capacity %d, want 3 with room for a fourth", len(before), cap(before))
	}
	a, b := step(s, readers[3]), step(s, readers[4])
	ra, rb := flagReads(a), flagReads(b)
	if got := flagReads(s); len(got) != 3 {
		t.Errorf("the state's reads changed to %d when its successors read", len(got))
	}
	for _, x := range []struct {
		reads []access
		g     int
	}{{ra, readers[3]}, {rb, readers[4]}} {
		if len(x.reads) != 4 || x.reads[3].g != x.g {
			t.Errorf("a successor where goroutine %d read: reads %v, want the three before and its own", x.g, x.reads)
			continue
		}
		for i := range before {
			if x.reads[i] != before[i] {
				t.Errorf("a successor where goroutine %d read: read %d is %v, was %v", x.g, i, x.reads[i], before[i])
			}
		}
	}
	if &ra[0] != &before[0] || &rb[0] == &before[0] {
		t.Errorf("the first successor's list should extend the state's in place and the second's be a copy")
	}
}

// TestShadowGrowth: a buffer of 60,000 bytes written one byte at a time
// (testdata/bigshadow) grows its shadow geometrically (or, paged, a page
// at a time) and remembers every write. Grown cell by cell
// past maxShadowRoom, each write copied the shadow: 14 GB allocated for
// this loop (x/sync's singleflight TestPanicErrorUnwrap, debug.Stack's
// buffer: milliseconds a state).
func TestShadowGrowth(t *testing.T) {
	m, s := mainStarted(t, "bigshadow")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s = runMain(m, s)
	runtime.ReadMemStats(&after)
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	var shadow int
	for id := ObjID(1); id < s.heap.next; id++ {
		if o := s.heap.get(id); o != nil && o.numCells() == 60000 {
			shadow = len(o.shadow)
			if o.shp != nil { // (paged: cellpages.go)
				for i := 0; i < o.shp.n; i++ {
					if o.shp.get(i) != nil {
						shadow++
					}
				}
			}
		}
	}
	if shadow < 60000 {
		t.Fatalf("the buffer's shadow has %d cells, want every one written", shadow)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 256<<20 {
		t.Errorf("main's writes allocated %d MB, want a few", got>>20)
	}
}
