package vm

import (
	"encoding/binary"
	"fmt"
	"go/types"
	"math"
)

// The runtime's hash functions pulled by //go:linkname (puzpuzpuz/xsync
// hashes strings with runtime.memhash over StringHeader.Data):
//
//   - runtime.memhash(p unsafe.Pointer, seed, n uintptr) uintptr: the hash
//     of the n bytes at p;
//   - runtime.strhash(p unsafe.Pointer, seed uintptr) uintptr: the hash of
//     the string *p;
//   - runtime.typehash(t uintptr, p unsafe.Pointer, seed uintptr) uintptr:
//     the hash of the value of type t at p (xsync's generic maps).
//
// Go's hashes are keyed with random numbers drawn when the process starts
// (aeshash), so no value of theirs is fixed; their contract is that equal
// bytes and seeds give equal hashes. The model is one deterministic function
// with that contract (FNV-1a over the seed and the bytes, then SplitMix64's
// finalizer), so a run is determined by its choices and a replay computes
// what the search computed. The bytes are read from a string's bytes
// (unsafestr.go) or from cells of integers laid out without padding; the
// read is not a scheduling point (xsync hashes immutable keys).

func nativeLinkMemhash(t *thread, args []Value) (Value, ctl) {
	n := int64(toUint64(args[2]))
	b, why := t.bytesAt(args[0], n)
	if why != "" {
		return nil, t.unsupported(t.g.top, "runtime.memhash over "+why)
	}
	return uintptr(modelHash(b, toUint64(args[1]))), ctlNext
}

func nativeLinkStrhash(t *thread, args []Value) (Value, ctl) {
	p, ok := args[0].(Pointer)
	if !ok || p.Obj == 0 {
		return nil, t.unsupported(t.g.top, "runtime.strhash of a pointer that is not a string variable's address")
	}
	o := t.s.heap.get(p.Obj)
	s, ok := o.cell(int(p.Off)).(string)
	if !ok {
		return nil, t.unsupported(t.g.top, "runtime.strhash of a pointer that is not a string variable's address")
	}
	return uintptr(modelHash([]byte(s), toUint64(args[1]))), ctlNext
}

// modelHash is the hash of b under seed (see above).
func modelHash(b []byte, seed uint64) uint64 {
	h := uint64(14695981039346656037)
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], seed)
	for _, c := range w {
		h = (h ^ uint64(c)) * 1099511628211
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return splitMix64(h ^ uint64(len(b)))
}

// bytesAt reads the n bytes at pointer p: a string's bytes, or cells of
// integers (and bools) one after the other without padding. why says what
// cannot be read.
func (t *thread) bytesAt(p Value, n int64) ([]byte, string) {
	if n == 0 {
		return nil, ""
	}
	switch x := p.(type) {
	case strPtr:
		s, ok := t.m.strBytes(x, n)
		if !ok {
			return nil, "bytes past the end of a string"
		}
		return []byte(s), ""
	case Pointer:
		if x.Obj == 0 {
			return nil, "a nil pointer"
		}
		o := t.s.heap.get(x.Obj)
		if o.T == nil || !o.hasCells() {
			return nil, "an object without cells"
		}
		start := cellByteOffset(o.T, int(x.Off))
		b := make([]byte, 0, n)
		for c := int(x.Off); int64(len(b)) < n; c++ {
			if c >= o.numCells() || cellByteOffset(o.T, c) != start+int64(len(b)) {
				return nil, "memory past the end of its object or with padding"
			}
			var w [8]byte
			var size int
			switch v := o.cell(c).(type) {
			case bool:
				if v {
					w[0] = 1
				}
				size = 1
			case int8, uint8:
				w[0], size = byte(toUint64(v)), 1
			case int16, uint16:
				binary.LittleEndian.PutUint16(w[:], uint16(toUint64(v)))
				size = 2
			case int32, uint32:
				binary.LittleEndian.PutUint32(w[:], uint32(toUint64(v)))
				size = 4
			case int, int64, uint, uint64, uintptr:
				binary.LittleEndian.PutUint64(w[:], toUint64(v))
				size = 8
			case float32:
				binary.LittleEndian.PutUint32(w[:], math.Float32bits(v))
				size = 4
			case float64:
				binary.LittleEndian.PutUint64(w[:], math.Float64bits(v))
				size = 8
			default:
				return nil, fmt.Sprintf("memory holding a %T", v)
			}
			if int64(len(b)+size) > n {
				return nil, "part of a value"
			}
			b = append(b, w[:size]...)
		}
		return b, ""
	}
	return nil, fmt.Sprintf("a %T", p)
}

// nativeLinkTypehash is runtime.typehash(t, p unsafe.Pointer, seed
// uintptr) uintptr: the hash of the value of type t at p, where t is a
// type word (unsafeiface.go). Values equal under == hash alike: +0 and -0
// alike, blank fields skipped, an interface by its dynamic type and value;
// a type that cannot be a map key panics as Go's does.
func nativeLinkTypehash(t *thread, args []Value) (Value, ctl) {
	rt, ok := t.m.typeAt(uintptr(toUint64(args[0])))
	if !ok {
		return nil, t.unsupported(t.g.top, "runtime.typehash of a type word the VM did not make")
	}
	var v Value
	switch p := args[1].(type) {
	case ifaceData:
		if p.t != rt {
			return nil, t.unsupported(t.g.top, "runtime.typehash of a value of another type")
		}
		v = p.v
	case Pointer:
		if p.Obj == 0 {
			return nil, t.unsupported(t.g.top, "runtime.typehash of a nil pointer")
		}
		o := t.s.heap.get(p.Obj)
		if int(p.Off)+rt.Size > o.numCells() {
			return nil, t.unsupported(t.g.top, "runtime.typehash past the end of an object")
		}
		v = t.s.readCells(p, rt)
	default:
		return nil, t.unsupported(t.g.top, fmt.Sprintf("runtime.typehash through a %T", args[1]))
	}
	var b []byte
	if bad := hashEncode(&b, rt, v); bad != nil {
		return nil, t.runtimePanic(t.g.top, "hash of unhashable type "+bad.String())
	}
	return uintptr(modelHash(b, toUint64(args[2]))), ctlNext
}

// hashEncode appends an encoding of v (of type rt) in which values equal
// under == are equal; it returns the type that is not comparable, if any.
func hashEncode(b *[]byte, rt *RType, v Value) *RType {
	if !types.Comparable(rt.T) {
		return rt
	}
	if cells, ok := v.([]Value); ok {
		for i, c := range cells {
			if rt.blank != nil && rt.blank[i] {
				continue
			}
			if bad := hashEncodeCell(b, c); bad != nil {
				return bad
			}
		}
		return nil
	}
	return hashEncodeCell(b, v)
}

func hashEncodeCell(b *[]byte, v Value) *RType {
	var w [8]byte
	switch x := v.(type) {
	case float32:
		if x == 0 {
			x = 0 // -0 == +0
		}
		binary.LittleEndian.PutUint32(w[:], math.Float32bits(x))
		*b = append(*b, w[:4]...)
	case float64:
		if x == 0 {
			x = 0
		}
		binary.LittleEndian.PutUint64(w[:], math.Float64bits(x))
		*b = append(*b, w[:]...)
	case complex64:
		hashEncodeCell(b, real(x))
		hashEncodeCell(b, imag(x))
	case complex128:
		hashEncodeCell(b, real(x))
		hashEncodeCell(b, imag(x))
	case string:
		binary.LittleEndian.PutUint64(w[:], uint64(len(x)))
		*b = append(append(*b, w[:]...), x...)
	case bool:
		if x {
			*b = append(*b, 1)
		} else {
			*b = append(*b, 0)
		}
	case Pointer:
		binary.LittleEndian.PutUint64(w[:], uint64(x.Obj)<<32|uint64(uint32(x.Off)))
		*b = append(*b, w[:]...)
	case Chan:
		binary.LittleEndian.PutUint64(w[:], uint64(x.Obj))
		*b = append(*b, w[:]...)
	case Iface:
		if x.T == nil {
			*b = append(*b, 0)
			return nil
		}
		// the dynamic type by its name, the same in every machine (a type
		// word's number depends on the order a machine met its types)
		name := x.T.String()
		binary.LittleEndian.PutUint64(w[:], uint64(len(name)))
		*b = append(append(append(*b, 1), w[:]...), name...)
		return hashEncode(b, x.T, x.V)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		binary.LittleEndian.PutUint64(w[:], toUint64(x))
		*b = append(*b, w[:]...)
	default:
		return nil // nil, or a model's reference (compared by identity)
	}
	return nil
}
