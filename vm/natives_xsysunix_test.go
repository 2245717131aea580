package vm_test

import (
	"strings"
	"testing"

	"github.com/gmc-go/gmc/vm"
	"github.com/gmc-go/gmc/vm/load"
	"github.com/gmc-go/gmc/vm/trace"
)

// TestTerminalQuery: logrus's, x/term's and go-isatty's terminal check
// (ioctl TCGETS, TIOCGWINSZ through golang.org/x/sys/unix.Syscall) says
// "not a terminal" for the VM's standard streams and files and "bad file
// descriptor" for a closed one, as `go run` prints with its streams not
// terminals; another system call stops the entry at the OS boundary.
func TestTerminalQuery(t *testing.T) {
	want := "0 inappropriate ioctl for device false\n" +
		"1 inappropriate ioctl for device false\n" +
		"2 inappropriate ioctl for device false\n" +
		"winsize: inappropriate ioctl for device\n" +
		"file: inappropriate ioctl for device\n" +
		"closed: bad file descriptor\n"
	prog, err := load.Load(load.Config{Dir: "testdata/ttyquery"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) *vm.State {
		m := vm.New(prog, vm.Options{Args: args})
		e, err := m.FindEntry("main")
		if err != nil {
			t.Fatal(err)
		}
		s, _, _ := trace.RandomRun(m, e, 1, 1e6, nil)
		return s
	}
	s := run()
	if verr := s.Err(); verr != nil {
		t.Fatalf("%s: %s", verr.Kind, verr.Msg)
	}
	if got := s.Output(0); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	s = run("flock")
	verr := s.Err()
	if verr == nil || verr.Kind != vm.KindUnsupported || !strings.HasPrefix(verr.Msg, "unsupported: OS boundary: golang.org/x/sys/unix.Syscall of system call 73 ") {
		t.Fatalf("got %v, want the OS boundary at flock (system call 73)", verr)
	}
}
