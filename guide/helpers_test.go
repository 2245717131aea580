package guide

import (
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
)

// loadMain loads the benchmark package pkg ("./benchmarks/NAME") and
// returns it with the VM options for args and its main entry.
func loadMain(t testing.TB, pkg string, args []string) (*load.Program, vm.Options, vm.Entry) {
	t.Helper()
	prog, err := load.Load(load.Config{Dir: "..", Patterns: []string{pkg}})
	if err != nil {
		t.Fatal(err)
	}
	opts := vm.Options{Args: args}
	e, err := vm.New(prog, opts).FindEntry("main")
	if err != nil {
		t.Fatal(err)
	}
	return prog, opts, e
}
