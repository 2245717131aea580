// Package generic is gmc confirm's test of a warning in generic code
// (TestConfirmGeneric): Pool's workers receive from a channel nobody
// closes.
package generic

// Pool starts n workers that apply f to what in receives.
func Pool[T any](n int, f func(T)) chan<- T {
	in := make(chan T)
	for range n {
		go func() {
			for v := range in {
				f(v)
			}
		}()
	}
	return in
}
