// Package sub_test is a directory of external tests only (as
// pelletier/go-toml's benchmark): go test runs them in this directory, so
// a relative path names this directory's file whatever directory gmc was
// started in (vm/files_test.go).
package sub_test

import (
	"os"
	"testing"
)

func TestRead(t *testing.T) {
	b, err := os.ReadFile("data.txt")
	if err != nil || string(b) != "hello from sub\n" {
		t.Fatalf("%q %v", b, err)
	}
}
