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
