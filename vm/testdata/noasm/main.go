// Command noasm has an assembly function and its pure-Go fallback, chosen
// by the noasm build tag as klauspost/compress chooses its own: the VM
// loads the fallback (go run . prints "asm", go run -tags noasm . "go").
package main

import "fmt"

func main() { fmt.Println(impl()) }
