package vm

import (
	"bytes"
	"math"
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
//     behind the reflection adapter (natives_adapt.go); internal/strconv
//     is interpreted except its float<->bits casts;
//   - strings.Builder over its own cells (addr, buf []byte);
//   - sync/atomic functions and types (natives_atomic.go): scheduling
//     points that operate on the value's only cell (the v field) and act
//     as acquire/release of the containing object for the race detector;
//   - sync.Map (cell 0 holds a VM map[any]any, allocated on first use),
//     sync.Pool (cell 0 holds a []any used as a LIFO stack; Get calls New
//     synchronously; the standard library's own pools drop what is put),
//     RWMutex.RLocker and OnceFunc (natives_sync_mappool.go);
//   - runtime/pprof: the predefined profiles exist and write nothing; Do
//     calls its function;
//   - net.DialUDP without an address fails as in Go (no network);
//   - math/rand and math/rand/v2 run from source over a deterministic
//     runtime_rand (natives_rand.go).
//
// Packages whose state a native keeps in package-level variables of a
// stripped package rely on those globals being created by vm.Machine with
// their globalInits.

// The adapters below stay because they pay: CPU of `gmc run` over 20,000
// iterations (benchmarks/RESULTS.md, "Session 9: the standard library by
// default"), per call adapted vs interpreted from source: strings.Split
// 31 vs 109 µs, strings.ToUpper 15 vs 282 µs, bytes.Index ~0 vs 16 µs,
// unicode.IsSpace 1.35 vs 2.1 µs, math.Sqrt 4 vs 45 µs (Go's software
// square root). math has more reasons: its Float64bits family reads a
// float's memory as an integer (the VM's cells are typed), and Floor,
// Ceil, Trunc, Exp, Log, Hypot and Modf are assembly on amd64 with no
// build tag selecting their Go code. internal/bytealg is stripped
// (assembly); internal/stringslite's functions are strings' own.
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
	// unicode/utf8: only the functions that loop over their whole input;
	// the decoders run from source (measured: utf8.DecodeRuneInString
	// 1.45 µs a call adapted, 1.49 µs interpreted).
	adaptPkg("unicode/utf8", map[string]any{
		"RuneCount": utf8.RuneCount, "RuneCountInString": utf8.RuneCountInString,
		"Valid": utf8.Valid, "ValidString": utf8.ValidString,
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
		"Compare":     bytes.Compare, "CompareString": strings.Compare, "Equal": bytes.Equal, "IndexString": strings.Index,
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

// sbRecv prefixes the natives of strings.Builder's methods.
const sbRecv = "(*strings.Builder)."

func init() {
	def(sbRecv+"String", nativeStringsBuilderString)
	def(sbRecv+"Len", nativeStringsBuilderLen)
	def(sbRecv+"Cap", nativeStringsBuilderCap)
	def(sbRecv+"Reset", nativeStringsBuilderReset)
	def(sbRecv+"Grow", nativeStringsBuilderGrow)
	def(sbRecv+"Write", nativeStringsBuilderWrite)
	def(sbRecv+"WriteString", nativeStringsBuilderWriteString)
	def(sbRecv+"WriteByte", nativeStringsBuilderWriteByte)
	def(sbRecv+"WriteRune", nativeStringsBuilderWriteRune)
}

// sbReceiver returns a strings.Builder method's receiver after Go's copy
// check.
func (t *thread) sbReceiver(v Value, write bool) (Pointer, ctl) {
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

// sbBuf is a strings.Builder's buffer.
func (t *thread) sbBuf(p Pointer) Slice { sl, _ := t.cell(p, 1).(Slice); return sl }

// sbAppend appends b to a strings.Builder's buffer.
func (t *thread) sbAppend(p Pointer, b []byte) {
	vals := make([]Value, len(b))
	for i, c := range b {
		vals[i] = c
	}
	t.setCell(p, 1, t.appendSlice(t.sbBuf(p), t.m.byteType(), vals))
}

// nativeStringsBuilderString is (*strings.Builder).String.
func nativeStringsBuilderString(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], false)
	if k != ctlNext {
		return nil, k
	}
	return string(t.s.bytesOf(t.sbBuf(p))), ctlNext
}

// nativeStringsBuilderLen is (*strings.Builder).Len.
func nativeStringsBuilderLen(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], false)
	if k != ctlNext {
		return nil, k
	}
	return t.sbBuf(p).Len, ctlNext
}

// nativeStringsBuilderCap is (*strings.Builder).Cap.
func nativeStringsBuilderCap(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], false)
	if k != ctlNext {
		return nil, k
	}
	return t.sbBuf(p).Cap, ctlNext
}

// nativeStringsBuilderReset is (*strings.Builder).Reset.
func nativeStringsBuilderReset(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], false)
	if k != ctlNext {
		return nil, k
	}
	t.setCell(p, 0, Pointer{})
	t.setCell(p, 1, Slice{})
	return nil, ctlNext
}

// nativeStringsBuilderGrow is (*strings.Builder).Grow.
func nativeStringsBuilderGrow(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], true)
	if k != ctlNext {
		return nil, k
	}
	n := toInt(args[1])
	if n < 0 {
		return nil, t.stringPanic("strings.Builder.Grow: negative count")
	}
	buf := t.sbBuf(p)
	if buf.Cap-buf.Len < n {
		nb := t.makeSlice(t.m.byteType(), buf.Len, 2*buf.Cap+n)
		t.copyCells(nb, t.s.sliceCells(buf, nil8), nil8)
		t.setCell(p, 1, nb)
	}
	return nil, ctlNext
}

// nativeStringsBuilderWrite is (*strings.Builder).Write.
func nativeStringsBuilderWrite(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], true)
	if k != ctlNext {
		return nil, k
	}
	b := t.s.bytesOf(args[1].(Slice))
	t.sbAppend(p, b)
	return Tuple{len(b), Iface{}}, ctlNext
}

// nativeStringsBuilderWriteString is (*strings.Builder).WriteString.
func nativeStringsBuilderWriteString(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], true)
	if k != ctlNext {
		return nil, k
	}
	s := args[1].(string)
	t.sbAppend(p, []byte(s))
	return Tuple{len(s), Iface{}}, ctlNext
}

// nativeStringsBuilderWriteByte is (*strings.Builder).WriteByte.
func nativeStringsBuilderWriteByte(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], true)
	if k != ctlNext {
		return nil, k
	}
	t.sbAppend(p, []byte{args[1].(uint8)})
	return Iface{}, ctlNext
}

// nativeStringsBuilderWriteRune is (*strings.Builder).WriteRune.
func nativeStringsBuilderWriteRune(t *thread, args []Value) (Value, ctl) {
	p, k := t.sbReceiver(args[0], true)
	if k != ctlNext {
		return nil, k
	}
	b := utf8.AppendRune(nil, rune(toInt64(args[1])))
	t.sbAppend(p, b)
	return Tuple{len(b), Iface{}}, ctlNext
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
	def(pp+".Profiles", nativeRuntimePprofProfiles)
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
	def("(*"+pp+".Profile).Count", nativeRuntimePprofProfileCount)
	def("(*"+pp+".Profile).Add", nativeRuntimePprofProfileAdd)
	def("(*"+pp+".Profile).Remove", nativeRuntimePprofProfileRemove)
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
	def(pp+".Labels", nativeRuntimePprofLabels)
	def(pp+".WithLabels", nativeRuntimePprofWithLabels)
	def(pp+".Label", nativeRuntimePprofLabel)
	def(pp+".Do", nativeRuntimePprofDo)
	// net: no network; the dial a kernel makes with a nil address fails as in Go.
	def("net.DialUDP", nativeNetDialUDP)
}

// nativeRuntimePprofProfiles is runtime/pprof.Profiles.
func nativeRuntimePprofProfiles(t *thread, args []Value) (Value, ctl) { return Slice{}, ctlNext }

// pprofThreads is the count of the threadcreate profile: the threads a Go
// process has created, at least its main thread, the sysmon thread and one
// per further P (the VM's GOMAXPROCS is 2), a constant of the machine
// like its page size.
const pprofThreads = 3

// nativeRuntimePprofProfileCount is (*runtime/pprof.Profile).Count: the
// goroutine profile counts the goroutines runtime.NumGoroutine counts,
// threadcreate the machine's threads (pprofThreads); the other predefined
// profiles, and profiles of the program's own (Add is not recorded), have
// no records.
func nativeRuntimePprofProfileCount(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	switch name, _ := t.cell(p, 0).(string); name {
	case "goroutine":
		return nativeRuntimeNumGoroutine(t, nil)
	case "threadcreate":
		return pprofThreads, ctlNext
	}
	return 0, ctlNext
}

// nativeRuntimePprofProfileAdd is (*runtime/pprof.Profile).Add.
func nativeRuntimePprofProfileAdd(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeRuntimePprofProfileRemove is (*runtime/pprof.Profile).Remove.
func nativeRuntimePprofProfileRemove(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeRuntimePprofLabels is runtime/pprof.Labels.
func nativeRuntimePprofLabels(t *thread, args []Value) (Value, ctl) {
	if rt := t.m.lookupType("runtime/pprof", "LabelSet"); rt != nil {
		return rt.Zero(), ctlNext
	}
	return nil, ctlNext
}

// nativeRuntimePprofWithLabels is runtime/pprof.WithLabels.
func nativeRuntimePprofWithLabels(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext }

// nativeRuntimePprofLabel is runtime/pprof.Label.
func nativeRuntimePprofLabel(t *thread, args []Value) (Value, ctl) { return Tuple{"", false}, ctlNext }

// nativeRuntimePprofDo is runtime/pprof.Do.
func nativeRuntimePprofDo(t *thread, args []Value) (Value, ctl) {
	return nil, t.callCont(t.g.top, args[2], []Value{args[0]}, func(t *thread, _ Value) ctl {
		return t.ret(t.g.top, nil)
	})
}

// nativeNetDialUDP is net.DialUDP.
func nativeNetDialUDP(t *thread, args []Value) (Value, ctl) {
	if p := ptrArg(args[2]); p.Obj == 0 {
		return Tuple{Pointer{}, t.newError("dial " + args[0].(string) + ": missing address")}, ctlNext
	}
	return nil, t.unsupported(t.g.top, "network connections (net.DialUDP)")
}

// internal/godebug: every setting has its default value (GODEBUG is not
// read), the default of the main module's go line as go test builds it
// (Machine.godebugOld: randseednop=0 before Go 1.24, so that
// rcrowley/go-metrics' rand.Seed(1) gives its expected samples); a
// *Setting is a Setting holding its name.
func init() {
	def("internal/godebug.New", nativeInternalGodebugNew)
	def("(*internal/godebug.Setting).Value", nativeInternalGodebugSettingValue)
	def("(*internal/godebug.Setting).String", nativeInternalGodebugSettingString)
	def("(*internal/godebug.Setting).Name", nativeInternalGodebugSettingName)
	def("(*internal/godebug.Setting).IncNonDefault", nativeInternalGodebugSettingIncNonDefault)
	def("(*internal/godebug.Setting).Undocumented", nativeInternalGodebugSettingUndocumented)
}

// godebugValues are the settings that do not have their default value:
// none. (math/rand's global generator is Go's default, runtimeSource over
// the VM's deterministic runtime_rand: natives_rand.go.)
var godebugValues = map[string]string{}

// nativeInternalGodebugSettingValue is (*internal/godebug.Setting).Value.
func nativeInternalGodebugSettingValue(t *thread, args []Value) (Value, ctl) {
	p := args[0].(Pointer)
	name, _ := t.s.heap.get(p.Obj).cell(int(p.Off)).(string)
	if v, ok := t.m.godebugOld[name]; ok {
		return v, ctlNext
	}
	return godebugValues[name], ctlNext
}

// nativeInternalGodebugSettingString is (*internal/godebug.Setting).String.
func nativeInternalGodebugSettingString(t *thread, args []Value) (Value, ctl) {
	p := args[0].(Pointer)
	return t.s.heap.get(p.Obj).cell(int(p.Off)).(string) + "=", ctlNext
}

// nativeInternalGodebugSettingName is (*internal/godebug.Setting).Name.
func nativeInternalGodebugSettingName(t *thread, args []Value) (Value, ctl) {
	p := args[0].(Pointer)
	return t.s.heap.get(p.Obj).cell(int(p.Off)).(string), ctlNext
}

// nativeInternalGodebugSettingIncNonDefault is (*internal/godebug.Setting).IncNonDefault.
func nativeInternalGodebugSettingIncNonDefault(t *thread, args []Value) (Value, ctl) {
	return nil, ctlNext
}

// nativeInternalGodebugSettingUndocumented is (*internal/godebug.Setting).Undocumented.
func nativeInternalGodebugSettingUndocumented(t *thread, args []Value) (Value, ctl) {
	return false, ctlNext
}

// nativeInternalGodebugNew is internal/godebug.New.
func nativeInternalGodebugNew(t *thread, args []Value) (Value, ctl) {
	rt := t.m.lookupType("internal/godebug", "Setting")
	if rt == nil {
		return nil, t.unsupported(t.g.top, "internal/godebug.New without package godebug's types")
	}
	p := t.alloc(rt)
	name, _ := args[0].(string)
	name = strings.TrimPrefix(name, "#")
	t.setCell(p, int32(rt.Fields[0]), name)
	return p, ctlNext
}
