// Goroutines call value methods of zero-size types (context.Background's
// Done, a struct{} receiver): all zero-size variables share one address
// but no memory, so there is no race.
package main

import (
	"context"
	"sync"
)

type empty struct{}

func (e empty) get() int { return 1 }

func main() {
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e empty
			_ = ctx.Done()
			_ = e.get()
		}()
	}
	wg.Wait()
}
