// Command rangearray holds the race detector's cases for a range over an
// array (vm.TestRaceRangeArray): with an index variable only, the range
// expression is not evaluated (the spec; gc reads no memory); with a
// value variable, even a blank one, every element is read (go run -race
// reports RaceRangeArrayBlankValue's and RaceRangeArrayValue's).
package main

import "sync/atomic"

type segment struct {
	hits int64
	pad  [3]int64
}

type cache struct{ segs [4]segment }

// NoRaceRangeArrayIndex: one goroutine counts the segments' hits with
// atomic loads, ranging over the array by index; another adds to them
// atomically (coocood/freecache's EvacuateCount beside its lookups).
func NoRaceRangeArrayIndex() {
	c := &cache{}
	done := make(chan bool)
	go func() {
		atomic.AddInt64(&c.segs[2].hits, 1)
		done <- true
	}()
	var n int64
	for i := range c.segs {
		n += atomic.LoadInt64(&c.segs[i].hits)
	}
	<-done
	_ = n
}

// RaceRangeArrayBlankValue: with a blank value variable the range
// expression is evaluated: go run -race reports the copy's read of the
// counter.
func RaceRangeArrayBlankValue() {
	c := &cache{}
	done := make(chan bool)
	go func() {
		atomic.AddInt64(&c.segs[2].hits, 1)
		done <- true
	}()
	var n int64
	for i, _ := range c.segs { //nolint:gosimple
		n += atomic.LoadInt64(&c.segs[i].hits)
	}
	<-done
	_ = n
}

// RaceRangeArrayValue: ranging with a value variable copies every element:
// a plain read of the counter the other goroutine adds to.
func RaceRangeArrayValue() {
	c := &cache{}
	done := make(chan bool)
	go func() {
		atomic.AddInt64(&c.segs[2].hits, 1)
		done <- true
	}()
	var n int64
	for _, s := range c.segs {
		n += s.pad[0]
	}
	<-done
	_ = n
}

func main() {
	NoRaceRangeArrayIndex()
	RaceRangeArrayBlankValue()
	RaceRangeArrayValue()
}
