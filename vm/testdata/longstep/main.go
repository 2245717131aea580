// A transition of millions of instructions (a loop in a callee, no
// scheduling point): vm/cut_test.go cuts it at a deadline.
package main

func sum(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i % 7
	}
	return s
}

func main() {
	println(sum(3_000_000))
}
