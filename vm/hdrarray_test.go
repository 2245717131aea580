package vm_test

import "testing"

// TestHeaderArray: a string's and a slice's words read as [2]uintptr and
// [3]uintptr, and a []byte made from a [3]uintptr of a string's words
// (smallnest/ringbuffer's WriteString), print what go run prints; before,
// x[1] stopped the run ("load past the end of an object").
func TestHeaderArray(t *testing.T) { checkGoRunOutput(t, "testdata/hdrarray") }
