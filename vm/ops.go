package vm

import (
	"go/token"
	"go/types"
	"math"
	"strings"
)

// binFn evaluates a binary operation; a non-empty string is a runtime error.
type binFn func(a, b Value) (Value, string)

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

type float interface{ ~float32 | ~float64 }

type ordered interface {
	integer | float | ~string
}

func cmpOp[T ordered](op token.Token) binFn {
	switch op {
	case token.LSS:
		return func(a, b Value) (Value, string) { return a.(T) < b.(T), "" }
	case token.LEQ:
		return func(a, b Value) (Value, string) { return a.(T) <= b.(T), "" }
	case token.GTR:
		return func(a, b Value) (Value, string) { return a.(T) > b.(T), "" }
	case token.GEQ:
		return func(a, b Value) (Value, string) { return a.(T) >= b.(T), "" }
	case token.EQL:
		return func(a, b Value) (Value, string) { return a.(T) == b.(T), "" }
	case token.NEQ:
		return func(a, b Value) (Value, string) { return a.(T) != b.(T), "" }
	}
	return nil
}

func intBin[T integer](op token.Token) binFn {
	switch op {
	case token.ADD:
		return func(a, b Value) (Value, string) { return a.(T) + b.(T), "" }
	case token.SUB:
		return func(a, b Value) (Value, string) { return a.(T) - b.(T), "" }
	case token.MUL:
		return func(a, b Value) (Value, string) { return a.(T) * b.(T), "" }
	case token.QUO:
		return func(a, b Value) (Value, string) {
			y := b.(T)
			if y == 0 {
				return nil, "integer divide by zero"
			}
			return a.(T) / y, ""
		}
	case token.REM:
		return func(a, b Value) (Value, string) {
			y := b.(T)
			if y == 0 {
				return nil, "integer divide by zero"
			}
			return a.(T) % y, ""
		}
	case token.AND:
		return func(a, b Value) (Value, string) { return a.(T) & b.(T), "" }
	case token.OR:
		return func(a, b Value) (Value, string) { return a.(T) | b.(T), "" }
	case token.XOR:
		return func(a, b Value) (Value, string) { return a.(T) ^ b.(T), "" }
	case token.AND_NOT:
		return func(a, b Value) (Value, string) { return a.(T) &^ b.(T), "" }
	case token.SHL:
		return func(a, b Value) (Value, string) {
			n, neg := shiftCount(b)
			if neg {
				return nil, "negative shift amount"
			}
			if n >= 64 {
				return T(0), ""
			}
			return a.(T) << n, ""
		}
	case token.SHR:
		return func(a, b Value) (Value, string) {
			n, neg := shiftCount(b)
			if neg {
				return nil, "negative shift amount"
			}
			if n >= 64 {
				n = 63
				x := a.(T)
				return x >> n >> 1, ""
			}
			return a.(T) >> n, ""
		}
	}
	return cmpOp[T](op)
}

func shiftCount(b Value) (uint64, bool) {
	switch y := b.(type) {
	case int:
		return uint64(y), y < 0
	case int8:
		return uint64(y), y < 0
	case int16:
		return uint64(y), y < 0
	case int32:
		return uint64(y), y < 0
	case int64:
		return uint64(y), y < 0
	}
	return toUint64(b), false
}

func floatBin[T float](op token.Token) binFn {
	switch op {
	case token.ADD:
		return func(a, b Value) (Value, string) { return a.(T) + b.(T), "" }
	case token.SUB:
		return func(a, b Value) (Value, string) { return a.(T) - b.(T), "" }
	case token.MUL:
		return func(a, b Value) (Value, string) { return a.(T) * b.(T), "" }
	case token.QUO:
		return func(a, b Value) (Value, string) { return a.(T) / b.(T), "" }
	}
	return cmpOp[T](op)
}

func complexBin[T complex64 | complex128](op token.Token) binFn {
	switch op {
	case token.ADD:
		return func(a, b Value) (Value, string) { return a.(T) + b.(T), "" }
	case token.SUB:
		return func(a, b Value) (Value, string) { return a.(T) - b.(T), "" }
	case token.MUL:
		return func(a, b Value) (Value, string) { return a.(T) * b.(T), "" }
	case token.QUO:
		return func(a, b Value) (Value, string) { return a.(T) / b.(T), "" }
	case token.EQL:
		return func(a, b Value) (Value, string) { return a.(T) == b.(T), "" }
	case token.NEQ:
		return func(a, b Value) (Value, string) { return a.(T) != b.(T), "" }
	}
	return nil
}

// binop selects the implementation of a binary operation on operands of type t.
func binop(op token.Token, t types.Type) binFn {
	if op == token.EQL {
		if _, ok := t.Underlying().(*types.Basic); !ok {
			return func(a, b Value) (Value, string) {
				if msg := uncomparable(a, b); msg != "" {
					return nil, msg
				}
				return equal(a, b), ""
			}
		}
	}
	if op == token.NEQ {
		if _, ok := t.Underlying().(*types.Basic); !ok {
			return func(a, b Value) (Value, string) {
				if msg := uncomparable(a, b); msg != "" {
					return nil, msg
				}
				return !equal(a, b), ""
			}
		}
	}
	switch basicKindOf(t) {
	case types.Int, types.UntypedInt:
		return intBin[int](op)
	case types.Int8:
		return intBin[int8](op)
	case types.Int16:
		return intBin[int16](op)
	case types.Int32, types.UntypedRune:
		return intBin[int32](op)
	case types.Int64:
		return intBin[int64](op)
	case types.Uint:
		return intBin[uint](op)
	case types.Uint8:
		return intBin[uint8](op)
	case types.Uint16:
		return intBin[uint16](op)
	case types.Uint32:
		return intBin[uint32](op)
	case types.Uint64:
		return intBin[uint64](op)
	case types.Uintptr:
		return intBin[uintptr](op)
	case types.Float32:
		return floatBin[float32](op)
	case types.Float64, types.UntypedFloat:
		return floatBin[float64](op)
	case types.Complex64:
		return complexBin[complex64](op)
	case types.Complex128, types.UntypedComplex:
		return complexBin[complex128](op)
	case types.String, types.UntypedString:
		if op == token.ADD {
			return func(a, b Value) (Value, string) { return a.(string) + b.(string), "" }
		}
		return cmpOp[string](op)
	case types.Bool, types.UntypedBool:
		switch op {
		case token.EQL:
			return func(a, b Value) (Value, string) { return a.(bool) == b.(bool), "" }
		case token.NEQ:
			return func(a, b Value) (Value, string) { return a.(bool) != b.(bool), "" }
		}
	case types.UnsafePointer:
		return func(a, b Value) (Value, string) { return equal(a, b) == (op == token.EQL), "" }
	}
	return nil
}

// uncomparable reports Go's runtime error for == on interfaces holding
// uncomparable dynamic types.
func uncomparable(a, b Value) string {
	ia, ok1 := a.(Iface)
	ib, ok2 := b.(Iface)
	if !ok1 || !ok2 || ia.T == nil || ia.T != ib.T {
		return ""
	}
	if !types.Comparable(ia.T.T) {
		return "comparing uncomparable type " + ia.T.String()
	}
	return ""
}

// unop selects the implementation of a unary arithmetic operation.
func unop(op token.Token, t types.Type) func(Value) Value {
	k := basicKindOf(t)
	switch op {
	case token.NOT:
		return func(a Value) Value { return !a.(bool) }
	case token.SUB:
		switch k {
		case types.Float32:
			return func(a Value) Value { return -a.(float32) }
		case types.Float64:
			return func(a Value) Value { return -a.(float64) }
		case types.Complex64:
			return func(a Value) Value { return -a.(complex64) }
		case types.Complex128:
			return func(a Value) Value { return -a.(complex128) }
		}
		return func(a Value) Value { return intOfKind(k, -toUint64(a)) }
	case token.XOR:
		return func(a Value) Value { return intOfKind(k, ^toUint64(a)) }
	}
	return nil
}

// toUint64 returns the bits of an integer value (sign-extended).
func toUint64(v Value) uint64 {
	switch x := v.(type) {
	case int:
		return uint64(x)
	case int8:
		return uint64(x)
	case int16:
		return uint64(x)
	case int32:
		return uint64(x)
	case int64:
		return uint64(x)
	case uint:
		return uint64(x)
	case uint8:
		return uint64(x)
	case uint16:
		return uint64(x)
	case uint32:
		return uint64(x)
	case uint64:
		return x
	case uintptr:
		return uint64(x)
	case goidCell:
		return uint64(x)
	case bool:
		if x {
			return 1
		}
		return 0
	}
	return 0
}

func toInt64(v Value) int64 { return int64(toUint64(v)) }

func toInt(v Value) int { return int(toUint64(v)) }

func isSigned(k types.BasicKind) bool {
	switch k {
	case types.Int, types.Int8, types.Int16, types.Int32, types.Int64, types.UntypedInt, types.UntypedRune:
		return true
	}
	return false
}

func isUnsigned(k types.BasicKind) bool {
	switch k {
	case types.Uint, types.Uint8, types.Uint16, types.Uint32, types.Uint64, types.Uintptr:
		return true
	}
	return false
}

// convertBasic converts between basic kinds (numbers, strings from
// integers); ok is false if the conversion is not between basic scalars.
func convertBasic(v Value, from, to types.BasicKind) (Value, bool) {
	switch {
	case isSigned(from) || isUnsigned(from):
		switch {
		case isSigned(to) || isUnsigned(to):
			return intOfKind(to, toUint64(v)), true
		case to == types.Float32 || to == types.Float64:
			var f float64
			if isSigned(from) {
				f = float64(toInt64(v))
			} else {
				f = float64(toUint64(v))
			}
			if to == types.Float32 {
				return float32(f), true
			}
			return f, true
		case to == types.String:
			n := toInt64(v)
			if isUnsigned(from) && toUint64(v) > math.MaxInt32 || n < 0 || n > 0x10FFFF {
				return "\uFFFD", true
			}
			return string(rune(n)), true
		}
	case from == types.Float32 || from == types.Float64 || from == types.UntypedFloat:
		f := toFloat64(v)
		switch {
		case isSigned(to):
			return intOfKind(to, uint64(int64(f))), true
		case isUnsigned(to):
			if f >= 1<<63 {
				return intOfKind(to, uint64(f)), true
			}
			return intOfKind(to, uint64(int64(f))), true
		case to == types.Float32:
			return float32(f), true
		case to == types.Float64:
			return f, true
		}
	case from == types.Complex64 || from == types.Complex128:
		var c complex128
		if x, ok := v.(complex64); ok {
			c = complex128(x)
		} else {
			c = v.(complex128)
		}
		if to == types.Complex64 {
			return complex64(c), true
		}
		if to == types.Complex128 {
			return c, true
		}
	case from == types.String && to == types.String:
		return v, true
	case from == types.Bool && to == types.Bool:
		return v, true
	case from == types.UnsafePointer && to == types.UnsafePointer:
		return v, true
	}
	return nil, false
}

// stringFromRunes and friends implement string conversions.
func stringFromRunes(rs []Value) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteRune(rune(toInt64(r)))
	}
	return b.String()
}
