package hang

import (
	"testing"
	"time"
)

// TestTickerKeptHang: the test blocks forever while a goroutine receives
// every tick (each tick's value is dropped: the states repeat).
func TestTickerKeptHang(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	go func() {
		for range tk.C {
		}
	}()
	<-make(chan int)
}

// TestTickerCountsThenReleases: a goroutine counts five ticks, then
// releases the test: no hang (the count is live while the ticks arrive).
func TestTickerCountsThenReleases(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	defer tk.Stop()
	done := make(chan int)
	go func() {
		n := 0
		for range tk.C {
			if n++; n == 5 {
				done <- n
				return
			}
		}
	}()
	if n := <-done; n != 5 {
		t.Fatalf("n = %d", n)
	}
}
