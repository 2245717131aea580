package vm_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// unsafeCases are the cases of testdata/unsafemem with the output `go run`
// prints (stdout and stderr together), or, for a case gmc cannot model
// exactly, the start of its "unsupported" message.
// unsafeCase is a case of a testdata program selected by os.Args[1]: its
// output as `go run` prints it, or the unsupported error it stops with.
type unsafeCase struct{ name, out, unsupported string }

var unsafeCases = []unsafeCase{
	{"scalar-cast", "18446744073709551614 4294967293 4609434218613702656\n52 -2 true\n6\n", ""},
	{"func-cast", "55047103549893383 137979848194027702 7843 3\n81036820354383033\ndeferred 47015839378313929\n", ""},
	{"string-header", "7 12 5 false 5\ntrue 119 world\nworld 1819043176\nworld 12 12\n", ""},
	{"string-header-empty", "", "unsupported: the address of an empty string's bytes"},
	{"string-data-pointer", "9 15 33\nfalse false 15\ntrue\n{\"nam 5 33\n18 Tom\n", ""},
	{"string-pieces", "18 2\n4 cdefghijabcd\n", ""},
	{"string-header-cap", "abc\n", ""},
	{"string-header-cap-kept", "", "unsupported: a read past the bytes of a string"},
	{"memclr", "[104 101 108 0 0 0 0 0 111 114 108 100]\n", ""},
	{"slice-data-pointer", "true 5 49\ntrue true\n", ""},
	{"string-header-len", "3 99\n", ""},
	{"iface-direct-struct", "true true 5 true\n5 true\n", ""},
	{"map-word", "true true true\ntrue true true\n", ""},
	{"string-to-bytes-header", "eykey 5 5 101 ke\n", ""},
	{"memhash", "true true true 7\n", ""},
	{"string-write", "", "unsupported: a write to a string's bytes"},
	{"unsafe-add", "true true true\n", ""},
	{"unsafe-add-mid", "0\n", ""},
	{"typehash", "true true true false true\n42 true true\n", ""},
	{"type-word-pointer", "true true true true true true\n", ""},
	{"typehash-unhashable", "runtime error: hash of unhashable type []int\n", ""},
	{"sizeof-generic", "1 32 96 16 8 1\n", ""},
	{"offsetof-generic", "[1 8] [8 32]\n", ""},
	{"reflect-type-word", "false true true true\n", ""},
	{"iface-words-store", "7 s 5 1 true bool\n", ""},
	{"value-words", "ptr *int64 8 string str 1 1\n", ""},
	{"iface-data-word", "7 true\n", ""},
	{"wild-pointer", "4 true\nruntime error: unsafe.Slice: len out of range\n", ""},
	{"wild-pointer-read", "", "unsupported: unsafe.Slice over address 0xffffffffffffffff, which names no variable"},
	{"func-cast-float", "", "unsupported: a call of func(x float64) float64 through the function type func(int64) float64 (parameter 1)"},
}

var unsafeProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: "testdata/unsafemem"})
})

// TestUnsafeMemory: unsafe reinterpretations of memory real modules make
// (cornelk/hashmap's hashers, xsync's string and interface hashing, the
// address of a string's bytes) behave as under Go, and the ones gmc cannot
// model exactly stop as unsupported instead of reading a guessed value.
func TestUnsafeMemory(t *testing.T) {
	prog, err := unsafeProg()
	if err != nil {
		t.Fatal(err)
	}
	runUnsafeCases(t, prog, unsafeCases)
}

// runUnsafeCases runs each case of prog once and checks its output or its
// unsupported error.
func runUnsafeCases(t *testing.T, prog *load.Program, cases []unsafeCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := vm.New(prog, vm.Options{Args: []string{c.name}})
			e, err := m.FindEntry("main")
			if err != nil {
				t.Fatal(err)
			}
			s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
			verr := s.Err()
			if c.unsupported != "" {
				if verr == nil || verr.Kind != vm.KindUnsupported || !strings.HasPrefix(verr.Msg, c.unsupported) {
					t.Fatalf("got %v, want %q", verr, c.unsupported)
				}
				return
			}
			if verr != nil {
				t.Fatalf("%s: %s", verr.Kind, verr.Msg)
			}
			if got := s.Output(0); got != c.out {
				t.Errorf("output %q, want %q", got, c.out)
			}
		})
	}
}

// TestGoidGet: github.com/petermattis/goid.Get (assembly in the module) is
// the id runtime.Stack prints for the calling goroutine.
func TestGoidGet(t *testing.T) {
	if got := runMainOutput(t, "testdata/goid/cmd"); got != "true true true\n" {
		t.Errorf("output %q, want %q", got, "true true true\n")
	}
}

// runMainOutput runs the main of the program in dir once (seed 1) and
// returns what it printed; an error of the run fails the test.
func runMainOutput(t *testing.T, dir string) string {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if verr := s.Err(); verr != nil {
		t.Fatalf("%s: %s", verr.Kind, verr.Msg)
	}
	return s.Output(0)
}
