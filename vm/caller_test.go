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
