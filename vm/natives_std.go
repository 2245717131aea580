package vm

import (
	"bytes"
	"encoding/binary"
	"go/types"
	"math"
	"math/rand"
	randv2 "math/rand/v2"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// Native models of standard-library packages that are not interpreted, or
// whose interpretation would be slow or need unsupported internals:
//
//   - math, unicode, and the pure functions of strings, bytes, unicode/utf8,
//     internal/stringslite and internal/bytealg: the real Go functions
//     behind the reflection adapter (natives_reflect.go); internal/strconv
//     is interpreted except its float<->bits casts;
//   - strings.Builder over its own cells (addr, buf []byte);
//   - sync/atomic functions and types: scheduling points that operate on
//     the value's only cell (the v field) and act as acquire/release of
//     the containing object for the race detector;
//   - sync.Map (cell 0 holds a VM map[any]any, allocated on first use),
//     sync.Pool (cell 0 holds a []any used as a LIFO stack; Get calls New
//     synchronously), RWMutex.RLocker and OnceFunc;
//   - runtime/pprof: the predefined profiles exist and write nothing; Do
//     calls its function;
//   - net.DialUDP without an address fails as in Go (no network);
//   - flag is interpreted; only its reflection on flag values is modelled;
//   - log: Print*/Fatal*/Panic* and the Logger accessors, headers over the
//     virtual clock in UTC;
//   - math/rand and math/rand/v2: deterministic generators whose state is
//     in VM cells (see v1State and the comment before it).
//
// Packages whose state a native keeps in package-level variables of a
// stripped package (math/rand, math/rand/v2, log) rely on those globals
// being created by vm.Machine with their globalInits.

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
		"Compare":     bytes.Compare, "Equal": bytes.Equal, "IndexString": strings.Index,
		"Index": bytes.Index, "LastIndexByte": bytes.LastIndexByte,
		"LastIndexByteString": strings.LastIndexByte,
		"Cutover":             func(n int) int { return (n + 16) / 8 },
		"MakeNoZero":          func(n int) []byte { return make([]byte, n) },
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

// globalVar returns the address of the package-level variable pkg.name, if
// the package is part of the program.
func (m *Machine) globalVar(pkg, name string) (Pointer, bool) {
	p := m.prog.SSA.ImportedPackage(pkg)
	if p == nil {
		return Pointer{}, false
	}
	g, ok := p.Members[name].(*ssa.Global)
	if !ok {
		return Pointer{}, false
	}
	ptr, ok := m.globals[g]
	return ptr, ok
}

// fieldOff returns the cell offset of field i of the struct type pkg.name.
func (m *Machine) fieldOff(pkg, name string, i int) int32 {
	rt := m.lookupType(pkg, name)
	if rt == nil || i >= len(rt.Fields) {
		return 0
	}
	return int32(rt.Fields[i])
}

// --- runtime/pprof: the predefined profiles (and "goroutineleak", as with
// GOEXPERIMENT=goroutineleakprofile) exist and write nothing ---

func init() {
	const pp = "runtime/pprof"
	newProfile := func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.lookupType(pp, "Profile")
		if rt == nil {
			return Pointer{}, ctlNext
		}
		p := t.alloc(rt)
		t.setCell(p, 0, args[0])
		return p, ctlNext
	}
	def(pp+".Lookup", func(t *thread, args []Value) (Value, ctl) {
		switch args[0].(string) {
		case "goroutine", "threadcreate", "heap", "allocs", "block", "mutex", "goroutineleak":
			return newProfile(t, args)
		}
		return Pointer{}, ctlNext
	})
	def(pp+".NewProfile", newProfile)
	def(pp+".Profiles", func(t *thread, args []Value) (Value, ctl) { return Slice{}, ctlNext })
	nilProfile := func(t *thread, args []Value) (Pointer, bool) {
		p := ptrArg(args[0])
		return p, p.Obj == 0
	}
	def("(*"+pp+".Profile).Name", func(t *thread, args []Value) (Value, ctl) {
		p, isNil := nilProfile(t, args)
		if isNil {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		return t.cell(p, 0), ctlNext
	})
	def("(*"+pp+".Profile).Count", func(t *thread, args []Value) (Value, ctl) { return 0, ctlNext })
	def("(*"+pp+".Profile).Add", func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext })
	def("(*"+pp+".Profile).Remove", func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext })
	def("(*"+pp+".Profile).WriteTo", func(t *thread, args []Value) (Value, ctl) {
		if _, isNil := nilProfile(t, args); isNil {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		return Iface{}, ctlNext
	})
	nilErr := func(t *thread, args []Value) (Value, ctl) { return Iface{}, ctlNext }
	noop := func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }
	def(pp+".StartCPUProfile", nilErr)
	def(pp+".StopCPUProfile", noop)
	def(pp+".WriteHeapProfile", nilErr)
	def(pp+".SetGoroutineLabels", noop)
	def(pp+".ForLabels", noop)
	def(pp+".Labels", func(t *thread, args []Value) (Value, ctl) {
		if rt := t.m.lookupType(pp, "LabelSet"); rt != nil {
			return rt.Zero(), ctlNext
		}
		return nil, ctlNext
	})
	def(pp+".WithLabels", func(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext })
	def(pp+".Label", func(t *thread, args []Value) (Value, ctl) { return Tuple{"", false}, ctlNext })
	def(pp+".Do", func(t *thread, args []Value) (Value, ctl) {
		return nil, t.callCont(t.g.top, args[2], []Value{args[0]}, func(t *thread, _ Value) ctl {
			return t.ret(t.g.top, nil)
		})
	})
	// net: no network; the dial a kernel makes with a nil address fails as in Go.
	def("net.DialUDP", func(t *thread, args []Value) (Value, ctl) {
		if p := ptrArg(args[2]); p.Obj == 0 {
			return Tuple{Pointer{}, t.newError("dial " + args[0].(string) + ": missing address")}, ctlNext
		}
		return nil, t.unsupported(t.g.top, "network connections (net.DialUDP)")
	})
}

// --- sync.Map: cell 0 holds a VM map[any]any; sync.Pool: cell 0 holds a []any ---

// callAbove calls fn(args) above the continuation frame cf, so that
// cf.cont runs again with the result (a loop of callbacks in a native).
func (t *thread) callAbove(cf *frame, fn Value, args []Value) ctl {
	c, _ := fn.(*Closure)
	if c == nil {
		return t.runtimePanic(cf, "invalid memory address or nil pointer dereference")
	}
	var nat *nativeFunc
	var callee *function
	if c.Native != nil {
		nat = c.Native
	} else if callee = t.m.compile(c.Fn); callee.native != nil {
		nat = callee.native
	}
	if nat != nil {
		if c.Bound != nil {
			args = append([]Value{c.Bound}, args...)
		}
		t.pushNativeCall(cf, nat, args)
		return ctlFrame
	}
	if callee.blocks == nil {
		return t.unsupported(cf, "call of "+c.Fn.String()+" (no body and no model)")
	}
	t.pushFrame(cf, callee, c.Env, args, -1, false)
	return ctlFrame
}

// syncMap returns the map object of the sync.Map at args[0] (0 if it has
// none and create is false).
func (t *thread) syncMap(v Value, op string, create bool) (Pointer, ObjID, ctl) {
	p := ptrArg(v)
	if p.Obj == 0 {
		return p, 0, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	t.s.last.Op = "sync.Map." + op
	mv, _ := t.cell(p, 0).(Map)
	if mv.Obj == 0 && create {
		rt := t.m.types.get(types.NewMap(types.Universe.Lookup("any").Type(), types.Universe.Lookup("any").Type()))
		mv = Map{Obj: t.newObject(&Object{kind: objMap, T: rt, Map: newMapData()})}
		if t.s.heap.get(p.Obj).shared {
			t.share(mv)
		}
		t.setCell(p, 0, mv)
	}
	return p, mv.Obj, ctlNext
}

// hashableKey panics (as a map of interface keys does) for an unhashable key.
func (t *thread) hashableKey(k Value) ctl {
	if iv, _ := k.(Iface); iv.T != nil && !types.Comparable(iv.T.T) {
		return t.runtimePanic(t.g.top, "hash of unhashable type "+iv.T.String())
	}
	return ctlNext
}

func init() {
	const sm = "(*sync.Map)."
	// mapOp wraps a sync.Map operation: nil check, key check, race hooks.
	mapOp := func(op string, write bool, f func(t *thread, m ObjID, args []Value) Value) {
		defVisible(sm+op, func(t *thread, args []Value) (Value, ctl) {
			p, id, k := t.syncMap(args[0], op, write)
			if k != ctlNext {
				return nil, k
			}
			if len(args) > 1 {
				if k := t.hashableKey(args[1]); k != ctlNext {
					return nil, k
				}
			}
			t.raceAcquire(p.Obj)
			res := f(t, id, args[1:])
			if write {
				t.raceRelease(p.Obj)
			}
			return res, ctlNext
		})
	}
	lookup := func(t *thread, id ObjID, k Value) (Value, bool) {
		if id == 0 {
			return Iface{}, false
		}
		v, ok := t.s.heap.get(id).Map.lookup(k)
		if !ok {
			return Iface{}, false
		}
		return v, true
	}
	set := func(t *thread, id ObjID, k, v Value) {
		o := t.s.heap.mut(id, t.s.epoch)
		if o.shared {
			t.share(k)
			t.share(v)
		}
		o.Map.set(k, v)
	}
	del := func(t *thread, id ObjID, k Value) {
		if id != 0 {
			t.s.heap.mut(id, t.s.epoch).Map.del(k)
		}
	}
	mapOp("Load", false, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		return Tuple{v, ok}
	})
	mapOp("Store", true, func(t *thread, id ObjID, a []Value) Value {
		set(t, id, a[0], a[1])
		return nil
	})
	mapOp("LoadOrStore", true, func(t *thread, id ObjID, a []Value) Value {
		if v, ok := lookup(t, id, a[0]); ok {
			return Tuple{v, true}
		}
		set(t, id, a[0], a[1])
		return Tuple{a[1], false}
	})
	mapOp("LoadAndDelete", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		del(t, id, a[0])
		return Tuple{v, ok}
	})
	mapOp("Delete", true, func(t *thread, id ObjID, a []Value) Value {
		del(t, id, a[0])
		return nil
	})
	mapOp("Swap", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		set(t, id, a[0], a[1])
		return Tuple{v, ok}
	})
	mapOp("CompareAndSwap", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		if !ok || !equal(v, a[1]) {
			return false
		}
		set(t, id, a[0], a[2])
		return true
	})
	mapOp("CompareAndDelete", true, func(t *thread, id ObjID, a []Value) Value {
		v, ok := lookup(t, id, a[0])
		if !ok || !equal(v, a[1]) {
			return false
		}
		del(t, id, a[0])
		return true
	})
	defVisible(sm+"Clear", func(t *thread, args []Value) (Value, ctl) {
		p, id, k := t.syncMap(args[0], "Clear", false)
		if k != ctlNext {
			return nil, k
		}
		if id != 0 {
			t.s.heap.mut(id, t.s.epoch).Map.clear()
		}
		t.raceRelease(p.Obj)
		return nil, ctlNext
	})
	// Range calls f on a snapshot of the entries, one call after the other
	// above a continuation frame whose pc counts the calls made.
	defVisible(sm+"Range", func(t *thread, args []Value) (Value, ctl) {
		p, id, k := t.syncMap(args[0], "Range", false)
		if k != ctlNext {
			return nil, k
		}
		t.raceAcquire(p.Obj)
		var ents []mapEntry
		if id != 0 {
			for _, e := range t.s.heap.get(id).Map.ents {
				if !e.dead {
					ents = append(ents, e)
				}
			}
		}
		if len(ents) == 0 {
			return nil, ctlNext
		}
		f := args[1]
		return nil, t.callCont(t.g.top, f, []Value{ents[0].k, ents[0].v}, func(t *thread, res Value) ctl {
			cf := t.g.top
			cf.pc++
			if b, _ := res.(bool); !b || cf.pc >= len(ents) {
				return t.ret(cf, nil)
			}
			return t.callAbove(cf, f, []Value{ents[cf.pc].k, ents[cf.pc].v})
		})
	})

	// Pool: a LIFO stack of the values put; Get calls New when it is empty.
	poolNew := func(t *thread) int32 { return t.m.fieldOff("sync", "Pool", 5) }
	defVisible("(*sync.Pool).Put", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if p.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		t.s.last.Op = "sync.Pool.Put"
		if iv, _ := args[1].(Iface); iv.T == nil {
			return nil, ctlNext
		}
		sl, _ := t.cell(p, 0).(Slice)
		anyT := t.m.types.get(types.Universe.Lookup("any").Type())
		sl = t.appendSlice(sl, anyT, []Value{args[1]})
		if t.s.heap.get(p.Obj).shared {
			t.share(sl)
		}
		t.raceRelease(p.Obj)
		t.setCell(p, 0, sl)
		return nil, ctlNext
	})
	defVisible("(*sync.Pool).Get", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if p.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		t.s.last.Op = "sync.Pool.Get"
		t.raceAcquire(p.Obj)
		if sl, _ := t.cell(p, 0).(Slice); sl.Len > 0 {
			anyT := t.m.types.get(types.Universe.Lookup("any").Type())
			v := t.s.sliceElem(sl, anyT, sl.Len-1)
			sl.Len--
			t.setCell(p, 0, sl)
			return v, ctlNext
		}
		newFn, _ := t.cell(p, poolNew(t)).(*Closure)
		if newFn == nil {
			return Iface{}, ctlNext
		}
		v, ok := t.syncCall(newFn, nil)
		if !ok {
			if t.s.err != nil {
				return nil, ctlStop
			}
			return nil, t.unsupported(t.g.top, "sync.Pool.New function that blocks or panics")
		}
		return v, ctlNext
	})
}

// (*sync.RWMutex).RLocker returns the mutex as a Locker whose Lock and
// Unlock are RLock and RUnlock (the RWMutex natives, looked up at call time).
func init() {
	def("(*sync.RWMutex).RLocker", func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.lookupType("sync", "rlocker")
		if rt == nil {
			return nil, t.unsupported(t.g.top, "sync.RWMutex.RLocker")
		}
		return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: args[0]}, ctlNext
	})
	forward := func(name, to string) {
		nf := defVisible(name, func(t *thread, args []Value) (Value, ctl) {
			return nativeTable[to].fn(t, args)
		})
		nf.guard = func(t *thread, args []Value) (bool, waitInfo) {
			if g := nativeTable[to].guard; g != nil {
				return g(t, args)
			}
			return true, waitInfo{}
		}
	}
	forward("(*sync.rlocker).Lock", "(*sync.RWMutex).RLock")
	forward("(*sync.rlocker).Unlock", "(*sync.RWMutex).RUnlock")
}

// --- math/rand and math/rand/v2 ---
//
// Random numbers are deterministic: a run is determined by its choices
// only. The generators' states live in VM cells (so snapshots and hashes
// cover them) and every derived value (Intn, Float64, Perm, Shuffle, ...)
// is computed by the real Go algorithm of *rand.Rand over a source that
// reads and advances those cells:
//
//   - math/rand: a Source made by NewSource(seed) is a *rand.lockedSource
//     whose s cell holds a v1State (the Go generator seeded with seed,
//     copied on every draw); the top-level functions use such a source
//     seeded with 1, as Go does with GODEBUG=randautoseed=0 (rand.Seed is
//     a no-op, as in Go 1.24 and later). Sources of other types are
//     called through their Int63/Uint64 methods.
//   - math/rand/v2: NewPCG is Go's PCG over its two cells; the top-level
//     functions use a PCG seeded with (randV2Seed1, randV2Seed2) in place
//     of the runtime's unpredictable source. ChaCha8 is not modelled.

const randV2Seed1, randV2Seed2 = 0x9e3779b97f4a7c15, 0x6a09e667f3bcc909

// v1State is the state of a math/rand source: the Go generator after n
// draws from seed. src is never modified once stored (draws copy it).
type v1State struct {
	seed int64
	n    uint64
	src  rand.Source64
}

func (s *v1State) hashInto(h *hasher) {
	h.int(s.seed)
	h.u64(s.n)
}

// draw returns f applied to a copy of the generator and the advanced state.
func (s *v1State) draw(f func(src rand.Source64) uint64) (uint64, *v1State) {
	var src rand.Source64
	if s.src == nil {
		src = rand.NewSource(s.seed).(rand.Source64)
	} else {
		v := reflect.ValueOf(s.src)
		c := reflect.New(v.Elem().Type())
		c.Elem().Set(v.Elem())
		src = c.Interface().(rand.Source64)
	}
	x := f(src)
	return x, &v1State{seed: s.seed, n: s.n + 1, src: src}
}

// vmSource is a math/rand(/v2) Source over a VM source value.
type vmSource struct {
	t      *thread
	src    Iface
	failed bool
}

func (s *vmSource) call(name string) uint64 {
	if s.failed {
		return 0
	}
	m := s.src.T.methodByName(name)
	if m == nil {
		s.failed = true
		return 0
	}
	v, ok := s.t.syncCall(m, []Value{s.src.V})
	if !ok {
		s.failed = true
		return 0
	}
	return toUint64(v)
}

// v1 draws from a *rand.lockedSource natively, from other sources by method calls.
func (s *vmSource) v1(name string, f func(src rand.Source64) uint64) uint64 {
	if s.src.T != nil && s.src.T.String() == "*rand.lockedSource" {
		p := ptrArg(s.src.V)
		off := s.t.m.fieldOff("math/rand", "lockedSource", 1)
		st, _ := s.t.cell(p, off).(*v1State)
		if st == nil {
			st = &v1State{seed: 1}
		}
		x, ns := st.draw(f)
		s.t.setCell(p, off, ns)
		return x
	}
	return s.call(name)
}

func (s *vmSource) Int63() int64 {
	return int64(s.v1("Int63", func(src rand.Source64) uint64 { return uint64(src.Int63()) }))
}
func (s *vmSource) Seed(int64) {}

type vmSource64 struct{ *vmSource }

func (s vmSource64) Uint64() uint64 {
	return s.v1("Uint64", func(src rand.Source64) uint64 { return src.Uint64() })
}

// v2Source is a math/rand/v2 Source over a VM source value.
type v2Source struct{ *vmSource }

func (s v2Source) Uint64() uint64 {
	if s.src.T != nil && s.src.T.String() == "*rand.PCG" {
		return s.t.pcgNext(ptrArg(s.src.V))
	}
	return s.call("Uint64")
}

// pcgNext advances the PCG whose cells (hi, lo) are at p.
func (t *thread) pcgNext(p Pointer) uint64 {
	g := randv2.NewPCG(toUint64(t.cell(p, 0)), toUint64(t.cell(p, 1)))
	x := g.Uint64()
	b, _ := g.MarshalBinary() // "pcg:" hi lo, big endian
	t.setCell(p, 0, binary.BigEndian.Uint64(b[4:]))
	t.setCell(p, 1, binary.BigEndian.Uint64(b[12:]))
	return x
}

// randCall runs f with a Go *rand.Rand over the VM source src and converts
// its panics and the source's failures.
func (t *thread) randCall(src *vmSource, f func() Value) (res Value, k ctl) {
	defer func() {
		if r := recover(); r != nil {
			res, k = nil, t.goPanic(r)
		}
	}()
	v := f()
	if src.failed {
		if t.s.err != nil {
			return nil, ctlStop
		}
		return nil, t.unsupported(t.g.top, "random source "+src.src.T.String()+" whose methods block or panic")
	}
	return v, ctlNext
}

// randMethods are the methods of *rand.Rand (v1 and v2) computed by Go.
func randMethods(t *thread, r any, name string, args []Value, src *vmSource) (Value, bool) {
	call := func(fn any) Value {
		rv := reflect.ValueOf(fn)
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			v, _ := t.goValueOf(a, rv.Type().In(i))
			in[i] = v
		}
		return t.vmValueOf(rv.Call(in)[0])
	}
	m := reflect.ValueOf(r).MethodByName(name)
	switch name {
	case "Shuffle":
		sw := args[1]
		reflect.ValueOf(r).MethodByName("Shuffle").Call([]reflect.Value{reflect.ValueOf(toInt(args[0])), reflect.ValueOf(func(i, j int) {
			if src.failed {
				return
			}
			if _, ok := t.syncCall(sw, []Value{i, j}); !ok {
				src.failed = true
			}
		})})
		return nil, true
	case "Read":
		sl := args[0].(Slice)
		b := make([]byte, sl.Len)
		reflect.ValueOf(r).MethodByName("Read").Call([]reflect.Value{reflect.ValueOf(b)})
		vals := make([]Value, len(b))
		for i, c := range b {
			vals[i] = c
		}
		t.copyCells(sl, vals, nil8)
		return Tuple{len(b), Iface{}}, true
	}
	if !m.IsValid() {
		return nil, false
	}
	return call(m.Interface()), true
}

func init() {
	// v1
	const r1 = "math/rand"
	v1Source := func(t *thread, r Pointer) *vmSource {
		src, _ := t.cell(r, 0).(Iface)
		return &vmSource{t: t, src: src}
	}
	goRand1 := func(src *vmSource) *rand.Rand {
		if src.src.T != nil && (src.src.T.String() == "*rand.lockedSource" || src.src.T.methodByName("Uint64") != nil) {
			return rand.New(vmSource64{src})
		}
		return rand.New(src)
	}
	globalRand1 := func(t *thread) Pointer {
		g, _ := t.m.globalVar(r1, "globalRandGenerator")
		if g.Obj == 0 {
			return Pointer{}
		}
		return ptrArg(t.cell(g, 0))
	}
	newSource1 := func(t *thread, seed int64) Value {
		rt := t.m.lookupType(r1, "lockedSource")
		p := t.alloc(rt)
		t.setCell(p, int32(rt.Fields[1]), &v1State{seed: seed})
		return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: p}
	}
	globalInits[r1+".globalRandGenerator"] = func(m *Machine, o *Object) {
		srcT, randT := m.lookupType(r1, "lockedSource"), m.lookupType(r1, "Rand")
		if srcT == nil || randT == nil {
			return
		}
		sc := cellsOf(srcT)
		sc[srcT.Fields[1]] = &v1State{seed: 1}
		sid := m.base.alloc(&Object{T: srcT, Cells: sc, shared: true}, 0)
		src := Iface{T: m.types.get(types.NewPointer(srcT.T)), V: Pointer{Obj: sid}}
		rc := cellsOf(randT)
		rc[0], rc[1] = src, src
		o.Cells[0] = Pointer{Obj: m.base.alloc(&Object{T: randT, Cells: rc, shared: true}, 0)}
	}
	def(r1+".NewSource", func(t *thread, args []Value) (Value, ctl) { return newSource1(t, toInt64(args[0])), ctlNext })
	def(r1+".New", func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.lookupType(r1, "Rand")
		p := t.alloc(rt)
		src, _ := args[0].(Iface)
		t.setCell(p, 0, src)
		if src.T != nil && src.T.methodByName("Uint64") != nil {
			t.setCell(p, 1, src)
		}
		return p, ctlNext
	})
	def(r1+".Seed", func(t *thread, args []Value) (Value, ctl) { return nil, ctlNext })
	def("(*"+r1+".Rand).Seed", func(t *thread, args []Value) (Value, ctl) {
		src := v1Source(t, ptrArg(args[0]))
		if src.src.T != nil && src.src.T.String() == "*rand.lockedSource" {
			off := t.m.fieldOff(r1, "lockedSource", 1)
			t.setCell(ptrArg(src.src.V), off, &v1State{seed: toInt64(args[1])})
			return nil, ctlNext
		}
		if m := src.src.T.methodByName("Seed"); m != nil {
			if _, ok := t.syncCall(m, []Value{src.src.V, args[1]}); !ok {
				return nil, t.errMethodFailed("Seed", src.src)
			}
		}
		return nil, ctlNext
	})
	for _, name := range []string{"Int63", "Uint32", "Uint64", "Int31", "Int", "Int63n", "Int31n", "Intn",
		"Float64", "Float32", "Perm", "Shuffle", "Read", "NormFloat64", "ExpFloat64"} {
		name := name
		method := func(t *thread, r Pointer, args []Value) (Value, ctl) {
			if r.Obj == 0 {
				return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
			}
			src := v1Source(t, r)
			t.s.last.Op = "rand." + name
			return t.randCall(src, func() Value {
				v, _ := randMethods(t, goRand1(src), name, args, src)
				return v
			})
		}
		def("(*"+r1+".Rand)."+name, func(t *thread, args []Value) (Value, ctl) {
			return method(t, ptrArg(args[0]), args[1:])
		})
		def(r1+"."+name, func(t *thread, args []Value) (Value, ctl) {
			return method(t, globalRand1(t), args)
		})
	}
	for _, name := range []string{"Int63", "Uint64"} {
		name := name
		def("(*"+r1+".lockedSource)."+name, func(t *thread, args []Value) (Value, ctl) {
			src := &vmSource{t: t, src: Iface{T: t.m.types.get(types.NewPointer(t.m.lookupType(r1, "lockedSource").T)), V: args[0]}}
			if name == "Int63" {
				return src.Int63(), ctlNext
			}
			return vmSource64{src}.Uint64(), ctlNext
		})
	}
	def("(*"+r1+".lockedSource).Seed", func(t *thread, args []Value) (Value, ctl) {
		t.setCell(ptrArg(args[0]), t.m.fieldOff(r1, "lockedSource", 1), &v1State{seed: toInt64(args[1])})
		return nil, ctlNext
	})

	// v2
	const r2 = "math/rand/v2"
	globalInits[r2+".globalRand"] = func(m *Machine, o *Object) {
		pcgT, randT := m.lookupType(r2, "PCG"), m.lookupType(r2, "Rand")
		if pcgT == nil || randT == nil {
			return
		}
		pid := m.base.alloc(&Object{T: pcgT, Cells: []Value{uint64(randV2Seed1), uint64(randV2Seed2)}, shared: true}, 0)
		src := Iface{T: m.types.get(types.NewPointer(pcgT.T)), V: Pointer{Obj: pid}}
		o.Cells[0] = Pointer{Obj: m.base.alloc(&Object{T: randT, Cells: []Value{src}, shared: true}, 0)}
	}
	def(r2+".NewPCG", func(t *thread, args []Value) (Value, ctl) {
		p := t.alloc(t.m.lookupType(r2, "PCG"))
		t.setCell(p, 0, toUint64(args[0]))
		t.setCell(p, 1, toUint64(args[1]))
		return p, ctlNext
	})
	def("(*"+r2+".PCG).Seed", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		t.setCell(p, 0, toUint64(args[1]))
		t.setCell(p, 1, toUint64(args[2]))
		return nil, ctlNext
	})
	def("(*"+r2+".PCG).Uint64", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if p.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		return t.pcgNext(p), ctlNext
	})
	def(r2+".New", func(t *thread, args []Value) (Value, ctl) {
		p := t.alloc(t.m.lookupType(r2, "Rand"))
		t.setCell(p, 0, args[0])
		return p, ctlNext
	})
	globalRand2 := func(t *thread) Pointer {
		g, _ := t.m.globalVar(r2, "globalRand")
		if g.Obj == 0 {
			return Pointer{}
		}
		return ptrArg(t.cell(g, 0))
	}
	for _, name := range []string{"Int64", "Uint32", "Uint64N", "Uint32N", "Uint64", "Int32", "Int", "Uint",
		"Int64N", "Int32N", "IntN", "UintN", "Float64", "Float32", "Perm", "Shuffle", "NormFloat64",
		"ExpFloat64", "uint64n"} {
		name := name
		method := func(t *thread, r Pointer, args []Value) (Value, ctl) {
			if r.Obj == 0 {
				return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
			}
			src, _ := t.cell(r, 0).(Iface)
			vs := &vmSource{t: t, src: src}
			t.s.last.Op = "rand." + name
			return t.randCall(vs, func() Value {
				gr := randv2.New(v2Source{vs})
				if name == "uint64n" {
					return gr.Uint64N(toUint64(args[0]))
				}
				v, _ := randMethods(t, gr, name, args, vs)
				return v
			})
		}
		def("(*"+r2+".Rand)."+name, func(t *thread, args []Value) (Value, ctl) {
			return method(t, ptrArg(args[0]), args[1:])
		})
		if name != "uint64n" {
			def(r2+"."+name, func(t *thread, args []Value) (Value, ctl) {
				return method(t, globalRand2(t), args)
			})
		}
	}
}

// --- log: a Logger's state is in its own cells (out, prefix as a string,
// flag as an int32); the time in headers is the virtual clock, in UTC ---

const (
	logDate = 1 << iota
	logTime
	logMicro
	logLongFile
	logShortFile
	logUTC
	logMsgPrefix
	logStdFlags = logDate | logTime
)

type logger struct {
	p                  Pointer
	out, prefix, flags int32 // cell offsets
}

func (t *thread) logger(v Value) (logger, ctl) {
	p := ptrArg(v)
	if p.Obj == 0 {
		return logger{}, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	return logger{p: p, out: t.m.fieldOff("log", "Logger", 1), prefix: t.m.fieldOff("log", "Logger", 2),
		flags: t.m.fieldOff("log", "Logger", 3)}, ctlNext
}

func (t *thread) stdLogger() Value {
	g, _ := t.m.globalVar("log", "std")
	if g.Obj == 0 {
		return Pointer{}
	}
	return t.cell(g, 0)
}

// callerFile returns the file and line of the user code calling the native.
func (t *thread) callerFile() (string, int) {
	for f := t.g.top; f != nil; f = f.caller {
		if f.fn != nil && f.fn.ssa.Synthetic == "" && f.block != nil {
			l := t.locOf(f)
			if l.Index > 0 {
				l.Index--
			}
			p := t.m.prog.Fset.Position(l.Pos())
			return p.Filename, p.Line
		}
	}
	return "???", 0
}

// logOutput writes msg with the logger's header; it returns the full line.
func (t *thread) logOutput(l logger, msg string) ctl {
	flags, _ := t.cell(l.p, l.flags).(int32)
	prefix, _ := t.cell(l.p, l.prefix).(string)
	var b strings.Builder
	if flags&logMsgPrefix == 0 {
		b.WriteString(prefix)
	}
	if flags&(logDate|logTime|logMicro) != 0 {
		now := time.Unix(0, epochBase+t.s.clock).UTC()
		if flags&logDate != 0 {
			b.WriteString(now.Format("2006/01/02 "))
		}
		if flags&(logTime|logMicro) != 0 {
			if flags&logMicro != 0 {
				b.WriteString(now.Format("15:04:05.000000 "))
			} else {
				b.WriteString(now.Format("15:04:05 "))
			}
		}
	}
	if flags&(logShortFile|logLongFile) != 0 {
		file, line := t.callerFile()
		if flags&logShortFile != 0 {
			file = file[strings.LastIndexByte(file, '/')+1:]
		}
		b.WriteString(file + ":" + itoa(line) + ": ")
	}
	if flags&logMsgPrefix != 0 {
		b.WriteString(prefix)
	}
	b.WriteString(msg)
	if !strings.HasSuffix(msg, "\n") {
		b.WriteByte('\n')
	}
	out, _ := t.cell(l.p, l.out).(Iface)
	if out.T == nil {
		t.s.write(2, b.String())
		return ctlNext
	}
	_, k := t.writeTo(out, b.String())
	return k
}

func init() {
	globalInits["log.std"] = func(m *Machine, o *Object) {
		rt := m.lookupType("log", "Logger")
		if rt == nil {
			return
		}
		cells := cellsOf(rt)
		cells[rt.Fields[2]] = ""
		cells[rt.Fields[3]] = int32(logStdFlags)
		o.Cells[0] = Pointer{Obj: m.base.alloc(&Object{T: rt, Cells: cells, shared: true}, 0)}
	}
	def("log.New", func(t *thread, args []Value) (Value, ctl) {
		p := t.alloc(t.m.lookupType("log", "Logger"))
		l, _ := t.logger(p)
		t.setCell(p, l.out, args[0])
		t.setCell(p, l.prefix, args[1])
		t.setCell(p, l.flags, int32(toInt(args[2])))
		return p, ctlNext
	})
	def("log.Default", func(t *thread, args []Value) (Value, ctl) { return t.stdLogger(), ctlNext })
	// kinds of output: 0 print, 1 fatal (exit 1), 2 panic
	type logFn struct {
		name string
		kind int
		msg  func(t *thread, args []Value) string
	}
	fns := []logFn{
		{"Print", 0, func(t *thread, a []Value) string { return t.sprint(t.sliceValues(a[0])) }},
		{"Printf", 0, func(t *thread, a []Value) string { return t.sprintf(a[0].(string), t.sliceValues(a[1])) }},
		{"Println", 0, func(t *thread, a []Value) string { return t.sprintln(t.sliceValues(a[0])) }},
		{"Fatal", 1, func(t *thread, a []Value) string { return t.sprint(t.sliceValues(a[0])) }},
		{"Fatalf", 1, func(t *thread, a []Value) string { return t.sprintf(a[0].(string), t.sliceValues(a[1])) }},
		{"Fatalln", 1, func(t *thread, a []Value) string { return t.sprintln(t.sliceValues(a[0])) }},
		{"Panic", 2, func(t *thread, a []Value) string { return t.sprint(t.sliceValues(a[0])) }},
		{"Panicf", 2, func(t *thread, a []Value) string { return t.sprintf(a[0].(string), t.sliceValues(a[1])) }},
		{"Panicln", 2, func(t *thread, a []Value) string { return t.sprintln(t.sliceValues(a[0])) }},
	}
	for _, f := range fns {
		f := f
		run := func(t *thread, lv Value, args []Value) (Value, ctl) {
			l, k := t.logger(lv)
			if k != ctlNext {
				return nil, k
			}
			msg := f.msg(t, args)
			if k := t.logOutput(l, msg); k != ctlNext {
				return nil, k
			}
			switch f.kind {
			case 1:
				return nativeTable["os.Exit"].fn(t, []Value{1})
			case 2:
				return nil, t.stringPanic(msg)
			}
			return nil, ctlNext
		}
		def("(*log.Logger)."+f.name, func(t *thread, args []Value) (Value, ctl) { return run(t, args[0], args[1:]) })
		def("log."+f.name, func(t *thread, args []Value) (Value, ctl) { return run(t, t.stdLogger(), args) })
	}
	type logAcc struct {
		name string
		fn   func(t *thread, l logger, args []Value) Value
	}
	accs := []logAcc{
		{"Flags", func(t *thread, l logger, a []Value) Value { f, _ := t.cell(l.p, l.flags).(int32); return int(f) }},
		{"SetFlags", func(t *thread, l logger, a []Value) Value { t.setCell(l.p, l.flags, int32(toInt(a[0]))); return nil }},
		{"Prefix", func(t *thread, l logger, a []Value) Value { s, _ := t.cell(l.p, l.prefix).(string); return s }},
		{"SetPrefix", func(t *thread, l logger, a []Value) Value { t.setCell(l.p, l.prefix, a[0]); return nil }},
		{"SetOutput", func(t *thread, l logger, a []Value) Value { t.setCell(l.p, l.out, a[0]); return nil }},
		{"Writer", func(t *thread, l logger, a []Value) Value {
			if out, _ := t.cell(l.p, l.out).(Iface); out.T != nil {
				return out
			}
			if rt := t.m.lookupType("os", "File"); rt != nil {
				return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: Pointer{Obj: t.m.stderr}}
			}
			return Iface{}
		}},
		{"Output", func(t *thread, l logger, a []Value) Value { return nil }},
	}
	for _, acc := range accs {
		acc := acc
		run := func(t *thread, lv Value, args []Value) (Value, ctl) {
			l, k := t.logger(lv)
			if k != ctlNext {
				return nil, k
			}
			if acc.name == "Output" {
				if k := t.logOutput(l, args[1].(string)); k != ctlNext {
					return nil, k
				}
				return Iface{}, ctlNext
			}
			return acc.fn(t, l, args), ctlNext
		}
		def("(*log.Logger)."+acc.name, func(t *thread, args []Value) (Value, ctl) { return run(t, args[0], args[1:]) })
		def("log."+acc.name, func(t *thread, args []Value) (Value, ctl) { return run(t, t.stdLogger(), args) })
	}
}

// flag is interpreted; its isZeroValue (for PrintDefaults) uses reflect to
// make a zero value of a flag's Value type: modelled here over VM types.
func init() {
	def("flag.isZeroValue", func(t *thread, args []Value) (Value, ctl) {
		p := ptrArg(args[0])
		if p.Obj == 0 {
			return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
		}
		fv, _ := t.cell(p, t.m.fieldOff("flag", "Flag", 2)).(Iface)
		if fv.T == nil {
			return Tuple{false, Iface{}}, ctlNext
		}
		zero := fv.T.Zero()
		if _, ok := fv.T.T.Underlying().(*types.Pointer); ok {
			zero = t.alloc(fv.T.Elem)
		}
		m := fv.T.methodByName("String")
		if m == nil {
			return Tuple{false, Iface{}}, ctlNext
		}
		s, ok := t.syncCall(m, []Value{zero})
		if !ok {
			if t.s.err != nil {
				return nil, ctlStop
			}
			return Tuple{false, t.newError("panic calling String method on zero " + fv.T.String())}, ctlNext
		}
		return Tuple{s == args[1], Iface{}}, ctlNext
	})
}

// sync.OnceFunc (not generic, so not interpreted) returns a function that
// runs f through a sync.Once of its own: the function value is a native
// closure bound to (the *Once, f). Unlike Go, a panic of f is not raised
// again by later calls.
func init() {
	onceFn := &nativeFunc{name: "sync.OnceFunc.func1", visible: true}
	onceArgs := func(args []Value) []Value {
		tp, _ := args[0].(Tuple)
		return []Value{tp[0], tp[1]}
	}
	onceFn.fn = func(t *thread, args []Value) (Value, ctl) {
		return nativeTable["(*sync.Once).Do"].fn(t, onceArgs(args))
	}
	onceFn.guard = func(t *thread, args []Value) (bool, waitInfo) {
		if g := nativeTable["(*sync.Once).Do"].guard; g != nil {
			return g(t, onceArgs(args))
		}
		return true, waitInfo{}
	}
	def("sync.OnceFunc", func(t *thread, args []Value) (Value, ctl) {
		rt := t.m.lookupType("sync", "Once")
		if rt == nil {
			return nil, t.unsupported(t.g.top, "sync.OnceFunc")
		}
		return &Closure{Native: onceFn, Bound: Tuple{t.alloc(rt), args[0]}}, ctlNext
	})
}
