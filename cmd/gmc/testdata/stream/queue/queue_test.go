// Package queue is the other package of cmd/gmc's TestJSONStream: a
// producer and a consumer over a channel under a mutex-guarded count (no
// error, exhausted).
package queue

import (
	"sync"
	"testing"
)

func TestHandoff(t *testing.T) {
	ch := make(chan int, 1)
	var mu sync.Mutex
	got := 0
	done := make(chan struct{})
	go func() {
		for v := range ch {
			mu.Lock()
			got += v
			mu.Unlock()
		}
		close(done)
	}()
	ch <- 1
	ch <- 2
	close(ch)
	<-done
	mu.Lock()
	defer mu.Unlock()
	if got != 3 {
		t.Fatalf("got %d", got)
	}
}
