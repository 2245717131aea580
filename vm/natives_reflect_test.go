package vm_test

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// reflectCases are the cases of testdata/reflectpkg whose output under gmc
// must be the output of the program built by Go (go run . CASE, verified
// with go1.26; the stacks are printed in gmc's form: base names of files,
// "(...)" for arguments, "()" where there are none, no PC offsets).
var reflectCases = []struct{ name, out string }{
	// type constructors (hashicorp/go-memdb's init: MapOf)
	{"typeof-ctors", "map[string]int map string int true\n1 1\n[]string true\nchan string <-chan string chan<- string\n[3]uint8 3 true\nreflect.MapOf: invalid key type []int\n"},
	{"canconvert-setbytes", "true false true true false\nhi 2\nreflect.Value.SetBytes of non-byte slice\n"},
	// goroutines blocked in sync and time show the frames Go shows on top
	// (goleak's filters read the first)
	{"stack-blocked", "[sleep]: time.Sleep\n[sync.Mutex.Lock]: internal/sync.runtime_SemacquireMutex\n[sync.WaitGroup.Wait]: sync.runtime_SemacquireWaitGroup\n"},
	// Type.Method, MethodByName and Value.Method, numbered and called as Go does
	{"methods", `1 3
0 Add true func(*main.counter, int) int func(*main.counter, int) int
1 Get true func(*main.counter) int func(*main.counter) int
2 String true func(*main.counter) string func(*main.counter) string
true 3 3
false
func() int 3 7 7
false
1 String func() string false
counter 7
`},
	// text/template's field lookup: a nil embedded pointer is an error, not a panic
	{"fieldbyindexerr", "false reflect: indirection through nil pointer to embedded struct field emb\n3 <nil>\n4 <nil>\n"},
	// a func's pointer is one code pointer, by Pointer and by UnsafePointer (fmt's %p)
	{"func-pointer", "true 0x0 true\n"},
	{"unsafeaddr", "true true true 2\nreflect.Value.UnsafeAddr of unaddressable value\n"},
	{"wild-pointer-value", "1 1 0 true false\n"},
	{"fieldbynamefunc", "Name [0] true [Name Inner Other]\n4 [Name Inner Other Deep Both Both]\nfalse false\nreflect: indirection through nil pointer to embedded struct\n"},
	{"caller-panic", "0 extra.go 164 true\n1 panic.go 860 true\n2 extra.go 170 true\n3 extra.go 174 true\n"},
	{"type-overflow", "false true true true true false true\nreflect: OverflowInt of non-int type string\n"},
	{"setiter", "a 1 1\nreflect: Value.SetIterKey called before Next\n"},
	{"appendslice", "4 [1 2 0 0 7] 2\nreflect.AppendSlice: int != string\n"},
	// a reflect.Type's Pointer is its descriptor's address: one per type
	{"type-pointer", "true true true true\n"},
	{"structof", "struct { K string \"json:\\\"k\\\"\"; V int } 2 k {a 7} true 24\nreflect.StructOf: field \"x\" is unexported but missing PkgPath\nreflect.StructOf: duplicate field A\nreflect.StructOf: field 0 has invalid name\n"},
	{"funcof", "func(int, string) int 5 true func(...int) true\nreflect.FuncOf: last arg of variadic func must be slice\n"},
	{"embedded-unexported-pointer", "false true\n7 false false\nreflect: reflect.Value.SetInt using value obtained using unexported field\n"},
	{"method-value-pointer", "true true true main.(*boundRecv).inc-fm\n"},
	// a function MakeFunc made, and a method value reflect made, point to reflect's stubs
	{"made-func-pointer", "reflect.makeFuncStub asm_amd64.s 28 true reflect.methodValueCall\n"},
	// the Value of a reflect.Type is a pointer whose Elem is a struct
	{"rtype-elem", "ptr struct struct *reflect.rtype\n"},
	{"deepequal", `basic T F F F T T F T F T F
nan F F F
slice T F F T F T F T T F T F T F T
struct T F T F F T T F
rec T F F T F T
map T F F F F T T F T T T F
ptr T F F T T T F F T F T F T
types T F T
cycle T T F T T F
`},
	{"typeof", `int|int|int|int|2|int|*reflect.rtype
string|string|string|string|24|string|*reflect.rtype
float64|float64|float64|float64|14|float64|*reflect.rtype
uint8|uint8|uint8|uint8|8|uint8|*reflect.rtype
int32|int32|int32|int32|5|int32|*reflect.rtype
complex128|complex128|complex128|complex128|16|complex128|*reflect.rtype
bool|bool|bool|bool|1|bool|*reflect.rtype
main.point|point|struct|struct|25|main.point|*reflect.rtype
*main.point||ptr|ptr|22|*main.point|*reflect.rtype
[]int||slice|slice|23|[]int|*reflect.rtype
map[string]int||map|map|21|map[string]int|*reflect.rtype
main.named|named|int|int|2|main.named|*reflect.rtype
[3]uint8||array|array|17|[3]uint8|*reflect.rtype
chan int||chan|chan|18|chan int|*reflect.rtype
<-chan string||chan|chan|18|<-chan string|*reflect.rtype
func(int) string||func|func|19|func(int) string|*reflect.rtype
*errors.errorString||ptr|ptr|22|*errors.errorString|*reflect.rtype
struct { A int }||struct|struct|25|struct { A int }|*reflect.rtype
*int||ptr|ptr|22|*int|*reflect.rtype
[]interface {}||slice|slice|23|[]interface {}|*reflect.rtype
main.kv|kv|map|map|21|main.kv|*reflect.rtype
*os.File||ptr|ptr|22|*os.File|*reflect.rtype
*error||ptr|ptr|22|*error|*reflect.rtype
uintptr|uintptr|uintptr|uintptr|12|uintptr|*reflect.rtype
main.pair[int,string]|pair[int,string]|struct|"main"
main.pair[time.Duration,main.point]|pair[time.Duration,main.point]|struct|"main"
main.list[main.pair[string,[]main.point]]|list[main.pair[string,[]main.point]]|slice|"main"
main.tagged|tagged|struct|"main"
func(int, ...string) (int, error)||func|""
func()||func|""
*interface { M(int) string; N() }||ptr|""
*interface {}||ptr|""
*fmt.Stringer||ptr|""
chan (<-chan int)||chan|""
chan<- int||chan|""
chan chan<- int||chan|""
<-chan <-chan int||chan|""
unsafe.Pointer|Pointer|unsafe.Pointer|"unsafe"
map[time.Duration][2]main.point||map|""
struct { X int "json:\"x\\tq\"" }||struct|""
*struct { fmt.Stringer }||ptr|""
true true false true true kind100
4 2 2 1
int1 string1 true true
main.point point main string int 4 2 true false 4 16
`},
	{"caller", `main.(*mocked).Insert main.go:318
main.(*mocked).called main.go:311
main.caller.func1 main.go:328
`},
	{"unsafestr", "key 3 abc 3\nke ab\n"},
	{"cryptorand", "16 <nil> 16 <nil> true\n"},
	{"callers", `  runtime.Callers extern.go:339 <nil>
  main.frames main.go:190 main.frames
  main.walker.walk main.go:229 main.walker.walk
  main.walker.walk main.go:226 main.walker.walk
  main.walker.walk main.go:226 main.walker.walk
  main.init.func1 main.go:268 main.init.func1
  main.main main.go:303 main.main
  runtime.main proc.go:290 runtime.main
  runtime.goexit asm_amd64.s:1771 runtime.goexit
skip 2:
  main.walker.walk main.go:231 main.walker.walk
  main.walker.walk main.go:226 main.walker.walk
  main.walker.walk main.go:226 main.walker.walk
  main.init.func1 main.go:268 main.init.func1
  main.main main.go:303 main.main
  runtime.main proc.go:290 runtime.main
  runtime.goexit asm_amd64.s:1771 runtime.goexit
4 main.walker.walk true false main.init.func1
goroutine 1 [running]:
main.walker.walk(...)
	main.go:237
main.walker.walk(...)
	main.go:226
main.walker.walk(...)
	main.go:226
main.init.func1()
	main.go:268
main.main()
	main.go:303
goroutine 1 [running]:
runtime/debug.Stack()
	stack.go:26
main.walker.walk(...)
	main.go:238
main.walker.walk(...)
	main.go:226
main.walker.walk(...)
	main.go:226
main.init.func1()
	main.go:268
main.main()
	main.go:303
10 goroutine 
recovered: runtime error: invalid memory address or nil pointer dereference
  main.frames main.go:190 main.frames
  main.panicky.func1 main.go:257 main.panicky.func1
  runtime.gopanic panic.go:860 runtime.gopanic
  runtime.panicmem panic.go:336 <nil>
  runtime.sigpanic signal_unix.go:931 runtime.sigpanic
  main.deep main.go:245 main.deep
  main.middle main.go:250 main.middle
  main.panicky main.go:261 main.panicky
  main.init.func1 main.go:269 main.init.func1
  main.main main.go:303 main.main
  runtime.main proc.go:290 runtime.main
  runtime.goexit asm_amd64.s:1771 runtime.goexit
goroutine 1 [running]:
main.panicky.func1()
	main.go:259
panic(...)
	panic.go:860
main.deep()
	main.go:245
main.middle()
	main.go:250
main.panicky()
	main.go:261
main.init.func1()
	main.go:269
main.main()
	main.go:303
  main.frames main.go:190 main.frames
  main.init.func1.1 main.go:272 main.init.func1.1
  main.init.func1 main.go:272 main.init.func1
  main.main main.go:303 main.main
  runtime.main proc.go:290 runtime.main
  runtime.goexit asm_amd64.s:1771 runtime.goexit
`},
	{"value", `A int a 0 [0] false  true int
B string b,omitempty 8 [1] false  true string
L []int l 24 [2] false  true slice
M map[string]main.inner m 48 [3] false  true map
P *main.inner p 56 [4] false  true ptr
I interface {} i 64 [5] false  true interface
skip int  80 [6] false main false int
inner main.inner  88 [7] true main false struct
promoted X [7 0] 0 true 0 0
missing false false
2 2 {2.5} int 3 true false
42 yy [9 2] 1.25 true false
3 [104 195 169] 4 true false
true false <invalid Value> <int Value>
[a=1 b=2] 2 2
2 4 [ z] 42 true
recovered: reflect: call of reflect.Value.Len on int Value
recovered: reflect.Value.Interface: cannot return value obtained from unexported field or method
recovered: reflect: reflect.Value.SetInt using unaddressable value
recovered: reflect: reflect.Value.SetInt using value obtained using unexported field
recovered: reflect: call of reflect.Value.Elem on int Value
recovered: reflect.Value.Convert: value of type string cannot be converted to type int
`},
	{"spew-flags", `ro 96 addr 256 false true true false
`},
	// reflect.NewAt at a Value's ptr word reads an unexported field
	// (go-spew v1.1.0's bypass, under testify's failure messages)
	{"spew-bypass", "true false true 7\ntrue false true x\n*int 3\n"},
	{"json", `{"a":1,"b":"x","l":[1,2],"m":{"k":{"x":2.5}},"p":{"x":3},"i":["q",1.5],"x":4} <nil>
1 x [1 2] map[k:{2.5}] 3 [q 1.5] 4 <nil>
<nil> map[n:map[m:-2000] q:[1 z true <nil>]]
{
 "a": null,
 "b": []
} <nil>
json: cannot unmarshal string into Go struct field .A of type int
unexpected end of JSON input
`},
}

var reflectProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: "testdata/reflectpkg"})
})

// runReflect runs case name of testdata/reflectpkg under the VM (seed 1).
func runReflect(t *testing.T, name string, checks vm.Checks) *vm.State {
	t.Helper()
	prog, err := reflectProg()
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{Args: []string{name}, Checks: checks})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	return s
}

// TestReflectNatives: reflect.DeepEqual (maps, slices, structs, pointers,
// cycles, NaN, nil versus empty, different types), reflect.TypeOf
// (String, Name, Kind, PkgPath, Elem, Key, ..., printing, == and map keys),
// reflect.Value (Field, FieldByName, Index, MapIndex, MapRange, Set*,
// Convert, the panics of misuse, the flag word go-spew reads through
// unsafe), encoding/json round trips (interpreted from source)
// and runtime.Callers/CallersFrames/FuncForPC/Stack, debug.Stack (frames
// skipped, deferred calls on return and during a panic, goroutines
// blocked in sync and time), Type.Method and Value.Method, and the Elem
// of a Type's Value give Go's results.
func TestReflectNatives(t *testing.T) {
	for _, c := range reflectCases {
		t.Run(c.name, func(t *testing.T) {
			s := runReflect(t, c.name, vm.Checks{})
			if err := s.Err(); err != nil {
				t.Fatalf("error: %s: %s", err.Kind, err.Msg)
			}
			if got := s.Output(0); got != c.out {
				t.Errorf("output:\n%s\nwant:\n%s", got, c.out)
			}
		})
	}
}

// TestReflectErrors: a Type method that panics in Go panics with Go's
// message; a method that is not modelled stops the run with the VM's
// unsupported error; DeepEqual's reads are seen by the race detector, as
// Go's race detector sees reflect's.
func TestReflectErrors(t *testing.T) {
	s := runReflect(t, "elem-panic", vm.Checks{})
	if err := s.Err(); err == nil || err.Kind != vm.KindPanic || !strings.HasPrefix(err.Msg, "panic: reflect: Elem of invalid type int") {
		t.Errorf("elem-panic: got %v, want panic: reflect: Elem of invalid type int", err)
	}
	s = runReflect(t, "unsupported-method", vm.Checks{})
	if err := s.Err(); err == nil || err.Kind != vm.KindUnsupported || !strings.Contains(err.Msg, "call of (*reflect.rtype).CanSeq (no body and no model)") {
		t.Errorf("unsupported-method: got %v, want unsupported CanSeq", err)
	}
	s = runReflect(t, "deepequal-race", vm.Checks{Race: true})
	err := s.Err()
	if err == nil || err.Kind != vm.KindRace {
		t.Fatalf("deepequal-race: got %v, want a data race", err)
	}
	if !strings.Contains(err.Msg, "Previous read by goroutine 1") && !strings.Contains(err.Msg, "Read by goroutine 1") {
		t.Errorf("deepequal-race: the race does not involve DeepEqual's read:\n%s", err.Msg)
	}
}

// TestRuntimeStackAll: runtime.Stack(buf, true) shows the running
// goroutine first, then the others with their state (a goroutine that has
// not reached its receive yet is runnable, as in Go) and the go statement
// that created them (go run prints the same, with goroutine 7 for 2).
func TestRuntimeStackAll(t *testing.T) {
	s := runReflect(t, "stack-all", vm.Checks{})
	if err := s.Err(); err != nil {
		t.Fatalf("error: %s: %s", err.Kind, err.Msg)
	}
	re := regexp.MustCompile(`^goroutine 1 \[running\]:
main\.init\.func2\(\)
	main\.go:\d+
main\.main\(\)
	main\.go:\d+

goroutine 2 \[(runnable|chan receive)\]:
main\.init\.func2\.1\(\)
	main\.go:\d+
created by main\.init\.func2 in goroutine 1
	main\.go:\d+
$`)
	if got := s.Output(0); !re.MatchString(got) {
		t.Errorf("output:\n%s\nwant the stacks of goroutines 1 and 2", got)
	}
}
