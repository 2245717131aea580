package main

import (
	"fmt"
	"reflect"
)

func init() {
	cases["canconvert-setbytes"] = func() { // reflect.Value.CanConvert and SetBytes (encoding/json's []byte fields)
		s := reflect.ValueOf([]int{1, 2})
		fmt.Println(s.CanConvert(reflect.TypeOf([2]int{})), s.CanConvert(reflect.TypeOf([3]int{})), s.CanConvert(reflect.TypeOf(&[1]int{})),
			reflect.ValueOf(3).CanConvert(reflect.TypeOf("")), reflect.ValueOf("x").CanConvert(reflect.TypeOf(0)))
		type rawBytes []byte
		var b rawBytes
		reflect.ValueOf(&b).Elem().SetBytes([]byte("hi"))
		fmt.Println(string(b), len(b))
		defer func() { fmt.Println(recover()) }()
		var is []int
		reflect.ValueOf(&is).Elem().SetBytes([]byte("x"))
	}
}
