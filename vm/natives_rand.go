package vm

import (
	"encoding/binary"
	"go/types"
	"math/rand"
	randv2 "math/rand/v2"
	"reflect"
)

// Natives of math/rand and math/rand/v2 (see natives_std.go for the list of
// standard-library models).

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
	def(r1+".New", nativeMathRandNew)
	def(r1+".Seed", nativeMathRandSeed)
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
	def("(*"+r1+".lockedSource).Seed", nativeMathRandLockedSourceSeed)

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
	def(r2+".NewPCG", nativeMathRandV2NewPCG)
	def("(*"+r2+".PCG).Seed", nativeMathRandV2PCGSeed)
	def("(*"+r2+".PCG).Uint64", nativeMathRandV2PCGUint64)
	def(r2+".New", nativeMathRandV2New)
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

// nativeMathRandNew is math/rand.New.
func nativeMathRandNew(t *thread, args []Value) (Value, ctl) {
	rt := t.m.lookupType("math/rand", "Rand")
	p := t.alloc(rt)
	src, _ := args[0].(Iface)
	t.setCell(p, 0, src)
	if src.T != nil && src.T.methodByName("Uint64") != nil {
		t.setCell(p, 1, src)
	}
	return p, ctlNext
}

// nativeMathRandSeed is math/rand.Seed.
func nativeMathRandSeed(t *thread, args []Value) (Value, ctl) { return nil, ctlNext }

// nativeMathRandLockedSourceSeed is (*math/rand.lockedSource).Seed.
func nativeMathRandLockedSourceSeed(t *thread, args []Value) (Value, ctl) {
	t.setCell(ptrArg(args[0]), t.m.fieldOff("math/rand", "lockedSource", 1), &v1State{seed: toInt64(args[1])})
	return nil, ctlNext
}

// nativeMathRandV2NewPCG is math/rand/v2.NewPCG.
func nativeMathRandV2NewPCG(t *thread, args []Value) (Value, ctl) {
	p := t.alloc(t.m.lookupType("math/rand/v2", "PCG"))
	t.setCell(p, 0, toUint64(args[0]))
	t.setCell(p, 1, toUint64(args[1]))
	return p, ctlNext
}

// nativeMathRandV2PCGSeed is (*math/rand/v2.PCG).Seed.
func nativeMathRandV2PCGSeed(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	t.setCell(p, 0, toUint64(args[1]))
	t.setCell(p, 1, toUint64(args[2]))
	return nil, ctlNext
}

// nativeMathRandV2PCGUint64 is (*math/rand/v2.PCG).Uint64.
func nativeMathRandV2PCGUint64(t *thread, args []Value) (Value, ctl) {
	p := ptrArg(args[0])
	if p.Obj == 0 {
		return nil, t.runtimePanic(t.g.top, "invalid memory address or nil pointer dereference")
	}
	return t.pcgNext(p), ctlNext
}

// nativeMathRandV2New is math/rand/v2.New.
func nativeMathRandV2New(t *thread, args []Value) (Value, ctl) {
	p := t.alloc(t.m.lookupType("math/rand/v2", "Rand"))
	t.setCell(p, 0, args[0])
	return p, ctlNext
}
