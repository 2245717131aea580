package vm

import (
	"fmt"
	"iter"
)

// The cells of a plain object, packed (packed.go), paged (cellpages.go) or
// not. Code reads and writes an object's memory through these accessors,
// never through Object.Cells directly unless it knows the object is
// neither (a variable of a type that does not pack, of fewer cells than
// cellPageMin).

// numCells is the number of cells of o.
func (o *Object) numCells() int {
	if o.pk != nil {
		return o.pk.n
	}
	if o.cp != nil {
		return o.cp.n
	}
	return len(o.Cells)
}

// hasCells reports whether o is plain memory with cells (a global too
// large for cells has none).
func (o *Object) hasCells() bool { return o.Cells != nil || o.pk != nil || o.cp != nil }

// cell is the value of cell i.
func (o *Object) cell(i int) Value {
	if o.pk != nil {
		return o.pk.get(i)
	}
	if o.cp != nil {
		return o.cp.get(i)
	}
	return o.Cells[i]
}

// setCell writes cell i of o (mutable). A value a packed object cannot
// hold converts it to cells first.
func (o *Object) setCell(i int, v Value) {
	if o.pk != nil {
		if o.pk.set(i, v, o.epoch) {
			return
		}
		o.unpack(v)
	}
	if o.cp != nil {
		o.cp.set(i, v, o.epoch)
		return
	}
	o.Cells[i] = v
}

// cellRange is cells [i, j) of o, for reading only: o's own cells, or a
// copy decoded from a packed object.
func (o *Object) cellRange(i, j int) []Value {
	if o.pk != nil {
		return o.pk.values(i, j)
	}
	if o.cp != nil {
		return o.cp.values(i, j)
	}
	return o.Cells[i:j]
}

// setCells writes vs over the cells of o (mutable) from cell i.
func (o *Object) setCells(i int, vs []Value) {
	if o.pk == nil && o.cp == nil {
		copy(o.Cells[i:], vs)
		return
	}
	for k, v := range vs {
		o.setCell(i+k, v)
	}
}

// refCells yields the cells of o that may hold references: none for a
// packed object (numbers only).
func (o *Object) refCells() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		if o.cp != nil {
			for _, pg := range o.cp.pages {
				for _, v := range pg.v {
					if !yield(v) {
						return
					}
				}
			}
			return
		}
		for _, v := range o.Cells {
			if !yield(v) {
				return
			}
		}
	}
}

// unpack converts packed object o (mutable) to cells, because v, to be
// stored in it, is not a number of its kind. An object too large for
// cells stops the run.
func (o *Object) unpack(v Value) {
	if o.pk.n > maxObjectCells {
		panic(vmLimit(fmt.Sprintf("a value of Go type %T stored in an array of %d numbers (more than the VM's %d cells for one object)", v, o.pk.n, maxObjectCells)))
	}
	if o.pk.n >= cellPageMin {
		o.cp = newCellPages(o.pk.values(0, o.pk.n), o.epoch)
	} else {
		o.Cells = o.pk.values(0, o.pk.n)
	}
	o.pk = nil
	o.hcache = 0
}

// packedObject is a zero packed object of type rt holding cells numbers
// (a slice's backing array of elements of type rt, or a variable of array
// type rt), or nil when rt's elements do not pack or the object is small.
func packedObject(rt *RType, cells int) *Object {
	if cells < packMin {
		return nil
	}
	if k := packKindOf(rt); k != pkNone {
		return &Object{T: rt, pk: newPacked(k, cells)}
	}
	return nil
}
