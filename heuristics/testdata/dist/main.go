// Command dist is the test program of the distance heuristics: straight-line
// code, static calls, an interface call with two implementations of
// different lengths, a loop, and a function that cannot reach the target.
package main

type shape interface{ area() int }

type square struct{ s int }

func (q square) area() int { return q.s * q.s }

type polygon struct{ sides []int }

func (p polygon) area() int {
	a := 0
	a += p.sides[0]
	a += p.sides[1]
	a += p.sides[2]
	return a
}

var sink int

func leaf() int {
	sink++
	sink++
	return sink
}

func target() { sink = 42 }

func straight() {
	x := leaf()
	sink = x
	target()
}

func viaShape(s shape) {
	sink = s.area()
	target()
}

func looping(n int) {
	for i := 0; i < n; i++ {
		sink += i
	}
	target()
}

func never() { sink = 7 }

func main() {
	straight()
	viaShape(square{2})
	viaShape(polygon{[]int{1, 2, 3}})
	looping(3)
	never()
}
