package main

var limit int

type box struct{ v, w int }

func setup(b *box) {
	b.v = 3   // in: defines box.v, read by the branch
	b.w = 4   // out: box.w is not read before the branch
	limit = 2 // in: defines the global read by the branch
}

func other() {
	limit = 5 // in: may run before main's branch (called from main)
}

func spawned(b *box) {
	b.v = 9 // out: a goroutine's writes do not reach back (sequential slice)
}

func main() {
	b := &box{}    // in
	setup(b)       // in
	go spawned(b)  // out
	other()        // in
	x := b.v + 1   // in
	if x > limit { // in
		panic("over") // crit
	}
	y := b.w // out
	println(y)
}
