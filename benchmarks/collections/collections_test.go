package collections

import (
	"slices"
	"testing"
)

func lists() map[string]func(xs ...int) List {
	return map[string]func(xs ...int) List{
		"Vector":    func(xs ...int) List { return NewVector(xs...) },
		"ArrayList": func(xs ...int) List { return NewArrayList(xs...) },
		"SyncList":  func(xs ...int) List { return Synchronized(NewArrayList(xs...)) },
	}
}

func TestSequential(t *testing.T) {
	for name, newList := range lists() {
		t.Run(name, func(t *testing.T) {
			l := newList(1, 2, 3)
			if l.Size() != 3 || l.Get(1) != 2 || !l.Contains(3) || l.Contains(4) {
				t.Fatalf("Size/Get/Contains wrong on %v", l.ToArray())
			}
			l.Add(4)
			if !l.Remove(2) || l.Remove(9) {
				t.Fatal("Remove reported wrongly")
			}
			if got := l.ToArray(); !slices.Equal(got, []int{1, 3, 4}) {
				t.Fatalf("after Add/Remove: %v", got)
			}
			o := NewVector(1, 3, 4)
			if !l.Equals(o) || !o.Equals(l) || !l.Equals(l) {
				t.Fatal("Equals false on equal lists")
			}
			if l.Equals(NewVector(1, 3)) || l.Equals(NewVector(1, 3, 4, 5)) {
				t.Fatal("Equals true on different lists")
			}
			if !l.ContainsAll(NewVector(4, 1)) || l.ContainsAll(NewVector(4, 2)) || !l.ContainsAll(l) {
				t.Fatal("ContainsAll wrong")
			}
			l.AddAll(l) // must not self-deadlock
			l.AddAll(NewArrayList(7))
			if got := l.ToArray(); !slices.Equal(got, []int{1, 3, 4, 1, 3, 4, 7}) {
				t.Fatalf("after AddAll: %v", got)
			}
			n := 0
			for it := l.Iterator(); it.HasNext(); it.Next() {
				n++
			}
			if n != 7 {
				t.Fatalf("iterated %d elements, want 7", n)
			}
			l.Clear()
			if l.Size() != 0 {
				t.Fatal("Clear left elements")
			}
		})
	}
}

func TestConcurrentModificationPanics(t *testing.T) {
	for name, newList := range lists() {
		t.Run(name, func(t *testing.T) {
			l := newList(1, 2)
			it := l.Iterator()
			it.Next()
			l.Add(3)
			defer func() {
				if r := recover(); r != "collections: ConcurrentModificationException" {
					t.Fatalf("recovered %v, want the ConcurrentModificationException panic", r)
				}
			}()
			it.Next()
		})
	}
}
