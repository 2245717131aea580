// Command reflectslice slices arrays, slices and strings through reflect
// (yaml.v3's decoder of sequences, go-spew's dump of sorted entries: reflect.Value.Slice).
package main

import (
	"fmt"
	"reflect"
)

type name string
type ints []int

func main() {
	a := [5]int{1, 2, 3, 4, 5}
	s := reflect.ValueOf(&a).Elem().Slice(1, 3)
	fmt.Println(s.Interface(), s.Len(), s.Cap(), s.Type())
	s.Index(0).SetInt(20)
	fmt.Println(a)
	x := ints{1, 2, 3, 4}
	t := reflect.ValueOf(x).Slice3(1, 2, 3)
	fmt.Println(t.Interface(), t.Len(), t.Cap(), t.Type())
	u := reflect.ValueOf(name("hello")).Slice(1, 4)
	fmt.Println(u.Interface(), u.Type())
	func() {
		defer func() { fmt.Println(recover()) }()
		reflect.ValueOf(a).Slice(0, 1)
	}()
	func() {
		defer func() { fmt.Println(recover()) }()
		reflect.ValueOf(x).Slice(2, 5)
	}()
	var nilS []byte
	fmt.Println(reflect.ValueOf(nilS).Slice(0, 0).IsNil())
}
