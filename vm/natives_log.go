package vm

import (
	"go/types"
	"strings"
	"time"
)

// Natives of log and flag (see natives_std.go for the list of
// standard-library models).

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
		now := time.Unix(0, wallTime(t.g.wallBase, t.s.readClock())).UTC()
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
	globalInits["log/internal.DefaultOutput"] = func(m *Machine, o *Object) {
		o.Cells[0] = &Closure{Native: logDefaultOutput}
	}
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
	def("log.New", nativeLogNew)
	def("log.Default", nativeLogDefault)
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
			if p, ok := t.m.globalVar("os", "Stderr"); ok {
				if rt := t.m.lookupType("os", "File"); rt != nil {
					return Iface{T: t.m.types.get(types.NewPointer(rt.T)), V: t.cell(p, 0)}
				}
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

// nativeLogNew is log.New.
func nativeLogNew(t *thread, args []Value) (Value, ctl) {
	p := t.alloc(t.m.lookupType("log", "Logger"))
	l, _ := t.logger(p)
	t.setCell(p, l.out, args[0])
	t.setCell(p, l.prefix, args[1])
	t.setCell(p, l.flags, int32(toInt(args[2])))
	return p, ctlNext
}

// logDefaultOutput is the function package log's init stores in
// log/internal.DefaultOutput, through which log/slog's default handler
// writes (log/slog runs from its source).
var logDefaultOutput = &nativeFunc{name: "log.init.func1", fn: nativeLogDefaultOutput}

// nativeLogDefaultOutput writes data through the standard logger, with its
// header; it returns a nil error.
func nativeLogDefaultOutput(t *thread, args []Value) (Value, ctl) {
	l, k := t.logger(t.stdLogger())
	if k != ctlNext {
		return nil, k
	}
	sl, _ := args[1].(Slice)
	if k := t.logOutput(l, string(t.s.bytesOf(sl))); k != ctlNext {
		return nil, k
	}
	return Iface{}, ctlNext
}

// nativeLogDefault is log.Default.
func nativeLogDefault(t *thread, args []Value) (Value, ctl) { return t.stdLogger(), ctlNext }

// flag is interpreted; its isZeroValue (for PrintDefaults) uses reflect to
// make a zero value of a flag's Value type: modelled here over VM types.
func init() {
	def("flag.isZeroValue", nativeFlagIsZeroValue)
}

// nativeFlagIsZeroValue is flag.isZeroValue.
func nativeFlagIsZeroValue(t *thread, args []Value) (Value, ctl) {
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
}
