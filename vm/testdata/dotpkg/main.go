// Command dotpkg prints the names runtime.FuncForPC gives functions of a
// package whose last path element holds a dot (go.uber.org/dig's
// digreflect splits such names on "%2e": its TestInspectFunc).
package main

import (
	"fmt"
	"reflect"
	"runtime"

	lib "github.com/gmc-go/gmc/vm/testdata/dotpkg/v1.lib"
)

func main() {
	fmt.Println(lib.Hello())
	fmt.Println(lib.T{}.Name())
	fmt.Println(runtime.FuncForPC(reflect.ValueOf(lib.Hello).Pointer()).Name())
	fmt.Println(reflect.TypeOf(lib.T{}).PkgPath(), reflect.TypeOf(lib.T{}).String())
}
