package vm

import (
	"bytes"
	"go/types"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Native models of standard-library packages that are not interpreted, or
// whose interpretation would be slow or need unsupported internals:
//
//   - math, unicode, and the pure functions of strings, bytes and
//     unicode/utf8: the real Go functions behind the reflection adapter
//     (natives_reflect.go);
//   - strings.Builder over its own cells (addr, buf []byte);
//   - sync/atomic functions and types: scheduling points that operate on
//     the value's only cell (the v field) and act as acquire/release of
//     the containing object for the race detector;
//   - sync.Map (cell 0 holds a VM map[any]any, allocated on first use) and
//     sync.Pool (cell 0 holds a []any used as a LIFO stack);
//   - runtime/pprof lookups and writes as no-ops;
//   - flag: definitions return their defaults, Parse does nothing, Args is
//     os.Args[1:];
//   - log: Print*/Fatal*/Panic* with the standard flags over virtual time.
//
// math/rand and math/rand/v2 are in natives_rand.go... (see randNatives).

func init() {
	adaptPkg("math", map[string]any{
		"Abs": math.Abs, "Acos": math.Acos, "Acosh": math.Acosh, "Asin": math.Asin, "Asinh": math.Asinh,
		"Atan": math.Atan, "Atan2": math.Atan2, "Atanh": math.Atanh, "Cbrt": math.Cbrt, "Ceil": math.Ceil,
		"Copysign": math.Copysign, "Cos": math.Cos, "Cosh": math.Cosh, "Dim": math.Dim, "Erf": math.Erf,
		"Erfc": math.Erfc, "Erfcinv": math.Erfcinv, "Erfinv": math.Erfinv, "Exp": math.Exp, "Exp2": math.Exp2,
		"Expm1": math.Expm1, "FMA": math.FMA, "Float32bits": math.Float32bits,
		"Float32frombits": math.Float32frombits, "Float64bits": math.Float64bits,
		"Float64frombits": math.Float64frombits, "Floor": math.Floor, "Frexp": math.Frexp,
		"Gamma": math.Gamma, "Hypot": math.Hypot, "Ilogb": math.Ilogb, "Inf": math.Inf, "IsInf": math.IsInf,
		"IsNaN": math.IsNaN, "J0": math.J0, "J1": math.J1, "Jn": math.Jn, "Ldexp": math.Ldexp,
		"Lgamma": math.Lgamma, "Log": math.Log, "Log10": math.Log10, "Log1p": math.Log1p, "Log2": math.Log2,
		"Logb": math.Logb, "Max": math.Max, "Min": math.Min, "Mod": math.Mod, "Modf": math.Modf,
		"NaN": math.NaN, "Nextafter": math.Nextafter, "Nextafter32": math.Nextafter32, "Pow": math.Pow,
		"Pow10": math.Pow10, "Remainder": math.Remainder, "Round": math.Round,
		"RoundToEven": math.RoundToEven, "Signbit": math.Signbit, "Sin": math.Sin, "Sincos": math.Sincos,
		"Sinh": math.Sinh, "Sqrt": math.Sqrt, "Tan": math.Tan, "Tanh": math.Tanh, "Trunc": math.Trunc,
		"Y0": math.Y0, "Y1": math.Y1, "Yn": math.Yn,
	})
	adaptPkg("unicode", map[string]any{
		"IsControl": unicode.IsControl, "IsDigit": unicode.IsDigit, "IsGraphic": unicode.IsGraphic,
		"IsLetter": unicode.IsLetter, "IsLower": unicode.IsLower, "IsMark": unicode.IsMark,
		"IsNumber": unicode.IsNumber, "IsPrint": unicode.IsPrint, "IsPunct": unicode.IsPunct,
		"IsSpace": unicode.IsSpace, "IsSymbol": unicode.IsSymbol, "IsTitle": unicode.IsTitle,
		"IsUpper": unicode.IsUpper, "SimpleFold": unicode.SimpleFold, "To": unicode.To,
		"ToLower": unicode.ToLower, "ToTitle": unicode.ToTitle, "ToUpper": unicode.ToUpper,
	})
	adaptPkg("unicode/utf8", map[string]any{
		"DecodeLastRune": utf8.DecodeLastRune, "DecodeLastRuneInString": utf8.DecodeLastRuneInString,
		"DecodeRune": utf8.DecodeRune, "DecodeRuneInString": utf8.DecodeRuneInString,
		"FullRune": utf8.FullRune, "FullRuneInString": utf8.FullRuneInString, "RuneCount": utf8.RuneCount,
		"RuneCountInString": utf8.RuneCountInString, "RuneLen": utf8.RuneLen, "RuneStart": utf8.RuneStart,
		"Valid": utf8.Valid, "ValidRune": utf8.ValidRune, "ValidString": utf8.ValidString,
	})
	adaptPkg("strings", map[string]any{
		"Clone": strings.Clone, "Compare": strings.Compare, "Contains": strings.Contains,
		"ContainsAny": strings.ContainsAny, "ContainsRune": strings.ContainsRune, "Count": strings.Count,
		"Cut": strings.Cut, "CutPrefix": strings.CutPrefix, "CutSuffix": strings.CutSuffix,
		"EqualFold": strings.EqualFold, "Fields": strings.Fields, "HasPrefix": strings.HasPrefix,
		"HasSuffix": strings.HasSuffix, "Index": strings.Index, "IndexAny": strings.IndexAny,
		"IndexByte": strings.IndexByte, "IndexRune": strings.IndexRune, "Join": strings.Join,
		"LastIndex": strings.LastIndex, "LastIndexAny": strings.LastIndexAny,
		"LastIndexByte": strings.LastIndexByte, "Repeat": strings.Repeat, "Replace": strings.Replace,
		"ReplaceAll": strings.ReplaceAll, "Split": strings.Split, "SplitAfter": strings.SplitAfter,
		"SplitAfterN": strings.SplitAfterN, "SplitN": strings.SplitN,
		"Title":   strings.Title, //nolint:staticcheck // modelled because programs call it
		"ToLower": strings.ToLower, "ToTitle": strings.ToTitle, "ToUpper": strings.ToUpper,
		"ToValidUTF8": strings.ToValidUTF8, "Trim": strings.Trim, "TrimLeft": strings.TrimLeft,
		"TrimPrefix": strings.TrimPrefix, "TrimRight": strings.TrimRight, "TrimSpace": strings.TrimSpace,
		"TrimSuffix": strings.TrimSuffix,
	})
	// bytes: only functions whose results do not alias their arguments.
	adaptPkg("bytes", map[string]any{
		"Compare": bytes.Compare, "Contains": bytes.Contains, "ContainsAny": bytes.ContainsAny,
		"ContainsRune": bytes.ContainsRune, "Count": bytes.Count, "Equal": bytes.Equal,
		"EqualFold": bytes.EqualFold, "HasPrefix": bytes.HasPrefix, "HasSuffix": bytes.HasSuffix,
		"Index": bytes.Index, "IndexAny": bytes.IndexAny, "IndexByte": bytes.IndexByte,
		"IndexRune": bytes.IndexRune, "LastIndex": bytes.LastIndex, "LastIndexAny": bytes.LastIndexAny,
		"LastIndexByte": bytes.LastIndexByte, "Repeat": bytes.Repeat, "ToLower": bytes.ToLower,
		"ToTitle": bytes.ToTitle, "ToUpper": bytes.ToUpper,
	})
	// internal/strconv (interpreted) converts floats with unsafe casts.
	adaptPkg("internal/strconv", map[string]any{
		"float64frombits": math.Float64frombits, "float32frombits": math.Float32frombits,
		"float64bits": math.Float64bits, "float32bits": math.Float32bits,
	})
	adaptPkg("internal/stringslite", map[string]any{
		"Clone": strings.Clone, "HasPrefix": strings.HasPrefix, "HasSuffix": strings.HasSuffix,
		"Index": strings.Index, "IndexByte": strings.IndexByte, "Cut": strings.Cut,
		"CutPrefix": strings.CutPrefix, "CutSuffix": strings.CutSuffix, "TrimPrefix": strings.TrimPrefix,
		"TrimSuffix": strings.TrimSuffix,
	})
	adaptPkg("internal/bytealg", map[string]any{
		"IndexByteString": strings.IndexByte, "IndexByte": bytes.IndexByte, "Count": func(b []byte, c byte) int { return bytes.Count(b, []byte{c}) },
		"CountString": func(s string, c byte) int { return strings.Count(s, string([]byte{c})) },
		"Compare": bytes.Compare, "Equal": bytes.Equal, "IndexString": strings.Index,
		"Index": bytes.Index, "LastIndexByte": bytes.LastIndexByte,
		"LastIndexByteString": strings.LastIndexByte,
		"Cutover": func(n int) int { return (n + 16) / 8 },
		"MakeNoZero": func(n int) []byte { return make([]byte, n) },
	})
	adaptPkg("time", map[string]any{
		"ParseDuration": time.ParseDuration,
	})
}

// --- strings.Builder: cell 0 = addr (*Builder, for the copy check), cell 1 = buf ([]byte) ---

func init() {
	// builder returns the receiver after Go's copy check.
	builder := func(t *thread, v Value, write bool) (Pointer, ctl) {
		p := ptrArg(v)
		if p.Obj == 0 {
			return p, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		addr, _ := t.cell(p, 0).(Pointer)
		if !write {
			return p, ctlNext
		}
		if addr.Obj == 0 {
			t.setCell(p, 0, p)
		} else if addr != p {
			return p, t.stringPanic("strings: illegal use of non-zero Builder copied by value")
		}
		return p, ctlNext
	}
	bufOf := func(t *thread, p Pointer) Slice { sl, _ := t.cell(p, 1).(Slice); return sl }
	appendBytes := func(t *thread, p Pointer, b []byte) {
		vals := make([]Value, len(b))
		for i, c := range b {
			vals[i] = c
		}
		t.setCell(p, 1, t.appendSlice(bufOf(t, p), t.m.byteType(), vals))
	}
	const sb = "(*strings.Builder)."
	def(sb+"String", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], false)
		if k != ctlNext {
			return nil, k
		}
		return string(t.s.bytesOf(bufOf(t, p))), ctlNext
	})
	def(sb+"Len", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], false)
		if k != ctlNext {
			return nil, k
		}
		return bufOf(t, p).Len, ctlNext
	})
	def(sb+"Cap", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], false)
		if k != ctlNext {
			return nil, k
		}
		return bufOf(t, p).Cap, ctlNext
	})
	def(sb+"Reset", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], false)
		if k != ctlNext {
			return nil, k
		}
		t.setCell(p, 0, Pointer{})
		t.setCell(p, 1, Slice{})
		return nil, ctlNext
	})
	def(sb+"Grow", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], true)
		if k != ctlNext {
			return nil, k
		}
		n := toInt(args[1])
		if n < 0 {
			return nil, t.stringPanic("strings.Builder.Grow: negative count")
		}
		buf := bufOf(t, p)
		if buf.Cap-buf.Len < n {
			nb := t.makeSlice(t.m.byteType(), buf.Len, 2*buf.Cap+n)
			t.copyCells(nb, t.s.sliceCells(buf, nil8), nil8)
			t.setCell(p, 1, nb)
		}
		return nil, ctlNext
	})
	def(sb+"Write", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], true)
		if k != ctlNext {
			return nil, k
		}
		b := t.s.bytesOf(args[1].(Slice))
		appendBytes(t, p, b)
		return Tuple{len(b), Iface{}}, ctlNext
	})
	def(sb+"WriteString", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], true)
		if k != ctlNext {
			return nil, k
		}
		s := args[1].(string)
		appendBytes(t, p, []byte(s))
		return Tuple{len(s), Iface{}}, ctlNext
	})
	def(sb+"WriteByte", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], true)
		if k != ctlNext {
			return nil, k
		}
		appendBytes(t, p, []byte{args[1].(uint8)})
		return Iface{}, ctlNext
	})
	def(sb+"WriteRune", func(t *thread, args []Value) (Value, ctl) {
		p, k := builder(t, args[0], true)
		if k != ctlNext {
			return nil, k
		}
		b := utf8.AppendRune(nil, rune(toInt64(args[1])))
		appendBytes(t, p, b)
		return Tuple{len(b), Iface{}}, ctlNext
	})
}

// --- sync/atomic ---

// withKind converts u to the Go type of the VM value like.
func withKind(like Value, u uint64) Value {
	switch like.(type) {
	case int32:
		return int32(u)
	case int64:
		return int64(u)
	case uint32:
		return uint32(u)
	case uint64:
		return u
	case uintptr:
		return uintptr(u)
	case int:
		return int(u)
	case uint:
		return uint(u)
	}
	return u
}

// atomicCell returns the cell an atomic operates on, or a nil-dereference panic.
func (t *thread) atomicCell(v Value, op string) (Pointer, ctl) {
	p := ptrArg(v)
	if p.Obj == 0 {
		return p, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	t.s.last.Op = "atomic." + op
	return p, ctlNext
}

// atomicLoad / atomicStore / atomicRMW are the three shapes of atomic
// operations; each is a scheduling point and a synchronization of the
// object holding the cell.
func (t *thread) atomicLoad(p Pointer) Value {
	v := t.cell(p, 0)
	t.raceAcquire(p.Obj)
	return v
}

func (t *thread) atomicStore(p Pointer, v Value) {
	t.raceRelease(p.Obj)
	if t.s.heap.get(p.Obj).shared {
		t.share(v)
	}
	t.setCell(p, 0, v)
}

func (t *thread) atomicRMW(p Pointer, f func(old Value) Value) Value {
	old := t.cell(p, 0)
	t.raceAcquire(p.Obj)
	nv := f(old)
	t.raceRelease(p.Obj)
	if t.s.heap.get(p.Obj).shared {
		t.share(nv)
	}
	t.setCell(p, 0, nv)
	return old
}

func b32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func init() {
	type atomicOps struct {
		load    func(t *thread, p Pointer) Value
		store   func(t *thread, p Pointer, v Value)
		swap    func(t *thread, p Pointer, v Value) Value
		cas     func(t *thread, p Pointer, old, nv Value) bool
		add     func(t *thread, p Pointer, d Value) Value
		and, or func(t *thread, p Pointer, m Value) Value
	}
	plain := atomicOps{
		load:  func(t *thread, p Pointer) Value { return t.atomicLoad(p) },
		store: func(t *thread, p Pointer, v Value) { t.atomicStore(p, v) },
		swap: func(t *thread, p Pointer, v Value) Value {
			return t.atomicRMW(p, func(Value) Value { return v })
		},
		cas: func(t *thread, p Pointer, old, nv Value) bool {
			if !equal(t.cell(p, 0), old) {
				t.raceAcquire(p.Obj)
				return false
			}
			t.atomicRMW(p, func(Value) Value { return nv })
			return true
		},
		add: func(t *thread, p Pointer, d Value) Value {
			old := t.atomicRMW(p, func(old Value) Value { return withKind(old, toUint64(old)+toUint64(d)) })
			return withKind(old, toUint64(old)+toUint64(d))
		},
		and: func(t *thread, p Pointer, m Value) Value {
			return t.atomicRMW(p, func(old Value) Value { return withKind(old, toUint64(old)&toUint64(m)) })
		},
		or: func(t *thread, p Pointer, m Value) Value {
			return t.atomicRMW(p, func(old Value) Value { return withKind(old, toUint64(old)|toUint64(m)) })
		},
	}
	reg := func(name, op string, fn func(t *thread, p Pointer, args []Value) Value) {
		defVisible(name, func(t *thread, args []Value) (Value, ctl) {
			p, k := t.atomicCell(args[0], op)
			if k != ctlNext {
				return nil, k
			}
			return fn(t, p, args[1:]), ctlNext
		})
	}
	regOps := func(fnName, method string, o atomicOps) {
		// fnName(addr, ...) for the functions, method for (*T).M
		names := func(op string) []string {
			var ns []string
			if fnName != "" {
				ns = append(ns, "sync/atomic."+op+fnName)
			}
			if method != "" {
				ns = append(ns, "(*sync/atomic."+method+")."+op)
			}
			return ns
		}
		for _, n := range names("Load") {
			reg(n, "Load", func(t *thread, p Pointer, a []Value) Value { return o.load(t, p) })
		}
		for _, n := range names("Store") {
			reg(n, "Store", func(t *thread, p Pointer, a []Value) Value { o.store(t, p, a[0]); return nil })
		}
		for _, n := range names("Swap") {
			reg(n, "Swap", func(t *thread, p Pointer, a []Value) Value { return o.swap(t, p, a[0]) })
		}
		for _, n := range names("CompareAndSwap") {
			reg(n, "CompareAndSwap", func(t *thread, p Pointer, a []Value) Value { return o.cas(t, p, a[0], a[1]) })
		}
		if o.add != nil {
			for _, n := range names("Add") {
				reg(n, "Add", func(t *thread, p Pointer, a []Value) Value { return o.add(t, p, a[0]) })
			}
			for _, n := range names("And") {
				reg(n, "And", func(t *thread, p Pointer, a []Value) Value { return o.and(t, p, a[0]) })
			}
			for _, n := range names("Or") {
				reg(n, "Or", func(t *thread, p Pointer, a []Value) Value { return o.or(t, p, a[0]) })
			}
		}
	}
	for _, k := range []string{"Int32", "Int64", "Uint32", "Uint64", "Uintptr"} {
		regOps(k, k, plain)
	}
	ptrOps := plain
	ptrOps.add = nil
	regOps("Pointer", "", ptrOps)
	// Bool: the cell is a uint32.
	regOps("", "Bool", atomicOps{
		load:  func(t *thread, p Pointer) Value { return toUint64(t.atomicLoad(p)) != 0 },
		store: func(t *thread, p Pointer, v Value) { t.atomicStore(p, b32(v.(bool))) },
		swap: func(t *thread, p Pointer, v Value) Value {
			return toUint64(t.atomicRMW(p, func(Value) Value { return b32(v.(bool)) })) != 0
		},
		cas: func(t *thread, p Pointer, old, nv Value) bool {
			return plain.cas(t, p, b32(old.(bool)), b32(nv.(bool)))
		},
	})
	// Value: the cell is an interface; stores must keep one dynamic type.
	valueCheck := func(t *thread, p Pointer, v Value, what string) ctl {
		iv, _ := v.(Iface)
		if iv.T == nil {
			return t.stringPanic("sync/atomic: " + what + " of nil value into Value")
		}
		if cur, _ := t.cell(p, 0).(Iface); cur.T != nil && cur.T != iv.T {
			return t.stringPanic("sync/atomic: " + what + " of inconsistently typed value into Value")
		}
		return ctlNext
	}
	const av = "(*sync/atomic.Value)."
	reg(av+"Load", "Load", func(t *thread, p Pointer, a []Value) Value { return t.atomicLoad(p) })
	defVisible(av+"Store", func(t *thread, args []Value) (Value, ctl) {
		p, k := t.atomicCell(args[0], "Store")
		if k == ctlNext {
			k = valueCheck(t, p, args[1], "store")
		}
		if k != ctlNext {
			return nil, k
		}
		t.atomicStore(p, args[1])
		return nil, ctlNext
	})
	defVisible(av+"Swap", func(t *thread, args []Value) (Value, ctl) {
		p, k := t.atomicCell(args[0], "Swap")
		if k == ctlNext {
			k = valueCheck(t, p, args[1], "swap")
		}
		if k != ctlNext {
			return nil, k
		}
		return t.atomicRMW(p, func(Value) Value { return args[1] }), ctlNext
	})
	defVisible(av+"CompareAndSwap", func(t *thread, args []Value) (Value, ctl) {
		p, k := t.atomicCell(args[0], "CompareAndSwap")
		if k == ctlNext {
			k = valueCheck(t, p, args[2], "compare and swap")
		}
		if k != ctlNext {
			return nil, k
		}
		old, _ := args[1].(Iface)
		if old.T != nil && !types.Comparable(old.T.T) {
			return nil, t.runtimePanic(t.g.top, "comparing uncomparable type "+old.T.String())
		}
		return plain.cas(t, p, args[1], args[2]), ctlNext
	})
	def("(*sync/atomic.noCopy).Lock", func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext })
	def("(*sync/atomic.noCopy).Unlock", func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext })
}
