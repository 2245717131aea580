package vm

import "testing"

// TestOnOSBoundary: a call without a body in these packages is named an
// OS boundary in its "not checked" reason (noModel); golang.org/x/sys's
// system calls (logrus's terminal check: unix.Syscall) among them.
func TestOnOSBoundary(t *testing.T) {
	for pkg, want := range map[string]bool{
		"os": true, "syscall": true, "net": true, "internal/poll": true,
		"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true,
		"sync": false, "golang.org/x/sync/errgroup": false, "github.com/x/sys/unix": false,
	} {
		if got := onOSBoundary(pkg); got != want {
			t.Errorf("onOSBoundary(%q) = %v, want %v", pkg, got, want)
		}
	}
}
