package testing_test

import (
	"strings"
	"testing"
	"testing/synctest"
)

// TestSubtestNames: every *testing.T has its own name, as go test makes
// it — a subtest's is its parent's, a slash and the name given to t.Run,
// spaces rewritten and repeated names numbered; synctest.Test's T has the
// name of the test that called it.
func TestSubtestNames(t *testing.T) {
	var names []string
	for _, n := range []string{"a b", "a b", "", "x/y"} {
		t.Run(n, func(t *testing.T) {
			names = append(names, t.Name())
			t.Run("in", func(t *testing.T) { names = append(names, t.Name()) })
		})
	}
	t.Run("bubble", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) { names = append(names, t.Name()) })
	})
	want := "TestSubtestNames/a_b TestSubtestNames/a_b/in TestSubtestNames/a_b#01 TestSubtestNames/a_b#01/in " +
		"TestSubtestNames/#00 TestSubtestNames/#00/in TestSubtestNames/x/y TestSubtestNames/x/y/in " +
		"TestSubtestNames/bubble"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("names %q, want %q", got, want)
	}
}
