package vm

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Value is a VM value. Its dynamic Go type depends on the Go type it
// represents:
//
//	bool, string, int…int64, uint…uintptr, float32/64, complex64/128:
//	                       the Go value of the underlying basic kind
//	pointer, unsafe.Pointer: Pointer; through unsafe.Pointer also strPtr
//	                       (a string's bytes), hdrWord (a string's, slice's
//	                       or interface's second word), ifaceData (an
//	                       interface's boxed value), wildPtr (a number
//	                       naming no variable): unsafestr.go, unsafeiface.go
//	slice:                 Slice
//	map:                   Map
//	chan:                  Chan
//	func:                  *Closure (nil for a nil func)
//	interface:             Iface
//	struct, array:         []Value, flattened: one cell per scalar leaf
//	tuple (multi-results): Tuple
//
// Values are immutable: an aggregate held in a register is never written in
// place (stores copy its cells into a heap object).
type Value = any

// ObjID names a heap object; 0 is the nil object.
type ObjID = uint32

// Pointer is the address of a cell inside a heap object.
type Pointer struct {
	Obj ObjID
	Off int32 // cell offset inside the object
}

// IsNil reports whether p is the nil pointer.
func (p Pointer) IsNil() bool { return p.Obj == 0 }

// Slice is a slice header: Len and Cap count elements; Off counts cells.
type Slice struct {
	Obj      ObjID
	Off      int32
	Len, Cap int
}

// Map is a reference to a map object; Obj 0 is the nil map.
type Map struct{ Obj ObjID }

// Chan is a reference to a channel object; Obj 0 is the nil channel.
type Chan struct{ Obj ObjID }

// Closure is a function value: an SSA function with its bound free
// variables, or a native function.
type Closure struct {
	Fn     *ssa.Function
	Env    []Value
	Native *nativeFunc // set for natively modelled functions (Fn may be nil)
	Bound  Value       // receiver for native method values
	Conv   *argConv    // argument kinds of a function read as another function type (unsafefunc.go)
}

// Iface is an interface value: a dynamic type and a value of that type.
// The zero Iface is the nil interface.
type Iface struct {
	T *RType
	V Value
}

// Tuple is the value of a multi-result call.
type Tuple []Value

// rangeIter is the state of a range over a map or a string (ssa.Range).
type rangeIter struct {
	str  string
	m    ObjID
	pos  int
	keys bool
}

// nativeRef is a cell value owned by a native model (for example the wait
// list of a sync.Cond); it is immutable and compared by content in hashes.
type nativeRef interface {
	hashInto(h *hasher)
}

func isNilValue(v Value) bool {
	switch x := v.(type) {
	case nil:
		return true
	case Pointer:
		return x.Obj == 0
	case Slice:
		return x.Obj == 0
	case Map:
		return x.Obj == 0
	case Chan:
		return x.Obj == 0
	case *Closure:
		return x == nil
	case Iface:
		return x.T == nil
	}
	return false
}

// basicKindOf returns the basic kind of t's underlying type, or -1.
func basicKindOf(t types.Type) types.BasicKind {
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Kind()
	}
	return -1
}
