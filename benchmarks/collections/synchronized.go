package collections

import "sync"

// SyncList is a List guarded by one mutex, like the lists that
// Collections.synchronizedList returns.
type SyncList struct {
	mu   sync.Mutex
	list List
}

// Synchronized returns l wrapped in a mutex. Every method takes the mutex,
// except Iterator: as in the JDK, iterating the list must be guarded by the
// caller.
func Synchronized(l List) *SyncList {
	return &SyncList{list: l}
}

func (s *SyncList) Size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.Size()
}

func (s *SyncList) Get(i int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.Get(i)
}

func (s *SyncList) Contains(x int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.Contains(x)
}

func (s *SyncList) Add(x int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.Add(x)
}

func (s *SyncList) Remove(x int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.Remove(x)
}

func (s *SyncList) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list.Clear()
}

func (s *SyncList) ToArray() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.ToArray()
}

// AddAll appends the elements of c, calling c.ToArray (which takes c's
// lock) while holding s's.
func (s *SyncList) AddAll(c List) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.AddAll(s.inner(c))
}

// ContainsAll walks c with c's Iterator while holding s's lock; for a
// SyncList c that is the wrapped list's iterator, with no lock at all.
func (s *SyncList) ContainsAll(c List) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.ContainsAll(s.inner(c)) // BUG: iterates c without c's lock
}

// Equals walks o with o's Iterator while holding s's lock.
func (s *SyncList) Equals(o List) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list.Equals(s.inner(o)) // BUG: iterates o without o's lock
}

// Iterator returns the wrapped list's iterator, which takes no lock.
func (s *SyncList) Iterator() *Iterator {
	return s.list.Iterator()
}

// inner returns s's wrapped list if c is s itself (Go's mutexes are not
// reentrant, Java's monitors are), and c otherwise.
func (s *SyncList) inner(c List) List {
	if c == List(s) {
		return s.list
	}
	return c
}
