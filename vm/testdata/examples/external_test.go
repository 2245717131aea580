package examples_test

import (
	"fmt"

	"examples"
)

func Example_external() {
	fmt.Println(examples.Sum(4, 5))
	// Output: 9
}
