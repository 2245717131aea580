package collections

import "sync"

// Vector is a list whose every method holds the Vector's mutex, like
// java.util.Vector.
type Vector struct {
	abstractList
	mu    sync.Mutex
	elems []int
}

// NewVector returns a Vector holding xs.
func NewVector(xs ...int) *Vector {
	return &Vector{elems: clone(xs)}
}

func (v *Vector) Size() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.elems)
}

func (v *Vector) Get(i int) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.elems[i]
}

func (v *Vector) Contains(x int) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return indexOf(v.elems, x) >= 0
}

func (v *Vector) Add(x int) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.modCount++
	v.elems = append(v.elems, x)
	return true
}

func (v *Vector) Remove(x int) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	i := indexOf(v.elems, x)
	if i < 0 {
		return false
	}
	v.modCount++
	v.elems = append(v.elems[:i], v.elems[i+1:]...)
	return true
}

func (v *Vector) Clear() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.modCount++
	v.elems = nil
}

func (v *Vector) ToArray() []int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return clone(v.elems)
}

// AddAll appends the elements of c. It holds v's lock while c.ToArray takes
// c's.
func (v *Vector) AddAll(c List) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.modCount++
	var a []int
	if c == List(v) {
		a = clone(v.elems)
	} else {
		a = c.ToArray() // BUG: takes c's lock while holding v's
	}
	v.elems = append(v.elems, a...)
	return len(a) != 0
}

// ContainsAll reports whether v holds every element of c. It walks c with
// c's Iterator while holding v's lock.
func (v *Vector) ContainsAll(c List) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if c == List(v) {
		return true
	}
	return containsAll(v.elems, c) // BUG: iterates c without c's lock, taking it for each Size and Get while holding v's
}

// Equals reports whether v and o hold the same elements in the same order.
// It walks o with o's Iterator while holding v's lock.
func (v *Vector) Equals(o List) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if o == List(v) {
		return true
	}
	return equals(v.elems, o) // BUG: iterates o without o's lock, taking it for each Size and Get while holding v's
}

func (v *Vector) Iterator() *Iterator {
	return newIterator(v, &v.abstractList)
}
