// Package reexec holds tests that re-execute their own test binary
// (os.Args[0] with -test.run and an environment variable), as
// golang.org/x/sync/singleflight's TestPanicDoChan does: the child's
// outcome (output and exit status) is checked by the parent. gmc runs the
// child as a machine of its own (vm/exec_self.go). Each test also passes
// under go test.
package reexec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// executable is singleflight's: the test binary, after a control run
// with an empty environment.
func executable(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("skipping: test executable not found")
	}
	cmd := exec.Command(exe, "-test.list=^$")
	cmd.Env = []string{}
	if err := cmd.Run(); err != nil {
		t.Skipf("skipping: exec appears not to work: %v", err)
	}
	return exe
}

// child runs the test named name again with REEXEC_CHILD=1 and returns
// its combined output and Wait's error.
func child(t *testing.T, name string) (string, error) {
	cmd := exec.Command(executable(t), "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), "REEXEC_CHILD=1")
	out := new(bytes.Buffer)
	cmd.Stdout = out
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	t.Logf("%s:\n%s", strings.Join(cmd.Args, " "), out)
	return out.String(), err
}

// crash panics in a goroutine of its own after another hands it a value
// (the test's goroutine waits for ever): the child's schedules all end in
// the same crash.
func crash() {
	ch := make(chan string, 1)
	go func() { ch <- "boom in child" }()
	go func() { panic(<-ch) }()
	select {}
}

// TestChildPanics: the child crashes; the parent sees a failed run whose
// output holds the panic's value.
func TestChildPanics(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		crash()
		t.Fatalf("child unexpectedly returned")
	}
	out, err := child(t, t.Name())
	if err == nil {
		t.Errorf("child passed; want a crash")
	}
	if strings.Contains(out, "unexpectedly returned") {
		t.Errorf("child failed in another way")
	}
	if !strings.Contains(out, "boom in child") {
		t.Errorf("child's output lacks its panic")
	}
}

// TestChildPanicsWrongCheck is TestChildPanics with a check that fails:
// the output holds no such text.
func TestChildPanicsWrongCheck(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		crash()
		return
	}
	out, _ := child(t, t.Name())
	if !strings.Contains(out, "a panic the child never raised") {
		t.Errorf("child's output lacks the expected text")
	}
}

// TestChildFails: the child fails with t.Fatalf; the parent sees exit
// status 1 and the child's message.
func TestChildFails(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		t.Fatalf("child failed: %d", 42)
	}
	out, err := child(t, t.Name())
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("Wait: %v; want exit status 1", err)
	}
	if !strings.Contains(out, "child failed: 42") || !strings.Contains(out, "--- FAIL: TestChildFails") {
		t.Errorf("child's output lacks its failure")
	}
}

// TestChildPasses: the child (run with -test.v: testing.Verbose) passes;
// Wait returns nil and the output is go test -v's.
func TestChildPasses(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		if !testing.Verbose() {
			t.Fatal("child run with -test.v is not verbose")
		}
		t.Log("child ran")
		return
	}
	out, err := child(t, t.Name())
	if err != nil {
		t.Errorf("Wait: %v", err)
	}
	if !strings.Contains(out, "=== RUN   TestChildPasses") || !strings.Contains(out, "child ran") || !strings.Contains(out, "PASS") {
		t.Errorf("child's output is not go test -v's")
	}
}

// TestChildSkips: the child skips; Wait returns nil and the output is go
// test -v's SKIP.
func TestChildSkips(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		t.Skip("child skipped")
	}
	out, err := child(t, t.Name())
	if err != nil {
		t.Errorf("Wait: %v", err)
	}
	if !strings.Contains(out, "reexec_test.go:") || !strings.Contains(out, ": child skipped\n--- SKIP: TestChildSkips") || !strings.Contains(out, "PASS") {
		t.Errorf("child's output is not go test -v's SKIP")
	}
}

// TestChildExitCodeWrong expects exit status 2 from a child that fails
// (status 1): an error.
func TestChildExitCodeWrong(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		t.Fatal("child failed")
	}
	_, err := child(t, t.Name())
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Errorf("Wait: %v; want exit status 2", err)
	}
}

// TestChildTwoOutcomes: the child prints one of two words depending on
// the schedule; a parent that accepts either passes under go test.
func TestChildTwoOutcomes(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		ch := make(chan string)
		go func() { ch <- "first" }()
		go func() { ch <- "second" }()
		println(<-ch)
		<-ch
		return
	}
	out, err := child(t, t.Name())
	if err != nil || !strings.Contains(out, "first") && !strings.Contains(out, "second") {
		t.Errorf("Wait: %v; output %q", err, out)
	}
}

// TestOtherCommand runs a program other than the test binary: not
// modelled.
func TestOtherCommand(t *testing.T) {
	if err := exec.Command("/bin/true").Run(); err != nil {
		t.Skip(err)
	}
}

// TestChildOutputs: Output returns what the child wrote to its standard
// output, CombinedOutput both streams; without -test.v a passing child
// writes its own output and PASS.
func TestChildOutputs(t *testing.T) {
	if os.Getenv("REEXEC_CHILD") != "" {
		fmt.Println("to stdout")
		fmt.Fprintln(os.Stderr, "to stderr")
		return
	}
	exe := executable(t)
	cmd := exec.Command(exe, "-test.run=^TestChildOutputs$")
	cmd.Env = append(os.Environ(), "REEXEC_CHILD=1")
	out, err := cmd.Output()
	if err != nil || string(out) != "to stdout\nPASS\n" {
		t.Errorf("Output: %q, %v", out, err)
	}
	cmd = exec.Command(exe, "-test.run=^TestChildOutputs$")
	cmd.Env = append(os.Environ(), "REEXEC_CHILD=1")
	out, err = cmd.CombinedOutput()
	if err != nil || string(out) != "to stdout\nto stderr\nPASS\n" {
		t.Errorf("CombinedOutput: %q, %v", out, err)
	}
}
