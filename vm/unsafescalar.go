package vm

import (
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"
)

// A number read through a pointer converted from unsafe.Pointer as
// another number type of at most its size: *(*uint64)(unsafe.Pointer(&k))
// for an int k (puzpuzpuz/xsync/v4's toUint64 hashes integer keys so). A
// cell holds the Go value of its variable's own type, so the load
// reinterprets its bits as the type read (little-endian: the low bytes
// for a narrower type), as the memory would; integers and floats of the
// same size exchange their bits (math.Float64bits's idiom). Other loads
// through unsafe.Pointer are memory.go's.

// scalarCastLoad returns the basic kind *in.X reads when in.X is converted
// from unsafe.Pointer and the kind is a number (0 otherwise).
func scalarCastLoad(in *ssa.UnOp) types.BasicKind {
	cv, ok := in.X.(*ssa.Convert)
	if !ok || basicKindOf(cv.X.Type()) != types.UnsafePointer {
		return 0
	}
	k := basicKindOf(in.Type())
	if k < 0 || basicInfo(k)&(types.IsInteger|types.IsFloat) == 0 || k == types.Uintptr {
		return 0
	}
	return k
}

// basicInfo is the properties of basic kind k.
func basicInfo(k types.BasicKind) types.BasicInfo { return types.Typ[k].Info() }

// reinterpretNumber returns v's bits as a value of kind k when v is a
// number at least as wide as k (v itself otherwise).
func reinterpretNumber(v Value, k types.BasicKind) Value {
	var bits uint64
	var size int
	switch x := v.(type) {
	case int, int64, uint, uint64:
		bits, size = toUint64(x), 8
	case int32, uint32:
		bits, size = toUint64(x), 4
	case int16, uint16:
		bits, size = toUint64(x), 2
	case int8, uint8:
		bits, size = toUint64(x), 1
	case float64:
		bits, size = math.Float64bits(x), 8
	case float32:
		bits, size = uint64(math.Float32bits(x)), 4
	default:
		return v
	}
	if int(gcSizes.Sizeof(types.Typ[k])) > size {
		return v
	}
	switch k {
	case types.Float64:
		return math.Float64frombits(bits)
	case types.Float32:
		return math.Float32frombits(uint32(bits))
	}
	return intOfKind(k, bits)
}
