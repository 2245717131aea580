// Command alarmclock is the alarm clock benchmark of the main seed (Table
// B.1), a lost wake-up. A monitor holds the time now and a list, sorted by
// time, of alarms: one lock and condition variable per wake-up time. A
// clock goroutine ticks until now reaches max; each tick increments now and,
// if the first alarm is for now, removes it and wakes its waiters. A client
// asks to be woken interval ticks from now: under the monitor it computes
// the wake-up time and registers the alarm for that time (or joins the one
// already there), releases the monitor, and then locks the alarm and waits
// on it. The clock can fire the alarm between the client's release of the
// monitor and its wait; the client then waits forever and main, which waits
// for everyone, deadlocks.
//
// Usage:
//
//	alarmclock [clients [max]]
//
// The defaults are 2 clients and a max time of 9. Client i sleeps for
// 1 + i%2 ticks at a time until its next wake-up would be later than max.
// The seed's Alarm Clock model has 4 threads (main, the clock, 2 clients)
// and one parameter, 9 or 4, which is max here. Clients are started before
// the clock.
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
	a.fired.Wait() // BUG: lost wake-up: the clock may have fired the alarm since the monitor was released
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
		fmt.Fprintln(os.Stderr, "usage: alarmclock [clients [max]]")
		os.Exit(2)
	}
	return n
}
