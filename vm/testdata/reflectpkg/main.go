// Uses of package reflect (DeepEqual, TypeOf) and of runtime's stack
// introspection that gmc models natively. Each case is selected by
// os.Args[1]; vm/natives_reflect_test.go compares the output under gmc
// with the output of the program built by Go.
package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
	"unsafe"
)

type point struct{ X, Y int }

type node struct {
	v    int
	next *node
}

type named int

type rec struct {
	a []int
	m map[string]int
	p *int
	i any
	f func()
	c chan int
}

type tree struct {
	kids []*tree
	tag  string
}

type kv map[string]any

type pair[K comparable, V any] struct {
	k K
	v V
}

type list[T any] []T

type tagged struct {
	point
	*strings.Builder
	A int `json:"a"`
	b string
	_ int
}

func deq(x, y any) string {
	if reflect.DeepEqual(x, y) {
		return "T"
	}
	return "F"
}

func deepEqual() {
	// basic values and dynamic types
	fmt.Println("basic", deq(1, 1), deq(1, 2), deq(1, int64(1)), deq(named(1), 1), deq(named(1), named(1)),
		deq(nil, nil), deq(nil, 0), deq("a", "a"), deq("a", "b"), deq(1.5, 1.5), deq(true, false))
	nan := math.NaN()
	fmt.Println("nan", deq(nan, nan), deq(float32(nan), float32(nan)), deq(complex(nan, 0), complex(nan, 0)))

	// slices
	var nilS []int
	s := []int{1, 2, 3}
	ns := []float64{nan}
	fmt.Println("slice", deq([]int{1, 2}, []int{1, 2}), deq([]int{1, 2}, []int{2, 1}), deq(nilS, []int{}),
		deq(nilS, []int(nil)), deq([]int{1}, []int{1, 2}), deq(s, s), deq(s[:2], s[:3]), deq(s[1:], []int{2, 3}),
		deq([]any{1, "a"}, []any{1, "a"}), deq([]any{1}, []any{int8(1)}), deq(ns, ns), deq(ns, []float64{nan}),
		deq([]byte("ab"), []byte("ab")), deq([]int{}, []int64{}), deq([][]int{{1}, nil}, [][]int{{1}, nil}))

	// arrays and structs
	fmt.Println("struct", deq([2]int{1, 2}, [2]int{1, 2}), deq([2]int{1, 2}, [2]int{1, 3}), deq(point{1, 2}, point{1, 2}),
		deq(point{1, 2}, point{2, 1}), deq(point{1, 2}, struct{ X, Y int }{1, 2}), deq(struct{}{}, struct{}{}),
		deq([2]point{{1, 2}}, [2]point{{1, 2}}), deq([1]float64{nan}, [1]float64{nan}))
	one, uno := 1, 1
	r1 := rec{a: []int{1}, m: map[string]int{"k": 1}, p: &one, i: point{3, 4}}
	r2 := rec{a: []int{1}, m: map[string]int{"k": 1}, p: &uno, i: point{3, 4}}
	r3 := r2
	r3.i = &point{3, 4}
	r4 := r2
	r4.f = func() {}
	r5 := r2
	r5.c = make(chan int)
	fmt.Println("rec", deq(r1, r2), deq(r1, r3), deq(r4, r4), deq(r5, r5), deq(r1, r5), deq(rec{}, rec{}))

	// maps
	var nilM map[string]int
	m := map[string]int{"a": 1, "b": 2}
	nm := map[float64]int{nan: 1}
	fmt.Println("map", deq(m, map[string]int{"b": 2, "a": 1}), deq(m, map[string]int{"a": 1}),
		deq(m, map[string]int{"a": 1, "c": 2}), deq(m, map[string]int{"a": 1, "b": 3}), deq(nilM, map[string]int{}),
		deq(nilM, map[string]int(nil)), deq(nm, nm), deq(nm, map[float64]int{nan: 1}),
		deq(map[int][]int{1: {1}}, map[int][]int{1: {1}}), deq(map[point]string{{1, 2}: "p"}, map[point]string{{1, 2}: "p"}),
		deq(kv{"x": []int{1}}, kv{"x": []int{1}}), deq(kv{"x": 1}, map[string]any{"x": 1}))

	// pointers, channels, funcs, interfaces
	a, b, c := 1, 1, 2
	var nilP *int
	ch := make(chan int)
	f := func() {}
	var nilF func()
	fmt.Println("ptr", deq(&a, &b), deq(&a, &c), deq(&a, nilP), deq(nilP, (*int)(nil)), deq(&point{1, 2}, &point{1, 2}),
		deq(ch, ch), deq(ch, make(chan int)), deq(f, f), deq(nilF, nilF), deq(f, nilF),
		deq(errors.New("x"), errors.New("x")), deq(errors.New("x"), errors.New("y")), deq(error(nil), nil))

	// cycles
	n1 := &node{v: 1}
	n1.next = n1
	n2 := &node{v: 1}
	n2.next = n2
	n3 := &node{v: 1}
	n4 := &node{v: 1, next: n3}
	n3.next = n4
	n5 := &node{v: 2}
	n5.next = &node{v: 1, next: n5}
	k1 := kv{}
	k1["self"] = k1
	k2 := kv{}
	k2["self"] = k2
	t1 := &tree{tag: "t"}
	t1.kids = []*tree{t1, {tag: "leaf"}}
	t2 := &tree{tag: "t"}
	t2.kids = []*tree{t2, {tag: "leaf"}}
	t3 := &tree{tag: "t"}
	t3.kids = []*tree{t3, {tag: "other"}}
	fmt.Println("types", deq(reflect.TypeOf(1), reflect.TypeOf(2)), deq(reflect.TypeOf(1), reflect.TypeOf("")),
		deq([]reflect.Type{reflect.TypeOf(point{})}, []reflect.Type{reflect.TypeOf(point{})}))
	fmt.Println("cycle", deq(n1, n2), deq(n1, n3), deq(n1, n5), deq(k1, k2), deq(t1, t2), deq(t1, t3))
}

func typeOf() {
	var e error = errors.New("x")
	vals := []any{1, "s", 1.5, uint8(1), 'r', complex(1, 2), true, point{}, &point{}, []int{}, map[string]int{},
		named(1), [3]byte{}, make(chan int), make(<-chan string), func(int) string { return "" }, e,
		struct{ A int }{}, (*int)(nil), []any{}, kv{}, os.Stdout, &e, uintptr(0)}
	for _, v := range vals {
		t := reflect.TypeOf(v)
		fmt.Printf("%s|%s|%s|%v|%d|%v|%T\n", t.String(), t.Name(), t.Kind().String(), t.Kind(), t.Kind(), t, t)
	}
	more := []any{pair[int, string]{}, pair[time.Duration, point]{}, list[pair[string, []point]]{}, tagged{},
		func(int, ...string) (int, error) { return 0, nil }, func() {}, new(interface {
			M(int) string
			N()
		}), new(any), new(fmt.Stringer), make(chan (<-chan int)), make(chan<- int), make(chan (chan<- int)),
		make(<-chan <-chan int), unsafe.Pointer(nil), map[time.Duration][2]point{}, struct {
			X int `json:"x\tq"`
		}{}, new(struct{ fmt.Stringer })}
	for _, v := range more {
		t := reflect.TypeOf(v)
		fmt.Printf("%v|%s|%s|%q\n", t, t.Name(), t.Kind(), t.PkgPath())
	}
	fmt.Println(reflect.TypeOf(nil) == nil, reflect.TypeOf(1) == reflect.TypeOf(2), reflect.TypeOf(1) == reflect.TypeOf(named(1)),
		reflect.TypeOf(point{}).Kind() == reflect.Struct, reflect.TypeOf(&point{}).Kind() == reflect.Pointer, reflect.Kind(100))
	seen := map[reflect.Type]int{}
	for _, v := range []any{1, 2, "a", point{}, point{1, 1}, named(3)} {
		seen[reflect.TypeOf(v)]++
	}
	fmt.Println(len(seen), seen[reflect.TypeOf(0)], seen[reflect.TypeOf(point{})], seen[reflect.TypeOf("")])
	type tkey struct {
		t reflect.Type
		n int
	}
	byKey := map[tkey]string{{reflect.TypeOf(1), 1}: "int1", {reflect.TypeOf(""), 1}: "string1"}
	fmt.Println(byKey[tkey{reflect.TypeOf(2), 1}], byKey[tkey{reflect.TypeOf("x"), 1}], byKey[tkey{reflect.TypeOf(1.0), 1}] == "",
		len(fmt.Sprintf("%p %#v", reflect.TypeOf(1), reflect.TypeOf(1))) > 0)
	pt := reflect.TypeOf(&point{})
	fmt.Println(pt.Elem(), pt.Elem().Name(), pt.Elem().PkgPath(), reflect.TypeOf(map[string]bool{}).Key(),
		reflect.TypeOf([]named{}).Elem().Kind(), reflect.TypeOf([4]int{}).Len(), reflect.TypeOf(point{}).NumField(),
		reflect.TypeOf(point{}).Comparable(), reflect.TypeOf([]int{}).Comparable(), reflect.TypeOf(int32(0)).Size(),
		reflect.TypeOf(point{}).Size())
}

func base(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }

// frames prints the frames of runtime.Callers(skip) (file base names).
func frames(skip int) {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(skip, pcs)
	fs := runtime.CallersFrames(pcs[:n])
	for {
		f, more := fs.Next()
		name := "<nil>"
		if f.Func != nil {
			name = f.Func.Name()
		}
		fmt.Printf("  %s %s:%d %s\n", f.Function, base(f.File), f.Line, name)
		if !more {
			break
		}
	}
}

// normStack rewrites a stack trace in the form gmc prints: "(...)" for
// arguments ("()" where there are none), base names of files, no PC offsets.
func normStack(s string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "\t"):
			l = strings.Fields(l)[0]
			l = "\t" + base(l)
		case strings.HasSuffix(l, ")") && !strings.HasSuffix(l, "()") && !strings.HasPrefix(l, "goroutine "):
			l = l[:strings.LastIndexByte(l[:len(l)-1], '(')] + "(...)"
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

type walker struct{}

func (walker) walk(depth int) {
	if depth > 0 {
		walker{}.walk(depth - 1)
		return
	}
	frames(0)
	fmt.Println("skip 2:")
	frames(2)
	pcs := make([]uintptr, 4)
	n := runtime.Callers(1, pcs)
	f := runtime.FuncForPC(pcs[1])
	fmt.Println(n, f.Name(), f == runtime.FuncForPC(pcs[2]), f == runtime.FuncForPC(pcs[3]), runtime.FuncForPC(pcs[3]).Name())
	buf := make([]byte, 1<<12)
	fmt.Println(normStack(string(buf[:runtime.Stack(buf, false)])))
	fmt.Println(normStack(string(debug.Stack())))
	fmt.Println(runtime.Stack(buf[:10], false), string(buf[:10]))
}

//go:noinline
func deep() {
	var p *point
	fmt.Println(p.X)
}

//go:noinline
func middle() {
	deep()
}

func panicky() {
	defer func() {
		r := recover()
		fmt.Println("recovered:", r)
		frames(1)
		buf := make([]byte, 1<<12)
		fmt.Println(normStack(string(buf[:runtime.Stack(buf, false)])))
	}()
	middle()
}

var cases = map[string]func(){
	"deepequal": deepEqual,
	"typeof":    typeOf,
	"callers": func() {
		walker{}.walk(2)
		panicky()
		func() {
			defer frames(1)
		}()
	},
	"stack-all": func() {
		ch := make(chan int)
		go func() {
			<-ch
		}()
		runtime.Gosched()
		buf := make([]byte, 1<<12)
		fmt.Println(normStack(string(buf[:runtime.Stack(buf, true)])))
		close(ch)
	},
	"deepequal-race": func() {
		x := []int{1}
		done := make(chan bool)
		go func() {
			x[0] = 2
			done <- true
		}()
		fmt.Println(reflect.DeepEqual(x, []int{1}))
		<-done
	},
	"unsupported-method": func() {
		fmt.Println(reflect.TypeOf(point{}).CanSeq())
	},
	"elem-panic": func() {
		fmt.Println(reflect.TypeOf(1).Elem())
	},
}

func main() {
	cases[os.Args[1]]()
}

// mocked names the function that called its method called, the way
// testify's mock.Called does (runtime.Caller, then FuncForPC).
type mocked struct{}

func (*mocked) called(skip int) string {
	pc, file, line, ok := runtime.Caller(skip)
	if !ok {
		return "not ok"
	}
	return fmt.Sprintf("%s %s:%d", runtime.FuncForPC(pc).Name(), file[strings.LastIndex(file, "/")+1:], line)
}

func (m *mocked) Insert() string { return m.called(1) }

type inserter interface{ Insert() string }

func init() { cases["caller"] = caller }

func caller() {
	var i inserter = &mocked{}
	fmt.Println(i.Insert())
	fmt.Println((&mocked{}).called(0))
	f := func() string { return (&mocked{}).called(1) }
	fmt.Println(f())
}

// The unsafe conversions between a []byte and a string header (bigcache's
// bytesToString) and the unsafe.String/Slice forms of the same.
func init() { cases["unsafestr"] = unsafeStrings }

func unsafeStrings() {
	b := []byte("key")
	s := *(*string)(unsafe.Pointer(&b))
	str := "abc"
	bs := *(*[]byte)(unsafe.Pointer(&str))
	fmt.Println(s, len(s), string(bs), len(bs))
	fmt.Println(unsafe.String(unsafe.SliceData(b), 2), string(unsafe.Slice(unsafe.StringData(str), 2)))
}
