// Package unreachable holds reachability assertions for gmc check: a line
// marked //gmc:unreachable that one interleaving reaches, and one that no
// interleaving reaches. Both tests pass under go test.
package unreachable

import (
	"sync"
	"testing"
)

var seen int

// TestEarly reaches its marked line when the goroutine takes the lock first.
func TestEarly(t *testing.T) {
	var mu sync.Mutex
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); mu.Lock(); x = 1; mu.Unlock() }()
	mu.Lock()
	if x == 1 {
		seen++ //gmc:unreachable
	}
	mu.Unlock()
	wg.Wait()
}

// TestNever cannot reach its marked line: Wait orders the write before it.
func TestNever(t *testing.T) {
	var mu sync.Mutex
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); mu.Lock(); x = 1; mu.Unlock() }()
	wg.Wait()
	mu.Lock()
	if x != 1 {
		//gmc:unreachable
		seen++
	}
	mu.Unlock()
}
