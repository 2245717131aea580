// Command panicnil runs with the GODEBUG defaults of a module whose go
// line is 1.20: panicnil=1 (before 1.21), so recover returns nil after
// panic(nil) (testify 1.10's TestPanicsWithValue relies on it), and
// randseednop=0 (before 1.24), so math/rand.Seed seeds the global
// generator (rcrowley/go-metrics' TestUniformSampleStatistics expects
// the samples of seed 1).
package main

import (
	"fmt"
	"math/rand"
)

func recovered() (v any, panicked bool) {
	panicked = true
	defer func() { v = recover() }()
	panic(nil)
}

func main() {
	v, p := recovered()
	fmt.Println(v, p, v == nil)
	rand.Seed(1)
	fmt.Println(rand.Intn(1000), rand.Intn(1000), rand.Int63())
}
