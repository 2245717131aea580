package vm

import (
	"math"
	"strconv"
	"strings"
)

// ifaceKey is the map key of an interface value.
type ifaceKey struct {
	t *RType
	k any
}

// aggKey is the map key of a struct or array value.
type aggKey string

// keyOf returns a comparable Go value that is equal for two VM values iff
// they are equal under Go's == (used as the key of map entries).
func keyOf(v Value) any {
	switch x := v.(type) {
	case []Value:
		var b strings.Builder
		for _, c := range x {
			writeKey(&b, c)
			b.WriteByte(0)
		}
		return aggKey(b.String())
	case Iface:
		if x.T == nil {
			return ifaceKey{}
		}
		return ifaceKey{x.T, keyOf(x.V)}
	case float64:
		if x == 0 {
			return float64(0)
		}
	case float32:
		if x == 0 {
			return float32(0)
		}
	}
	return v
}

func writeKey(b *strings.Builder, v Value) {
	switch x := v.(type) {
	case string:
		b.WriteString(strconv.Quote(x))
	case Iface:
		if x.T == nil {
			b.WriteString("nil")
			return
		}
		b.WriteString("I")
		b.WriteString(strconv.Itoa(x.T.ID))
		b.WriteByte(':')
		writeKey(b, x.V)
	case []Value:
		b.WriteByte('{')
		for _, c := range x {
			writeKey(b, c)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case float64:
		if math.IsNaN(x) {
			b.WriteString("NaN" + strconv.Itoa(b.Len())) // NaN never equals
			return
		}
		if x == 0 {
			x = 0
		}
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case Pointer:
		b.WriteString("P" + strconv.Itoa(int(x.Obj)) + "." + strconv.Itoa(int(x.Off)))
	case Chan:
		b.WriteString("C" + strconv.Itoa(int(x.Obj)))
	case rtypeRef:
		b.WriteString("R" + strconv.Itoa(x.rt.ID))
	case funcRef:
		b.WriteString("F" + strconv.FormatUint(uint64(x.entry), 10))
	default:
		b.WriteString(strconv.Quote(strings.TrimSpace(fmtScalar(v))))
	}
}

func fmtScalar(v Value) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int:
		return "i" + strconv.FormatInt(int64(x), 10)
	case int8:
		return "i" + strconv.FormatInt(int64(x), 10)
	case int16:
		return "i" + strconv.FormatInt(int64(x), 10)
	case int32:
		return "i" + strconv.FormatInt(int64(x), 10)
	case int64:
		return "i" + strconv.FormatInt(x, 10)
	case uint:
		return "u" + strconv.FormatUint(uint64(x), 10)
	case uint8:
		return "u" + strconv.FormatUint(uint64(x), 10)
	case uint16:
		return "u" + strconv.FormatUint(uint64(x), 10)
	case uint32:
		return "u" + strconv.FormatUint(uint64(x), 10)
	case uint64:
		return "u" + strconv.FormatUint(x, 10)
	case uintptr:
		return "u" + strconv.FormatUint(uint64(x), 10)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case complex128:
		return strconv.FormatComplex(x, 'g', -1, 128)
	case complex64:
		return strconv.FormatComplex(complex128(x), 'g', -1, 64)
	}
	return "?"
}

// equal implements Go's == on two values of the same type.
func equal(a, b Value) bool {
	switch x := a.(type) {
	case []Value:
		y := b.([]Value)
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case Iface:
		y, ok := b.(Iface)
		if !ok {
			return false
		}
		if x.T != y.T {
			return false
		}
		if x.T == nil {
			return true
		}
		if x.T.blank != nil {
			return equalBlank(x.V.([]Value), y.V.([]Value), x.T.blank)
		}
		return equal(x.V, y.V)
	case *Closure:
		y, _ := b.(*Closure)
		return x == nil && y == nil
	}
	return a == b
}

// equalBlank compares aggregates ignoring the cells of blank fields.
func equalBlank(x, y []Value, blank []bool) bool {
	for i := range x {
		if !blank[i] && !equal(x[i], y[i]) {
			return false
		}
	}
	return true
}
