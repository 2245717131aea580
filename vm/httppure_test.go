package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestHTTPPureGo: net/http's headers, Request, status texts, content
// sniffing, http.Error and httptest.ResponseRecorder run from their source
// in a program that imports net/http/httptest, printing what go run prints
// (rs/zerolog's hlog tests stopped at "OS boundary: call of
// (net/http.HandlerFunc).ServeHTTP"); http.Get still stops the run at the
// OS boundary, named.
func TestHTTPPureGo(t *testing.T) {
	checkGoRunOutput(t, "testdata/httppure")
	prog, err := load.Load(load.Config{Dir: "testdata/httppure"})
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{Args: []string{"get"}})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if verr := s.Err(); verr == nil || verr.Kind != vm.KindUnsupported || !strings.Contains(verr.Msg, "OS boundary: call of net/http.Get") {
		t.Errorf("get: got %v, want unsupported: OS boundary: call of net/http.Get", verr)
	}
}

// TestHTTPVars: a program whose own code imports net/http keeps net/http's
// pure parts and runs its initializer, so the variables it sets are there
// (testdata/httpvars: a package asserts http.DefaultTransport to
// *http.Transport in its initializer, as k8s.io/apimachinery's util/net
// does, and reads ErrNoCookie); a program that imports net/http only in
// a test (testdata/httptestonly, as x/sync's errgroup) keeps it stripped
// whole.
func TestHTTPVars(t *testing.T) {
	checkGoRunOutput(t, "testdata/httpvars")
	prog, err := load.Load(load.Config{Dir: "testdata/httptestonly"})
	if err != nil {
		t.Fatal(err)
	}
	if prog.Interpreted("net/http") {
		t.Errorf("net/http kept for a test-only import")
	}
}
