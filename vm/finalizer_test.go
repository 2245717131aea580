package vm_test

import "testing"

// TestFinalizers: runtime.GC runs the finalizers and cleanups of the
// objects nothing reaches, on a goroutine of their own, and not those of
// an object a global keeps, a finalizer cleared or a cleanup stopped
// (testdata/finalizer: output = go run's). Before, SetFinalizer did
// nothing, so a test waiting for a finalizer failed (a false alarm), and
// AddCleanup stopped the entry as unsupported. Every schedule, with races
// and leaks checked, ends without an error.
func TestFinalizers(t *testing.T) {
	checkGoRunOutput(t, "testdata/finalizer")
	exhaustsWithoutError(t, "finalizer", 20000)
}
