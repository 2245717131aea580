// Unsafe reinterpretation of memory as real modules use it: function
// values called through another function type, the address of a string's
// bytes, unsafe.Add, an interface's words. Each case is selected by
// os.Args[1]; vm/unsafemem_test.go compares the output under gmc with the
// output `go run` prints.
package main

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"unsafe"
)

var hashQword = func(key uint64) uintptr { return uintptr(key*0x9E3779B97F4A7C15) >> 7 }

var hashByte = func(key uint8) uintptr { return uintptr(key) * 31 }

var hashString = func(key string) uintptr { return uintptr(len(key)) }

// hasher picks a hash function for K as cornelk/hashmap does: a function
// of another signature read through unsafe.Pointer.
func hasher[K comparable]() func(K) uintptr {
	var k K
	switch reflect.TypeOf(k).Kind() {
	case reflect.Int, reflect.Uint64, reflect.Int64:
		return *(*func(K) uintptr)(unsafe.Pointer(&hashQword))
	case reflect.Int8, reflect.Uint8:
		return *(*func(K) uintptr)(unsafe.Pointer(&hashByte))
	case reflect.String:
		return *(*func(K) uintptr)(unsafe.Pointer(&hashString))
	}
	return nil
}

var cases = map[string]func(){
	"scalar-cast": func() { // a number's bits read as another number type (xsync/v4's toUint64, math.Float64bits)
		k, n, f, b := -2, int32(-3), 1.5, uint16(0x1234)
		fmt.Println(*(*uint64)(unsafe.Pointer(&k)), *(*uint32)(unsafe.Pointer(&n)), *(*uint64)(unsafe.Pointer(&f)))
		fmt.Println(*(*uint8)(unsafe.Pointer(&b)), *(*int64)(unsafe.Pointer(&k)), *(*float64)(unsafe.Pointer(&k)) != 0)
		type key int
		kk := key(7)
		fmt.Println(*(*uint64)(unsafe.Pointer(&kk)) ^ 1)
	},
	"func-cast": func() {
		hi := hasher[int]()
		h8 := hasher[int8]()
		hs := hasher[string]()
		fmt.Println(hi(-1), hi(42), h8(-3), hs("abc"))
		defer func(h func(int) uintptr) { fmt.Println("deferred", h(7)) }(hi)
		done := make(chan uintptr)
		go func() { done <- hi(9) }()
		fmt.Println(<-done)
	},
	"string-header": func() { // the address of a string's bytes: sharing and offsets as in Go
		s := "hello, world"
		sub := s[7:]
		cp := string([]byte(sub))
		sh := (*reflect.StringHeader)(unsafe.Pointer(&s))
		subh := *(*reflect.StringHeader)(unsafe.Pointer(&sub))
		cph := *(*reflect.StringHeader)(unsafe.Pointer(&cp))
		fmt.Println(subh.Data-sh.Data, sh.Len, subh.Len, cph.Data == subh.Data, cph.Len)
		p := unsafe.Pointer(unsafe.StringData(s))
		fmt.Println(p == unsafe.Pointer(sh.Data), *(*byte)(unsafe.Add(p, 7)), unsafe.String((*byte)(unsafe.Add(p, 7)), 5))
		fmt.Println(string(unsafe.Slice(unsafe.StringData(sub), len(sub))), *(*uint32)(unsafe.Pointer(sh.Data)))
		bh := reflect.SliceHeader{Data: sh.Data, Len: sh.Len, Cap: sh.Len} // cornelk/hashmap's xxHashString
		b := *(*[]byte)(unsafe.Pointer(&bh))
		fmt.Println(string(b[7:]), len(b), cap(b))
	},
	"string-header-empty": func() { // Go does not advance an empty substring's pointer past the end; the VM's "" has none
		x := "hello"[:5]
		e := x[5:]
		fmt.Println(*(*uintptr)(unsafe.Pointer(&e))-*(*uintptr)(unsafe.Pointer(&x)) < 5)
	},
	"string-data-pointer": func() { // tidwall/gjson: strings' data words as unsafe.Pointer (fillIndex, getBytes, stringBytes)
		type stringHeader struct {
			data unsafe.Pointer
			len  int
		}
		type sliceHeader struct {
			data unsafe.Pointer
			len  int
			cap  int
		}
		json := `{"name":{"first":"Tom"},"age":37}`
		raw := json[9:24]
		jh := *(*stringHeader)(unsafe.Pointer(&json))
		rh := *(*stringHeader)(unsafe.Pointer(&raw))
		fmt.Println(int(uintptr(rh.data)-uintptr(jh.data)), rh.len, jh.len)
		cp := strings.Clone(raw)
		ch := *(*stringHeader)(unsafe.Pointer(&cp))
		inside := uintptr(ch.data) >= uintptr(jh.data) && uintptr(ch.data) < uintptr(jh.data)+uintptr(jh.len)
		fmt.Println(inside, ch.data == rh.data, (*stringHeader)(unsafe.Pointer(&raw)).len)
		var empty string
		fmt.Println((*stringHeader)(unsafe.Pointer(&empty)).data == nil)
		b := *(*[]byte)(unsafe.Pointer(&sliceHeader{
			data: (*stringHeader)(unsafe.Pointer(&json)).data,
			len:  5,
			cap:  len(json),
		}))
		fmt.Println(string(b), len(b), cap(b))
		in := []byte(json)
		str := *(*string)(unsafe.Pointer(&in))
		sub := str[18:21]
		subh := *(*stringHeader)(unsafe.Pointer(&sub))
		strh := *(*stringHeader)(unsafe.Pointer(&str))
		start := uintptr(subh.data) - uintptr(strh.data)
		rawh := sliceHeader{data: strh.data, len: strh.len, cap: strh.len}
		whole := string(*(*[]byte)(unsafe.Pointer(&rawh)))
		fmt.Println(start, whole[start:start+uintptr(subh.len)])
	},
	"string-pieces": func() { // two pieces of a string seen apart, then the whole: one numbering (gjson's nested queries)
		whole := strings.Repeat("abcdefghij", 3)
		a, b := whole[2:5], whole[20:24]
		pa, pb := unsafe.StringData(a), unsafe.StringData(b)
		pw := unsafe.StringData(whole)
		fmt.Println(uintptr(unsafe.Pointer(pb))-uintptr(unsafe.Pointer(pa)), uintptr(unsafe.Pointer(pa))-uintptr(unsafe.Pointer(pw)))
		mid := whole[4:21]
		fmt.Println(uintptr(unsafe.Pointer(unsafe.StringData(mid)))-uintptr(unsafe.Pointer(pw)), unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(pa), 10)), 12))
	},
	"string-header-cap": func() { // gjson's getBytes: a header's capacity past the string's bytes, only converted to a string
		type sliceHeader struct {
			data unsafe.Pointer
			len  int
			cap  int
		}
		s, long := strings.Clone("abc"), "0123456789"
		h := sliceHeader{data: unsafe.Pointer(unsafe.StringData(s)), len: len(s), cap: len(long)}
		fmt.Println(string(*(*[]byte)(unsafe.Pointer(&h))))
	},
	"string-header-cap-kept": func() { // the capacity observed: gmc cannot give the bytes past the string
		type sliceHeader struct {
			data unsafe.Pointer
			len  int
			cap  int
		}
		s, long := strings.Clone("abc"), "0123456789"
		h := sliceHeader{data: unsafe.Pointer(unsafe.StringData(s)), len: len(s), cap: len(long)}
		b := *(*[]byte)(unsafe.Pointer(&h))
		fmt.Println(len(b[:cap(b)]))
	},
	"memclr": func() { // dgraph-io/ristretto's z.Memclr
		b := []byte("hello, world")
		memclrNoHeapPointers(unsafe.Pointer(&b[3]), 5)
		fmt.Println(b)
	},
	"slice-data-pointer": func() { // dgraph-io/ristretto's z.MemHash: a []byte's data word through struct{ str unsafe.Pointer; len int }
		type stringStruct struct {
			str unsafe.Pointer
			len int
		}
		data := []byte("key-1")
		ss := (*stringStruct)(unsafe.Pointer(&data))
		fmt.Println(ss.str == unsafe.Pointer(&data[0]), ss.len, *(*byte)(unsafe.Add(ss.str, 4)))
		other := []byte("key-1")
		fmt.Println(hashBytes(data) == hashBytes(other), hashBytes(data) != hashBytes([]byte("key-2")))
	},
	"string-to-bytes-header": func() { // buger/jsonparser's StringToBytes: a SliceHeader's Data, Cap and Len set from a StringHeader's
		s := strings.Repeat("key", 2)[1:]
		b := make([]byte, 0, 0)
		bh := (*reflect.SliceHeader)(unsafe.Pointer(&b))
		sh := (*reflect.StringHeader)(unsafe.Pointer(&s))
		bh.Data = sh.Data
		bh.Cap = sh.Len
		bh.Len = sh.Len
		fmt.Println(string(b), len(b), cap(b), b[0], string(b[2:4]))
	},
	"map-word": func() { // modern-go/reflect2's UnsafeIsNil: a map or channel variable read as unsafe.Pointer
		var m map[string]int
		var c chan int
		fmt.Println(*(*unsafe.Pointer)(unsafe.Pointer(&m)) == nil, *(*unsafe.Pointer)(unsafe.Pointer(&c)) == nil, *(*uintptr)(unsafe.Pointer(&m)) == 0)
		m, c = map[string]int{}, make(chan int)
		fmt.Println(*(*unsafe.Pointer)(unsafe.Pointer(&m)) != nil, *(*unsafe.Pointer)(unsafe.Pointer(&c)) != nil, *(*uintptr)(unsafe.Pointer(&c)) != 0)
	},
	"iface-direct-struct": func() { // json-iterator's onePtrEncoder: an interface holding a struct of one pointer has that pointer as its data word
		type one struct{ p *int }
		type eface struct{ typ, word unsafe.Pointer }
		x := 5
		var a, b any = one{&x}, one{}
		ea, eb := (*eface)(unsafe.Pointer(&a)), (*eface)(unsafe.Pointer(&b))
		fmt.Println(ea.word == unsafe.Pointer(&x), eb.word == nil, *(*int)(ea.word), ea.typ == eb.typ)
		var c any
		*(*eface)(unsafe.Pointer(&c)) = eface{typ: ea.typ, word: ea.word}
		fmt.Println(*c.(one).p, c == a)
	},
	"string-header-len": func() { // the Len word of a string inside a struct is the string's length, not the next field
		type rec struct {
			s string
			n int
		}
		r := rec{"abc", 99}
		h := (*reflect.StringHeader)(unsafe.Pointer(&r.s))
		fmt.Println(h.Len, r.n)
	},
	"memhash": func() { // puzpuzpuz/xsync's hashString
		a, b, c := "key-1", fmt.Sprint("key-", 1), "key-2"
		fmt.Println(hashString2(a, 7) == hashString2(b, 7), hashString2(a, 7) != hashString2(c, 7), hashString2(a, 7) != hashString2(a, 8), hashString2("", 7))
	},
	"string-write": func() { // writing to a string's bytes: a fault in Go, unsupported in gmc
		s := fmt.Sprint("abc")
		*(*byte)(unsafe.Pointer(unsafe.StringData(s))) = 'x'
		fmt.Println(s)
	},
	"unsafe-add": func() {
		var p [10]byte
		p1 := unsafe.Pointer(&p[1])
		type pair struct{ a, b int64 }
		var q pair
		fmt.Println(unsafe.Add(p1, 1) == unsafe.Pointer(&p[2]), unsafe.Add(p1, -1) == unsafe.Pointer(&p[0]),
			unsafe.Add(unsafe.Pointer(&q), 8) == unsafe.Pointer(&q.b))
	},
	"unsafe-add-mid": func() { // into the middle of an int64: its high half (unsafeview.go)
		var q [2]int64
		fmt.Println(*(*int32)(unsafe.Add(unsafe.Pointer(&q), 4)))
	},
	"typehash": func() { // puzpuzpuz/xsync's defaultHasher: the interface's words passed to runtime.typehash
		type key struct {
			a int
			s string
			f float64
		}
		hk := defaultHasher[key]()
		hi := defaultHasher[any]()
		hp := defaultHasher[*int]()
		x := new(int)
		s1 := fmt.Sprint("k", 1)
		fmt.Println(hk(key{1, "k1", 0}, 3) == hk(key{1, s1, math.Copysign(0, -1)}, 3), hk(key{1, "k1", 0}, 3) != hk(key{2, "k1", 0}, 3),
			hi(any(7), 5) == hi(any(7), 5), hi(any(7), 5) != hi(any(int64(7)), 5), hp(x, 1) == hp(x, 1))
		var iv any = 42
		w := (*iface)(unsafe.Pointer(&iv))
		var nilv any
		fmt.Println(*(*int)(w.word), (*iface)(unsafe.Pointer(&nilv)).typ == 0, w.typ != 0)
	},
	"type-word-pointer": func() { // google.golang.org/protobuf's protoreflect.typeOf: the type word as an unsafe.Pointer
		type ifaceHeader struct {
			_    [0]any
			Type unsafe.Pointer
			Data unsafe.Pointer
		}
		typeOf := func(t any) unsafe.Pointer { return (*ifaceHeader)(unsafe.Pointer(&t)).Type }
		words := func(t any) ifaceHeader { return *(*ifaceHeader)(unsafe.Pointer(&t)) }
		x := new(int)
		fmt.Println(typeOf(nil) == nil, typeOf(1) == typeOf(2), typeOf(1) != typeOf(""), typeOf(x) == typeOf(new(int)),
			words(x).Data == unsafe.Pointer(x), words("s").Type == typeOf(""))
	},
	"typehash-unhashable": func() { // as Go: a runtime error
		defer func() { fmt.Println(recover()) }()
		hi := defaultHasher[any]()
		hi([]int{1}, 1)
	},
	"sizeof-generic": func() { // unsafe.Sizeof and Alignof of a type parameter's value: the instance's layout
		type rec struct {
			a byte
			b int64
			c string
		}
		fmt.Println(sizeOf[int8](), sizeOf[rec](), sizeOf[[3]rec](), sizeOf[any](), alignOf[rec](), alignOf[byte]())
	},
	"offsetof-generic": func() { // unsafe.Offsetof of a field of a generic struct: the instance's layout
		fmt.Println(offsetsOf[int8, string](), offsetsOf[[3]int64, bool]())
	},
	"reflect-type-word": func() { // modern-go/reflect2's cache key (json-iterator): a reflect.Type's data word is its type's descriptor
		type eface struct{ rtype, data unsafe.Pointer }
		unpack := func(x any) eface { return *(*eface)(unsafe.Pointer(&x)) }
		var b, p, b2 reflect.Type = reflect.TypeOf(true), reflect.TypeOf(new(int)), reflect.TypeOf(false)
		fmt.Println(uintptr(unpack(b).data) == uintptr(unpack(p).data), unpack(b).data == unpack(b2).data,
			unpack(b).data == unpack(true).rtype, unpack(p).data == unpack(new(int)).rtype)
	},
	"iface-words-store": func() { // google.golang.org/protobuf's protoreflect.Value: an interface kept as its words, remade by a store
		type ifaceHeader struct {
			_    [0]any
			Type unsafe.Pointer
			Data unsafe.Pointer
		}
		words := func(v any) ifaceHeader { return *(*ifaceHeader)(unsafe.Pointer(&v)) }
		remake := func(h ifaceHeader) (x any) {
			*(*ifaceHeader)(unsafe.Pointer(&x)) = h
			return x
		}
		n := new(int)
		*n = 5
		m := map[string]int{"a": 1}
		fmt.Println(remake(words(7)), remake(words("s")), *remake(words(n)).(*int), remake(words(m)).(map[string]int)["a"],
			remake(words(nil)) == nil, remake(words(reflect.TypeOf(true))).(reflect.Type).Kind())
	},
	"value-words": func() { // github.com/ugorji/go/codec's rv4iptr and rv4istr: a reflect.Value written as an interface's words and a flag
		type intf struct{ typ, ptr unsafe.Pointer }
		type value struct {
			intf
			flag uintptr
		}
		const indir = 1 << 7
		build := func(i any, flag uintptr) (v reflect.Value) {
			uv := (*value)(unsafe.Pointer(&v))
			uv.intf = *(*intf)(unsafe.Pointer(&i))
			uv.flag = flag
			return
		}
		n := int64(7)
		p := build(&n, uintptr(reflect.Pointer))
		p.Elem().SetInt(8)
		s := build("str", uintptr(reflect.String)|indir)
		m := build(map[string]int{"a": 1}, uintptr(reflect.Map))
		fmt.Println(p.Kind(), p.Type(), n, s.Kind(), s.String(), m.Len(), m.MapIndex(reflect.ValueOf("a")))
	},
	"iface-data-word": func() { // a non-empty interface's data word through [2]unsafe.Pointer (maypok86/otter's PointerOf)
		var n idNode = &idImpl{v: 7}
		p := (*[2]unsafe.Pointer)(unsafe.Pointer(&n))[1]
		fmt.Println((*idImpl)(p).v, p == unsafe.Pointer(n.(*idImpl)))
	},
	"wild-pointer": func() { // an address that names no variable: its length checks, not its memory
		last := (*byte)(unsafe.Pointer(^uintptr(0)))
		_ = unsafe.Slice(last, 1)
		var q [2]int64
		mid := unsafe.Add(unsafe.Pointer(&q), 4)
		fmt.Println(uintptr(mid)-uintptr(unsafe.Pointer(&q)), unsafe.Add(mid, 4) == unsafe.Pointer(&q[1]))
		defer func() { fmt.Println(recover()) }()
		_ = unsafe.Slice(last, 2)
	},
	"wild-pointer-read": func() {
		last := (*byte)(unsafe.Pointer(^uintptr(0)))
		fmt.Println(unsafe.Slice(last, 1)[0])
	},
	"func-cast-float": func() { // a float64 read as an int64 parameter: not a reinterpretation
		f := func(x float64) float64 { return x * 2 }
		g := *(*func(int64) float64)(unsafe.Pointer(&f))
		fmt.Println(g(3))
	},
}

//go:linkname runtime_memhash runtime.memhash
//go:noescape
func runtime_memhash(p unsafe.Pointer, h, s uintptr) uintptr

// hashBytes is ristretto's z.MemHash.
func hashBytes(data []byte) uint64 {
	ss := (*struct {
		str unsafe.Pointer
		len int
	})(unsafe.Pointer(&data))
	return uint64(runtime_memhash(ss.str, 0, uintptr(ss.len)))
}

//go:linkname memclrNoHeapPointers runtime.memclrNoHeapPointers
func memclrNoHeapPointers(p unsafe.Pointer, n uintptr)

// hashString2 is puzpuzpuz/xsync's hashString.
func hashString2(s string, seed uint64) uint64 {
	if s == "" {
		return seed
	}
	strh := (*reflect.StringHeader)(unsafe.Pointer(&s))
	return uint64(runtime_memhash(unsafe.Pointer(strh.Data), uintptr(seed), uintptr(strh.Len)))
}

func sizeOf[T any]() uintptr {
	var x T
	return unsafe.Sizeof(x)
}

func alignOf[T any]() uintptr {
	var x T
	return unsafe.Alignof(x)
}

//go:linkname runtime_typehash runtime.typehash
//go:noescape
func runtime_typehash(t uintptr, p unsafe.Pointer, h uintptr) uintptr

// iface is how an interface is laid out (xsync's util_hash.go).
type iface struct {
	typ  uintptr
	word unsafe.Pointer
}

// defaultHasher is puzpuzpuz/xsync's defaultHasher.
func defaultHasher[T comparable]() func(T, uint64) uint64 {
	var zero T
	if reflect.TypeOf(&zero).Elem().Kind() == reflect.Interface {
		return func(value T, seed uint64) uint64 {
			iValue := any(value)
			i := (*iface)(unsafe.Pointer(&iValue))
			return uint64(runtime_typehash(i.typ, i.word, uintptr(seed)))
		}
	}
	var iZero any = zero
	i := (*iface)(unsafe.Pointer(&iZero))
	return func(value T, seed uint64) uint64 {
		return uint64(runtime_typehash(i.typ, unsafe.Pointer(&value), uintptr(seed)))
	}
}

func main() {
	if len(os.Args) < 2 || cases[os.Args[1]] == nil {
		names := make([]string, 0, len(cases))
		for n := range cases {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Println("usage: unsafemem CASE; cases:", names)
		return
	}
	cases[os.Args[1]]()
}

type pair[K, V any] struct {
	flag bool
	key  K
	val  V
}

func offsetsOf[K, V any]() [2]uintptr {
	return [2]uintptr{unsafe.Offsetof(pair[K, V]{}.key), unsafe.Offsetof(pair[K, V]{}.val)}
}

type idNode interface{ id() int }

type idImpl struct{ v int }

func (p *idImpl) id() int { return p.v }
