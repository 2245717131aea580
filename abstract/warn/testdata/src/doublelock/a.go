package doublelock

import "sync"

type S struct {
	mu sync.Mutex
	n  int
}

func (s *S) bad(x bool) {
	s.mu.Lock()
	if x {
		s.mu.Unlock()
	}
	s.mu.Lock() // want `S.mu may already be held here \(locked at a.go:11:11\): double lock`
	s.mu.Unlock()
}

func (s *S) inner() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *S) outer() {
	s.mu.Lock()
	s.inner() // want `call locks .*S.mu at a.go:20:11 while it may be held`
	s.mu.Unlock()
}

func (s *S) ok() {
	s.mu.Lock()
	s.mu.Unlock()
	s.mu.Lock()
	s.mu.Unlock()
}

// Two different objects of the same type: not a double lock.
func two(a, b *S) {
	a.mu.Lock()
	b.mu.Lock()
	b.mu.Unlock()
	a.mu.Unlock()
}

var rw sync.RWMutex

func readers() {
	rw.RLock()
	rw.RLock()
	rw.RUnlock()
	rw.RUnlock()
}
