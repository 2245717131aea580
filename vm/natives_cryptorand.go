package vm

import "go/types"

// Natives of crypto/rand. Its package is not interpreted (its source reads
// the operating system's generator), so its Reader would be nil. The VM's
// Reader gives deterministic bytes instead: the SplitMix64 sequence of a
// counter kept in a cell of the state, so that two reads of one run never
// return the same bytes (programs use them as unique identifiers) and a
// replay reads what the search read. crypto/rand.Read reads the same
// sequence while Reader is the VM's; a program that replaced Reader is
// stopped there (unsupported), as reading through it is not modelled.

// cryptoRandPkg and cryptoReaderPkg are the packages of the variable and of
// the default reader's type.
const (
	cryptoRandPkg   = "crypto/rand"
	cryptoReaderPkg = "crypto/internal/rand"
)

func init() {
	globalInits[cryptoRandPkg+".Reader"] = cryptoRandReaderInit
	def(cryptoRandPkg+".Read", cryptoRandRead)
	def("("+cryptoReaderPkg+".reader).Read", cryptoReaderRead)
}

// cryptoRandReaderInit sets crypto/rand.Reader to a value of the default
// reader's type and makes the counter object.
func cryptoRandReaderInit(m *Machine, o *Object) {
	rt := m.lookupType(cryptoReaderPkg, "reader")
	if rt == nil {
		return
	}
	m.cryptoRand = m.base.alloc(&Object{T: m.types.get(types.Typ[types.Uint64]), Cells: []Value{uint64(0)}, shared: true}, 0)
	m.hashRoots = append(m.hashRoots, m.cryptoRand)
	m.allGlobals = append(m.allGlobals, m.cryptoRand)
	o.setCell(0, Iface{T: rt, V: rt.Zero()})
}

// cryptoReaderRead is (crypto/internal/rand.reader).Read: it fills b.
func cryptoReaderRead(t *thread, args []Value) (Value, ctl) {
	b, _ := args[1].(Slice)
	return t.cryptoFill(b)
}

// cryptoRandRead is crypto/rand.Read: it fills b while Reader is the VM's.
func cryptoRandRead(t *thread, args []Value) (Value, ctl) {
	b, _ := args[0].(Slice)
	if p, ok := t.m.globalVar(cryptoRandPkg, "Reader"); ok {
		r, _ := t.s.heap.get(p.Obj).cell(int(p.Off)).(Iface)
		if !isCryptoReader(r.T) {
			return nil, t.unsupported(t.g.top, "crypto/rand.Read with crypto/rand.Reader replaced")
		}
	}
	return t.cryptoFill(b)
}

// isCryptoReader reports whether rt is crypto/internal/rand's reader type,
// the type of the VM's Reader (by name: no scan of the program's packages
// per call).
func isCryptoReader(rt *RType) bool {
	if rt == nil {
		return false
	}
	n, ok := rt.T.(*types.Named)
	return ok && n.Obj().Name() == "reader" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == cryptoReaderPkg
}

// cryptoFill writes the next len(b) bytes of the sequence into b.
func (t *thread) cryptoFill(b Slice) (Value, ctl) {
	if t.m.cryptoRand == 0 {
		return nil, t.unsupported(t.g.top, "crypto/rand without crypto/internal/rand.reader")
	}
	if b.Len == 0 {
		return Tuple{0, Iface{}}, ctlNext
	}
	if t.s.race != nil && t.g.top != nil && t.g.top.fn != nil {
		t.raceAccess(t.g.top, Pointer{Obj: b.Obj, Off: b.Off}, b.Len, true)
	}
	ctr := t.s.heap.mut(t.m.cryptoRand, t.s.epoch)
	n := ctr.cell(0).(uint64)
	o := t.s.heap.mut(b.Obj, t.s.epoch)
	var x uint64
	for i := 0; i < b.Len; i++ {
		if i%8 == 0 {
			n++
			x = splitMix64(n)
		}
		o.setCell(int(b.Off)+i, uint8(x>>(8*(i%8))))
	}
	ctr.setCell(0, n)
	return Tuple{b.Len, Iface{}}, ctlNext
}

// splitMix64 is the output function of SplitMix64 for state n.
func splitMix64(n uint64) uint64 {
	z := n * 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
