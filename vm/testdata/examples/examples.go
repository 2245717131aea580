// Package examples has testable examples: two correct in every schedule,
// one whose output depends on the schedule, and one without output.
package examples

// Sum adds its arguments.
func Sum(xs ...int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
