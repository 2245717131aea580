// The regression test of github.com/alitto/pond/pull/105, copied from
// pool_test.go of github.com/alitto/pond/v2 v2.3.1 (MIT License, Copyright
// (c) 2020 Alejandro Durante): benchmarks/realbugs.sh adds it to a copy of
// v2.3.0, whose own pool_test.go lacks it (v2.3.1's uses TrySubmit, new in
// v2.3.1). One change: NewPool(math.MaxInt), "no limit" since v2.3.1, is spelled
// NewPool(math.MaxInt), what v2.3.1 turns 0 into (v2.3.0 panics on 0).

package pond

import (
	"math"
	"sync"
	"testing"
	"time"
)

func TestPoolSubmitWhileStoppingHasNoRace(t *testing.T) {
	pool := NewPool(math.MaxInt)

	wg := sync.WaitGroup{}

	wg.Add(1)
	go func() {
		defer wg.Done()

		time.Sleep(500 * time.Microsecond)
		pool.StopAndWait()
	}()

	for i := 0; i < 10000; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()

			pool.Submit(func() {
				time.Sleep(10 * time.Millisecond)
			})
		}()
	}

	wg.Wait()
}
