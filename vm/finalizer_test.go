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

// TestFinalizersOneCollection: one collection finds two objects
// unreachable; each finalizer runs once (testdata/finalizers2: output =
// go run's). The finalizer goroutine called each record above the
// continuation frame of the one before, so every return ran the last
// finalizer again: forever (bytedance/gopkg's TestChannelGCClose saw
// that goroutine still running in runtime.NumGoroutine and failed, a
// false alarm; here the WaitGroup's counter went negative).
func TestFinalizersOneCollection(t *testing.T) {
	checkGoRunOutput(t, "testdata/finalizers2")
	exhaustsWithoutError(t, "finalizers2", 20000)
}

// TestMemStats: runtime.ReadMemStats reports the reachable heap
// (testdata/memstats: output = go run's). It reported 0 bytes, so a test
// that allocates 100 MB and checks the heap's size failed (bytedance/gopkg's
// gctuner TestMem: a false alarm).
func TestMemStats(t *testing.T) {
	checkGoRunOutput(t, "testdata/memstats")
}

// TestOncePanic: a function run by sync.Once.Do that panics leaves the
// Once done and unlocked, as Go's doSlow defers it (testdata/oncepanic:
// output = go run's); the goroutines waiting in Do meanwhile go on. They
// waited forever: a deadlock reported on go-zero's TestRoutingGroupRunSafe,
// a false alarm. Every schedule ends without an error.
func TestOncePanic(t *testing.T) {
	checkGoRunOutput(t, "testdata/oncepanic")
	exhaustsWithoutError(t, "oncepanic", 20000)
}
