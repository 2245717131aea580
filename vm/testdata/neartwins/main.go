// Command neartwins starts three workers that look alike (the same code at
// the same place, the same registers up to which objects they reference)
// but differ, in a way only one order of them shows: the near twins of
// vm's TestTwins and guide's TestSymmetricNearTwins. A symmetric reduction
// that took them for twins (vm.State.Twins) would run one of them first
// only and miss the panic. The mode is the first argument:
//
//	heap     each worker owns a box with another value; the box of
//	         value 2 first panics
//	same     the boxes hold the same value (twins: no bug)
//	shared   each worker writes one of three globals; c first panics
//	queue    each worker sends its box on an unbuffered channel (the
//	         senders queue); the box of value 2 received first panics
//	stack    main reads its stack first (the program sees goroutine
//	         ids); the workers record their ids, reversed order panics
//	lastrun  two workers count by 1 then by 5; the first to count by 5
//	         after both counted by 1 panics: under a preemption bound of
//	         1, after the first counted by 1 and the second preempted it
//	         and counted by 1, only the second may go on (it ran last)
package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

var (
	mu      sync.Mutex
	first   = -1
	a, b, c int
	firstP  *int
	order   []int
	cnt     int32
)

func goid() int {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf))
	id, _ := strconv.Atoi(f[1])
	return id
}

func main() {
	mode := "heap"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	var wg sync.WaitGroup
	switch mode {
	case "heap", "same":
		for i := 0; i < 3; i++ {
			box := new(int)
			if mode == "heap" {
				*box = i
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				if first < 0 {
					first = *box
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		if first == 2 {
			panic("box 2 first")
		}
	case "shared":
		for _, p := range []*int{&a, &b, &c} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				*p = 1
				if firstP == nil {
					firstP = p
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		if firstP == &c {
			panic("c first")
		}
	case "queue":
		ch := make(chan *int)
		for i := 0; i < 3; i++ {
			box := new(int)
			*box = i
			wg.Add(1)
			go func() {
				defer wg.Done()
				ch <- box
			}()
		}
		got := <-ch
		<-ch
		<-ch
		wg.Wait()
		if *got == 2 {
			panic("box 2 received first")
		}
	case "stack":
		goid() // the program has seen goroutine ids
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				order = append(order, goid())
				mu.Unlock()
			}()
		}
		wg.Wait()
		if order[0] > order[1] && order[1] > order[2] {
			panic("reverse order")
		}
	case "lastrun":
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				atomic.AddInt32(&cnt, 1)
				if atomic.AddInt32(&cnt, 5) == 7 {
					panic("both counted once, then one again")
				}
			}()
		}
		wg.Wait()
	}
}
