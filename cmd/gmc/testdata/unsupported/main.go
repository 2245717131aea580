package main

import "os"

func main() {
	f, err := os.Open("/etc/hostname")
	println(f != nil, err == nil)
}
