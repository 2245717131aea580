package vm

import (
	"go/types"
)

// The words of an interface value read through unsafe.Pointer.
//
// puzpuzpuz/xsync hashes a comparable value with the runtime's typehash,
// taking the type from the interface's words:
//
//	type iface struct{ typ uintptr; word unsafe.Pointer }
//	i := (*iface)(unsafe.Pointer(&anyValue))
//	runtime_typehash(i.typ, i.word, seed)
//
// A VM interface is one cell (Iface), not two words. For an empty
// interface (any) read through a struct of two words, the first word is a
// number naming the dynamic type (typeAddrBase + 16·the type's number in
// the machine: equal for equal types, 0 for nil; Go's is the address of the
// type's descriptor, which no program can rely on beyond that); the second
// is the value's pointer when the dynamic type is a pointer (a
// reflect.Type's *rtype: its type's number, as the type word), else an
// ifaceData: a read-only pointer to the boxed value (loads of the dynamic
// type through it read the value; anything else is unsupported, since Go's
// box has an identity the VM's value has not). A non-empty interface's
// first word is an itab in Go, which the VM does not model: unsupported.

const typeAddrBase = 0x3000_0000_0000_0000

// typeAddr is the number of rt's type word.
func typeAddr(rt *RType) uintptr {
	if rt == nil {
		return 0
	}
	return uintptr(typeAddrBase + uint64(rt.ID)<<4)
}

// typeWordAddr is the number a type word w holds (typeWord: a uintptr,
// or an unsafe.Pointer naming no variable; the nil pointer is 0), and
// whether w is one.
func typeWordAddr(w Value) (uintptr, bool) {
	switch w := w.(type) {
	case uintptr:
		return w, true
	case wildPtr:
		return w.a, true
	case Pointer:
		return 0, w.Obj == 0
	}
	return 0, false
}

// typeAt decodes a number made by typeAddr.
func (m *Machine) typeAt(a uintptr) (*RType, bool) {
	if uint64(a) < typeAddrBase || uint64(a)&15 != 0 {
		return nil, false
	}
	id := int((uint64(a) - typeAddrBase) >> 4)
	r := m.types
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 1 || id > len(r.all) {
		return nil, false
	}
	return r.all[id-1], true
}

// ifaceData is the data word of an interface whose dynamic type is not a
// pointer: a read-only pointer to a value of type t.
type ifaceData struct {
	t *RType
	v Value
}

func (d ifaceData) hashInto(h *hasher) {
	h.int(int64(d.t.ID))
	h.value(d.v)
}

// ifaceShaped reports whether st is laid out as an interface's two words:
// a uintptr or unsafe.Pointer, then an unsafe.Pointer (fields of size
// zero, such as protobuf's alignment field `_ [0]any`, aside).
func ifaceShaped(st *types.Struct) bool {
	words := wordFields(st)
	if len(words) != 2 {
		return false
	}
	k0, k1 := basicKindOf(words[0].Type()), basicKindOf(words[1].Type())
	return (k0 == types.Uintptr || k0 == types.UnsafePointer) && k1 == types.UnsafePointer
}

// wordFields are the fields of st that are not arrays of length zero.
func wordFields(st *types.Struct) []*types.Var {
	var out []*types.Var
	for i := 0; i < st.NumFields(); i++ {
		if a, ok := st.Field(i).Type().Underlying().(*types.Array); ok && a.Len() == 0 {
			continue
		}
		out = append(out, st.Field(i))
	}
	return out
}

// wordIndex is the word of st that field i starts: the number of fields
// before it that are not arrays of length zero.
func wordIndex(st *types.Struct, i int) int {
	n := 0
	for j := 0; j < i; j++ {
		if a, ok := st.Field(j).Type().Underlying().(*types.Array); !ok || a.Len() != 0 {
			n++
		}
	}
	return n
}

// ifaceWordKind is the kind of the type word of rt, a struct shaped as
// an interface's words (ifaceShaped).
func ifaceWordKind(rt *RType) types.BasicKind {
	return basicKindOf(wordFields(rt.T.Underlying().(*types.Struct))[0].Type())
}

// typeWord is the type word of an empty interface holding a value of
// type rt, read as a value of kind k: typeAddr's number as a uintptr, or
// as an unsafe.Pointer that names no variable (protobuf's
// protoreflect.typeOf compares them; reading through one is unsupported).
func (t *thread) typeWord(rt *RType, k types.BasicKind) Value {
	if k == types.UnsafePointer {
		return t.pointerOfAddr(typeAddr(rt))
	}
	return typeAddr(rt)
}

// emptyIfaceCell reports whether cell p of o is a variable of an empty
// interface type (so its first word is a type, not an itab).
func emptyIfaceCell(o *Object, p Pointer) bool {
	if o.T == nil || p.Off != 0 {
		return false
	}
	it, ok := o.T.T.Underlying().(*types.Interface)
	return ok && it.Empty()
}

// ifaceCell reports whether the cell at p is a variable of an interface
// type, empty or not (its data word is the same).
func ifaceCell(o *Object, p Pointer) bool {
	if o.T == nil || p.Off != 0 {
		return false
	}
	_, ok := o.T.T.Underlying().(*types.Interface)
	return ok
}

// dataWord is the second word of interface value x. A reflect.Type's
// (an *rtype) is its type's descriptor: the number the type word of an
// interface holding a value of that type is (typeAddr), as in Go, where
// both are the address of the one descriptor. modern-go/reflect2 (under
// json-iterator) keys its cache of types by it: a word shared by every
// reflect.Type gave bool's entry to *int and a false panic.
func dataWord(x Iface) Value {
	if x.T == nil {
		return Pointer{}
	}
	switch v := x.V.(type) {
	case Pointer:
		return v
	case []Value:
		if len(v) == 1 && directPtrAgg(x.T) {
			if p, ok := v[0].(Pointer); ok {
				return p
			}
		}
	case rtypeRef:
		return wildPtr{a: typeAddr(v.rt)}
	}
	return ifaceData{t: x.T, v: x.V}
}

// directPtrAgg reports whether rt is a struct of one field or an array of
// one element that is (through such structs and arrays) a pointer: Go
// stores a value of such a type in an interface's data word itself, as it
// stores a pointer (json-iterator's onePtrEncoder encodes the struct from
// the address of that word: an interface holding struct{ Obj *T }{nil} has
// a nil data word).
func directPtrAgg(rt *RType) bool {
	if !rt.Agg || rt.Size != 1 {
		return false
	}
	t := rt.T
	for {
		switch u := t.Underlying().(type) {
		case *types.Struct:
			if u.NumFields() != 1 {
				return false
			}
			t = u.Field(0).Type()
		case *types.Array:
			if u.Len() != 1 {
				return false
			}
			t = u.Elem()
		case *types.Pointer:
			return true
		default:
			return basicKindOf(t) == types.UnsafePointer
		}
	}
}

// loadIfaceData reads a value of type rt through an interface's data word.
func (t *thread) loadIfaceData(fr *frame, d ifaceData, rt *RType, dst int) ctl {
	if rt != d.t {
		return t.unsupported(fr, "the value in an interface read as "+rt.String()+" through its data word (memory reinterpreted through unsafe.Pointer)")
	}
	fr.regs[dst] = d.v
	return ctlNext
}

// isStructOf reports whether rt is a struct for which shape holds.
func isStructOf(rt *RType, shape func(*types.Struct) bool) bool {
	st, ok := rt.T.Underlying().(*types.Struct)
	return ok && shape(st)
}

// storeIfaceWords stores the two words of an interface (ws, a struct
// shaped as them) into an empty interface's variable at p: the value
// whose words they are (google.golang.org/protobuf's protoreflect.Value
// keeps an interface as its words and remakes it by such a store). The
// words must be ones the VM made from an interface (typeWord, dataWord):
// a type word names a type, a data word is the value's pointer, a boxed
// value of that very type, or a type's descriptor for a reflect.Type. It
// reports false for any other pair.
func (t *thread) storeIfaceWords(p Pointer, ws []Value) bool {
	a, ok := typeWordAddr(ws[0])
	if !ok {
		return false
	}
	var x Iface
	if a == 0 {
		if !isNilValue(ws[1]) {
			return false
		}
	} else {
		rt, ok := t.m.typeAt(a)
		if !ok {
			return false
		}
		x.T = rt
		switch d := ws[1].(type) {
		case ifaceData:
			if d.t != rt {
				return false
			}
			x.V = d.v
		case Pointer:
			if directPtrAgg(rt) {
				x.V = []Value{d}
				break
			}
			if _, ok := rt.T.Underlying().(*types.Pointer); !ok && basicKindOf(rt.T) != types.UnsafePointer {
				return false
			}
			x.V = d
		case wildPtr:
			et, ok := t.m.typeAt(d.a)
			if !ok || !isRtypePointer(rt) {
				return false
			}
			x.V = rtypeRef{et}
		default:
			return false
		}
	}
	t.s.heap.mut(p.Obj, t.s.epoch).setCell(int(p.Off), x)
	return true
}

// isRtypePointer reports whether rt is *reflect.rtype (the dynamic type of
// a reflect.Type).
func isRtypePointer(rt *RType) bool {
	pt, ok := rt.T.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := pt.Elem().(*types.Named)
	return ok && n.Obj().Name() == "rtype" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect"
}
