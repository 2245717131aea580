package vm

import (
	"path/filepath"
	"runtime"
)

// The natives of the runtime's stack introspection (natives_runtime.go
// says how PCs and stacks are made).

func init() {
	def("runtime.Callers", nativeRuntimeCallers)
	def("runtime.CallersFrames", nativeRuntimeCallersFrames)
	def("(*runtime.Frames).Next", nativeRuntimeFramesNext)
	def("runtime.FuncForPC", nativeRuntimeFuncForPC)
	def("(*runtime.Func).Name", nativeRuntimeFuncName)
	def("(*runtime.Func).Entry", nativeRuntimeFuncEntry)
	def("(*runtime.Func).FileLine", nativeRuntimeFuncFileLine)
	def("runtime.Stack", nativeRuntimeStack)
	def("runtime/debug.Stack", nativeRuntimeDebugStack)
	def("runtime/debug.PrintStack", nativeRuntimeDebugPrintStack)
}

// nativeRuntimeCallers is runtime.Callers.
func nativeRuntimeCallers(t *thread, args []Value) (Value, ctl) {
	skip := toInt(args[0])
	dst, _ := args[1].(Slice)
	pcs := []uintptr{runtimePC(rfCallers)}
	for _, sp := range t.s.callersStack(t.g) {
		if sp.rf > 0 {
			pcs = append(pcs, runtimePC(sp.rf))
		} else {
			pcs = append(pcs, t.m.encodePC(sp.l))
		}
	}
	if skip < 0 {
		skip = 0
	}
	if skip > len(pcs) {
		skip = len(pcs)
	}
	pcs = pcs[skip:]
	n := min(len(pcs), dst.Len)
	if n == 0 {
		return 0, ctlNext
	}
	if t.s.race != nil && t.g.top != nil && t.g.top.fn != nil {
		t.raceAccess(t.g.top, Pointer{Obj: dst.Obj, Off: dst.Off}, n, true)
	}
	o := t.s.heap.mut(dst.Obj, t.s.epoch)
	for i := 0; i < n; i++ {
		o.setCell(int(dst.Off)+i, pcs[i])
	}
	return n, ctlNext
}

// nativeRuntimeCallersFrames is runtime.CallersFrames.
func nativeRuntimeCallersFrames(t *thread, args []Value) (Value, ctl) {
	rt := t.m.lookupType("runtime", "Frames")
	if rt == nil {
		return nil, t.unsupported(t.g.top, "runtime.CallersFrames without runtime.Frames")
	}
	off := structField(rt, "callers")
	if off < 0 {
		return nil, t.unsupported(t.g.top, "runtime.Frames without a callers field")
	}
	p := t.alloc(rt)
	t.setCell(p, int32(off), args[0])
	return p, ctlNext
}

// nativeRuntimeFramesNext is (*runtime.Frames).Next.
func nativeRuntimeFramesNext(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	rt, frameT := t.m.lookupType("runtime", "Frames"), t.m.lookupType("runtime", "Frame")
	off := -1
	if rt != nil {
		off = structField(rt, "callers")
	}
	if off < 0 || frameT == nil {
		return nil, t.unsupported(t.g.top, "(*runtime.Frames).Next without runtime.Frame")
	}
	callers, _ := t.cell(p, int32(off)).(Slice)
	if callers.Len == 0 {
		return Tuple{frameT.Zero(), false}, ctlNext
	}
	pc, _ := t.s.heap.get(callers.Obj).cell(int(callers.Off)).(uintptr)
	rest := Slice{Obj: callers.Obj, Off: callers.Off + 1, Len: callers.Len - 1, Cap: callers.Cap - 1}
	if rest.Len == 0 {
		rest = Slice{}
	}
	t.setCell(p, int32(off), rest)
	return Tuple{t.frameValue(frameT, pc), rest.Len > 0}, ctlNext
}

// nativeRuntimeFuncForPC is runtime.FuncForPC.
func nativeRuntimeFuncForPC(t *thread, args []Value) (Value, ctl) {
	fr, ok := t.m.decodePC(args[0].(uintptr))
	if !ok || fr.noFunc {
		return Pointer{}, ctlNext
	}
	return funcRef{fr.entry}, ctlNext
}

// nativeRuntimeFuncName is (*runtime.Func).Name.
func nativeRuntimeFuncName(t *thread, args []Value) (Value, ctl) {
	fr, _ := t.m.decodePC(funcArg(args[0]))
	return fr.fn, ctlNext
}

// nativeRuntimeFuncEntry is (*runtime.Func).Entry.
func nativeRuntimeFuncEntry(t *thread, args []Value) (Value, ctl) {
	return funcArg(args[0]), ctlNext
}

// nativeRuntimeFuncFileLine is (*runtime.Func).FileLine.
func nativeRuntimeFuncFileLine(t *thread, args []Value) (Value, ctl) {
	fr, _ := t.m.decodePC(args[1].(uintptr))
	return Tuple{fr.file, fr.line}, ctlNext
}

// nativeRuntimeStack is runtime.Stack.
func nativeRuntimeStack(t *thread, args []Value) (Value, ctl) {
	buf, _ := args[0].(Slice)
	if args[1].(bool) {
		t.touch(AllObjects, true) // where every goroutine stands
	}
	text := t.stackText(args[1].(bool))
	n := min(len(text), buf.Len)
	if n > 0 {
		o := t.s.heap.mut(buf.Obj, t.s.epoch)
		for i := 0; i < n; i++ {
			o.setCell(int(buf.Off)+i, text[i])
		}
	}
	return n, ctlNext
}

// nativeRuntimeDebugStack is runtime/debug.Stack.
func nativeRuntimeDebugStack(t *thread, args []Value) (Value, ctl) {
	self := "runtime/debug.Stack()\n\t" + filepath.Join(runtime.GOROOT(), "src", "runtime", "debug", "stack.go") + ":26\n"
	return t.newBytes([]byte(t.stackText(false, self))), ctlNext
}

// nativeRuntimeDebugPrintStack is runtime/debug.PrintStack.
func nativeRuntimeDebugPrintStack(t *thread, args []Value) (Value, ctl) {
	self := "runtime/debug.Stack()\n\t" + filepath.Join(runtime.GOROOT(), "src", "runtime", "debug", "stack.go") + ":26\n" +
		"runtime/debug.PrintStack()\n\t" + filepath.Join(runtime.GOROOT(), "src", "runtime", "debug", "stack.go") + ":18\n"
	t.s.write(2, t.stackText(false, self))
	return nil, ctlNext
}
