package vm

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGListCopyOnWrite checks the chunked goroutine list against a plain
// slice through random pushes, replacements and removals, each on a
// child list that shares its parent's chunks (as thaw makes it): the
// parent must never see its child's writes, and find, get, all, backward
// and len must agree with the slice after every operation. It fails if a
// write reaches a chunk or a list of chunks of another epoch (the parent
// changes) or if chunks lose or reorder goroutines.
func TestGListCopyOnWrite(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	epoch := uint64(1)
	var ref []*goroutine
	nextID := 1
	for range 3 * gChunkSize {
		ref = append(ref, &goroutine{id: nextID})
		nextID += 1 + rng.IntN(2) // ids with gaps, as goroutines end
	}
	l := newGList(epoch, ref)
	check := func(what string, l *gList, want []*goroutine) {
		t.Helper()
		if l.len() != len(want) {
			t.Fatalf("%s: len %d, want %d", what, l.len(), len(want))
		}
		if got := slices.Collect(l.all()); !slices.Equal(got, want) {
			t.Fatalf("%s: all() differs from the reference", what)
		}
		back := slices.Collect(l.backward())
		slices.Reverse(back)
		if !slices.Equal(back, want) {
			t.Fatalf("%s: backward() differs from the reference", what)
		}
		for _, g := range want {
			if l.get(g.id) != g {
				t.Fatalf("%s: get(%d) misses it", what, g.id)
			}
		}
		if l.get(0) != nil || l.get(nextID) != nil {
			t.Fatalf("%s: get finds an id never used", what)
		}
	}
	check("new", &l, ref)
	for step := range 400 {
		// the child shares the parent's chunks and list of chunks
		parent, parentRef := l, slices.Clone(ref)
		parentG := slices.Clone(ref) // the goroutine values, to see them unchanged
		epoch++
		child, shared := parent, true
		childRef := slices.Clone(ref)
		switch op := rng.IntN(4); {
		case op == 0 || len(childRef) == 0:
			g := &goroutine{id: nextID}
			nextID++
			child.push(g, epoch, &shared)
			childRef = append(childRef, g)
		case op == 1:
			i := rng.IntN(len(childRef))
			g := &goroutine{id: childRef[i].id}
			ci, j := child.find(g.id)
			child.set(ci, j, g, epoch, &shared)
			childRef[i] = g
		default:
			// some goroutines end: the dead are new values of this
			// epoch (mutG clones a goroutine before it dies)
			for k := range 1 + rng.IntN(gChunkSize) {
				if len(childRef) == 0 {
					break
				}
				i := (k*7 + rng.IntN(len(childRef))) % len(childRef)
				d := &goroutine{id: childRef[i].id, status: gDead}
				ci, j := child.find(d.id)
				child.set(ci, j, d, epoch, &shared)
				childRef = slices.Delete(childRef, i, i+1)
			}
			child.removeDead(epoch, &shared)
		}
		check("child", &child, childRef)
		check("parent after the child's write", &parent, parentRef)
		for i, g := range slices.Collect(parent.all()) {
			if g != parentG[i] || g.status == gDead {
				t.Fatalf("step %d: the parent's goroutine %d changed", step, i)
			}
		}
		if len(child.chunks) > 2*((child.n+gChunkSize-1)/gChunkSize)+1 {
			t.Fatalf("step %d: %d chunks for %d goroutines", step, len(child.chunks), child.n)
		}
		l, ref = child, childRef
	}
}
