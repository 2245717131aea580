package xtestmain_test

import (
	"os"
	"testing"
)

// exit is initialized by this package's initializer, as goleak's _osExit
// is: nil if the initializer did not run.
var exit = os.Exit

func TestMain(m *testing.M) {
	exit(m.Run())
}
