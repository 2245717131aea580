// A value written before time.AfterFunc is used by the timer's function,
// and one written before NewTimer is read after receiving from the timer's
// channel: setting a timer happens before it fires, so there is no race.
package main

import (
	"sync"
	"time"
)

func main() {
	var wg sync.WaitGroup
	x := 1
	wg.Add(1)
	time.AfterFunc(time.Millisecond, func() {
		defer wg.Done()
		x++
	})
	wg.Wait()
	y := 0
	c := make(chan (<-chan time.Time), 1)
	go func() {
		y = 2
		c <- time.NewTimer(time.Millisecond).C
	}()
	<-<-c
	println(x, y)
}
