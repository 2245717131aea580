package main

import (
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Cases kept out of main.go, whose line numbers the expected stacks of
// other cases name.
func init() {
	cases["stack-blocked"] = func() { // the frames Go shows for goroutines blocked in sync and time (goleak reads the first)
		var mu sync.Mutex
		var wg sync.WaitGroup
		mu.Lock()
		wg.Add(1)
		go func() { mu.Lock() }()
		go func() { wg.Wait() }()
		go func() { time.Sleep(time.Hour) }()
		time.Sleep(10 * time.Millisecond)
		buf := make([]byte, 1<<14)
		var tops []string
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")[1:] {
			lines := strings.Split(g, "\n")
			tops = append(tops, lines[0][strings.Index(lines[0], "["):]+" "+lines[1][:strings.LastIndex(lines[1], "(")])
		}
		sort.Strings(tops)
		fmt.Println(strings.Join(tops, "\n"))
		mu.Unlock()
		wg.Done()
	}
	cases["typeof-ctors"] = func() { // reflect.MapOf, SliceOf, ChanOf, ArrayOf (hashicorp/go-memdb's init)
		str := reflect.TypeOf("")
		m := reflect.MapOf(str, reflect.TypeOf(0))
		fmt.Println(m, m.Kind(), m.Key(), m.Elem(), m == reflect.TypeOf(map[string]int{}))
		mv := reflect.MakeMap(m)
		mv.SetMapIndex(reflect.ValueOf("a"), reflect.ValueOf(1))
		fmt.Println(mv.Len(), mv.Interface().(map[string]int)["a"])
		fmt.Println(reflect.SliceOf(str), reflect.SliceOf(str) == reflect.TypeOf([]string(nil)))
		fmt.Println(reflect.ChanOf(reflect.BothDir, str), reflect.ChanOf(reflect.RecvDir, str), reflect.ChanOf(reflect.SendDir, str))
		a := reflect.ArrayOf(3, reflect.TypeOf(byte(0)))
		fmt.Println(a, a.Len(), a == reflect.TypeOf([3]byte{}))
		defer func() { fmt.Println(recover()) }()
		reflect.MapOf(reflect.TypeOf([]int(nil)), str)
	}
	cases["fieldbyindexerr"] = func() { // text/template's field lookup: a nil embedded pointer is an error
		type emb struct{ Y int }
		type holder struct {
			*emb
			Z int
		}
		v := reflect.ValueOf(holder{Z: 3})
		f, err := v.FieldByIndexErr([]int{0, 0})
		fmt.Println(f.IsValid(), err)
		f, err = v.FieldByIndexErr([]int{1})
		fmt.Println(f.Int(), err)
		f, err = reflect.ValueOf(holder{emb: &emb{Y: 4}}).FieldByIndexErr([]int{0, 0})
		fmt.Println(f.Int(), err)
	}
	cases["rtype-elem"] = func() { // gocron's parameter check: the kind of the struct a Type points to
		v := reflect.ValueOf(reflect.TypeOf(func(fmt.Stringer) {}).In(0))
		fmt.Println(v.Kind(), reflect.Indirect(v).Kind(), v.Elem().Kind(), v.Type())
	}
	cases["func-pointer"] = func() { // testify's spew prints a func with Value.Pointer, its test expects fmt's %p (UnsafePointer)
		g := func() {}
		var nf func()
		fmt.Println(fmt.Sprintf("%p", g) == fmt.Sprintf("0x%x", reflect.ValueOf(g).Pointer()), fmt.Sprintf("%p", nf),
			reflect.ValueOf(g).UnsafePointer() == reflect.ValueOf(g).UnsafePointer())
	}
	cases["type-pointer"] = func() { // hashicorp/go-msgpack keys its type infos by reflect.ValueOf(t).Pointer()
		ti, ts := reflect.TypeOf(1), reflect.TypeOf("")
		p := reflect.ValueOf(ti).Pointer()
		fmt.Println(p != reflect.ValueOf(ts).Pointer(), p != 0, p == reflect.ValueOf(reflect.TypeOf(2)).Pointer(),
			reflect.ValueOf(ti).UnsafePointer() == unsafe.Pointer(p))
	}
	cases["appendslice"] = func() { // vmihailenco/msgpack's growSliceValue
		a := reflect.ValueOf([]int{1, 2})
		b := reflect.AppendSlice(a, reflect.MakeSlice(a.Type(), 2, 2))
		c := reflect.AppendSlice(b, reflect.ValueOf([]int{7}))
		fmt.Println(b.Len(), c.Interface(), a.Len())
		defer func() { fmt.Println(recover()) }()
		reflect.AppendSlice(a, reflect.ValueOf([]string{"x"}))
	}
	cases["unsafeaddr"] = func() { // dario.cat/mergo's and kr/pretty's visited sets
		type pt struct{ X, Y int }
		p := &pt{1, 2}
		v := reflect.ValueOf(p).Elem()
		a := v.UnsafeAddr()
		fmt.Println(a == uintptr(unsafe.Pointer(p)), v.Field(1).UnsafeAddr() == uintptr(unsafe.Pointer(&p.Y)),
			a == v.Addr().Pointer(), (*pt)(unsafe.Pointer(a)).Y)
		defer func() { fmt.Println(recover()) }()
		reflect.ValueOf(*p).UnsafeAddr()
	}
	cases["wild-pointer-value"] = func() { // kr/pretty's diff of unsafe.Pointer(uintptr(1))
		type s struct{ x unsafe.Pointer }
		v := reflect.ValueOf(s{unsafe.Pointer(uintptr(1))}).Field(0)
		z := reflect.ValueOf(s{}).Field(0)
		fmt.Println(v.Pointer(), uintptr(v.UnsafePointer()), z.Pointer(), z.IsNil(), v.IsNil())
	}
	cases["fieldbynamefunc"] = func() { // github.com/jinzhu/copier's case-insensitive field lookup
		type Inner struct{ Deep, Both int }
		type Other struct{ Both int }
		type outer struct {
			Name string
			*Inner
			Other
		}
		o := outer{Name: "n", Inner: &Inner{Deep: 4, Both: 5}}
		var asked []string
		fold := func(name string) func(string) bool {
			return func(s string) bool { asked = append(asked, s); return strings.EqualFold(s, name) }
		}
		v := reflect.ValueOf(o)
		f, ok := v.Type().FieldByNameFunc(fold("NAME"))
		fmt.Println(f.Name, f.Index, ok, asked)
		asked = nil
		fmt.Println(v.FieldByNameFunc(fold("deep")), asked)
		_, ok = v.Type().FieldByNameFunc(fold("both")) // at depth 1 twice: hidden
		fmt.Println(ok, v.FieldByNameFunc(fold("none")).IsValid())
		defer func() { fmt.Println(recover()) }()
		reflect.ValueOf(outer{}).FieldByNameFunc(fold("deep"))
	}
	cases["methods"] = func() { // Type.Method, MethodByName, Value.Method as testify's suite uses them
		ct, pt := reflect.TypeOf(counter{}), reflect.TypeOf(&counter{})
		fmt.Println(ct.NumMethod(), pt.NumMethod())
		for i := 0; i < pt.NumMethod(); i++ {
			m := pt.Method(i)
			fmt.Println(m.Index, m.Name, m.PkgPath == "", m.Type, m.Func.Type())
		}
		c := &counter{n: 1}
		add, ok := pt.MethodByName("Add")
		fmt.Println(ok, add.Func.Call([]reflect.Value{reflect.ValueOf(c), reflect.ValueOf(2)})[0].Int(), c.n)
		_, ok = ct.MethodByName("Add")
		fmt.Println(ok)
		get := reflect.ValueOf(c).MethodByName("Get")
		fmt.Println(get.Type(), get.Call(nil)[0].Int(), reflect.ValueOf(c).Method(0).Call([]reflect.Value{reflect.ValueOf(4)})[0].Int(), c.n)
		fmt.Println(reflect.ValueOf(c).MethodByName("hidden").IsValid())
		st := reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
		fmt.Println(st.NumMethod(), st.Method(0).Name, st.Method(0).Type, st.Method(0).Func.IsValid())
		var s fmt.Stringer = c
		fmt.Println(reflect.ValueOf(&s).Elem().Method(0).Call(nil)[0])
	}
}

// counter has value and pointer methods and an unexported one.
type counter struct{ n int }

func (c counter) Get() int        { return c.n }
func (c *counter) Add(k int) int  { c.n += k; return c.n }
func (c counter) hidden()         {}
func (c *counter) String() string { return fmt.Sprint("counter ", c.n) }

// callerIn prints runtime.Caller(skip) for skip 0–3 from a deferred call
// that recovered a panic: runtime.gopanic and the panicking function are
// above the deferring one (k8s.io/apimachinery's HandleCrash counts them).
func callerIn() {
	if recover() != nil {
		for skip := 0; skip < 4; skip++ {
			_, file, line, ok := runtime.Caller(skip)
			fmt.Println(skip, file[strings.LastIndex(file, "/")+1:], line, ok)
		}
	}
}

func panicAt() { panic("at") }

func deferCaller() {
	defer callerIn()
	panicAt()
}

func init() { cases["caller-panic"] = deferCaller }

func init() {
	cases["type-overflow"] = func() { // encoding/json's decoder (go1.23+): Type.OverflowInt and its kin
		i8, u16, f32 := reflect.TypeOf(int8(0)), reflect.TypeOf(uint16(0)), reflect.TypeOf(float32(0))
		fmt.Println(i8.OverflowInt(127), i8.OverflowInt(128), i8.OverflowInt(-129), u16.OverflowUint(65536),
			f32.OverflowFloat(1e39), reflect.TypeOf(0.0).OverflowFloat(1e300), reflect.ValueOf(int8(0)).OverflowInt(200))
		defer func() { fmt.Println(recover()) }()
		reflect.TypeOf("").OverflowInt(1)
	}
}

func init() {
	cases["setiter"] = func() { // fxamacker/cbor's map encoder
		m := map[string]int{"a": 1}
		it := reflect.ValueOf(m).MapRange()
		k, v := reflect.New(reflect.TypeOf("")).Elem(), reflect.New(reflect.TypeOf(0)).Elem()
		var anyV any
		av := reflect.ValueOf(&anyV).Elem()
		for it.Next() {
			k.SetIterKey(it)
			v.SetIterValue(it)
			av.SetIterValue(it)
		}
		fmt.Println(k.String(), v.Int(), anyV)
		defer func() { fmt.Println(recover()) }()
		reflect.New(reflect.TypeOf(0)).Elem().SetIterKey(reflect.ValueOf(m).MapRange())
	}
}

func init() {
	cases["structof"] = func() { // google/go-cmp's cmpopts: reflect.StructOf
		st := reflect.StructOf([]reflect.StructField{
			{Name: "K", Type: reflect.TypeOf(""), Tag: `json:"k"`},
			{Name: "V", Type: reflect.TypeOf(0)},
		})
		v := reflect.New(st).Elem()
		v.Field(0).SetString("a")
		v.Field(1).SetInt(7)
		f, _ := st.FieldByName("K")
		fmt.Println(st, st.NumField(), f.Tag.Get("json"), v.Interface(), st == reflect.TypeOf(struct {
			K string `json:"k"`
			V int
		}{}), st.Size())
		for _, bad := range [][]reflect.StructField{{{Name: "x", Type: st}}, {{Name: "A", Type: st}, {Name: "A", Type: st}}, {{Name: "1a", Type: st}}} {
			func() {
				defer func() { fmt.Println(recover()) }()
				reflect.StructOf(bad)
			}()
		}
	}
	cases["funcof"] = func() { // thoas/go-funk's Reduce: FuncOf, then MakeFunc of it
		ft := reflect.FuncOf([]reflect.Type{reflect.TypeOf(0), reflect.TypeOf("")}, []reflect.Type{reflect.TypeOf(0)}, false)
		f := reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
			return []reflect.Value{reflect.ValueOf(int(args[0].Int()) + len(args[1].String()))}
		})
		add := f.Interface().(func(int, string) int)
		vt := reflect.FuncOf([]reflect.Type{reflect.TypeOf([]int{})}, nil, true)
		fmt.Println(ft, add(2, "abc"), ft == reflect.TypeOf(add), vt, vt.IsVariadic())
		defer func() { fmt.Println(recover()) }()
		reflect.FuncOf([]reflect.Type{reflect.TypeOf(0)}, nil, true)
	}
	cases["embedded-unexported-pointer"] = func() { // pelletier/go-toml: a field promoted through an unexported embedded pointer is settable
		v := reflect.ValueOf(&embedOuter{embedInner: &embedInner{}}).Elem()
		z := v.Field(0).Elem().Field(0)
		fmt.Println(v.Field(0).CanSet(), z.CanSet())
		z.SetInt(7)
		fmt.Println(v.Interface().(embedOuter).Z, v.Field(1).CanSet(), v.Field(1).Elem().IsValid())
		defer func() { fmt.Println(recover()) }()
		reflect.ValueOf(&embedOuter{hidden: &embedInner{}}).Elem().Field(1).Elem().Field(0).SetInt(1)
	}
	cases["method-value-pointer"] = func() { // asaskevich/EventBus finds a handler by its method value's Pointer
		h := &boundRecv{}
		a, b := reflect.ValueOf(h.inc), reflect.ValueOf(h.inc)
		x, y := 1, 2
		f1, f2 := func() int { return x }, func() int { return y }
		fmt.Println(a.Pointer() == b.Pointer(), a.Pointer() != reflect.ValueOf(h.dec).Pointer(),
			reflect.ValueOf(f1).Pointer() != reflect.ValueOf(f2).Pointer(), runtime.FuncForPC(a.Pointer()).Name())
	}
	cases["made-func-pointer"] = func() { // go.uber.org/dig names each constructor with FuncForPC, fx.Supply's made by MakeFunc among them
		f := reflect.MakeFunc(reflect.TypeOf(func(int) int { return 0 }), func(a []reflect.Value) []reflect.Value { return a })
		pc := f.Pointer()
		fn := runtime.FuncForPC(pc)
		file, line := fn.FileLine(pc)
		m := reflect.ValueOf(strings.NewReplacer("a", "b")).Method(0).Pointer()
		fmt.Println(fn.Name(), file[strings.LastIndex(file, "/")+1:], line, fn.Entry() == pc, runtime.FuncForPC(m).Name())
	}
}

type embedInner struct{ Z int }

type embedOuter struct {
	*embedInner
	hidden *embedInner
}

type boundRecv struct{ n int }

func (c *boundRecv) inc() { c.n++ }
func (c *boundRecv) dec() { c.n-- }
