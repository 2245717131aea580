// Command fnpc prints the names runtime.FuncForPC gives the code pointers
// of func values (reflect.Value.Pointer), as go-cmp's function.NameOf
// reads them.
package main

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
)

type T struct{ bytes.Buffer }

func (T) value()    {}
func (*T) pointer() {}

func top() {}

func name(f any) string {
	fn := runtime.FuncForPC(reflect.ValueOf(f).Pointer())
	if fn == nil {
		return "<nil>"
	}
	return fn.Name()
}

func main() {
	for _, f := range []any{top, func() {}, T.value, (*T).value, (*T).pointer, T{}.value, (&T{}).pointer, (*T).Write, (&T{}).Write} {
		fmt.Println(name(f))
	}
}
