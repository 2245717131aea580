package vm

import (
	"slices"
	"strings"

	"github.com/gmc-go/gmc/vm/loc"
)

// Testable examples: go test runs a func ExampleXxx() that has an output
// comment ("// Output:" or "// Unordered output:") and fails it when what
// it printed on standard output, both trimmed of surrounding white space,
// differs from the comment's text (for unordered output: as sorted
// lines). The VM runs an example as the entry of its package's test
// binary (its initializers as a test's) and, once it returns, compares the
// output of the run with the comment the same way: a schedule that makes
// an example print something else is an error of kind assert, as go test
// reports it.

// exampleFailure is the error of example entry e that printed out, or nil.
func exampleFailure(e Entry, out string) *Error {
	got, want := strings.TrimSpace(out), strings.TrimSpace(e.Output)
	same := got == want
	if e.Unordered {
		same = sortedLines(got) == sortedLines(want)
	}
	if same {
		return nil
	}
	msg := "--- FAIL: " + e.Fn.Name() + "\ngot:\n" + got + "\nwant:\n" + want
	return &Error{Kind: KindAssert, Msg: msg, Pos: (loc.Loc{Fn: e.Fn, Index: -1}).Position(e.Fn.Prog.Fset)}
}

// sortedLines is s with its lines sorted (go test's sortLines).
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
