// Command producerconsumer_fixed is the repaired twin of the
// producer-consumer benchmark: the buffer is halted only when the last
// producer halts, and consumers add into the total under one shared lock.
//
// Usage:
//
//	producerconsumer_fixed [producers [consumers [count]]]
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
	producers      int // producers that have not halted yet
	halted         bool
}

func NewBuffer(producers int) *Buffer {
	b := &Buffer{producers: producers}
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

// Halt tells consumers that this producer is done; the buffer is halted
// when every producer is.
func (b *Buffer) Halt() {
	b.mu.Lock()
	b.producers--
	if b.producers == 0 {
		b.halted = true
		b.changed.Broadcast()
	}
	b.mu.Unlock()
}

var (
	totalMu sync.Mutex // guards total
	total   int
)

// consumer adds what it gets into total under the shared lock.
type consumer struct{}

func (c *consumer) run(b *Buffer) {
	for {
		x, ok := b.Get()
		if !ok {
			return
		}
		totalMu.Lock()
		total += x
		totalMu.Unlock()
	}
}

func main() {
	producers, consumers, count := arg(1, 1), arg(2, 16), arg(3, 4)
	b := NewBuffer(producers)
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
		panic(fmt.Sprintf("producerconsumer: bug found: consumed %d items, produced %d", total, count*producers))
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
		fmt.Fprintln(os.Stderr, "usage: producerconsumer_fixed [producers [consumers [count]]]")
		os.Exit(2)
	}
	return n
}
