// Package unsupportedtest has one test, which stops at the OS boundary
// (cmd/gmc TestSingleTestNotChecked).
package unsupportedtest

import (
	"os"
	"testing"
)

func TestPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	w.Close()
}
