// Command poolmod is a program in a module whose name has no dot, like the
// race suite's scratch module: its own sync.Pool keeps the value it puts
// (only the standard library's pools drop their values in gmc), and the
// slice sees its functions as code, not as the standard library.
package main

import (
	"fmt"
	"sync"
)

func main() {
	p := &sync.Pool{New: func() any { return new(int) }}
	x := new(int)
	*x = 7
	p.Put(x)
	y := p.Get().(*int)
	fmt.Println(y == x, *y)
}
