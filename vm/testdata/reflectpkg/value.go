package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"unsafe"
)

// Cases on reflect.Value: navigation, Set, Convert, maps, the flag word read
// through unsafe as go-spew reads it, and encoding/json round trips.

func init() {
	cases["value"] = valueOps
	cases["spew-flags"] = spewFlags
	cases["spew-bypass"] = spewBypass
	cases["json"] = jsonRoundTrip
}

type vflag uintptr

// flagOf reads the flag word of a Value the way go-spew's bypass.go does.
func flagOf(v *reflect.Value) vflag {
	f, ok := reflect.TypeOf(reflect.Value{}).FieldByName("flag")
	if !ok {
		panic("reflect.Value has no flag field")
	}
	return *(*vflag)(unsafe.Pointer(uintptr(unsafe.Pointer(v)) + f.Offset))
}

type t0 int

type inner struct {
	X float64 `json:"x"`
}

type outer struct {
	A    int              `json:"a"`
	B    string           `json:"b,omitempty"`
	L    []int            `json:"l"`
	M    map[string]inner `json:"m"`
	P    *inner           `json:"p"`
	I    any              `json:"i"`
	skip int
	inner
}

func spewFlags() {
	var t struct {
		A t0
		t0
		a t0
	}
	vA := reflect.ValueOf(t).FieldByName("A")
	va := reflect.ValueOf(t).FieldByName("a")
	vt0 := reflect.ValueOf(t).FieldByName("t0")
	vPtrA := reflect.ValueOf(&t).Elem().FieldByName("A")
	ro := flagOf(&vA) ^ (flagOf(&va) | flagOf(&vt0))
	addr := flagOf(&vA) ^ flagOf(&vPtrA)
	fmt.Println("ro", ro, "addr", addr, va.CanInterface(), vA.CanInterface(), vPtrA.CanSet(), vA.CanSet())
}

// spewBypass reads an unexported field as go-spew v1.1.0's bypass does: a
// Value of type **T made with reflect.NewAt at the ptr word of the
// field's Value (its flag says the value is held indirectly), then Elem
// twice.
func spewBypass() {
	type secret struct {
		n int
		s string
	}
	v := reflect.ValueOf(secret{n: 7, s: "x"})
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		const flagIndir = 1 << 7
		flag := *(*uintptr)(unsafe.Pointer(uintptr(unsafe.Pointer(&f)) + 2*unsafe.Sizeof(uintptr(0))))
		upv := unsafe.Pointer(uintptr(unsafe.Pointer(&f)) + unsafe.Sizeof(uintptr(0)))
		rv := reflect.NewAt(reflect.PointerTo(f.Type()), upv).Elem().Elem()
		fmt.Println(flag&flagIndir != 0, f.CanInterface(), rv.CanInterface(), rv.Interface())
	}
	p := reflect.NewAt(reflect.TypeOf(0), unsafe.Pointer(new(int)))
	p.Elem().SetInt(3)
	fmt.Println(p.Type(), p.Elem().Int())
}

func valueOps() {
	s := outer{A: 1, B: "x", L: []int{1, 2}, M: map[string]inner{"k": {2.5}}, I: 7, skip: 3}
	v := reflect.ValueOf(s)
	st := v.Type()
	for i := 0; i < v.NumField(); i++ {
		f := st.Field(i)
		fmt.Println(f.Name, f.Type, f.Tag.Get("json"), f.Offset, f.Index, f.Anonymous, f.PkgPath, v.Field(i).CanInterface(), v.Field(i).Kind())
	}
	x, ok := st.FieldByName("X")
	fmt.Println("promoted", x.Name, x.Index, x.Offset, ok, v.FieldByName("X"), v.FieldByIndex([]int{7, 0}))
	_, ok = st.FieldByName("nope")
	fmt.Println("missing", ok, v.FieldByName("nope").IsValid())
	fmt.Println(v.Field(2).Len(), v.Field(2).Index(1).Int(), v.Field(3).MapIndex(reflect.ValueOf("k")), v.Field(5).Elem().Kind(),
		v.Field(6).Int(), v.Field(4).IsNil(), v.Field(4).Elem().IsValid())
	p := reflect.ValueOf(&s).Elem()
	p.Field(0).SetInt(42)
	p.FieldByName("B").SetString("yy")
	p.Field(2).Index(0).Set(reflect.ValueOf(9))
	p.Field(4).Set(reflect.New(reflect.TypeOf(inner{})))
	p.Field(4).Elem().Field(0).SetFloat(1.25)
	fmt.Println(s.A, s.B, s.L, s.P.X, p.Field(0).CanAddr(), v.Field(0).CanAddr())
	fmt.Println(reflect.ValueOf(int8(3)).Convert(reflect.TypeOf(0)).Interface(), reflect.ValueOf("hé").Convert(reflect.TypeOf([]byte(nil))).Interface(),
		reflect.ValueOf(t0(4)).Convert(reflect.TypeOf(uint16(0))).Uint(), reflect.Zero(reflect.TypeOf(s)).IsZero(), reflect.ValueOf(s).IsZero())
	var e error
	fmt.Println(reflect.ValueOf(&e).Elem().IsNil(), reflect.ValueOf(e).IsValid(), reflect.ValueOf(nil).String(), reflect.ValueOf(3).String())
	m := reflect.MakeMap(reflect.TypeOf(map[string]int{}))
	m.SetMapIndex(reflect.ValueOf("b"), reflect.ValueOf(2))
	m.SetMapIndex(reflect.ValueOf("a"), reflect.ValueOf(1))
	m.SetMapIndex(reflect.ValueOf("c"), reflect.ValueOf(3))
	m.SetMapIndex(reflect.ValueOf("c"), reflect.Value{})
	var keys []string
	for it := m.MapRange(); it.Next(); {
		keys = append(keys, fmt.Sprint(it.Key(), "=", it.Value()))
	}
	sort.Strings(keys)
	fmt.Println(keys, m.Len(), len(m.MapKeys()))
	sl := reflect.MakeSlice(reflect.TypeOf([]string{}), 1, 4)
	sl = reflect.Append(sl, reflect.ValueOf("z"))
	fmt.Println(sl.Len(), sl.Cap(), sl.Interface(), reflect.Indirect(reflect.ValueOf(&s)).Field(0), reflect.ValueOf(1).Equal(reflect.ValueOf(1)))
	for _, f := range []func(){
		func() { reflect.ValueOf(3).Len() },
		func() { _ = reflect.ValueOf(s).Field(6).Interface() },
		func() { reflect.ValueOf(s).Field(0).SetInt(1) },
		func() { reflect.ValueOf(&s).Elem().Field(6).SetInt(1) },
		func() { reflect.ValueOf(3).Elem() },
		func() { reflect.ValueOf("s").Convert(reflect.TypeOf(0)) },
	} {
		func() {
			defer func() { fmt.Println("recovered:", recover()) }()
			f()
		}()
	}
}

func jsonRoundTrip() {
	s := outer{A: 1, B: "x", L: []int{1, 2}, M: map[string]inner{"k": {2.5}}, P: &inner{3}, I: []any{"q", 1.5}, inner: inner{4}}
	b, err := json.Marshal(s)
	fmt.Println(string(b), err)
	var r outer
	err = json.Unmarshal(b, &r)
	fmt.Println(r.A, r.B, r.L, r.M, r.P.X, r.I, r.X, err)
	var a any
	fmt.Println(json.Unmarshal([]byte(`{"q":[1,"z",true,null],"n":{"m":-2e3}}`), &a), a)
	b, err = json.MarshalIndent(map[string]any{"b": []int{}, "a": nil}, "", " ")
	fmt.Println(string(b), err)
	var bad struct{ A int }
	fmt.Println(json.Unmarshal([]byte(`{"A":"str"}`), &bad))
	fmt.Println(json.Unmarshal([]byte(`{"A":`), &bad))
}
