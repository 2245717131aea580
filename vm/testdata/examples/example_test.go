package examples

import (
	"fmt"
	"sync"
)

// The test binary's initializers print before any example runs (as
// google/btree's prints its random seed): not part of an example's output.
func init() { fmt.Println("seed 1767225600") }

func ExampleSum() {
	fmt.Println(Sum(1, 2, 3))
	// Output: 6
}

// Two goroutines print in either order: the output may not match.
func Example_order() {
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); fmt.Println(i) }()
	}
	wg.Wait()
	// Output:
	// 1
	// 2
}

// The same, with the lines in any order: correct.
func Example_unordered() {
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); fmt.Println(i) }()
	}
	wg.Wait()
	// Unordered output:
	// 2
	// 1
}

// No output comment: compiled, not run.
func Example_noOutput() {
	panic("not run")
}
