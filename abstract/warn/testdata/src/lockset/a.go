package lockset

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Peek() int {
	return c.n // want `field lockset.Counter.n is accessed here without a lock`
}

func (c *Counter) add() { c.n++ } // called with the lock held only

func (c *Counter) Add() {
	c.mu.Lock()
	c.add()
	c.mu.Unlock()
}

type Plain struct{ v int } // never locked: not reported

func run(p *Plain) {
	c := &Counter{n: 1}
	go c.Inc()
	go c.Add()
	go func() { println(c.Peek()) }()
	go func() { p.v++ }()
	p.v++
	c.Inc()
}
