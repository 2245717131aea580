package vm

import "go/types"

// A reflect.Value assembled from its words through unsafe.Pointer, as
// github.com/ugorji/go/codec does (rv4iptr: an interface's two words and
// a flag written over a reflect.Value variable), is remade into the
// Value those words describe once they are all there. The words must be
// ones the VM made: an interface's type word (typeWord) and data word
// (dataWord), and a flag whose kind is the type's. Without this the
// variable held a type word where the VM keeps its type, read back as the
// zero Value: a false "call of reflect.Value.Elem on zero Value" in every
// test that encodes through the codec (ulule/limiter's gin middleware).

// remakeValueWords remakes the reflect.Value variable o (its cells 0–2)
// after a store through unsafe wrote some of its words: when they now
// hold an interface's type word and a flag with a kind, they become the
// Value they describe. Words the VM did not make from an interface, or a
// kind that is not the type's, stop the run as unsupported.
func (t *thread) remakeValueWords(fr *frame, o *Object, id ObjID) ctl {
	cells := t.s.readCells(Pointer{Obj: id}, o.T).([]Value)
	a, ok := typeWordAddr(cells[0])
	if !ok || a == 0 {
		return ctlNext // the VM's own words (an rtypeRef, or the zero Value's)
	}
	flag := uintptr(toUint64(cells[2]))
	if flag&rflagKindMask == 0 {
		return ctlNext // the flag is not written yet
	}
	unsupported := func() ctl {
		return t.unsupported(fr, "a reflect.Value assembled from words no interface value gave (memory reinterpreted through unsafe.Pointer)")
	}
	rt, ok := t.m.typeAt(a)
	if !ok || uintptr(reflectKind(rt.T)) != flag&rflagKindMask {
		return unsupported()
	}
	var x Value // the value, when it is not in memory already
	switch d := cells[1].(type) {
	case Pointer:
		if flag&rflagIndir != 0 {
			if d.Obj == 0 {
				return unsupported()
			}
			t.s.writeCells(Pointer{Obj: id}, o.T, packValue(rvalue{rt: rt, ptr: d, flag: flag}))
			return ctlNext
		}
		if _, isPtr := rt.T.Underlying().(*types.Pointer); !isPtr && basicKindOf(rt.T) != types.UnsafePointer {
			return unsupported()
		}
		x = d // a pointer kept in the word itself
	case ifaceData:
		if d.t != rt {
			return unsupported()
		}
		x = d.v // the interface's boxed value
	default:
		return unsupported()
	}
	v := t.newRValue(rt, x, flag&^(rflagKindMask|rflagIndir)) // (its kind: rt's, checked above)
	t.s.writeCells(Pointer{Obj: id}, o.T, packValue(v))
	return ctlNext
}
