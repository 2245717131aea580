// Package inner has a util.go, as package other has.
package inner

var total int

// Add adds n to the total.
func Add(n int) {
	total += n
}
