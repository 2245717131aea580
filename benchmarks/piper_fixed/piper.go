// Command piper_fixed is the repaired twin of the piper benchmark: a
// producer waits in a for loop while the plane is full, so it never seats a
// passenger in an occupied seat.
//
// Usage:
//
//	piper_fixed [seatsPerThread [threads [bufferSize]]]
//
// The defaults are 2 seats per thread, 8 producers and 8 consumers, and a
// buffer of 7 seats.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Plane is a ring buffer of seats; an empty string is a free seat.
type Plane struct {
	mu          sync.Mutex
	changed     *sync.Cond
	seats       []string
	first, last int // next seat to empty, next seat to fill
	count       int // occupied seats
}

func NewPlane(size int) *Plane {
	p := &Plane{seats: make([]string, size)}
	p.changed = sync.NewCond(&p.mu)
	return p
}

// Fill seats a passenger, waiting while the plane is full.
func (p *Plane) Fill(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.count == len(p.seats) {
		p.changed.Wait()
	}
	if p.seats[p.last] != "" {
		panic(fmt.Sprintf("piper: bug found: %s overwrote %s in seat %d", name, p.seats[p.last], p.last))
	}
	p.seats[p.last] = name
	p.last = (p.last + 1) % len(p.seats)
	p.count++
	p.changed.Broadcast()
}

// Empty takes a passenger off, waiting while the plane is empty.
func (p *Plane) Empty() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.count == 0 {
		p.changed.Wait()
	}
	name := p.seats[p.first]
	p.seats[p.first] = ""
	p.first = (p.first + 1) % len(p.seats)
	p.count--
	p.changed.Broadcast()
	return name
}

func main() {
	seats, threads, size := arg(1, 2), arg(2, 8), arg(3, 7)
	p := NewPlane(size)
	var wg sync.WaitGroup
	for i := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range seats {
				p.Fill("passenger-" + strconv.Itoa(i) + "-" + strconv.Itoa(j))
			}
		}()
	}
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range seats {
				p.Empty()
			}
		}()
	}
	wg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: piper_fixed [seatsPerThread [threads [bufferSize]]]")
		os.Exit(2)
	}
	return n
}
