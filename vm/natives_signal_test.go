package vm_test

import (
	"testing"

	"github.com/gmc-go/gmc/guide"
	"github.com/gmc-go/gmc/vm"
)

// TestSignalNotify: os/signal.Notify registers a channel no signal comes
// on (testdata/signalwait: output = go run's); the goroutine that waits on
// it from init is not leaked, in every schedule. os/signal was an OS
// boundary: every test of a go-zero package (core/proc's init calls
// Notify) was not checked. Once main unregisters the channel
// (signal.Stop), nothing can wake that goroutine: a leak.
func TestSignalNotify(t *testing.T) {
	checkGoRunOutput(t, "testdata/signalwait")
	exhaustsWithoutError(t, "signalwait", 20000)

	m, e := machine(t, "signalwait", vm.Options{Args: []string{"stop"}, Checks: vm.Checks{Race: true, Leak: true}})
	res := guide.Search(t.Context(), m, e, guide.Config{Strategy: guide.Exhaustive, MaxStates: 20000})
	if res.Final == nil || res.Final.Err() == nil || res.Final.Err().Kind != vm.KindLeak {
		t.Fatalf("after signal.Stop: got %v, want a leak", res.Final)
	}
}
