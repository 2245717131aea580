package main

import (
	"fmt"
	"testing"
)

// TestRunResult: t.Run returns whether the subtest passed.
func TestRunResult(t *testing.T) {
	ok := t.Run("pass", func(t *testing.T) {})
	fmt.Println("run:", ok)
	fail := t.Run("fail", func(t *testing.T) { t.Error("boom") })
	fmt.Println("run:", fail)
}
