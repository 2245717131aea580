// Three hundred workers in turn, each writing its own result and ordered
// before main by a handoff (as testdata/race/retired's six): a run that
// is never hashed must still retire the ended workers (maybeRetire), or
// main's clock grows an entry per worker.
package main

func main() {
	var results [300]int
	for i := range results {
		done := make(chan bool)
		go func() {
			results[i] = i + 1
			done <- true
		}()
		<-done
	}
	sum := 0
	for _, r := range results {
		sum += r
	}
	if sum != 300*301/2 {
		panic("lost update")
	}
}
