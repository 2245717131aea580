package vm_test

import "testing"

// TestXsysCPU: a program importing golang.org/x/sys/cpu runs (its init's
// cpuid and xgetbv are assembly: every test of such a package stopped at
// the OS boundary, bytedance/gopkg's circuitbreaker among them) and sees
// a processor without optional features; an array pointer over a string's
// bytes reads them (it stopped the run with an internal error). Go's own
// run prints the host's features on the first line and the same words on
// the second.
func TestXsysCPU(t *testing.T) {
	want := "features: false false false\n0x3736353433323130 0x6139383736353433\n"
	if got := runMainOutput(t, "testdata/xsyscpu"); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestPoolCleanupLinkname: a pool of its own that registers its cleanup
// with sync's runtime hook by //go:linkname (bytedance/gopkg's
// syncx.Pool) runs; the VM's collections never empty a pool, so the
// cleanup is not called (testdata/poolcleanup: go run prints true, a
// collection there calls it). The call stopped the run as unsupported. So
// did runtime.cmpstring (bytedance/gopkg's skipmap), which compares as
// go run does.
func TestPoolCleanupLinkname(t *testing.T) {
	if got, want := runMainOutput(t, "testdata/poolcleanup"), "cleanups: false\n-1 1 0 -1\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}
