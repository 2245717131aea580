// A CPU-bound sequential program: the sieve of Eratosthenes.
package main

func main() {
	const n = 200000
	composite := make([]bool, n)
	count := 0
	for i := 2; i < n; i++ {
		if !composite[i] {
			count++
			for j := i * 2; j < n; j += i {
				composite[j] = true
			}
		}
	}
	println(count)
}
