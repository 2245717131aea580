// Program coro pulls from iterators with iter.Pull and iter.Pull2: two
// sequences zipped, a pull stopped early, a panic of the sequence
// propagated to next, and pulls in several goroutines at once.
package main

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"sync"
)

func count(from, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := from; i < from+n; i++ {
			if !yield(i) {
				fmt.Println("stopped at", i)
				return
			}
		}
	}
}

func zip(a, b iter.Seq[int]) []string {
	na, sa := iter.Pull(a)
	defer sa()
	nb, sb := iter.Pull(b)
	defer sb()
	var out []string
	for {
		x, ok1 := na()
		y, ok2 := nb()
		if !ok1 || !ok2 {
			return out
		}
		out = append(out, fmt.Sprint(x, "-", y))
	}
}

func main() {
	fmt.Println(zip(count(0, 3), count(10, 5)))

	next, stop := iter.Pull(count(100, 10))
	v, ok := next()
	fmt.Println(v, ok)
	stop()
	v, ok = next()
	fmt.Println(v, ok)

	m := map[string]int{"a": 1}
	n2, s2 := iter.Pull2(maps.All(m))
	k, val, ok := n2()
	fmt.Println(k, val, ok)
	s2()

	boom := func(yield func(int) bool) {
		yield(1)
		panic("boom")
	}
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		nx, st := iter.Pull(iter.Seq[int](boom))
		defer st()
		fmt.Println(nx())
		fmt.Println(nx())
	}()

	var wg sync.WaitGroup
	sums := make([]int, 2)
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nx, st := iter.Pull(slices.Values([]int{g, g, g}))
			defer st()
			for {
				x, ok := nx()
				if !ok {
					break
				}
				sums[g] += x
			}
		}()
	}
	wg.Wait()
	fmt.Println(sums)
}
