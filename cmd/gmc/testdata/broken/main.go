package main

func main() {
	x := undefinedName + 1
	println(x)
}
