package vm_test

import "testing"

// TestEvalOrder: a statement's operands that its calls change print as
// gc evaluates them, the calls first (testdata/evalorder, as go run
// prints it): `return b, scan(&b)` returns what scan wrote, and an operand
// read in a statement of its own is read before.
func TestEvalOrder(t *testing.T) { checkGoRunOutput(t, "testdata/evalorder") }
