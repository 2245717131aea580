package sym

import (
	"fmt"
	"testing"
)

// want: panic: arith
func FuzzArith(f *testing.F) {
	f.Add(0, uint8(0))
	f.Fuzz(func(t *testing.T, x int, y uint8) {
		z := x*3 + int(y)
		if z == 1000 && y > 200 {
			panic("arith")
		}
	})
}

// want: panic: wrap
func FuzzWrap(f *testing.F) {
	f.Add(int32(0))
	f.Fuzz(func(t *testing.T, x int32) {
		if int8(x) == -3 && x > 1000 && x+x < 0 {
			panic("wrap")
		}
	})
}

// want: panic: runtime error: integer divide by zero
func FuzzDiv(f *testing.F) {
	f.Add(0, 1)
	f.Fuzz(func(t *testing.T, a, b int) {
		if a > 10 {
			fmt.Println(a / b)
		}
	})
}

// want: panic: runtime error: negative shift amount
func FuzzShift(f *testing.F) {
	f.Add(uint16(1), int8(1))
	f.Fuzz(func(t *testing.T, x uint16, s int8) {
		if x<<s == 0 && x != 0 {
			return
		}
		_ = x << s
	})
}

// want: assert: found é
func FuzzBoolRune(f *testing.F) {
	f.Add(false, 'a', byte('a'))
	f.Fuzz(func(t *testing.T, b bool, r rune, c byte) {
		if b && r == 'é' && c+1 == 'z' {
			t.Fatalf("found %c", r)
		}
	})
}

// want: panic: runtime error: index out of range [7] with length 3
func FuzzIndex(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, i int) {
		a := []int{1, 2, 3}
		if i > 5 && i < 8 && i != 6 {
			fmt.Println(a[i])
		}
	})
}

// want: panic: elem.e > 9
func FuzzElem(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, x int) {
		Run(x)
	})
}

// want: panic: boxed
func FuzzBoxed(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, x int) {
		var v any = x
		m := map[int]string{42: "answer"}
		if v == any(42) && m[x] == "answer" {
			panic(fmt.Sprint("boxed"))
		}
	})
}

// want: none
func FuzzNone(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, x uint8) {
		if x > 200 && x < 100 {
			panic("unreachable")
		}
		_ = x / 3
	})
}

// string(b) of bytes the program stored symbolic: made concrete
// (dustin/go-humanize's Comma: string([]byte{byte(v) + 48}))
// want: panic: converted
func FuzzDigitString(f *testing.F) {
	f.Add(int64(100))
	f.Fuzz(func(t *testing.T, v int64) {
		if v&^0b111 == 0 {
			if s := string([]byte{byte(v) + 48}); s >= "0" && s <= "7" {
				panic("converted " + s)
			}
		}
	})
}
