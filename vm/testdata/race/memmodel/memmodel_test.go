// Package memmodel holds one test per rule of the Go memory model that the
// race detector implements (vm/race.go): TestNoRace* tests are race-free in
// every interleaving and pass under go test -race; TestRace* tests have a
// data race in some interleaving, which go test -race reports.
package memmodel

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// close is ordered before a receive that was blocked before it.
func TestNoRaceCloseWakesBlockedReceiver(t *testing.T) {
	x := 0
	ready := make(chan struct{})
	done := make(chan int)
	go func() { <-ready; done <- x }()
	x = 1
	close(ready)
	if v := <-done; v != 1 {
		t.Fatalf("got %d", v)
	}
}

// close is ordered before a select that was blocked before it.
func TestNoRaceCloseWakesBlockedSelect(t *testing.T) {
	x := 0
	ready := make(chan struct{})
	other := make(chan int)
	done := make(chan int)
	go func() {
		select {
		case <-ready:
		case <-other:
		}
		done <- x
	}()
	x = 1
	close(ready)
	<-done
}

// The kth receive on a channel of capacity C is ordered before the k+Cth
// send completes: a buffered channel as a mutex.
func TestNoRaceChannelAsMutex(t *testing.T) {
	sem := make(chan struct{}, 1)
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); sem <- struct{}{}; n++; <-sem }()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("n = %d", n)
	}
}

// A receive from an unbuffered channel is ordered before the send completes.
func TestNoRaceUnbufferedReceiveBeforeSendCompletes(t *testing.T) {
	x := 0
	ch := make(chan int)
	go func() { x = 1; <-ch }()
	ch <- 0
	x++
	if x != 2 {
		t.Fatalf("x = %d", x)
	}
}

// ... but not a receive from a buffered one.
func TestRaceBufferedReceiveNotBeforeSend(t *testing.T) {
	x := 0
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() { x = 1; <-ch; done <- true }()
	ch <- 0
	x = 2
	<-done
	_ = x
}

// A buffered send is ordered before its receive only, not before the
// receive of a later value.
func TestRaceBufferedSendOnlyBeforeItsReceive(t *testing.T) {
	x, y := 0, 0
	ch := make(chan int, 2)
	go func() { x = 1; ch <- 1 }()
	go func() { y = 1; ch <- 2 }()
	if <-ch == 1 {
		_ = x
		y = 2
	} else {
		_ = y
		x = 2
	}
}

type spinLock uint32

func (l *spinLock) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		runtime.Gosched()
	}
}
func (l *spinLock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }

// A Cond over a Locker of the program: Wait's Unlock and Lock are the
// Locker's own, with their atomics.
func TestNoRaceCondOverSpinLock(t *testing.T) {
	var lk spinLock
	cond := sync.NewCond(&lk)
	ready := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		lk.Lock()
		for !ready {
			cond.Wait()
		}
		lk.Unlock()
	}()
	lk.Lock()
	ready = true
	cond.Signal()
	lk.Unlock()
	wg.Wait()
}

// Each Mutex is its own synchronization address, even in one struct.
func TestRaceTwoMutexesOneStruct(t *testing.T) {
	var s struct{ a, b sync.Mutex }
	x := 0
	done := make(chan bool)
	go func() { s.a.Lock(); x = 1; s.a.Unlock(); done <- true }()
	s.b.Lock()
	x = 2
	s.b.Unlock()
	<-done
	_ = x
}

// A Mutex's state is written atomically by Lock: overwriting the Mutex
// races with it.
func TestRaceMutexOverwrite(t *testing.T) {
	c := make(chan bool, 1)
	var mu sync.Mutex
	go func() {
		mu = sync.Mutex{}
		c <- true
	}()
	mu.Lock()
	<-c
}

// RLock is ordered after Unlock, not after another reader's RUnlock.
func TestRaceRWMutexReaders(t *testing.T) {
	var mu sync.RWMutex
	x := 0
	done := make(chan bool)
	go func() { mu.RLock(); x = 1; mu.RUnlock(); done <- true }()
	mu.RLock()
	x = 2
	mu.RUnlock()
	<-done
	_ = x
}

// RUnlock is ordered before the next Lock.
func TestNoRaceRWMutexReaderThenWriter(t *testing.T) {
	var mu sync.RWMutex
	x := 0
	done := make(chan bool)
	go func() { mu.RLock(); _ = x; mu.RUnlock(); done <- true }()
	mu.Lock()
	x = 2
	mu.Unlock()
	<-done
	_ = x
}

// An atomic and a plain access of one word race.
func TestRaceAtomicAndPlain(t *testing.T) {
	var a int64
	done := make(chan bool)
	go func() { atomic.AddInt64(&a, 1); done <- true }()
	if a == 5 {
		t.Log("five")
	}
	<-done
}

// Atomics are sequentially consistent: a store is ordered before the load
// that observes it; atomics never race with each other.
func TestNoRaceAtomicPublish(t *testing.T) {
	var flag int32
	x := 0
	go func() { x = 1; atomic.StoreInt32(&flag, 1) }()
	for atomic.LoadInt32(&flag) == 0 {
		runtime.Gosched()
	}
	x = 2
	_ = x
}

// A WaitGroup reused for a new round (Add) before a Wait of the last round
// returned.
func TestRaceWaitGroupReuse(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Wait() }()
	wg.Done()
	wg.Add(1)
	wg.Done()
	wg.Wait()
}

// sync.Map: a Store is ordered before the Load that observes it.
func TestNoRaceSyncMapPublish(t *testing.T) {
	var m sync.Map
	x := 0
	go func() { x = 1; m.Store("k", 1) }()
	for {
		if _, ok := m.Load("k"); ok {
			break
		}
		runtime.Gosched()
	}
	x = 2
	_ = x
}

// The go statement is ordered before the goroutine's start.
func TestNoRaceGoStatement(t *testing.T) {
	x := 1
	done := make(chan int)
	go func() { done <- x }()
	<-done
}

// Unlock is ordered before the next Lock.
func TestNoRaceMutex(t *testing.T) {
	var mu sync.Mutex
	x := 0
	done := make(chan bool)
	go func() { mu.Lock(); x++; mu.Unlock(); done <- true }()
	mu.Lock()
	x++
	mu.Unlock()
	<-done
}

// The function of Once.Do returns before any Do returns.
func TestNoRaceOnce(t *testing.T) {
	var once sync.Once
	x := 0
	done := make(chan int)
	for i := 0; i < 2; i++ {
		go func() { once.Do(func() { x = 1 }); done <- x }()
	}
	<-done
	<-done
}

// Done is ordered before the Wait it releases returns.
func TestNoRaceWaitGroup(t *testing.T) {
	var wg sync.WaitGroup
	x := make([]int, 2)
	for i := range x {
		wg.Add(1)
		go func() { defer wg.Done(); x[i] = i }()
	}
	wg.Wait()
	x[0], x[1] = x[1], x[0]
}

// Signal is ordered before the Wait it wakes returns.
func TestNoRaceCondSignal(t *testing.T) {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	x := 0
	go func() { x = 1; mu.Lock(); ready = true; c.Signal(); mu.Unlock() }()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	x = 2
	_ = x
}

// The setter of a timer is ordered before its function.
func TestNoRaceAfterFunc(t *testing.T) {
	x := 1
	done := make(chan int)
	time.AfterFunc(time.Millisecond, func() { done <- x })
	<-done
}

// Context cancellation is ordered before the receive from Done that it
// makes return.
func TestNoRaceContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := 0
	go func() { x = 1; cancel() }()
	<-ctx.Done()
	x = 2
	_ = x
}

// A select is ordered as the operation it picks.
func TestNoRaceSelectReceive(t *testing.T) {
	x := 0
	ch, other := make(chan int), make(chan int)
	go func() { x = 1; ch <- 1 }()
	select {
	case <-ch:
		x = 2
	case <-other:
	}
	_ = x
}

// Elements of an array and fields of a struct are locations of their own.
func TestNoRaceElementsAndFields(t *testing.T) {
	a := make([]int, 2)
	var s struct{ p, q int }
	done := make(chan bool)
	go func() { a[0] = 1; s.p = 1; done <- true }()
	a[1] = 2
	s.q = 2
	<-done
}

// copy writes every element it copies to.
func TestRaceCopy(t *testing.T) {
	a, b := make([]int, 2), []int{1, 2}
	done := make(chan bool)
	go func() { copy(a, b); done <- true }()
	a[1] = 3
	<-done
}

// A map is one location: writes of different keys race.
func TestRaceMapDifferentKeys(t *testing.T) {
	m := map[int]int{}
	done := make(chan bool)
	go func() { m[1] = 1; done <- true }()
	m[2] = 2
	<-done
}

// A string conversion reads the bytes it converts.
func TestRaceStringConversion(t *testing.T) {
	b := []byte("ab")
	done := make(chan bool)
	go func() { b[1] = 'c'; done <- true }()
	if string(b) == "zz" {
		t.Log("zz")
	}
	<-done
}

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return "counter"
}

// Synchronizations inside code the VM runs within one transition (a String
// method fmt calls) order as any other.
func TestNoRaceUnlockInStringMethod(t *testing.T) {
	c := &counter{}
	x := 0
	done := make(chan bool)
	go func() {
		c.mu.Lock()
		if c.n > 0 {
			_ = x
		}
		c.mu.Unlock()
		done <- true
	}()
	x = 1
	_ = fmt.Sprint(c)
	<-done
}

// len of a map reads the map.
func TestRaceMapLen(t *testing.T) {
	m := map[int]int{}
	done := make(chan bool)
	go func() {
		if len(m) == 5 {
			t.Log("five")
		}
		done <- true
	}()
	m[1] = 1
	<-done
}

// len of a channel is no synchronization: a loop that waits until a send
// has filled the buffer is not ordered after what the sender did before
// the send (the loop ends only after the send: a search that does not see
// len observe the send proves the test race-free).
func TestRaceChanLenNotSynchronization(t *testing.T) {
	v := 0
	_ = v
	c := make(chan int, 10)
	go func() {
		v = 1
		c <- 1
	}()
	for len(c) == 0 {
		runtime.Gosched()
	}
	v = 2
}

// The same loop followed by the receive is ordered after the send.
func TestNoRaceChanLenThenReceive(t *testing.T) {
	v := 0
	_ = v
	c := make(chan int, 10)
	go func() {
		v = 1
		c <- 1
	}()
	for len(c) == 0 {
		runtime.Gosched()
	}
	<-c
	v = 2
}

// A goroutine's end is no synchronization: waiting for it with
// runtime.NumGoroutine orders nothing.
func TestRaceNumGoroutineNotSynchronization(t *testing.T) {
	v := 0
	_ = v
	n := runtime.NumGoroutine()
	go func() {
		v = 1
	}()
	for runtime.NumGoroutine() > n {
		runtime.Gosched()
	}
	v = 2
}

// reflect reads and writes the variables a Value points to, as plain
// accesses do: a Set through reflect races with a plain read...
func TestRaceReflectSet(t *testing.T) {
	x := 0
	done := make(chan bool)
	go func() {
		reflect.ValueOf(&x).Elem().SetInt(1)
		done <- true
	}()
	_ = x
	<-done
}

// ... and reflect.Copy writes its destination; ordered by a channel, no race.
func TestNoRaceReflectCopyOrdered(t *testing.T) {
	a := make([]byte, 2)
	done := make(chan bool)
	go func() {
		reflect.Copy(reflect.ValueOf(a), reflect.ValueOf([]byte("xy")))
		done <- true
	}()
	<-done
	if a[1] != 'y' {
		t.Fatalf("a = %q", a)
	}
}

type point struct{ x, y int }

// An array assignment writes every element: it races with a write of one
// field of one element (cells sharing one shadow are still each a location)...
func TestRaceArrayAssignOneElement(t *testing.T) {
	var a, b [64]point
	done := make(chan bool)
	go func() {
		a[37].y = 1
		done <- true
	}()
	a = b
	<-done
}

// ... and not with a write of another array.
func TestNoRaceArrayAssignOtherArray(t *testing.T) {
	var a, b, c [64]point
	done := make(chan bool)
	go func() {
		a[37].y = 1
		done <- true
	}()
	c = b
	<-done
	_ = a[37].y + c[0].x
}

// A variable written after a goroutine captured it: gc captures it by
// reference, and the write races with the goroutine's read. (A captured
// variable never written once shared is captured by value: vm/byvalue.go.)
func TestRaceCapturedWrittenAfter(t *testing.T) {
	x := 1
	done := make(chan int)
	go func() { done <- x }()
	x = 2
	<-done
}

// The same with the write in another block.
func TestRaceCapturedWrittenInBranch(t *testing.T) {
	x := 1
	done := make(chan int)
	go func() { done <- x }()
	if len(t.Name()) > 0 {
		x = 2
	}
	<-done
}

// The same with the write by the closure.
func TestRaceCapturedWrittenByClosure(t *testing.T) {
	x := 1
	done := make(chan bool)
	go func() { x = 2; done <- true }()
	if x == 3 {
		t.Log("three")
	}
	<-done
}

// The same with the variable's address taken.
func TestRaceCapturedAddressTaken(t *testing.T) {
	x := 1
	p := &x
	done := make(chan bool)
	go func() { *p = 2; done <- true }()
	if x == 3 {
		t.Log("three")
	}
	<-done
}

// A loop variable written in the body after a goroutine captured it.
func TestRaceLoopVarWrittenAfterCapture(t *testing.T) {
	done := make(chan int)
	for i := 0; i < 1; i++ {
		go func() { done <- i }()
		i += 0
	}
	<-done
}

// Captured variables only read (a scalar, an array): no race.
func TestNoRaceCapturedReadOnly(t *testing.T) {
	x := 1
	s := [2]int{3, 4}
	done := make(chan int, 2)
	for i := 0; i < 2; i++ {
		go func() { done <- x + s[i] }()
	}
	if x+s[0] != 4 {
		t.Fatal("x")
	}
	<-done
	<-done
}

// A send on a captured channel races with its close.
func TestRaceChanSendCloseCaptured(t *testing.T) {
	c := make(chan int, 1)
	done := make(chan bool)
	go func() {
		defer func() { recover(); done <- true }()
		c <- 1
	}()
	close(c)
	<-done
}

func closeChan(c chan int) { close(c) }

// The same with the close in a function the channel is passed to.
func TestRaceChanSendCloseByCallee(t *testing.T) {
	c := make(chan int, 1)
	done := make(chan bool)
	go func() {
		defer func() { recover(); done <- true }()
		c <- 1
	}()
	closeChan(c)
	<-done
}

// The same with the close by a goroutine that captured the channel.
func TestRaceChanSendCloseInClosure(t *testing.T) {
	c := make(chan int, 1)
	done := make(chan bool, 2)
	go func() {
		defer func() { recover(); done <- true }()
		c <- 1
	}()
	go func() { close(c); done <- true }()
	<-done
	<-done
}

type semPool struct {
	sem  chan struct{}
	jobs chan int
}

func (p *semPool) stop() { close(p.jobs) }

// A send on a channel held in a struct's field races with its close
// through the field (the other field's channel is never closed).
func TestRaceChanSendCloseField(t *testing.T) {
	p := &semPool{sem: make(chan struct{}, 1), jobs: make(chan int, 1)}
	done := make(chan bool)
	go func() {
		defer func() { recover(); done <- true }()
		p.sem <- struct{}{}
		p.jobs <- 1
	}()
	p.stop()
	<-done
}

type jobQueue struct{ jobs chan int }

// stopQueue closes the queue's channel through a type of the same
// underlying struct (a conversion), not through jobQueue's field itself.
func stopQueue(q *jobQueue) {
	type view struct{ jobs chan int }
	close((*view)(q).jobs)
}

// A send on a channel held in a struct's field races with its close
// through a conversion of the struct to another type with its layout.
func TestRaceChanSendCloseConvertedField(t *testing.T) {
	q := &jobQueue{jobs: make(chan int, 1)}
	done := make(chan bool)
	go func() {
		defer func() { recover(); done <- true }()
		q.jobs <- 1
	}()
	stopQueue(q)
	<-done
}

type taskQueue struct{ tasks chan int }

// stopQueueOf closes the queue's channel in a generic function.
func stopQueueOf[T any](q *taskQueue, _ T) { close(q.tasks) }

// A send on a channel held in a struct's field races with its close
// through the field in a generic function.
func TestRaceChanSendCloseFieldGeneric(t *testing.T) {
	q := &taskQueue{tasks: make(chan int, 1)}
	done := make(chan bool)
	go func() {
		defer func() { recover(); done <- true }()
		q.tasks <- 1
	}()
	stopQueueOf(q, 0)
	<-done
}
