package condwait

import "sync"

type Event struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
}

func (e *Event) waitOnce() {
	e.mu.Lock()
	if !e.ready {
		e.cond.Wait() // want `sync.Cond.Wait not in a loop`
	}
	e.mu.Unlock()
}

func (e *Event) wait() {
	e.mu.Lock()
	for !e.ready {
		e.cond.Wait()
	}
	e.mu.Unlock()
}
