package vm_test

import (
	"fmt"
	"os"
	"runtime/metrics"
	"syscall"
	"testing"
)

// TestStatfs: syscall.Statfs, unix.Statfs and unix.Fstatfs answer what
// the host answers for the path (a directory the program made: its
// parent's file system); a missing path is ENOENT (testdata/statfs). They
// stopped the run at the OS boundary: prometheus/procfs asks it in a
// package initializer, go-zero's core/stat in most of its packages.
func TestStatfs(t *testing.T) {
	var root, tmp syscall.Statfs_t
	if err := syscall.Statfs("/", &root); err != nil {
		t.Skip("statfs of / on the host:", err)
	}
	if err := syscall.Statfs(os.TempDir(), &tmp); err != nil {
		t.Skip("statfs of the temporary directory on the host:", err)
	}
	want := fmt.Sprintf("root %d %d <nil>\nunix %d %d <nil>\nmissing no such file or directory\nmade %d <nil>\nfd %d <nil>\n",
		root.Type, root.Bsize, root.Type, root.Bsize, tmp.Type, root.Type)
	if got := runMainOutput(t, "testdata/statfs"); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestRuntimeMetrics: runtime/metrics runs from its source, its read of
// the runtime's samples a native (testdata/rtmetrics: the descriptions,
// the live goroutines and forced collections, a histogram's shape, the
// kinds, the heap as ReadMemStats's; and runtime.ThreadCreateProfile). prometheus/client_golang reads the descriptions in its package
// initializer: every test of a program that imports it stopped as
// unsupported.
func TestRuntimeMetrics(t *testing.T) {
	lat := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(lat) // the buckets are this runtime's, as go run's
	b := lat[0].Value.Float64Histogram().Buckets
	want := fmt.Sprintf("true true true true\ntrue true 1\ntrue true true\n%d %v %v\ntrue true true\ntrue false\n", len(b), b[0], b[len(b)-1])
	if got := runMainOutput(t, "testdata/rtmetrics"); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestHTTPDefaultMuxRegistration: expvar's and net/http/pprof's package
// initializers register handlers on http.DefaultServeMux, and the
// program's own registration runs; a nil handler panics as in Go
// (testdata/httphandle, whose output is go run's). They stopped the run at
// the OS boundary (prometheus/client_golang imports expvar).
func TestHTTPDefaultMuxRegistration(t *testing.T) {
	if got, want := runMainOutput(t, "testdata/httphandle"), "2\nhttp: nil handler\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestNoasmTag: a module's pure-Go fallback selected by the noasm build
// tag is the code the VM loads (testdata/noasm: go run -tags noasm's
// output; klauspost/compress's cpuid in assembly stopped every test of
// prometheus/client_golang's promhttp as unsupported).
func TestNoasmTag(t *testing.T) {
	if got := runMainOutput(t, "testdata/noasm"); got != "go\n" {
		t.Errorf("output %q, want %q", got, "go\n")
	}
}
