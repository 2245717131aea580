// Goroutines that spin (poll with select-default, runtime.Gosched, a
// mutex or the clock) while another sleeps: virtual time advances when
// every goroutine that can run spins, returning to the same state
// (vm/time.go); and programs where timers must not fire early. Each case
// is selected by os.Args[1]; vm/spin_test.go checks the output.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	done := make(chan struct{})
	finished := make(chan string)
	var stop atomic.Bool
	switch os.Args[1] {
	case "select": // polls a channel main closes after its sleep
		go func() {
			for {
				select {
				case <-done:
					finished <- "select"
					return
				default:
				}
			}
		}()
	case "gosched": // yields until main sets a flag after its sleep
		go func() {
			for !stop.Load() {
				runtime.Gosched()
			}
			finished <- "gosched"
		}()
	case "afterfunc": // a 1ns timer fires during a loop only with timer choices
		var fired atomic.Bool
		time.AfterFunc(time.Nanosecond, func() { fired.Store(true) })
		var mu sync.Mutex
		for i := 0; i < 3; i++ {
			mu.Lock()
			mu.Unlock()
		}
		if fired.Load() {
			panic("the timer fired during the loop")
		}
		return
	case "mutex": // reads a flag under a mutex of its own, no select or Gosched
		go func() {
			var mu sync.Mutex
			for {
				mu.Lock()
				s := stop.Load()
				mu.Unlock()
				if s {
					break
				}
			}
			finished <- "mutex"
		}()
	case "mutexes": // thirteen sync operations per iteration, no select or Gosched
		go func() {
			var mus [6]sync.Mutex
			for !stop.Load() {
				for i := range mus {
					mus[i].Lock()
					mus[i].Unlock()
				}
			}
			finished <- "mutexes"
		}()
	case "pollonce": // one select default per iteration of work: no time passes
		hour := time.AfterFunc(time.Hour, func() { panic("the hour passed") })
		minute := time.After(time.Minute)
		n := 0
		for i := 0; i < 100; i++ {
			select {
			case <-minute:
				panic("the minute passed")
			default:
			}
			n += i
		}
		hour.Stop()
		fmt.Println("pollonce", n)
		return
	case "stamponce": // a select default and a timestamp per iteration of work: no time passes
		hour := time.AfterFunc(time.Hour, func() { panic("the hour passed") })
		minute := time.After(time.Minute)
		n, took := 0, time.Duration(0)
		for i := 0; i < 100; i++ {
			select {
			case <-minute:
				panic("the minute passed")
			default:
			}
			start := time.Now()
			n += i
			took += time.Since(start)
		}
		hour.Stop()
		fmt.Println("stamponce", n, took >= 0)
		return
	case "clock": // polls the clock for an hour while main sleeps two
		// (each reading moves the clock by vm's nowStep, 10 ns, so the loop
		// never repeats a state; it polls the clock, which lets main's
		// timer fire as a spin does)
		go func() {
			start := time.Now()
			for time.Since(start) < time.Hour {
			}
			finished <- "clock"
		}()
	}
	time.Sleep(2 * time.Hour)
	close(done)
	stop.Store(true)
	fmt.Println(<-finished)
}
