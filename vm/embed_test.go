package vm_test

import (
	"os"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestEmbed: //go:embed variables hold what the go command embeds — a
// string, a []byte, an embed.FS over a directory (names starting with "."
// or "_" left out unless the pattern says all:) — and package embed runs
// from its source over them; the output is go run's (want.txt).
func TestEmbed(t *testing.T) {
	prog, err := load.Load(load.Config{Dir: "testdata/embed"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/embed/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := vm.New(prog, vm.Options{})
	e, err := m.FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
	if err := s.Err(); err != nil {
		t.Fatalf("error: %s: %s", err.Kind, err.Msg)
	}
	if got := s.Output(0); got != string(want) {
		t.Errorf("output:\n%s\nwant (go run):\n%s", got, want)
	}
}
