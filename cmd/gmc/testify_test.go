package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testifyFailure is what testify v1.9.0 prints for TestStructsDiffer of
// testdata/testify under go test, from its Error line to its Test line.
const testifyFailure = `	Error:      	Not equal: 
	            	expected: testifycase.point{X:1, Y:2, Name:"a", tags:[]string(nil)}
	            	actual  : testifycase.point{X:1, Y:3, Name:"a", tags:[]string(nil)}
	            	
	            	Diff:
	            	--- Expected
	            	+++ Actual
	            	@@ -2,3 +2,3 @@
	            	  X: (int) 1,
	            	- Y: (int) 2,
	            	+ Y: (int) 3,
	            	  Name: (string) (len=1) "a",
	Test:       	TestStructsDiffer`

// TestTestify: testify's assertions run unchanged on structs (go-spew's
// unsafe bypass, reflect, encoding/json): a passing test is no-error, a
// failing Equal is an error whose message is testify's, diff included; a
// suite runs its methods (suite.Run over reflect's Type.Method) and its
// racy method's race is found.
// testify is not vendored: the test skips when the module cache lacks it.
func TestTestify(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip("go env GOMODCACHE:", err)
	}
	cache := strings.TrimSpace(string(out))
	for _, m := range []string{"github.com/stretchr/testify@v1.9.0", "github.com/davecgh/go-spew@v1.1.1",
		"github.com/pmezard/go-difflib@v1.0.0", "gopkg.in/yaml.v3@v3.0.1"} {
		if _, err := os.Stat(filepath.Join(cache, m)); err != nil {
			t.Skipf("%s is not in the module cache", m)
		}
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	stdout, stderr, code := gmc(t, "check", "--json", "--time-limit", "20s", "./testdata/testify")
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (an error found); stderr:\n%s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Entry, Verdict, Problem string
			Error                   *struct{ Kind, Message string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	seen := 0
	for _, r := range rep.Results {
		switch r.Entry {
		case "TestStructsEqual":
			seen++
			if r.Verdict != "no-error" || r.Problem != "" {
				t.Errorf("TestStructsEqual: %+v, want no-error", r)
			}
		case "TestStructsDiffer":
			seen++
			if r.Verdict != "error" || r.Error == nil || r.Error.Kind != "assert" {
				t.Fatalf("TestStructsDiffer: %+v, want an assert error", r)
			}
			msg := r.Error.Message
			i, j := strings.Index(msg, "\tError:"), strings.Index(msg, "\tTest:")
			if i < 0 || j < 0 {
				t.Fatalf("TestStructsDiffer: message without testify's Error and Test lines:\n%s", msg)
			}
			if got := msg[i : j+len("\tTest:       \tTestStructsDiffer")]; got != testifyFailure {
				t.Errorf("TestStructsDiffer message:\n%s\nwant testify's:\n%s", got, testifyFailure)
			}
		case "TestCounterSuite": // suite.Run: reflect's Method and Func.Call
			seen++
			if r.Verdict != "error" || r.Error == nil || r.Error.Kind != "race" || !strings.Contains(r.Error.Message, "(*counterSuite).TestUnlocked") {
				t.Errorf("TestCounterSuite: %+v, want the race of TestUnlocked", r)
			}
		}
	}
	if seen != 3 {
		t.Errorf("results %+v, want TestStructsEqual, TestStructsDiffer and TestCounterSuite", rep.Results)
	}
}
