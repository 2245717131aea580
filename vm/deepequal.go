package vm

import "go/types"

// Native model of reflect.DeepEqual over VM values, with the semantics of
// package reflect's documentation:
//
//   - values of different dynamic types are never deeply equal;
//   - arrays and structs (all fields, exported or not, blank ones included)
//     compare element by element;
//   - slices are both nil or both non-nil, of the same length, and either
//     start at the same element of the same backing array or have deeply
//     equal elements;
//   - maps are both nil or both non-nil, of the same length, and either the
//     same map or every key of one maps, in the other, to a deeply equal
//     value (keys are matched with ==, so a NaN key never matches);
//   - pointers are equal (==) or point to deeply equal values;
//   - interfaces hold deeply equal concrete values;
//   - funcs are deeply equal only if both are nil;
//   - everything else (numbers, strings, channels, unsafe pointers)
//     compares with ==, so NaN is not deeply equal to itself.
//
// Cycles terminate as in package reflect: a comparison of two non-nil
// pointers, maps or slices that is already in progress (the same pair of
// addresses and the same type) is assumed to hold. reflect keys slices by
// the address of their headers, which the VM does not have; the model keys
// them by their first elements and lengths, which differs only for
// comparisons that would otherwise be assumed equal while in progress.
//
// DeepEqual is not a scheduling point. The memory it reads (pointees and
// slice elements) is reported to the race detector as reads at the call,
// as the race-instrumented package reflect does; map contents are not (the
// VM does not track races on maps).

// deepVisit identifies a comparison in progress.
type deepVisit struct {
	a1, a2 Pointer
	n1, n2 int // slice lengths (0 for pointers and maps)
	rt     *RType
}

type deepEqualer struct {
	t       *thread
	visited map[deepVisit]bool
}

// deepEqual reports whether the interface values x and y are deeply equal.
func (t *thread) deepEqual(x, y Iface) bool {
	if x.T == nil || y.T == nil {
		return x.T == nil && y.T == nil
	}
	if x.T != y.T {
		return false
	}
	d := &deepEqualer{t: t, visited: map[deepVisit]bool{}}
	return d.equal(x.V, y.V, x.T)
}

// read returns the value of type rt at p, reporting the read to the race
// detector.
func (d *deepEqualer) read(p Pointer, rt *RType) Value {
	t := d.t
	if t.s.race != nil && rt.Size > 0 && t.g.top != nil && t.g.top.fn != nil {
		t.raceAccess(t.g.top, p, rt.Size, false)
	}
	return t.s.readCells(p, rt)
}

// seen records the comparison of two references of type rt and reports
// whether it was already in progress.
func (d *deepEqualer) seen(a1, a2 Pointer, n1, n2 int, rt *RType) bool {
	if a2.Obj < a1.Obj || (a2.Obj == a1.Obj && a2.Off < a1.Off) {
		a1, a2, n1, n2 = a2, a1, n2, n1
	}
	k := deepVisit{a1: a1, a2: a2, n1: n1, n2: n2, rt: rt}
	if d.visited[k] {
		return true
	}
	d.visited[k] = true
	return false
}

// sub returns the value of type rt at cell offset off of the aggregate cells.
func sub(cells []Value, off int, rt *RType) Value {
	if rt.Agg {
		return cells[off : off+rt.Size]
	}
	return cells[off]
}

// equal compares two values of the same type rt.
func (d *deepEqualer) equal(x, y Value, rt *RType) bool {
	switch u := rt.T.Underlying().(type) {
	case *types.Array:
		xc, yc := x.([]Value), y.([]Value)
		es := rt.Elem.Size
		for i := 0; i < rt.Len; i++ {
			if !d.equal(sub(xc, i*es, rt.Elem), sub(yc, i*es, rt.Elem), rt.Elem) {
				return false
			}
		}
		return true
	case *types.Struct:
		xc, yc := x.([]Value), y.([]Value)
		for i := 0; i < u.NumFields(); i++ {
			ft := d.t.m.types.get(u.Field(i).Type())
			off := rt.Fields[i]
			if !d.equal(sub(xc, off, ft), sub(yc, off, ft), ft) {
				return false
			}
		}
		return true
	case *types.Slice:
		return d.slices(x.(Slice), y.(Slice), rt)
	case *types.Map:
		return d.maps(x.(Map), y.(Map), rt)
	case *types.Pointer:
		xp, ok1 := x.(Pointer)
		yp, ok2 := y.(Pointer)
		if !ok1 || !ok2 { // references the VM keeps outside its heap (reflect.Type, *runtime.Func)
			return x == y
		}
		if xp == yp {
			return true
		}
		if xp.Obj == 0 || yp.Obj == 0 {
			return false
		}
		if d.seen(xp, yp, 0, 0, rt) {
			return true
		}
		return d.equal(d.read(xp, rt.Elem), d.read(yp, rt.Elem), rt.Elem)
	case *types.Interface:
		xi, yi := x.(Iface), y.(Iface)
		if xi.T == nil || yi.T == nil {
			return xi.T == nil && yi.T == nil
		}
		if xi.T != yi.T {
			return false
		}
		return d.equal(xi.V, yi.V, xi.T)
	case *types.Signature:
		return isNilValue(x) && isNilValue(y)
	}
	// basic kinds, channels and unsafe pointers: ==
	return x == y
}

func (d *deepEqualer) slices(xs, ys Slice, rt *RType) bool {
	if (xs.Obj == 0) != (ys.Obj == 0) || xs.Len != ys.Len {
		return false
	}
	if xs.Obj == 0 || (xs.Obj == ys.Obj && xs.Off == ys.Off) {
		return true
	}
	if d.seen(Pointer{Obj: xs.Obj, Off: xs.Off}, Pointer{Obj: ys.Obj, Off: ys.Off}, xs.Len, ys.Len, rt) {
		return true
	}
	el := rt.Elem
	for i := 0; i < xs.Len; i++ {
		off := int32(i * el.Size)
		xv := d.read(Pointer{Obj: xs.Obj, Off: xs.Off + off}, el)
		yv := d.read(Pointer{Obj: ys.Obj, Off: ys.Off + off}, el)
		if !d.equal(xv, yv, el) {
			return false
		}
	}
	return true
}

func (d *deepEqualer) maps(xm, ym Map, rt *RType) bool {
	if (xm.Obj == 0) != (ym.Obj == 0) {
		return false
	}
	if xm.Obj == ym.Obj {
		return true
	}
	xd, yd := d.t.s.heap.get(xm.Obj).Map, d.t.s.heap.get(ym.Obj).Map
	if xd.live != yd.live {
		return false
	}
	if d.seen(Pointer{Obj: xm.Obj}, Pointer{Obj: ym.Obj}, 0, 0, rt) {
		return true
	}
	// Copy the live entries first: comparing values reads the heap, which
	// must not change the map being iterated.
	var ents []mapEntry
	for _, e := range xd.ents {
		if !e.dead {
			ents = append(ents, e)
		}
	}
	for _, e := range ents {
		yv, ok := yd.lookup(e.k)
		if !ok || !d.equal(e.v, yv, rt.Elem) {
			return false
		}
	}
	return true
}
