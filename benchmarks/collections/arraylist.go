package collections

// ArrayList is a list with no synchronization at all, like
// java.util.ArrayList; wrap it with Synchronized to share it.
type ArrayList struct {
	abstractList
	elems []int
}

// NewArrayList returns an ArrayList holding xs.
func NewArrayList(xs ...int) *ArrayList {
	return &ArrayList{elems: clone(xs)}
}

func (l *ArrayList) Size() int           { return len(l.elems) }
func (l *ArrayList) Get(i int) int       { return l.elems[i] }
func (l *ArrayList) Contains(x int) bool { return indexOf(l.elems, x) >= 0 }
func (l *ArrayList) ToArray() []int      { return clone(l.elems) }

func (l *ArrayList) Add(x int) bool {
	l.modCount++
	l.elems = append(l.elems, x)
	return true
}

func (l *ArrayList) Remove(x int) bool {
	i := indexOf(l.elems, x)
	if i < 0 {
		return false
	}
	l.modCount++
	l.elems = append(l.elems[:i], l.elems[i+1:]...)
	return true
}

func (l *ArrayList) Clear() {
	l.modCount++
	l.elems = nil
}

func (l *ArrayList) AddAll(c List) bool {
	a := c.ToArray()
	l.modCount++
	l.elems = append(l.elems, a...)
	return len(a) != 0
}

func (l *ArrayList) ContainsAll(c List) bool {
	return containsAll(l.elems, c)
}

func (l *ArrayList) Equals(o List) bool {
	if o == List(l) {
		return true
	}
	return equals(l.elems, o)
}

func (l *ArrayList) Iterator() *Iterator {
	return newIterator(l, &l.abstractList)
}
