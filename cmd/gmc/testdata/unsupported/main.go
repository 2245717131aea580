package main

import "os"

func main() {
	r, w, err := os.Pipe()
	println(r != nil, w != nil, err == nil)
}
