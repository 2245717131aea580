// Command results holds the race detector's cases for a return statement
// into an escaping named result (vm.TestRaceReturn). gc emits no store for
// `return x` where x is the named result itself (cmd/compile: "do not
// generate x = x during return", Go issue 4014), so a goroutine still
// reading x is not racing with that return; a return of another value
// writes x.
package main

import "sync"

// self returns its named result itself while the goroutines, which capture
// it, still read it (the pattern of concurrent-map's snapshot).
func self() (chans []chan int) {
	var wg sync.WaitGroup
	chans = make([]chan int, 2)
	wg.Add(2)
	for i := range 2 {
		go func() {
			chans[i] = make(chan int, 1)
			wg.Done()
			chans[i] <- i
			close(chans[i])
		}()
	}
	wg.Wait()
	return chans
}

// other returns another value into its named result while the goroutines
// still read it: a write racing with their reads.
func other() (chans []chan int) {
	var wg sync.WaitGroup
	chans = make([]chan int, 2)
	same := chans
	wg.Add(2)
	for i := range 2 {
		go func() {
			chans[i] = make(chan int, 1)
			wg.Done()
			chans[i] <- i
			close(chans[i])
		}()
	}
	wg.Wait()
	return same
}

func drain(cs []chan int) {
	for _, c := range cs {
		for range c {
		}
	}
}

// NoRaceReturnSelf: `return chans` stores nothing.
func NoRaceReturnSelf() { drain(self()) }

// RaceReturnOther: `return same` writes chans.
func RaceReturnOther() { drain(other()) }

func main() {
	NoRaceReturnSelf()
	RaceReturnOther()
}
