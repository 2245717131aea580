// Package other has a util.go, as package inner has.
package other

var total int

// Add adds n to the total.
func Add(n int) {
	total += n
}
