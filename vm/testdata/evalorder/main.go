// Program evalorder prints operands that a call of the same statement
// changes: gc evaluates a statement's calls first and the other operands
// after them (go/ssa evaluates them left to right).
package main

import (
	"bytes"
	"fmt"
)

type S struct{ v int }

func (s *S) set() int { s.v = 9; return 1 }

var g int

func f(p *int) int    { *p = 5; return 1 }
func fg() int         { g = 7; return 1 }
func r1() (int, int)  { x := 0; return x, f(&x) }
func r2() (int, int)  { s := &S{}; return s.v, f(&s.v) }
func r3() (int, int)  { xs := []int{0}; return xs[0], f(&xs[0]) }
func r4() (int, int)  { return g, fg() }
func r5() (int, int)  { x := 0; return x + 1, f(&x) }
func r7() (int, int)  { x := 0; a, b := x, f(&x); return a, b }
func r8() (int, int)  { x := 0; p := &x; return *p, f(p) }
func r9() (int, int)  { s := S{}; return s.v, f(&s.v) }
func r10() (int, int) { s := &S{}; return s.v, s.set() }

// scan is database/sql's Rows.Scan into a []byte, as go-sqlmock's tests
// call it: return b, rs.Scan(&b)
func scan(dst *[]byte) error { *dst = bytes.Clone([]byte("row")); return nil }
func r11() ([]byte, error)   { var b []byte; return b, scan(&b) }

func main() {
	x := 0
	fmt.Println(x, f(&x))
	fmt.Println(r1())
	fmt.Println(r2())
	fmt.Println(r3())
	g = 0
	fmt.Println(r4())
	fmt.Println(r5())
	fmt.Println(r7())
	fmt.Println(r8())
	fmt.Println(r9())
	fmt.Println(r10())
	b, err := r11()
	fmt.Printf("%q %v\n", b, err)
	y := 1
	y += f(&y)
	fmt.Println(y)
	z := 1
	h := func() int { z = 2; return 3 }
	fmt.Println(z, h())
	w := 0
	v := w // a statement of its own: read before f
	fmt.Println(v, f(&w), w)
}
