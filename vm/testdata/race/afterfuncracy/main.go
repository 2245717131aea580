// A write after time.AfterFunc races with the timer's function.
package main

import (
	"sync"
	"time"
)

func main() {
	var wg sync.WaitGroup
	x := 0
	wg.Add(1)
	time.AfterFunc(time.Millisecond, func() {
		defer wg.Done()
		x++
	})
	x = 1
	wg.Wait()
}
