package vm

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/gmc-go/gmc/vm/load"
	"golang.org/x/tools/go/ssa"
)

// Functions of the program's own packages declared without a body and
// pulled from the runtime with a //go:linkname directive (high-performance
// libraries take the runtime's cheap random numbers and clock this way:
// puzpuzpuz/xsync's runtime_fastrand). A bodyless function whose
// declaration carries "//go:linkname name runtime.target" runs the native
// of that target when the VM models it:
//
//   - runtime.fastrand, cheaprand (uint32), fastrand64, cheaprand64
//     (uint64), fastrandn, cheaprandn (uint32 below n): the SplitMix64
//     sequence of a counter kept in a cell of the state (linkRand), so a
//     run is determined by its choices and a replay draws what the search
//     drew;
//   - runtime.nanotime: the VM's clock, as time.runtimeNano;
//   - time.now (sec, nsec, mono): the wall and monotonic readings time.Now
//     makes of the VM's clock (sethvargo/go-limiter's fasttime);
//   - runtime.procPin (0: one P), runtime.procUnpin: no effect;
//   - runtime.noescape: the pointer itself;
//   - runtime.memhash, strhash, typehash: natives_runtime_hash.go;
//   - runtime.cmpstring: strings.Compare (bytedance/gopkg's skipmap);
//   - sync.runtime_registerPoolCleanup, sync.poolCleanup: no effect. A
//     pool of its own (bytedance/gopkg's syncx.Pool) registers its
//     cleanup for the collector to call, and chains sync's; the VM's
//     collections never empty a pool (an execution Go allows: a pool
//     may keep what it holds), so there is nothing to call.
//
// Other targets stay unsupported ("no body and no model").

// linknameTargets are the modelled targets, by the runtime's name.
var linknameTargets = map[string]*nativeFunc{
	"runtime.fastrand":                 {name: "runtime.fastrand", fn: nativeLinkFastrand},
	"runtime.cheaprand":                {name: "runtime.cheaprand", fn: nativeLinkFastrand},
	"runtime.fastrand64":               {name: "runtime.fastrand64", fn: nativeLinkFastrand64},
	"runtime.cheaprand64":              {name: "runtime.cheaprand64", fn: nativeLinkFastrand64},
	"runtime.fastrandn":                {name: "runtime.fastrandn", fn: nativeLinkFastrandn},
	"runtime.cheaprandn":               {name: "runtime.cheaprandn", fn: nativeLinkFastrandn},
	"runtime.nanotime":                 {name: "runtime.nanotime", fn: nativeTimeRuntimeNano},
	"runtime.procPin":                  {name: "runtime.procPin", fn: nativeLinkProcPin},
	"runtime.procUnpin":                {name: "runtime.procUnpin", fn: nativeLinkProcUnpin},
	"runtime.noescape":                 {name: "runtime.noescape", fn: nativeLinkNoescape},
	"runtime.memhash":                  {name: "runtime.memhash", fn: nativeLinkMemhash},
	"runtime.strhash":                  {name: "runtime.strhash", fn: nativeLinkStrhash},
	"runtime.typehash":                 {name: "runtime.typehash", fn: nativeLinkTypehash},
	"time.now":                         {name: "time.now", fn: nativeLinkTimeNow},
	"runtime.cmpstring":                {name: "runtime.cmpstring", fn: nativeLinkCmpstring},
	"sync.runtime_registerPoolCleanup": {name: "sync.runtime_registerPoolCleanup", fn: nativeLinkPoolCleanup},
	"sync.poolCleanup":                 {name: "sync.poolCleanup", fn: nativeLinkPoolCleanup},
}

// nativeLinkTimeNow is time.now pulled by linkname: the reading time.Now
// makes (inside a synctest bubble, the bubble's wall clock).
func nativeLinkTimeNow(t *thread, args []Value) (Value, ctl) {
	var unix int64
	if t.g.bubble != 0 {
		unix = wallTime(t.g.wallBase, t.s.readClock())
	} else {
		unix = epochBase + t.s.readNow()
	}
	return Tuple{unix / 1e9, int32(unix % 1e9), t.s.clock}, ctlNext
}

// linknameTarget returns the target named by f's //go:linkname directive
// ("" when f has a body, is the standard library's, or has none).
func linknameTarget(f *ssa.Function) string {
	if len(f.Blocks) != 0 || f.Pkg == nil || load.StdPackage(f.Pkg) {
		return ""
	}
	decl, ok := f.Syntax().(*ast.FuncDecl)
	if !ok || decl.Doc == nil || decl.Recv != nil {
		return ""
	}
	for _, c := range decl.Doc.List {
		fields := strings.Fields(strings.TrimPrefix(c.Text, "//go:linkname "))
		if strings.HasPrefix(c.Text, "//go:linkname ") && len(fields) == 2 && fields[0] == f.Name() {
			return fields[1]
		}
	}
	return ""
}

// linknameNative returns the native standing for the bodyless function f
// (nil when it has no modelled linkname target).
func linknameNative(f *ssa.Function) *nativeFunc {
	return linknameTargets[linknameTarget(f)]
}

// usesLinkRand reports whether some package of the program pulls one of
// the runtime's random-number functions by linkname (the machine then
// keeps the counter linkRand).
func usesLinkRand(pkgs []*ssa.Package) bool {
	for _, p := range pkgs {
		if p == nil || load.StdPackage(p) {
			continue
		}
		for _, mem := range p.Members {
			if f, ok := mem.(*ssa.Function); ok {
				if nf := linknameNative(f); nf != nil && strings.Contains(nf.name, "rand") {
					return true
				}
			}
		}
	}
	return false
}

// allocLinkRand makes the counter object of the linkname'd random numbers.
func (m *Machine) allocLinkRand() {
	m.linkRand = m.base.alloc(&Object{T: m.types.get(types.Typ[types.Uint64]), Cells: []Value{uint64(0)}, shared: true}, 0)
	m.hashRoots = append(m.hashRoots, m.linkRand)
	m.allGlobals = append(m.allGlobals, m.linkRand)
}

// linkRandNext advances the counter and returns the next number of the
// SplitMix64 sequence.
func (t *thread) linkRandNext() (uint64, bool) {
	if t.m.linkRand == 0 {
		return 0, false
	}
	o := t.s.heap.mut(t.m.linkRand, t.s.epoch)
	n := o.cell(0).(uint64) + 1
	o.setCell(0, n)
	return splitMix64(n), true
}

func nativeLinkFastrand(t *thread, args []Value) (Value, ctl) {
	x, ok := t.linkRandNext()
	if !ok {
		return nil, t.unsupported(t.g.top, "runtime.fastrand by linkname without its counter")
	}
	return uint32(x >> 32), ctlNext
}

func nativeLinkFastrand64(t *thread, args []Value) (Value, ctl) {
	x, ok := t.linkRandNext()
	if !ok {
		return nil, t.unsupported(t.g.top, "runtime.fastrand64 by linkname without its counter")
	}
	return x, ctlNext
}

func nativeLinkFastrandn(t *thread, args []Value) (Value, ctl) {
	x, ok := t.linkRandNext()
	if !ok {
		return nil, t.unsupported(t.g.top, "runtime.fastrandn by linkname without its counter")
	}
	n := uint64(toUint64(args[0]))
	return uint32((x >> 32) * n >> 32), ctlNext // the runtime's multiply-shift reduction
}

func nativeLinkProcPin(t *thread, args []Value) (Value, ctl) { return 0, ctlNext }

func nativeLinkProcUnpin(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeLinkCmpstring is runtime.cmpstring pulled by linkname: -1, 0 or
// +1 as a sorts before, as or after b.
func nativeLinkCmpstring(t *thread, args []Value) (Value, ctl) {
	return strings.Compare(args[0].(string), args[1].(string)), ctlNext
}

// nativeLinkPoolCleanup is sync.runtime_registerPoolCleanup and
// sync.poolCleanup pulled by linkname: no effect.
func nativeLinkPoolCleanup(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

func nativeLinkNoescape(t *thread, args []Value) (Value, ctl) { return args[0], ctlNext }
