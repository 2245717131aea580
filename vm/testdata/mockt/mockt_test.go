package mockt

import (
	"fmt"
	"testing"
)

type loud struct{ n *int }

func (l loud) String() string { *l.n++; return "loud" }

// assertEqual is an assertion in testify's style: it reports through t.
func assertEqual(t testing.TB, a, b int) bool {
	t.Helper()
	if a != b {
		t.Errorf("not equal: %d != %d", a, b)
		return false
	}
	return true
}

// TestMockT checks an assertion against a T of its own, as testify's tests
// do: the failure marks mockT, not the running test.
func TestMockT(t *testing.T) {
	mockT := new(testing.T)
	if mockT.Failed() {
		t.Fatal("a new T has not failed")
	}
	if assertEqual(mockT, 1, 2) {
		t.Error("1 == 2")
	}
	if !mockT.Failed() {
		t.Error("mockT should have failed")
	}
	other := &testing.T{}
	other.Log("not printed")
	n := 0
	other.Logf("%v", loud{&n})
	if n != 1 {
		t.Errorf("String ran %d times, want 1", n)
	}
	if other.Failed() {
		t.Error("Log does not fail a T")
	}
	other.Fail()
	if !other.Failed() {
		t.Error("Fail marks the T failed")
	}
	if t.Failed() {
		t.Error("the running test failed through another T")
	}
	fmt.Println("mockT ok")
}

// TestMockTRealFailure fails through its own T after a mock failed.
func TestMockTRealFailure(t *testing.T) {
	mockT := new(testing.T)
	assertEqual(mockT, 1, 2)
	assertEqual(t, 3, 4)
}
