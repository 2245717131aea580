// Package parlog_test holds tables of parallel subtests, in a package
// that imports neither fmt nor anything that does (t.Logf formats with
// fmt all the same): leaves that share nothing, whose interleavings a
// search need not tell apart (vm.Machine.Solo), and leaves that share a
// mutex, a channel or a variable, whose order matters. Every test but the
// TestFail* passes under go test -race.
package parlog_test

import (
	"strconv"
	"sync"
	"testing"
)

var names = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x"}

// Two parallel subtests log: fmt's initializer ran before the test, as
// testing's import, not in the first subtest that logs.
func TestParallelLog(t *testing.T) {
	for _, n := range names[:2] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			t.Logf("leaf %s", n)
		})
	}
}

// A table of 24 independent leaves that log and register a cleanup.
func TestParallelTable(t *testing.T) {
	for i, n := range names {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			t.Cleanup(func() {})
			got, err := strconv.Atoi(strconv.Itoa(i * 7))
			if err != nil || got != i*7 {
				t.Fatalf("leaf %s: %d, %v", n, got, err)
			}
			t.Logf("leaf %s", n)
		})
	}
}

// Leaves count under a mutex: the one that comes last fails if it is c.
func TestFailParallelLast(t *testing.T) {
	var mu sync.Mutex
	count := 0
	for _, n := range names[:8] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			mu.Lock()
			count++
			last := count == 8
			mu.Unlock()
			if last && n == "c" {
				t.Fatalf("leaf %s came last", n)
			}
		})
	}
}

// Leaves pass a token on a channel: the one that takes it fifth fails if
// it is g.
func TestFailParallelToken(t *testing.T) {
	token := make(chan int, 1)
	token <- 0
	for _, n := range names[:8] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			v := <-token
			if v == 4 && n == "g" {
				t.Errorf("leaf %s took the token fifth", n)
			}
			token <- v + 1
		})
	}
}

// Leaves increment a shared counter without a lock: a race.
func TestFailParallelShared(t *testing.T) {
	total := 0
	t.Run("group", func(t *testing.T) {
		for _, n := range names[:8] {
			t.Run(n, func(t *testing.T) {
				t.Parallel()
				total += len(n)
			})
		}
	})
}

// One leaf of an independent table fails.
func TestFailParallelOne(t *testing.T) {
	for i, n := range names {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			if i == 17 {
				t.Errorf("leaf %s fails", n)
			}
		})
	}
}

// A table of parallel subtests each running two sequential subtests of
// its own (a subtree that starts goroutines, one at a time): each
// subtree runs alone to its end.
func TestNestedTable(t *testing.T) {
	for i, n := range names[:16] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			for _, step := range []string{"encode", "decode"} {
				t.Run(step, func(t *testing.T) {
					got, err := strconv.Atoi(strconv.Itoa(i * 7))
					if err != nil || got != i*7 {
						t.Fatalf("%s/%s: %d, %v", n, step, got, err)
					}
				})
			}
		})
	}
}

// The nested subtests of two parallel subtrees increment a shared
// counter without a lock: a race between the subtrees.
func TestFailNestedShared(t *testing.T) {
	total := 0
	for _, n := range names[:4] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			t.Run("inner", func(t *testing.T) {
				total += len(n)
			})
		})
	}
}

// A table of parallel subtests each running a sequential subtest that
// releases a table of parallel leaves of its own (spf13/cast's runTests):
// each subtree runs alone, each nested leaf alone within it.
func TestNestedParallelTable(t *testing.T) {
	for i, n := range names[:8] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			t.Run("value", func(t *testing.T) {
				for _, k := range []int{1, 2, 3} {
					t.Run(strconv.Itoa(k), func(t *testing.T) {
						t.Parallel()
						if got, _ := strconv.Atoi(strconv.Itoa(i * k)); got != i*k {
							t.Fatalf("%s/%d: %d", n, k, got)
						}
					})
				}
			})
		})
	}
}

// The same, with one nested leaf failing only when it runs after a
// sibling leaf of its subtree: order within a group is still explored
// when the leaves share (here a variable of their subtree).
func TestFailNestedOrder(t *testing.T) {
	for _, n := range names[:3] {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			seen := 0
			t.Run("value", func(t *testing.T) {
				for _, k := range []int{1, 2} {
					t.Run(strconv.Itoa(k), func(t *testing.T) {
						t.Parallel()
						mu.Lock()
						defer mu.Unlock()
						seen++
						if k == 1 && seen == 2 && n == names[1] {
							t.Errorf("%s: leaf 1 ran second", n)
						}
					})
				}
			})
		})
	}
}
