package vm_test

import "testing"

// TestBigTableOutput: a package-level table literal of 8192 constants
// (testdata/bigtable; TestLivenessTableInit checks its initializer's
// liveness) is read as go run prints it.
func TestBigTableOutput(t *testing.T) { checkGoRunOutput(t, "testdata/bigtable") }
