package examples

import (
	"fmt"
	"sync"
)

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
