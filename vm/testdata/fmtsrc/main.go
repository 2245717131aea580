// Program fmtsrc exercises packages fmt, errors and log, which the VM runs
// from their Go source; os.Args[1] names the case. Its output is compared
// with what the program built by Go prints (fmt_source_test.go).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"strings"
)

type point struct{ X, Y int }

type node struct {
	Name  string
	Tags  []string
	Attrs map[string]int
	Pt    point
	Next  *node
	err   error
	Any   any
}

type celsius float64

func (c celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type color int

func (c *color) String() string {
	if c == nil {
		return "no color"
	}
	return [...]string{"red", "green"}[*c]
}

type boom struct{ n int }

func (b boom) String() string {
	if b.n == 0 {
		panic("boom")
	}
	return "fine"
}

type nilPanic struct{ p *int }

func (n nilPanic) Error() string { return fmt.Sprint(*n.p) }

type codeErr struct{ code int }

func (e *codeErr) Error() string { return fmt.Sprintf("code %d", e.code) }

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Is(e error) bool { return e == os.ErrDeadlineExceeded }

type goFormatter struct{ v int }

func (g goFormatter) GoString() string { return fmt.Sprintf("goFormatter(%d)", g.v) }

type formatter struct{}

func (formatter) Format(f fmt.State, verb rune) {
	w, _ := f.Width()
	fmt.Fprintf(f, "F[%c w=%d plus=%v]", verb, w, f.Flag('+'))
}

func main() {
	switch os.Args[1] {
	case "verbs":
		n := node{Name: "a", Tags: []string{"x", "y"}, Attrs: map[string]int{"z": 26, "b": 2, "m": 13},
			Pt: point{1, 2}, err: timeoutErr{}, Any: point{3, 4}}
		fmt.Printf("%v\n%+v\n", n, n)
		fmt.Printf("%#v\n", n.Pt)
		fmt.Printf("%#v %#v %#v\n", n.Tags, n.Attrs, []any{1, "s", nil, 2.5, point{}})
		fmt.Printf("%T %T %T %T %T\n", n, &n, n.Attrs, n.Any, nil)
		fmt.Println(celsius(21.5), []celsius{1, 2}, map[string]celsius{"k": 3})
		var c color = 1
		var nc *color
		fmt.Println(&c, nc, c)
		fmt.Printf("%s|%v|%d\n", &c, nc, c)
		fmt.Printf("|%6.2f|%-6d|%06d|%+d|%x|%X|%o|%#o|%b|%e|%g|%G|\n", 3.14159, 42, -42, 7, "hi", []byte{1, 171}, 8, 8, 5, 1234.5678, 1e-7, 1e21)
		fmt.Printf("|%q|%#q|%+q|%c|%U|%#U|%8.3s|%-8s|%x|\n", "a\"b", "c`d", "é", 'λ', 'λ', 'λ', "abcdef", "ab", -255)
		fmt.Printf("%t %v %08.3f %+.2e %x\n", true, false, -3.5, 12345.678, 3.5)
		fmt.Printf("%v %v %v\n", complex(1, -2), [3]bool{true}, struct{}{})
		fmt.Printf("%d %s\n", "str", 5)
		fmt.Printf("%d %d\n", 1)
		fmt.Printf("%d\n", 1, 2)
		fmt.Printf("%!\n")
		fmt.Printf("%[2]d %[1]d %*d|%-*d|\n", 1, 2, 5, 3, 4, 9)
		fmt.Printf("%#v %v %+v\n", goFormatter{3}, goFormatter{3}, formatter{})
		fmt.Printf("%10v|\n", formatter{})
		fmt.Println(fmt.Sprint("a", 1, 2, "b", "c", 3.0, nil), fmt.Sprintln("x", 1))
		var ip *int
		var e error
		fmt.Println(ip == nil, e, []int(nil), map[int]int(nil))
		fmt.Printf("%#v %#v %#v\n", ip, []int(nil), map[int]bool(nil))
		fmt.Printf("%v %d\n", []*int{nil}, []uint8{1, 2})
		fmt.Printf("%s %v %x\n", []byte("hey"), []byte("hey"), "hey")
		fmt.Printf("%v %+v\n", struct {
			A *point
			B []*point
		}{&point{5, 6}, nil}.B, &point{7, 8})
		// (fmt orders keys of different dynamic types by the address of
		// their type descriptors: not the same in two builds)
		fmt.Printf("%v %v\n", map[point]string{{2, 1}: "b", {1, 9}: "a"}, map[any]int{3: 1, 2: 2, -1: 3})
		var b strings.Builder
		fmt.Fprintf(&b, "%05.1f|%x", 2.25, 1<<40)
		fmt.Println(b.String(), fmt.Sprintf("%v", b.Len()))
		fmt.Fprintln(os.Stderr, "to stderr", 1)
		fmt.Println(fmt.Append([]byte("pre:"), 1, "x"), string(fmt.Appendf(nil, "%03d", 7)))
	case "errors":
		base := &codeErr{7}
		w1 := fmt.Errorf("open: %w", base)
		w2 := fmt.Errorf("retry %d: %w", 3, w1)
		fmt.Println(w2, errors.Unwrap(w2) == w1, errors.Unwrap(errors.Unwrap(w2)) == base)
		var ce *codeErr
		fmt.Println(errors.Is(w2, base), errors.As(w2, &ce), ce.code, ce == base)
		j := errors.Join(w1, nil, timeoutErr{})
		fmt.Printf("%q\n", j.Error())
		fmt.Println(errors.Is(j, base), errors.Is(j, os.ErrDeadlineExceeded), errors.Is(j, fs.ErrNotExist))
		var te interface{ Timeout() bool }
		fmt.Println(errors.As(j, &te), te != nil && te.Timeout())
		m := fmt.Errorf("both %w and %w", base, fs.ErrNotExist)
		fmt.Println(m, errors.Is(m, fs.ErrNotExist), errors.Unwrap(m) == nil)
		fmt.Printf("%v|%+v|%s|%q\n", w1, w1, base, base)
		fmt.Println(fmt.Errorf("no wrap %v", base), errors.Unwrap(fmt.Errorf("no wrap %v", base)) == nil)
		fmt.Println(fmt.Errorf("%w", nil), errors.Join() == nil, errors.Join(nil, nil) == nil)
		fmt.Println(errors.Is(nil, nil), errors.Is(base, nil), errors.ErrUnsupported)
		fmt.Println(errors.Is(fmt.Errorf("x: %w", errors.ErrUnsupported), errors.ErrUnsupported))
		func() {
			defer func() { fmt.Println("recovered:", recover()) }()
			errors.As(base, nil)
		}()
		func() {
			defer func() { fmt.Println("recovered:", recover()) }()
			var s string
			errors.As(base, &s)
		}()
	case "log":
		var buf bytes.Buffer
		l := log.New(&buf, "pfx: ", log.Lshortfile)
		l.Println("hello", 1)
		l.SetFlags(log.Lmsgprefix | log.Lshortfile)
		l.Printf("x=%d", 2)
		l.SetPrefix("[p] ")
		l.SetFlags(log.Lmsgprefix)
		l.Print("no newline")
		l.Print("newline\n")
		fmt.Print(buf.String())
		fmt.Println(l.Prefix(), l.Flags(), l.Writer() == &buf)
		log.SetOutput(os.Stdout)
		log.SetFlags(0)
		log.Println("std", 3)
		log.SetPrefix("std: ")
		log.Printf("%v", point{1, 2})
		fmt.Println(log.Flags(), log.Prefix(), log.Default().Writer() == os.Stdout)
		func() {
			defer func() { fmt.Println("recovered:", recover()) }()
			log.Panicf("bad %d", 5)
		}()
		log.SetOutput(os.Stderr)
		log.Print("to stderr")
	case "stringer-panic":
		fmt.Println(boom{1}, boom{0})
		fmt.Printf("%v|%s|%d\n", boom{0}, []boom{{0}, {1}}, boom{0})
		fmt.Println(nilPanic{})
		var bp *boom
		fmt.Println(bp)
		var np *nilPanic
		fmt.Printf("%v\n", np)
	}
}
