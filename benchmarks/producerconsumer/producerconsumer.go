// Command producerconsumer is the producer-consumer benchmark of the main
// seed (Tables B.1, B.3, B.4, B.5). A bounded buffer of 5 items is guarded
// by a mutex and a condition variable. Each producer puts count items of
// value 1 and then halts the buffer. Get waits while the buffer is empty and
// not halted and reports "no item" when it is empty after that; Put wakes
// waiters only when the buffer was empty and Get only when it was full.
// Consumers get items until there are none and add each into a shared
// total, each under its own lock. Main joins the consumers and panics if the
// total is not count*producers.
//
// Two bugs: the first producer to halt lets consumers stop while other
// producers still have items to put, and the per-consumer locks do not
// protect the shared total, so additions can be lost.
//
// Usage:
//
//	producerconsumer [producers [consumers [count]]]
//
// The defaults are 1 producer, 16 consumers and 4 items per producer.
package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"
)

const bufSize = 5

// Buffer is a bounded buffer that producers can halt.
type Buffer struct {
	mu             sync.Mutex
	changed        *sync.Cond
	items          [bufSize]int
	putPtr, getPtr int
	used           int
	halted         bool
}

func NewBuffer() *Buffer {
	b := &Buffer{}
	b.changed = sync.NewCond(&b.mu)
	return b
}

func (b *Buffer) Put(x int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used == bufSize {
		b.changed.Wait()
	}
	b.items[b.putPtr] = x
	b.putPtr = (b.putPtr + 1) % bufSize
	b.used++
	if b.used == 1 {
		b.changed.Broadcast()
	}
}

// Get returns the next item, or false once the buffer is empty and halted.
func (b *Buffer) Get() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used == 0 && !b.halted {
		b.changed.Wait()
	}
	if b.used == 0 {
		return 0, false
	}
	x := b.items[b.getPtr]
	b.getPtr = (b.getPtr + 1) % bufSize
	b.used--
	if b.used == bufSize-1 {
		b.changed.Broadcast()
	}
	return x, true
}

// Halt tells consumers that no more items will come.
func (b *Buffer) Halt() {
	b.mu.Lock()
	b.halted = true
	b.changed.Broadcast()
	b.mu.Unlock()
}

var total int // shared by all consumers

// consumer adds what it gets into total under its own lock.
type consumer struct {
	mu sync.Mutex
}

func (c *consumer) run(b *Buffer) {
	for {
		x, ok := b.Get()
		if !ok {
			return
		}
		c.mu.Lock()
		total += x // c.mu is this consumer's lock, not a shared one
		c.mu.Unlock()
	}
}

func main() {
	producers, consumers, count := arg(1, 1), arg(2, 16), arg(3, 4)
	b := NewBuffer()
	var pwg, cwg sync.WaitGroup
	for range producers {
		pwg.Add(1)
		go func() {
			defer pwg.Done()
			for range count {
				b.Put(1)
			}
			b.Halt()
		}()
	}
	for range consumers {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			new(consumer).run(b)
		}()
	}
	cwg.Wait()
	if total != count*producers {
		panic(fmt.Sprintf("producerconsumer: bug found: consumed %d items, produced %d", total, count*producers)) // BUG: consumers stopped early or lost an addition to total
	}
	pwg.Wait()
}

// arg returns os.Args[i] as an integer, or def when there is no such argument.
func arg(i, def int) int {
	if i >= len(os.Args) {
		return def
	}
	n, err := strconv.Atoi(os.Args[i])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: producerconsumer [producers [consumers [count]]]")
		os.Exit(2)
	}
	return n
}
