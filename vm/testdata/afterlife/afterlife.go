// Package afterlife holds tests whose goroutines outlive them: what a
// test leaves behind fires its timers once after the test returns, and a
// background loop on a ticker (started by the package's init, or by the
// test) does not keep the run going forever.
package afterlife

import (
	"sync/atomic"
	"time"
)

// now is a cached clock refreshed by a background ticker (as
// panjf2000/ants' pools keep theirs).
var now atomic.Int64

func init() {
	go func() {
		t := time.NewTicker(500 * time.Millisecond)
		for range t.C {
			now.Store(time.Now().UnixNano())
		}
	}()
}

// Add adds.
func Add(a, b int) int { return a + b }

// janitor starts a loop that sweeps every interval until stopped (never,
// in the tests): a cache's janitor.
func janitor(interval time.Duration) {
	go func() {
		for {
			time.Sleep(interval)
			now.Add(1)
		}
	}()
}
