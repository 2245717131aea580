// Program stdlibsrc exercises standard-library packages the VM interprets
// from their Go source (regexp, path/filepath, encoding/hex,
// encoding/base64, encoding/binary, encoding/gob, encoding/xml, maps, hash/crc32, crypto/sha256, sha512,
// sha1, md5, testing/iotest, hash/maphash); os.Args[1] names the case.
package main

import (
	"bytes"
	"context"
	"crypto/md5"
	crand "crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/maphash"
	"io"
	"io/fs"
	"log"
	"log/slog"
	"maps"
	"math/big"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing/iotest"
	"time"
	"unicode"
)

func main() {
	switch os.Args[1] {
	case "regexp":
		re := regexp.MustCompile(`(\w+)@(\w+)\.com`)
		fmt.Println(re.FindAllString("a@b.com, x y@zz.com q@r.org", -1))
		fmt.Println(re.FindStringSubmatch("mail bob@ex.com now"))
		fmt.Println(re.ReplaceAllString("bob@ex.com", "$2:$1"), re.MatchString("nope"))
		fmt.Println(regexp.MustCompile(`^a+b*$`).MatchString("aaabb"), regexp.QuoteMeta("a.b*c"))
		_, err := regexp.Compile(`a(b`)
		fmt.Println(err)
	case "slog": // log/slog from its source: handlers, attributes, groups, levels, the default logger
		noTime := func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
		log.SetFlags(0)
		log.SetOutput(os.Stdout)
		slog.Info("through package log", "k", 1) // the default handler
		l := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: noTime, Level: slog.LevelDebug}))
		l.Info("hello", "n", 3, slog.Group("g", "k", "v q"), "err", errors.New("boom"))
		l.With("req", 7).WithGroup("sub").Debug("dbg", "ok", true)
		j := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: noTime}))
		j.Warn("w", "xs", []int{1, 2}, "m", map[string]int{"a": 1})
		j.Debug("hidden")
		slog.SetDefault(l)
		slog.Error("via default", "d", 1500*time.Millisecond)
		fmt.Println(slog.Default().Enabled(context.Background(), slog.LevelInfo), slog.LevelWarn)
	case "regexp-must-panic":
		regexp.MustCompile(`x[`)
	case "filepath":
		fmt.Println(filepath.Join("a", "b", "../c"), filepath.Base("/x/y.go"), filepath.Ext("y.tar.gz"))
		fmt.Println(filepath.Dir("/x/y/z"), filepath.Clean("a//b/./c/.."), filepath.IsAbs("/a"))
		m, err := filepath.Match("*.go", "main.go")
		r, _ := filepath.Rel("/a/b", "/a/c/d")
		fmt.Println(m, err, r, path.Join("p", "q"), filepath.SplitList("a:b"))
	case "hashes":
		h := sha256.New()
		h.Write([]byte("ab"))
		h.Write([]byte("c"))
		fmt.Printf("%x\n%x\n", sha256.Sum256([]byte("abc")), h.Sum(nil))
		s5 := sha512.Sum512([]byte("abc"))
		fmt.Printf("%x\n%x %x\n", s5[:8], sha1.Sum([]byte("abc")), md5.Sum([]byte("abc")))
	case "unicode":
		fmt.Println(unicode.IsUpper('Q'), unicode.IsLetter('é'), unicode.IsDigit('٣'), unicode.IsSpace('\u00a0'))
		fmt.Println(string(unicode.ToUpper('ß')), string(unicode.ToLower('Σ')), unicode.Is(unicode.Han, '世'))
	case "gob":
		type inner struct {
			N    int
			Tags []string
		}
		type rec struct {
			Name string
			M    map[string]int
			P    *inner
			Any  any
			F    float64
			skip int
		}
		gob.Register(inner{})
		var buf bytes.Buffer
		in := rec{Name: "x", M: map[string]int{"a": 1, "b": 2}, P: &inner{7, []string{"p", "q"}}, Any: inner{N: 3}, F: 2.5, skip: 9}
		if err := gob.NewEncoder(&buf).Encode(in); err != nil {
			fmt.Println("encode:", err)
		}
		var out rec
		err := gob.NewDecoder(&buf).Decode(&out)
		fmt.Println(err, out.Name, out.M["a"], out.M["b"], len(out.M), *out.P, out.Any, out.F, out.skip)
		err = gob.NewEncoder(&buf).Encode(make(chan int))
		fmt.Println(err)
		c := maps.Clone(in.M)
		c["z"] = 26
		fmt.Println(len(in.M), len(c), slices.Sorted(maps.Keys(c)), maps.Clone(map[int]int(nil)) == nil)
	case "xml":
		type item struct {
			XMLName xml.Name `xml:"item"`
			ID      int      `xml:"id,attr"`
			Name    string   `xml:"name"`
			Tags    []string `xml:"tag"`
		}
		b, err := xml.Marshal(item{ID: 3, Name: "a<b", Tags: []string{"x", "y"}})
		fmt.Println(string(b), err)
		var back item
		err = xml.Unmarshal(b, &back)
		fmt.Println(back.ID, back.Name, back.Tags, err)
		fmt.Println(xml.Unmarshal([]byte("<item><name>"), &back))
		fmt.Println(unicode.Is(unicode.Han, '世'), unicode.In('é', unicode.Latin, unicode.Greek), unicode.IsOneOf([]*unicode.RangeTable{unicode.Greek}, 'x'))
	case "oserrors":
		var e multiErr
		e = append(e, errors.New("x"), os.ErrClosed)
		fmt.Println(errors.Is(e, os.ErrClosed), errors.Is(e, os.ErrNotExist), os.ErrNotExist == fs.ErrNotExist)
		fmt.Println(os.ErrClosed, os.ErrInvalid, os.ErrPermission, os.ErrExist)
	case "cryptorand":
		max := big.NewInt(1000)
		n, err := crand.Int(crand.Reader, max)
		m, err2 := crand.Int(crand.Reader, max)
		b := make([]byte, 16)
		k, err3 := crand.Read(b)
		fmt.Println(n.Sign() >= 0 && n.Cmp(max) < 0, m.Sign() >= 0 && m.Cmp(max) < 0, err, err2)
		fmt.Println(k, err3, !bytes.Equal(b, make([]byte, 16)))
	case "iotest": // testing/iotest from its source (oklog/ulid's TestEntropyRead)
		b := make([]byte, 10)
		n, err := iotest.HalfReader(strings.NewReader("0123456789")).Read(b)
		fmt.Println(n, err, string(b[:n]))
		all, err := io.ReadAll(iotest.OneByteReader(strings.NewReader("abc")))
		fmt.Println(string(all), err)
		r := iotest.DataErrReader(strings.NewReader("xy"))
		n, err = r.Read(b)
		fmt.Println(n, err)
		_, err = iotest.ErrReader(errors.New("boom")).Read(b)
		fmt.Println(err, iotest.TestReader(strings.NewReader("some content"), []byte("some content")))
		_, err = io.ReadAll(iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("ab"))))
		fmt.Println(err == iotest.ErrTimeout)
	case "maphash": // hash/maphash from its source (purego: reflect and crypto/rand); puzpuzpuz/xsync/v4
		seed := maphash.MakeSeed()
		type key struct {
			a string
			b int
		}
		h1, h2 := maphash.Comparable(seed, key{"x", 1}), maphash.Comparable(seed, key{"x", 1})
		h3 := maphash.Comparable(seed, key{"x", 2})
		fmt.Println(h1 == h2, h1 != h3, maphash.String(seed, "abc") == maphash.Bytes(seed, []byte("abc")))
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString("ab")
		h.WriteByte('c')
		fmt.Println(h.Sum64() == maphash.String(seed, "abc"), maphash.String(maphash.MakeSeed(), "abc") != maphash.String(seed, "abc"))
		var w maphash.Hash
		w.SetSeed(seed)
		maphash.WriteComparable(&w, "k")
		fmt.Println(w.Sum64() == maphash.Comparable(seed, "k"), maphash.Comparable(seed, any(3)) == maphash.Comparable(seed, any(3)))
	case "encodings":
		fmt.Println(hex.EncodeToString([]byte("Go!")), base64.StdEncoding.EncodeToString([]byte("hi!")))
		d, err := hex.DecodeString("4a4b")
		u, _ := base64.URLEncoding.DecodeString("aGkh")
		fmt.Println(string(d), err, string(u))
		b := binary.BigEndian.AppendUint32(nil, 0x01020304)
		fmt.Println(b, binary.LittleEndian.Uint16([]byte{1, 2}), binary.PutUvarint(make([]byte, 10), 300))
		fmt.Printf("%08x %08x\n", crc32.ChecksumIEEE([]byte("hello")), crc32.Checksum([]byte("hello"), crc32.MakeTable(crc32.Castagnoli)))
		_, err = hex.DecodeString("zz")
		fmt.Println(err)
	}
}

// multiErr is an error list with an Is method (retry-go's Error).
type multiErr []error

func (e multiErr) Error() string { return "multi" }

func (e multiErr) Is(target error) bool {
	for _, v := range e {
		if errors.Is(v, target) {
			return true
		}
	}
	return false
}
