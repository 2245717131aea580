package missingunlock

import "sync"

type S struct {
	mu sync.Mutex
	m  map[int]int
}

func (s *S) get(k int) int {
	s.mu.Lock() // want `S.mu locked here may still be held when returning at a.go:13:3`
	if k < 0 {
		return -1
	}
	v := s.m[k]
	s.mu.Unlock()
	return v
}

func (s *S) good(k int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k < 0 {
		return -1
	}
	return s.m[k]
}

// A lock helper that means to return holding the lock.
func (s *S) lock() { s.mu.Lock() }
