// Command alarmclock_fixed is the repaired twin of the alarm clock
// benchmark: an alarm remembers that it has fired, and a client waits in a
// loop until it has, so a wake-up that comes before the client waits is not
// lost.
//
// Usage:
//
//	alarmclock_fixed [clients [max]]
//
// The defaults are 2 clients and a max time of 9.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

// alarm is the lock that the clients waking at time wait on.
type alarm struct {
	time  int
	mu    sync.Mutex
	fired *sync.Cond
	done  bool // the alarm has fired
}

// Monitor is the alarm clock.
type Monitor struct {
	mu      sync.Mutex
	now     int
	max     int
	waiting []*alarm // sorted by time, at most one per time
}

// Tick advances the time and wakes the clients whose time has come. It
// reports whether the clock has not reached max yet.
func (m *Monitor) Tick() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now++
	if len(m.waiting) > 0 && m.waiting[0].time == m.now {
		a := m.waiting[0]
		m.waiting = m.waiting[1:]
		a.mu.Lock()
		a.done = true
		a.fired.Broadcast()
		a.mu.Unlock()
	}
	return m.now < m.max
}

// WakeMe blocks until interval ticks from now. It returns false at once if
// that is later than max.
func (m *Monitor) WakeMe(interval int) bool {
	m.mu.Lock()
	t := m.now + interval
	if t > m.max {
		m.mu.Unlock()
		return false
	}
	a := m.register(t)
	m.mu.Unlock()

	a.mu.Lock()
	for !a.done {
		a.fired.Wait()
	}
	a.mu.Unlock()
	return true
}

// register returns the alarm for time t, adding it to the list if needed.
// The caller holds m.mu.
func (m *Monitor) register(t int) *alarm {
	i := 0
	for i < len(m.waiting) && m.waiting[i].time < t {
		i++
	}
	if i < len(m.waiting) && m.waiting[i].time == t {
		return m.waiting[i]
	}
	a := &alarm{time: t}
	a.fired = sync.NewCond(&a.mu)
	m.waiting = append(m.waiting, nil)
	copy(m.waiting[i+1:], m.waiting[i:])
	m.waiting[i] = a
	return a
}

func main() {
	clients, maxTime := arg(1, 2), arg(2, 9)
	m := &Monitor{max: maxTime}
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m.WakeMe(1 + i%2) {
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for m.Tick() {
		}
	}()
	wg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: alarmclock_fixed [clients [max]]")
		os.Exit(2)
	}
	return n
}
