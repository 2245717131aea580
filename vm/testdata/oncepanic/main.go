// Program oncepanic: the function a sync.Once runs panics in one of three
// goroutines, the other two wait in Do meanwhile; as Go's doSlow defers
// it, the Once is then done and unlocked: the other two go on without
// calling the function (go-zero's core/threading TestRoutingGroupRunSafe).
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

func main() {
	var once sync.Once
	var wg sync.WaitGroup
	var calls, after atomic.Int32
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { recover() }()
			once.Do(func() {
				calls.Add(1)
				panic("once")
			})
			after.Add(1)
		}()
	}
	wg.Wait()
	fmt.Println("calls:", calls.Load(), "went on:", after.Load())
}
