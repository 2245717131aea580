package vm_test

import (
	"os"
	"testing"
)

// TestFuncValueName: reflect.Value.Pointer of a func value is its code
// pointer, and runtime.FuncForPC names it as gc does — functions,
// closures, method expressions (gc's wrappers named after the type the
// expression names, a promoted method's included) and method values
// ("-fm"); the output is go run's (want.txt). go-cmp's function.NameOf
// reads names this way.
func TestFuncValueName(t *testing.T) { checkGoRunOutput(t, "testdata/funcname") }

// TestCallerPCMinusOne: a caller's PC minus one, decoded by FuncForPC and
// FileLine as pkg/errors does, is the call's line (a package initializer,
// multi-line calls of closures), not the line of the instruction before
// the call (pkg/errors' TestFrameFormat, TestFrameMarshalText/JSON).
func TestCallerPCMinusOne(t *testing.T) { checkGoRunOutput(t, "testdata/callerpc") }

// TestReflectValueEqual: == on reflect.Values as Go compares them: two
// ValueOf of one func, pointer, channel or map are equal (Masterminds/semver's
// TestParseConstraint), addressable Values compare by address.
func TestReflectValueEqual(t *testing.T) { checkGoRunOutput(t, "testdata/reflecteq") }

// TestPanicNilOldModule: in a module whose go line is 1.20, the GODEBUG
// defaults are that version's: panicnil=1 (older than 1.21), so panic(nil)
// panics with nil and recover returns nil (testify 1.10's
// TestPanicsWithValue), and randseednop=0 (older than 1.24), so rand.Seed
// seeds the global generator (rcrowley/go-metrics' sample tests), as go
// run prints.
func TestPanicNilOldModule(t *testing.T) { checkGoRunOutput(t, "testdata/panicnil") }

// TestReflectValueSlice: reflect.Value.Slice and Slice3 of an addressable
// array, a slice and a string, and their panics, as go run prints them.
func TestReflectValueSlice(t *testing.T) { checkGoRunOutput(t, "testdata/reflectslice") }

// checkGoRunOutput runs the main program in dir and compares its output
// with what go run prints (dir/want.txt).
func checkGoRunOutput(t *testing.T, dir string) {
	t.Helper()
	want, err := os.ReadFile(dir + "/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := runMainOutput(t, dir); got != string(want) {
		t.Errorf("output:\n%s\nwant (go run):\n%s", got, want)
	}
}

// TestDotlessModulePool: a module named without a dot is not the standard
// library (load.StdPackage): its sync.Pool keeps what it puts, as go run
// shows, where the standard library's pools drop their values. With the
// import path alone deciding, the race suite's TestRacePool (module
// racesuite) was missed.
func TestDotlessModulePool(t *testing.T) {
	if got := runMainOutput(t, "testdata/poolmod"); got != "true 7\n" {
		t.Errorf("output %q, want go run's %q", got, "true 7\n")
	}
}
