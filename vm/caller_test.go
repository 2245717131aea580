package vm_test

import "testing"

// TestCallerLine: runtime.Caller(0) reports the line of its own call (it
// reported the instruction before it: rs/zerolog's TestCallerMarshalFunc
// failed), runtime.Caller(1) the line of the caller's call, as `go run
// ./vm/testdata/callerline` prints.
func TestCallerLine(t *testing.T) {
	if got, want := runMainOutput(t, "testdata/callerline"), "0 \n20 21\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestCallerWrapper: runtime.Caller and runtime.Callers skip the frames gc
// generates and hides — a pointer receiver's wrapper of a value method and
// an embedded field's promoted method called through an interface, a
// method value's "-fm" wrapper, a method expression's thunk — and keep a
// generic function's instance and a range-over-func loop body, as `go run
// ./vm/testdata/callerwrap` prints (go-logr/logr's funcr names the wrong
// caller otherwise: 5 false failures of its tests).
func TestCallerWrapper(t *testing.T) {
	want := `interface via pointer: main.go:69
promoted via interface: main.go:71
method value: main.go:73
method expression: main.go:75
generic: main.go:61
range func: main.go:78
callers: main.lister.List
callers of a method value: main.lister.List
`
	if got := runMainOutput(t, "testdata/callerwrap"); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
}

// TestFuncNameDottedPath: runtime.FuncForPC names a function of a package
// whose last path element holds a dot with that dot escaped, as gc writes
// symbol names (`go run ./vm/testdata/dotpkg`); reflect's PkgPath keeps the
// dot (go.uber.org/dig's digreflect TestInspectFunc failed: "git.Hello").
func TestFuncNameDottedPath(t *testing.T) {
	const p = "github.com/gmc-go/gmc/vm/testdata/dotpkg/v1"
	want := p + "%2elib.Hello\n" + p + "%2elib.T.Name\n" + p + "%2elib.Hello\n" + p + ".lib lib.T\n"
	if got := runMainOutput(t, "testdata/dotpkg"); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
}
