package vm

import (
	"go/types"
)

// Natives of crypto/rand: the operating system's randomness is replaced by
// a deterministic stream, as math/rand's generators are seeded with fixed
// seeds (natives_rand.go), so a run is determined by its choices and a
// counterexample replays. crypto/rand.Reader is a value of
// crypto/internal/rand's reader type whose one field holds a pointer to
// the stream's counter (a VM object, so snapshots carry it); its Read and
// crypto/rand.Read draw from it. crypto/rand.Int runs from its source
// over Reader (vm/load keepBodies). As with math/rand's global generator,
// the counter lives under a stripped package's global, which the state
// hash does not cover: two states that differ only in how much of the
// stream was drawn are merged.

// cryptoRandSeed is the stream's fixed seed.
const cryptoRandSeed = 0x243f6a8885a308d3

func init() {
	def("crypto/rand.init", cryptoRandInit)
	def("(crypto/internal/rand.reader).Read", cryptoReaderRead)
	def("crypto/rand.Read", cryptoRandRead)
}

// cryptoRandInit is crypto/rand's initializer: Reader is the
// deterministic reader.
func cryptoRandInit(t *thread, args []Value) (Value, ctl) {
	g, ok := t.m.globalVar("crypto/rand", "Reader")
	rt := t.m.lookupType("crypto/internal/rand", "reader")
	if !ok || rt == nil {
		return nil, ctlNext
	}
	u64 := t.m.types.get(types.Typ[types.Uint64])
	ctr := t.alloc(u64)
	field := Iface{T: t.m.types.get(types.NewPointer(u64.T)), V: ctr}
	var v Value = field
	if rt.Agg {
		cells := cellsOf(rt)
		cells[0] = field
		v = cells
	}
	t.share(v)
	t.setCell(g, 0, Iface{T: rt, V: v})
	return nil, ctlNext
}

// cryptoCounter returns the counter of a deterministic reader value.
func cryptoCounter(v Value) (Pointer, bool) {
	if cells, ok := v.([]Value); ok && len(cells) > 0 {
		v = cells[0]
	}
	iv, _ := v.(Iface)
	p, ok := iv.V.(Pointer)
	return p, ok && p.Obj != 0
}

// cryptoFill fills the byte slice b from the stream whose counter is ctr.
func (t *thread) cryptoFill(ctr Pointer, b Slice) {
	n := toUint64(t.cell(ctr, 0))
	vals := make([]Value, b.Len)
	var word uint64
	for i := range vals {
		if i%8 == 0 {
			n++
			word = splitmix64(cryptoRandSeed + n)
		}
		vals[i] = byte(word >> (8 * (i % 8)))
	}
	t.setCell(ctr, 0, n)
	t.copyCells(b, vals, nil8)
}

// splitmix64 is the SplitMix64 output function.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// cryptoReaderRead is (crypto/internal/rand.reader).Read.
func cryptoReaderRead(t *thread, args []Value) (Value, ctl) {
	ctr, ok := cryptoCounter(args[0])
	if !ok {
		return nil, t.unsupported(t.g.top, "OS boundary: crypto/internal/rand.Reader (randomness of the operating system)")
	}
	b, _ := args[1].(Slice)
	t.cryptoFill(ctr, b)
	return Tuple{b.Len, Iface{}}, ctlNext
}

// cryptoRandRead is crypto/rand.Read: from Reader when it is the
// deterministic reader.
func cryptoRandRead(t *thread, args []Value) (Value, ctl) {
	g, ok := t.m.globalVar("crypto/rand", "Reader")
	if ok {
		if iv, _ := t.cell(g, 0).(Iface); iv.T != nil {
			if ctr, ok := cryptoCounter(iv.V); ok {
				b, _ := args[0].(Slice)
				t.cryptoFill(ctr, b)
				return Tuple{b.Len, Iface{}}, ctlNext
			}
		}
	}
	return nil, t.unsupported(t.g.top, "OS boundary: crypto/rand.Read with a replaced crypto/rand.Reader")
}
