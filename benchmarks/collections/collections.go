// Package collections is a small synchronized-collections library for the
// gmc library benchmarks (abslist, arylist, vecdeadlock, vecrace and the
// data-choice variants vecdeadlock0, vecdeadlock1). It is written the way
// JDK 1.4's java.util is, including the behaviour behind the bugs the main
// seed found there with Jlint warnings:
//
//   - Vector guards each of its methods with its own mutex, like
//     java.util.Vector. ArrayList has no lock at all, and Synchronized wraps
//     any List in one mutex, like Collections.synchronizedList.
//   - Equals and ContainsAll walk the other list with its Iterator while they
//     hold only the receiver's lock (AbstractList.equals,
//     AbstractCollection.containsAll). A Vector's Iterator calls the Vector's
//     locked Size and Get, so the receiver's lock is held while the
//     argument's is taken — two locks in argument order — and it reads the
//     argument's modification count without any lock: a data race, and a
//     ConcurrentModificationException panic (or an index out of range, if
//     the list shrank) when the argument changes under it.
//   - AddAll holds the receiver's lock while it calls the argument's ToArray,
//     which takes the argument's lock, so v1.AddAll(v2) and v2.AddAll(v1)
//     can deadlock.
//   - The Iterator of a Synchronized list is the wrapped list's own iterator,
//     which the caller must guard ("must be manually synched by user"); the
//     wrapper's Equals and ContainsAll do not, so iterating a wrapped
//     ArrayList while another goroutine adds to it is a data race.
//
// The elements are ints. The package uses only sync.
package collections

// List is an ordered collection of ints.
type List interface {
	Size() int
	Get(i int) int // panics if i is out of range
	Contains(x int) bool
	Add(x int) bool
	Remove(x int) bool // removes the first x, if any
	Clear()
	AddAll(c List) bool
	ContainsAll(c List) bool
	Equals(o List) bool
	ToArray() []int
	Iterator() *Iterator
}

// abstractList holds what AbstractList holds: the count of structural
// modifications that iterators check.
type abstractList struct {
	modCount int
}

// Iterator walks a List by index, as AbstractList.Itr does: HasNext and
// Next call the list's own Size and Get (locked for a Vector), and Next
// first compares the list's modification count, read without the list's
// lock, with the one it saw when it was created.
type Iterator struct {
	list     List
	mods     *abstractList
	cursor   int
	expected int
}

func newIterator(l List, mods *abstractList) *Iterator {
	return &Iterator{list: l, mods: mods, expected: mods.modCount} // BUG: reads modCount without the list's lock
}

// HasNext reports whether Next has an element to return.
func (it *Iterator) HasNext() bool {
	return it.cursor != it.list.Size()
}

// Next returns the next element. It panics with
// "ConcurrentModificationException" if the list has been modified since the
// iterator was created.
func (it *Iterator) Next() int {
	if it.mods.modCount != it.expected { // BUG: reads modCount without the list's lock
		panic("collections: ConcurrentModificationException") // BUG: the list changed while it was being iterated
	}
	x := it.list.Get(it.cursor)
	it.cursor++
	return x
}

// equals compares the elements a with those of o, walking o with its
// Iterator (AbstractList.equals).
func equals(a []int, o List) bool {
	e := o.Iterator()
	i := 0
	for i < len(a) && e.HasNext() {
		if a[i] != e.Next() {
			return false
		}
		i++
	}
	return !(i < len(a) || e.HasNext())
}

// containsAll reports whether every element of c is in a, walking c with
// its Iterator (AbstractCollection.containsAll).
func containsAll(a []int, c List) bool {
	for e := c.Iterator(); e.HasNext(); {
		if indexOf(a, e.Next()) < 0 {
			return false
		}
	}
	return true
}

func indexOf(a []int, x int) int {
	for i, y := range a {
		if y == x {
			return i
		}
	}
	return -1
}

func clone(a []int) []int {
	return append([]int(nil), a...)
}
