// Uses of the standard library that gmc models natively or interprets.
// Each case is selected by os.Args[1]; vm/natives_std_test.go compares the
// output under gmc with the output of the program built by Go (for the
// deterministic cases) or with fixed expectations (virtual time, leaks).
package main

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"log"
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	randv2 "math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
	"unique"
	"unsafe"
)

type codeErr struct{ code int }

func (e *codeErr) Error() string { return "code " + strconv.Itoa(e.code) }

type valErr struct{ s string }

func (e valErr) Error() string { return e.s }

// isAll is an error whose Is method matches every target.
type isAll struct{}

func (isAll) Error() string        { return "isAll" }
func (isAll) Is(target error) bool { return true }

// asCode converts itself into a *codeErr through an As method.
type asCode struct{}

func (asCode) Error() string { return "asCode" }
func (asCode) As(target any) bool {
	if p, ok := target.(**codeErr); ok {
		*p = &codeErr{code: 7}
		return true
	}
	return false
}

var errBase = errors.New("base")

var cases = map[string]func(){
	"errors": func() {
		w := fmt.Errorf("wrap: %w", errBase)
		fmt.Println(w, errors.Is(w, errBase), errors.Unwrap(w) == errBase, errors.Unwrap(errBase) == nil)
		var ce *codeErr
		chain := fmt.Errorf("outer: %w", fmt.Errorf("mid: %w", &codeErr{code: 3}))
		fmt.Println(errors.As(chain, &ce), ce.code, errors.Is(chain, errBase))
		var ve valErr
		fmt.Println(errors.As(fmt.Errorf("x: %w", valErr{"v"}), &ve), ve.s)
		j := errors.Join(errBase, nil, &codeErr{code: 4})
		fmt.Printf("%q %v\n", j.Error(), errors.Is(j, errBase))
		var ce2 *codeErr
		fmt.Println(errors.As(j, &ce2), ce2.code, errors.Join(nil, nil) == nil)
		multi := fmt.Errorf("%w and %w", errBase, io.EOF)
		fmt.Println(errors.Is(multi, io.EOF), errors.Is(multi, io.ErrUnexpectedEOF))
		fmt.Println(errors.Is(isAll{}, io.EOF), errors.Is(nil, nil), errors.Is(nil, errBase))
		var ce3 *codeErr
		fmt.Println(errors.As(fmt.Errorf("w: %w", asCode{}), &ce3), ce3.code)
		var anyErr interface{ Error() string }
		fmt.Println(errors.As(w, &anyErr), anyErr)
		c4, ok := errors.AsType[*codeErr](chain)
		fmt.Println(c4.code, ok, errors.ErrUnsupported)
	},
	"errors-as-nil": func() {
		var target any
		errors.As(errBase, target)
	},
	"errors-as-nonptr": func() {
		var target any = codeErr{}
		errors.As(errBase, target)
	},
	"math": func() {
		fmt.Println(math.Sqrt(2), math.Inf(1), math.Inf(-1), math.IsNaN(math.NaN()), math.IsInf(math.Inf(1), 0))
		fmt.Println(math.Floor(-1.5), math.Ceil(1.2), math.Trunc(-2.7), math.Round(2.5), math.Abs(-3), math.Max(1, math.NaN()))
		fmt.Println(math.Float64bits(1.5), math.Float64frombits(0x4000000000000000), math.Float32bits(1), math.Signbit(math.Copysign(0, -1)))
		fmt.Println(math.Pow(2, 10), math.Mod(7, 3), math.Hypot(3, 4), math.Log2(8), math.MaxInt64, math.MinInt64, math.Pi)
		fr, exp := math.Frexp(8)
		fmt.Println(fr, exp, bits.OnesCount(255), bits.LeadingZeros64(1), bits.Reverse8(1))
		var d time.Duration = 1500 * time.Millisecond
		fmt.Println(d, d.Seconds(), time.Duration(math.MaxInt64))
		dd, err := time.ParseDuration("1h2m3s")
		fmt.Println(dd, err)
	},
	"strings": func() {
		fmt.Println(strings.Split("a,b,,c", ","), len(strings.Fields(" x  y\tz ")), strings.Join([]string{"p", "q"}, "-"))
		fmt.Println(strings.Repeat("ab", 3), strings.ReplaceAll("aaa", "a", "b"), strings.Replace("aaa", "a", "c", 2))
		fmt.Println(strings.ToUpper("héllo"), strings.ToLower("ABC"), strings.TrimSpace("  t  "), strings.Trim("xxhixx", "x"))
		fmt.Println(strings.HasPrefix("golang", "go"), strings.HasSuffix("golang", "ng"), strings.Index("chicken", "ken"), strings.LastIndex("go gopher", "go"))
		fmt.Println(strings.EqualFold("Go", "GO"), strings.Count("cheese", "e"), strings.ContainsRune("abc", 'b'), strings.IndexByte("abc", 'c'))
		before, after, found := strings.Cut("key=value", "=")
		fmt.Println(before, after, found, strings.Title("hello world"), strings.TrimPrefix("prefix-x", "prefix-"))
		fmt.Println(strings.Map(func(r rune) rune { return r + 1 }, "HAL"), strings.FieldsFunc("a1b2c", unicode.IsDigit), strings.SplitN("a.b.c", ".", 2))
		var sb strings.Builder
		for i := 0; i < 3; i++ {
			fmt.Fprintf(&sb, "%d;", i)
		}
		sb.WriteByte('!')
		sb.WriteRune('é')
		sb.Grow(10)
		fmt.Println(sb.String(), sb.Len())
		sb.Reset()
		sb.WriteString("again")
		fmt.Println(sb.String())
		r := strings.NewReader("read me")
		data, _ := io.ReadAll(r)
		fmt.Println(string(data))
	},
	"builder-copy": func() {
		var a strings.Builder
		a.WriteString("x")
		b := a
		b.WriteString("y")
	},
	"repeat-negative": func() {
		fmt.Println(strings.Repeat("x", -1))
	},
	"bytes-unicode-strconv": func() {
		var buf bytes.Buffer
		buf.WriteString("hello ")
		fmt.Fprintf(&buf, "%05.1f", 3.14159)
		fmt.Println(buf.String(), buf.Len(), bytes.Contains([]byte("seafood"), []byte("foo")), bytes.Equal([]byte("a"), []byte("a")))
		fmt.Println(string(bytes.ToUpper([]byte("up"))), string(bytes.TrimSpace([]byte("  in  "))), bytes.IndexByte([]byte("abc"), 'b'))
		fmt.Println(unicode.IsUpper('Q'), unicode.IsLetter('1'), unicode.IsSpace('\t'), string(unicode.ToUpper('ß')), unicode.IsDigit('٣'))
		fmt.Println(utf8.RuneLen('世'), utf8.RuneCountInString("héllo"), utf8.ValidString("\xff"))
		r, size := utf8.DecodeRuneInString("世界")
		fmt.Println(string(r), size, string(utf8.AppendRune(nil, 'ü')))
		fmt.Println(strconv.Itoa(-45), strconv.Quote("tab\there"), strconv.FormatFloat(1.0/3, 'f', 4, 64), strconv.FormatInt(255, 2))
		n, err := strconv.Atoi("12a")
		fmt.Println(n, err)
		var ne *strconv.NumError
		fmt.Println(errors.As(err, &ne), ne.Func, errors.Is(err, strconv.ErrSyntax))
		f, err := strconv.ParseFloat("2.5e3", 64)
		b, _ := strconv.ParseBool("true")
		u, err2 := strconv.ParseUint("300", 10, 8)
		fmt.Println(f, err, b, u, err2)
		q, err := strconv.Unquote(`"a\nb"`)
		fmt.Printf("%q %v %s\n", q, err, strconv.AppendInt([]byte("n="), 42, 10))
	},
	"sort": func() {
		xs := []int{5, 2, 9, 1}
		sort.Ints(xs)
		ss := []string{"pear", "apple", "fig"}
		sort.Strings(ss)
		fs := []float64{2.5, -1, 0}
		sort.Float64s(fs)
		fmt.Println(xs, ss, fs, sort.SearchInts(xs, 5), sort.IntsAreSorted(xs))
		people := []struct {
			name string
			age  int
		}{{"a", 30}, {"b", 20}, {"c", 25}}
		sort.Slice(people, func(i, j int) bool { return people[i].age < people[j].age })
		fmt.Println(people)
		sort.SliceStable(ss, func(i, j int) bool { return len(ss[i]) < len(ss[j]) })
		fmt.Println(ss)
		sort.Sort(sort.Reverse(sort.IntSlice(xs)))
		fmt.Println(xs)
		ys := []int{3, 1, 2}
		slices.Sort(ys)
		slices.SortFunc(ss, strings.Compare)
		fmt.Println(ys, ss, slices.Max(ys), slices.Index(ys, 2))
	},
	"rand": func() {
		a, b, c := rand.Intn(1000), rand.Intn(1000), rand.Int63()
		fmt.Println(a >= 0 && a < 1000, b >= 0 && b < 1000, c >= 0)
		r := rand.New(rand.NewSource(42))
		fmt.Println(r.Intn(100), r.Int31n(50), r.Float64() < 1, r.Perm(6))
		xs := []int{1, 2, 3, 4, 5, 6}
		r.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
		fmt.Println(xs)
		p := randv2.New(randv2.NewPCG(1, 2))
		fmt.Println(p.IntN(1000), p.Uint64(), p.Float64() < 1, p.Perm(4))
		n := randv2.IntN(10)
		fmt.Println(n >= 0 && n < 10, randv2.N(time.Second) < time.Second)
	},
	"atomic": func() {
		var n atomic.Int64
		var u uint32
		var wg sync.WaitGroup
		for i := 0; i < 5; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n.Add(2)
				atomic.AddUint32(&u, 1)
			}()
		}
		wg.Wait()
		fmt.Println(n.Load(), atomic.LoadUint32(&u), n.CompareAndSwap(10, 11), n.Swap(20), n.Load())
		var b atomic.Bool
		fmt.Println(b.Load(), b.CompareAndSwap(false, true), b.Load(), b.Swap(false))
		var v atomic.Value
		fmt.Println(v.Load())
		v.Store("first")
		fmt.Println(v.Load(), v.Swap("second"), v.CompareAndSwap("second", "third"), v.Load())
		var p atomic.Pointer[int]
		x, y := 1, 2
		fmt.Println(p.Load() == nil, p.CompareAndSwap(nil, &x), *p.Load(), *p.Swap(&y), *p.Load())
		var i32 int32 = 6
		swapped, old := atomic.CompareAndSwapInt32(&i32, 6, 7), atomic.SwapInt32(&i32, 8)
		fmt.Println(swapped, old, atomic.OrInt32(&i32, 1), atomic.LoadInt32(&i32))
		var u64 atomic.Uint64
		u64.Store(1 << 40)
		fmt.Println(u64.Add(1), u64.And(1), u64.Load())
	},
	"atomic-value-nil": func() {
		var v atomic.Value
		v.Store(nil)
	},
	"atomic-value-type": func() {
		var v atomic.Value
		v.Store(1)
		v.Store("x")
	},
	"syncmap-pool": func() {
		var m sync.Map
		m.Store("a", 1)
		m.Store("b", 2)
		v, ok := m.Load("a")
		fmt.Println(v, ok)
		act, loaded := m.LoadOrStore("a", 9)
		act2, loaded2 := m.LoadOrStore("c", 3)
		fmt.Println(act, loaded, act2, loaded2)
		old, had := m.Swap("b", 20)
		fmt.Println(old, had, m.CompareAndSwap("b", 20, 21), m.CompareAndDelete("c", 4))
		m.Delete("a")
		v, loaded = m.LoadAndDelete("c")
		fmt.Println(v, loaded)
		count := 0
		m.Range(func(k, v any) bool { count++; return true })
		fmt.Println(count)
		m.Clear()
		_, ok = m.Load("b")
		fmt.Println(ok)
		made := 0
		p := sync.Pool{New: func() any { made++; return made }}
		a := p.Get()
		p.Put("reused")
		b := p.Get()
		fmt.Println(a, b, p.Get(), made)
		var rw sync.RWMutex
		rl := rw.RLocker()
		rl.Lock()
		rl.Lock()
		fmt.Println(rw.TryLock())
		rl.Unlock()
		rl.Unlock()
		fmt.Println(rw.TryLock())
	},
	"once": func() {
		n := 0
		f := sync.OnceFunc(func() { n++ })
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); f() }()
		}
		wg.Wait()
		f()
		v := sync.OnceValue(func() int { n += 10; return n })
		fmt.Println(v(), v(), n)
		a, err := sync.OnceValues(func() (int, error) { return 3, io.EOF })()
		fmt.Println(a, err)
	},
	"syncmap-unhashable": func() {
		var m sync.Map
		m.Store([]int{1}, 1)
	},
	"context": func() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			<-ctx.Done()
			fmt.Println("cancelled:", ctx.Err())
			close(done)
		}()
		cancel()
		<-done
		type key string
		vctx := context.WithValue(context.TODO(), key("k"), 42)
		child, ccl := context.WithCancel(vctx)
		defer ccl()
		fmt.Println(vctx.Value(key("k")), vctx.Value(key("other")), child.Value(key("k")), vctx)
		cctx, ccancel := context.WithCancelCause(context.Background())
		ccancel(errBase)
		fmt.Println(cctx.Err(), context.Cause(cctx), context.Cause(context.Background()))
		actx, acancel := context.WithCancel(context.Background())
		ran := make(chan string)
		stop := context.AfterFunc(actx, func() { ran <- "after" })
		acancel()
		fmt.Println(<-ran, stop())
		_, has := context.Background().Deadline()
		fmt.Println(has, context.WithoutCancel(actx).Err(), context.Background(), errors.Is(context.DeadlineExceeded, context.DeadlineExceeded))
	},
	"flag": func() {
		fs := flag.NewFlagSet("prog", flag.ContinueOnError)
		n := fs.Int("n", 3, "count")
		v := fs.Bool("v", false, "verbose")
		d := fs.Duration("d", time.Second, "duration")
		s := fs.String("s", "def", "string")
		err := fs.Parse([]string{"-n", "7", "-v", "-d=2m", "rest", "-x"})
		fmt.Println(*n, *v, *d, *s, fs.Args(), fs.NArg(), err)
	},
	"flag-bad": func() {
		fs := flag.NewFlagSet("prog", flag.ExitOnError)
		fs.Int("n", 3, "count")
		fs.Duration("d", time.Second, "duration")
		fs.Parse([]string{"-bad"})
	},
	"log": func() {
		log.SetFlags(0)
		log.SetPrefix("pfx: ")
		log.Println("to stderr", 1)
		l := log.New(os.Stdout, "[out] ", log.Lmsgprefix)
		l.Printf("n=%d", 2)
		fmt.Println(log.Flags(), log.Prefix())
	},
	"pprof": func() {
		p := pprof.Lookup("goroutine")
		fmt.Println(p.Name(), p.WriteTo(io.Discard, 1), pprof.Lookup("nosuchprofile") == nil)
		// the goroutine profile counts the goroutines, threadcreate at least one thread (rcrowley/go-metrics)
		fmt.Println(p.Count() == runtime.NumGoroutine(), pprof.Lookup("threadcreate").Count() >= 1)
		pprof.Do(context.Background(), pprof.Labels("k", "v"), func(context.Context) { fmt.Println("in Do") })
	},
	"alloc-limit": func() { fmt.Println(len(make([]string, 10<<20))) },
	"alloc-packed": func() { // pond/v2's 10 MB buffer: bytes, packed
		b := make([]byte, 10<<20)
		b[len(b)-1] = 7
		fmt.Println(len(b), b[len(b)-1], b[5<<20])
	},
	"alloc-limit-packed": func() { fmt.Println(len(make([]byte, 2<<30))) },
	"timer-max": func() { // a timer of the largest duration never fires (reugn/go-quartz's idle loop)
		t := time.NewTimer(time.Duration(math.MaxInt64))
		time.Sleep(time.Millisecond)
		t.Reset(time.Duration(math.MaxInt64))
		select {
		case <-t.C:
			fmt.Println("fired")
		case <-time.After(time.Millisecond):
			fmt.Println("not fired")
		}
		fmt.Println(t.Stop())
	},
	"timers": func() { // Go 1.23 semantics: no stale values after Stop or Reset
		t := time.NewTimer(time.Millisecond)
		time.Sleep(2 * time.Millisecond)
		fmt.Println(t.Stop()) // fired, but its value was not received
		select {
		case <-t.C:
			fmt.Println("stale")
		default:
			fmt.Println("drained")
		}
		t.Reset(time.Millisecond)
		<-t.C
		fmt.Println(t.Stop(), t.Reset(time.Hour), t.Stop())
		tk := time.NewTicker(time.Millisecond)
		time.Sleep(3 * time.Millisecond)
		tk.Reset(time.Hour)
		select {
		case <-tk.C:
			fmt.Println("stale tick")
		default:
			fmt.Println("no stale tick")
		}
		tk.Stop()
	},
	"afterfunc-reset": func() { // Reset of a fired or stopped AfterFunc runs f again
		done := make(chan bool)
		t := time.AfterFunc(time.Millisecond, func() { done <- true })
		<-done
		fmt.Println(t.Reset(time.Millisecond))
		<-done
		fmt.Println(t.Stop(), t.Reset(time.Millisecond))
		<-done
		t2 := time.AfterFunc(time.Hour, func() { done <- true })
		fmt.Println(t2.Stop(), t2.Reset(time.Millisecond))
		<-done
		fmt.Println("ok")
	},
	// The cases below depend on virtual time or leak goroutines: their
	// expectations are written in the test.
	"clock-start": func() { // the clock starts off every calendar boundary (robfig/cron's TestJob: see epochBase)
		now := time.Now().UTC()
		fmt.Println(now.Nanosecond() != 0, now.Second() != 0, now.Minute() != 0, now.Hour() != 0, now.Day() != 1, now.YearDay() != 1)
	},
	"timeout": func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		start := time.Now()
		<-ctx.Done()
		fmt.Println(ctx.Err(), errors.Is(ctx.Err(), context.DeadlineExceeded), roundMs(time.Since(start)))
		dctx, dcancel := context.WithDeadline(context.Background(), time.Now().Add(time.Minute))
		dl, ok := dctx.Deadline()
		fmt.Println(ok, roundMs(time.Until(dl)))
		dcancel()
		fmt.Println(dctx.Err())
	},
	"stringer-verbs": func() { // %d of a Stringer prints the number; String formats itself with %d (gobreaker's State)
		fmt.Printf("%v %s %d %x %q %5d|\n", stateStringer(7), stateStringer(1), stateStringer(7), stateStringer(255), stateStringer(1), stateStringer(3))
		fmt.Println(fmt.Sprint(errCode(4)), fmt.Sprintf("%d %v", errCode(4), errCode(5)))
	},
	"recurse-forever":    func() { fmt.Println(recurse(1)) },      // Go dies of a stack overflow
	"stringer-recursive": func() { fmt.Println(selfStringer(1)) }, // String formats itself with %v: Go dies of a stack overflow
	"sliceheader-data": func() { // cornelk/hashmap's store: the array's address from reflect.SliceHeader, then pointer arithmetic
		index := make([]*int, 4)
		x := 5
		index[2] = &x
		header := (*reflect.SliceHeader)(unsafe.Pointer(&index))
		array := unsafe.Pointer(header.Data)
		p := (*unsafe.Pointer)(unsafe.Pointer(uintptr(array) + 2*unsafe.Sizeof(array)))
		q := (*unsafe.Pointer)(unsafe.Pointer(uintptr(array) + 1*unsafe.Sizeof(array)))
		fmt.Println(*(*int)(atomic.LoadPointer(p)), atomic.LoadPointer(q) == nil)
	},
	"linkname": func() { // the runtime's random numbers and clock pulled by linkname (puzpuzpuz/xsync)
		a, b := runtime_fastrand(), runtime_fastrand()
		n := runtime_cheaprandn(10)
		t0 := runtime_nanotime()
		s0, ns0, _ := time_now()
		time.Sleep(time.Millisecond)
		s1, ns1, _ := time_now()
		fmt.Println(a != b, n < 10, runtime_nanotime()-t0 >= int64(time.Millisecond), (s1-s0)*1e9+int64(ns1-ns0) >= int64(time.Millisecond))
	},
	"pagesize": func() { fmt.Println(os.Getpagesize()) }, // a constant of the machine, not the OS boundary (ristretto)
	"gc-forced": func() { // collections forced by runtime.GC are counted (rcrowley/go-metrics)
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		n0 := m.NumGC
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		var s debug.GCStats
		debug.ReadGCStats(&s)
		fmt.Println(m.NumGC-n0, m.NumForcedGC >= 2, m.LastGC > 0, s.NumGC >= 2, len(s.Pause) >= 2, s.LastGC.UnixNano() == int64(m.LastGC))
	},
	"bits-carry": func() { // math/bits' intrinsics, natives (math/big's word loops)
		s, c := bits.Add(^uint(0), 1, 1)
		s64, c64 := bits.Add64(1<<63, 1<<63, 0)
		d, b := bits.Sub(0, 1, 1)
		d64, b64 := bits.Sub64(5, 3, 1)
		hi, lo := bits.Mul(^uint(0), ^uint(0))
		hi64, lo64 := bits.Mul64(1<<40, 1<<40)
		fmt.Println(s, c, s64, c64, d, b, d64, b64, hi, lo, hi64, lo64)
		fmt.Println(bits.Len(0), bits.Len(255), bits.Len64(1<<40), bits.LeadingZeros(1), bits.LeadingZeros64(0),
			bits.TrailingZeros(0), bits.TrailingZeros64(1<<17))
		x, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
		fmt.Println(new(big.Int).Exp(x, big.NewInt(3), nil), new(big.Int).Sub(new(big.Int).Mul(x, x), x))
	},
	"signal-string": func() { // go.uber.org/fx prints the signal that stopped an app
		var s os.Signal = syscall.SIGTERM
		fmt.Println(s, syscall.Signal(2), syscall.Signal(99), s.String() == syscall.SIGTERM.String())
	},
	"gc-counts": func() { // pauses and allocation counts a metrics library reports (armon/go-metrics' test wants them > 100)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		var s debug.GCStats
		debug.ReadGCStats(&s)
		fmt.Println(m.PauseTotalNs > 100, m.PauseNs[(m.NumGC+255)%256] > 100, s.PauseTotal > 100, s.Pause[0] > 100, m.Mallocs > 100, m.Mallocs >= m.Frees, m.TotalAlloc >= m.HeapAlloc)
	},
	"gcstats": func() { // before the first collection, and without cgo calls (rcrowley/go-metrics)
		var s debug.GCStats
		s.PauseQuantiles = make([]time.Duration, 5)
		s.PauseQuantiles[2] = 7
		debug.ReadGCStats(&s)
		fmt.Println(s.NumGC, s.PauseTotal, len(s.Pause), len(s.PauseEnd), s.PauseQuantiles, s.LastGC.Unix(), runtime.NumCgoCall())
	},
	"sleep-measured": func() { // a goroutine woken by a timer reads a later time (retry-go's tests)
		start := time.Now()
		<-time.After(200 * time.Millisecond)
		time.Sleep(200 * time.Millisecond)
		d := time.Since(start)
		fmt.Println(d > 400*time.Millisecond, d < 401*time.Millisecond)
	},
	"time-source": func() { // package time interpreted from its source
		d := time.Date(2021, 6, 17, 9, 10, 0, 0, time.UTC)
		fmt.Println(d, d.Unix(), d.Year(), d.Weekday(), d.AddDate(0, 1, 0).Format(time.RFC3339))
		f := time.Date(2262, 12, 31, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
		fmt.Println(f.Year(), time.Date(1678, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0).Year())
		u := time.Unix(1700000000, 5).UTC()
		fmt.Println(u, u.Compare(d), d.Compare(u), u.Compare(u), time.UnixMilli(5).UTC().Nanosecond())
		fmt.Println(time.Duration(1500)*time.Millisecond, (90 * time.Second).Round(time.Minute), time.Time{}.IsZero(), time.Unix(0, 0).IsZero())
		start := time.Now()
		time.Sleep(time.Second)
		el := time.Since(start)
		fmt.Println(el >= time.Second, el < 2*time.Second, time.Now().After(start), time.Until(start) < 0)
		tm := time.NewTimer(time.Minute)
		v := <-tm.C
		fmt.Println(v.Sub(start) >= time.Minute, v.Location(), time.Now().Local().Location())
		p, err := time.Parse("2006-01-02 15:04", "2024-02-29 13:45")
		fmt.Println(p, err, p.Truncate(time.Hour))
	},
	"bigint-crc32": func() { // math/big (pure Go) and hash/crc32 from source
		a := big.NewInt(math.MaxInt64)
		b := new(big.Int).Mul(a, a)
		c, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
		fmt.Println(b, b.String(), c.Add(c, a), b.Cmp(c), new(big.Int).Exp(big.NewInt(2), big.NewInt(100), nil))
		r := new(big.Rat).SetFrac64(1, 3)
		fmt.Println(r, r.FloatString(5), big.NewFloat(1.5).Text('g', 5))
		fmt.Println(crc32.ChecksumIEEE([]byte("hello")), crc32.Checksum([]byte("hello"), crc32.MakeTable(crc32.Castagnoli)))
	},
	"executable": func() {
		exe, err := os.Executable()
		fmt.Println(exe != "", filepath.IsAbs(exe), err)
	},
	"readfile": func() {
		b, err := os.ReadFile("main.go") // the package's directory is the working directory
		fmt.Println(strings.SplitN(string(b), "\n", 2)[0], err)
	},
	"pipe": func() {
		_, _, err := os.Pipe()
		fmt.Println(err)
	},
	"now-monotonic": func() { // time.Now carries a monotonic reading: In and Round(0) drop it
		now := time.Now()
		fmt.Println(now == now.In(time.Local), reflect.DeepEqual(now, now.In(time.Local)), now.Equal(now.In(time.Local)))
		fmt.Println(now == now.Round(0), now.Equal(now.Round(0)), time.Since(now) > 0)
	},
	"now-advances": func() {
		a := time.Now()
		b := time.Now()
		c := time.Since(a)
		fmt.Println(b.After(a), b.Sub(a) > 0, c > b.Sub(a), time.Until(a) < 0)
	},
	"context-leak": func() {
		ctx, cancel := context.WithCancel(context.Background())
		_ = cancel
		go func() {
			select {
			case <-ctx.Done():
			}
		}()
		runtime.Gosched() // main's return is no scheduling point: let it block first
	},
	"unique": func() { // unique.Make interns (natives_unique.go); netip's zones are handles
		a, b, c := unique.Make("x"), unique.Make("x"), unique.Make("y")
		fmt.Println(a == b, a == c, a.Value(), c.Value())
		ip := netip.MustParseAddr("fe80::1%eth0")
		fmt.Println(ip.Zone(), ip == netip.MustParseAddr("fe80::1%eth0"), ip == netip.MustParseAddr("fe80::1%eth1"))
	},
	"from-source": func() { // packages interpreted from their source over the runtime's natives
		seed := maphash.MakeSeed()
		fmt.Println(maphash.String(seed, "a") == maphash.String(seed, "a"))
		fmt.Println(subtle.ConstantTimeCompare([]byte("ab"), []byte("ab")), subtle.ConstantTimeSelect(1, 4, 5), subtle.ConstantTimeByteEq(3, 4))
	},
	"rand-global": func() {
		fmt.Println(rand.Intn(100), rand.Intn(100), randv2.IntN(100))
	},
	// math/rand's global generator is Go's default (runtimeSource): it
	// draws from runtime_rand as math/rand/v2's does
	"rand-global-v1": func() { fmt.Println(rand.Uint64(), rand.Uint64()) },
	"rand-global-v2": func() { fmt.Println(randv2.Uint64(), randv2.Uint64()) },
}

//go:linkname runtime_fastrand runtime.fastrand
func runtime_fastrand() uint32

//go:linkname runtime_cheaprandn runtime.cheaprandn
func runtime_cheaprandn(n uint32) uint32

//go:linkname runtime_nanotime runtime.nanotime
func runtime_nanotime() int64

//go:linkname time_now time.now
func time_now() (sec int64, nsec int32, mono int64)

// recurse never stops.
func recurse(n int) int { return recurse(n+1) + 1 }

// stateStringer's String formats unknown values with %d, as
// sony/gobreaker's State does.
type stateStringer int

func (s stateStringer) String() string {
	if s == 1 {
		return "one"
	}
	return fmt.Sprintf("unknown state: %d", s)
}

// selfStringer's String formats its receiver with %v: fmt calls String
// again, without end.
type selfStringer int

func (s selfStringer) String() string { return fmt.Sprintf("%v", s) }

// errCode is an error whose Error method formats the code with %d.
type errCode int

func (e errCode) Error() string { return fmt.Sprintf("code %d", e) }

func main() {
	if len(os.Args) < 2 || cases[os.Args[1]] == nil {
		fmt.Println("usage: stdlib CASE")
		return
	}
	cases[os.Args[1]]()
}

// roundMs rounds d to the millisecond (clock readings cost a little time).
func roundMs(d time.Duration) time.Duration {
	return (d + time.Millisecond/2) / time.Millisecond * time.Millisecond
}
