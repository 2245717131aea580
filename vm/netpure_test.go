package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestNetPureGo: package net's IP, mask, CIDR and MAC code,
// SplitHostPort/JoinHostPort and TCP/UDP addresses (k8s.io/utils/net: 8
// tests not checked as an OS boundary they are not) run from its source
// with its package-level variables initialized (IPv4bcast, IPv6loopback),
// printing what go run prints (mitchellh/mapstructure's
// TestStringToIPHookFunc stopped at net.IPv4), and net.Pipe, an in-memory
// connection with deadlines (before: OS boundary); a dial still stops the
// run at the OS boundary, named.
func TestNetPureGo(t *testing.T) {
	checkGoRunOutput(t, "testdata/netpure")
	prog, err := load.Load(load.Config{Dir: "testdata/netpure"})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{Args: []string{"dial"}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if verr := s.Err(); verr == nil || verr.Kind != vm.KindUnsupported || !strings.Contains(verr.Msg, "OS boundary: call of net.Dial") {
		t.Errorf("dial: got %v, want unsupported: OS boundary: call of net.Dial", verr)
	}
}
