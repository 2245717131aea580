package smt

import "strconv"

// Type is the Go type a term stands for: bool, or one of the fixed-width
// integer types. Integer types are Z3 bit-vectors of their width; the
// signedness only selects which Z3 operation implements a Go operator.
type Type uint8

// The types a term can have. The zero Type is invalid.
const (
	Bool Type = iota + 1
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
)

var typeNames = [...]string{
	Bool:   "bool",
	Int8:   "int8",
	Int16:  "int16",
	Int32:  "int32",
	Int64:  "int64",
	Uint8:  "uint8",
	Uint16: "uint16",
	Uint32: "uint32",
	Uint64: "uint64",
}

// String returns the Go spelling of t.
func (t Type) String() string {
	if t >= Bool && t <= Uint64 {
		return typeNames[t]
	}
	return "smt.Type(" + strconv.Itoa(int(t)) + ")"
}

// Valid reports whether t is one of the declared types.
func (t Type) Valid() bool { return t >= Bool && t <= Uint64 }

// IsInt reports whether t is an integer (bit-vector) type.
func (t Type) IsInt() bool { return t >= Int8 && t <= Uint64 }

// Signed reports whether t is a signed integer type.
func (t Type) Signed() bool { return t >= Int8 && t <= Int64 }

// Bits returns the width of an integer type, and 0 for Bool.
func (t Type) Bits() int {
	switch t {
	case Int8, Uint8:
		return 8
	case Int16, Uint16:
		return 16
	case Int32, Uint32:
		return 32
	case Int64, Uint64:
		return 64
	case Bool:
		return 0
	}
	panic("smt: invalid type " + t.String())
}

// IntType returns the integer type of the given width (8, 16, 32 or 64)
// and signedness.
func IntType(bits int, signed bool) Type {
	var t Type
	switch bits {
	case 8:
		t = Uint8
	case 16:
		t = Uint16
	case 32:
		t = Uint32
	case 64:
		t = Uint64
	default:
		panic("smt: unsupported width " + strconv.Itoa(bits))
	}
	if signed {
		t -= Uint8 - Int8
	}
	return t
}

// mask returns the all-ones value of an integer type's width.
func (t Type) mask() uint64 {
	return ^uint64(0) >> (64 - t.Bits())
}

// fromBits interprets the low Bits() bits of u as a value of t and
// returns it as Go's int64(v) and uint64(v) would.
func (t Type) fromBits(u uint64) (int64, uint64) {
	u &= t.mask()
	if t.Signed() {
		sh := 64 - t.Bits()
		s := int64(u<<sh) >> sh
		return s, uint64(s)
	}
	return int64(u), u
}
