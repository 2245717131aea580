// Command reflecteq compares reflect.Values with ==, as
// Masterminds/semver's TestParseConstraint does to find which function a
// table holds: a func, pointer, channel or map Value made by ValueOf holds
// the value itself, so two of the same value are equal; addressable
// Values compare by address.
package main

import (
	"fmt"
	"reflect"
)

type op func(a, b int) bool

func less(a, b int) bool    { return a < b }
func greater(a, b int) bool { return a > b }

var ops = map[string]op{"<": less, ">": greater}

func main() {
	f := op(less)
	fmt.Println("same func:", reflect.ValueOf(f) == reflect.ValueOf(ops["<"]))
	fmt.Println("other func:", reflect.ValueOf(f) == reflect.ValueOf(ops[">"]))
	fmt.Println("func != :", reflect.ValueOf(f) != reflect.ValueOf(ops["<"]))

	n := 1
	c1 := func() int { return n }
	c2 := func() int { return n }
	fmt.Println("one closure:", reflect.ValueOf(c1) == reflect.ValueOf(c1))
	fmt.Println("two closures:", reflect.ValueOf(c1) == reflect.ValueOf(c2))

	p, q := &n, new(int)
	fmt.Println("same pointer:", reflect.ValueOf(p) == reflect.ValueOf(&n))
	fmt.Println("other pointer:", reflect.ValueOf(p) == reflect.ValueOf(q))
	ch, m := make(chan int), map[int]int{}
	fmt.Println("same chan, map:", reflect.ValueOf(ch) == reflect.ValueOf(ch), reflect.ValueOf(m) == reflect.ValueOf(m))
	fmt.Println("chan vs other chan:", reflect.ValueOf(ch) == reflect.ValueOf(make(chan int)))

	// addressable: the variable's address decides
	x, y := &struct{ F, G *int }{p, p}, &struct{ F, G *int }{p, p}
	vx := reflect.ValueOf(x).Elem()
	fmt.Println("same field:", vx.Field(0) == reflect.ValueOf(x).Elem().Field(0))
	fmt.Println("fields holding one pointer:", vx.Field(0) == vx.Field(1), vx.Field(0) == reflect.ValueOf(y).Elem().Field(0))
	fmt.Println("elem of one pointer:", reflect.ValueOf(p).Elem() == reflect.ValueOf(p).Elem())

	var zero reflect.Value
	fmt.Println("zero:", zero == reflect.Value{}, zero == reflect.ValueOf(f))
}
