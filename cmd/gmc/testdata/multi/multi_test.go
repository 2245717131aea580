package multi

import (
	"os"
	"sync"
	"testing"
)

func TestLeak(t *testing.T) {
	if First(2) < 0 {
		t.Fatal("negative")
	}
}

func TestRace(t *testing.T) {
	var c Counter
	done := make(chan bool)
	go func() {
		c.Add()
		done <- true
	}()
	c.Bump()
	<-done
}

func TestDeadlock(t *testing.T) {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		b.Lock()
		a.Lock()
		a.Unlock()
		b.Unlock()
	}()
	wg.Wait()
}

func TestOK(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.Add()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		t.Fatalf("n = %d", c.n)
	}
}

func TestUnsupported(t *testing.T) {
	if _, _, err := os.Pipe(); err != nil {
		t.Fatal(err)
	}
}
