package vm_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// reflectCases are the cases of testdata/reflectpkg whose output under gmc
// must be the output of the program built by Go (go run . CASE, verified
// with go1.26).
var reflectCases = []struct{ name, out string }{
	{"deepequal", `basic T F F F T T F T F T F
nan F F F
slice T F F T F T F T T F T F T F T
struct T F T F F T T F
rec T F F T F T
map T F F F F T T F T T T F
ptr T F F T T T F F T F T F T
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
// cycles, NaN, nil versus empty, different types) and reflect.TypeOf
// (String, Name, Kind, PkgPath, Elem, Key, ..., printing, == and map keys)
// give Go's results.
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
	if err := s.Err(); err == nil || err.Kind != vm.KindUnsupported || !strings.Contains(err.Msg, "call of (*reflect.rtype).NumMethod (no body and no model)") {
		t.Errorf("unsupported-method: got %v, want unsupported NumMethod", err)
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
