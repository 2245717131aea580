package testing_test

import (
	"testing"
	"time"
)

// A test sizes its timeouts from t.Deadline (none, as with -timeout 0) and
// records attributes (Go 1.25).
func TestDeadlineAndAttr(t *testing.T) {
	timeout := time.Second
	if d, ok := t.Deadline(); ok {
		timeout = time.Until(d)
	}
	t.Attr("timeout", timeout.String())
	if timeout != time.Second {
		t.Fatal("deadline", timeout)
	}
}
