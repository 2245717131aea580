// Package registry keeps its cases in a package-level table, as the GoKer
// kernels do: the initializer stores every case, but each test calls one,
// so a warning in one case is checked only on the test that calls it.
package registry

import (
	"sync"
	"testing"
)

var cases = map[string]func(){"abba": abba, "fine": fine}

var a, b sync.Mutex

func abba() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.Lock(); b.Lock(); b.Unlock(); a.Unlock() }()
	go func() { defer wg.Done(); b.Lock(); a.Lock(); a.Unlock(); b.Unlock() }()
	wg.Wait()
}

func fine() {}

func TestABBA(t *testing.T) { abba() }

func TestFine(t *testing.T) { fine() }

func TestCount(t *testing.T) {
	if len(cases) != 2 {
		t.Fatal("cases")
	}
}
