package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestUnsafeView: typed views of memory as dgraph-io/ristretto takes them
// (testdata/unsafeview: z.BytesToUint64Slice's []uint64 over a []byte, the
// bbloom bit set's bytes inside uint64 cells, numbers read and written
// through pointers of another width) print what `go run` prints, and a
// view of memory that is not numbers of one width stops as unsupported.
func TestUnsafeView(t *testing.T) {
	cases := []struct{ name, out, unsupported string }{
		{"bytes-as-words", "4 4 513 255 0\n[8 7 6 5 4 3 2 1 254 255 255 255 255 255 255 255]\ntrue 255\n513 255 true [1 2]\n7 2 2\ntrue\ntrue\n", ""},
		{"words-u32", "1 42 4294967295 3 42\n", ""},
		{"bloom", "true false true true false\n8000000000000209 8000001000000001\n[9 2 0 0 0 0 0 128 1 0 0 0 16 0 0 128]\ntrue true true\n", ""},
		{"cast-width", "8070605040302010\n[16 32 48 64 239 190 173 222 9]\nabcd000000000000 5\n7 -1\n-9223372036854775799 true\n", ""},
		{"view-of-struct", "", "unsupported: a load through address 0x"},
	}
	prog, err := load.Load(load.Config{Dir: "testdata/unsafeview"})
	if err != nil {
		t.Fatal(err)
	}
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
