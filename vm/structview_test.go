package vm_test

import "testing"

// TestStructView: the fields of a struct read and written through a
// pointer to a byte buffer converted from unsafe.Pointer are the bytes of
// the gc layout (a bool one byte), through copies of the buffer as bytes,
// at an offset inside a buffer, and a struct of words over words as its
// cells (testdata/structview, as go run prints it).
func TestStructView(t *testing.T) { checkGoRunOutput(t, "testdata/structview") }
