package stdlibprobe

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

type P struct {
	Name string `json:"name"`
	Age  int    `json:"age,omitempty"`
	Tags []string
}

func TestJSON(t *testing.T) {
	b, err := json.Marshal(P{Name: "a", Age: 3, Tags: []string{"x"}})
	if err != nil || string(b) != `{"name":"a","age":3,"Tags":["x"]}` {
		t.Fatalf("%s %v", b, err)
	}
	var p P
	if err := json.Unmarshal(b, &p); err != nil || p.Name != "a" || p.Age != 3 || len(p.Tags) != 1 {
		t.Fatalf("%+v %v", p, err)
	}
	m := map[string]int{}
	if err := json.Unmarshal([]byte(`{"a":1,"b":2}`), &m); err != nil || m["b"] != 2 {
		t.Fatal(m, err)
	}
}

func TestRegexp(t *testing.T) {
	re := regexp.MustCompile(`a+b`)
	got := re.FindAllString("aab xab ab", -1)
	if len(got) != 3 || got[0] != "aab" {
		t.Fatal(got)
	}
}

func TestFilepath(t *testing.T) {
	d := t.TempDir()
	if err := os.WriteFile(filepath.Join(d, "a.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.Walk(d, func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			n++
		}
		return nil
	})
	if n != 1 {
		t.Fatal(n)
	}
}

func TestFilepathJoin(t *testing.T) {
	if filepath.Join("a", "b", "../c") != "a/c" {
		t.Fatal(filepath.Join("a", "b", "../c"))
	}
}

func TestSHA256(t *testing.T) {
	s := sha256.Sum256([]byte("abc"))
	if hex.EncodeToString(s[:]) != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatal(hex.EncodeToString(s[:]))
	}
}

func TestStrconv(t *testing.T) {
	n, err := strconv.Atoi("42")
	f, _ := strconv.ParseFloat("1.5", 64)
	if n != 42 || err != nil || f != 1.5 || strconv.Quote("a\n") != `"a\n"` {
		t.Fatal(n, err, f)
	}
}

func TestFmtStruct(t *testing.T) {
	s := fmt.Sprintf("%v %+v", P{Name: "a", Age: 1}, P{Name: "b"})
	if s != "{a 1 []} {Name:b Age:0 Tags:[]}" {
		t.Fatal(s)
	}
}

func TestSortSlice(t *testing.T) {
	x := []int{3, 1, 2}
	sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
	if x[0] != 1 || x[2] != 3 {
		t.Fatal(x)
	}
}

func TestBuilder(t *testing.T) {
	var b strings.Builder
	b.WriteString("a")
	b.WriteByte('b')
	fmt.Fprintf(&b, "%d", 3)
	if b.String() != "ab3" {
		t.Fatal(b.String())
	}
}

func TestOSFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("hello"))
	f.Close()
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "hello" {
		t.Fatal(string(b), err)
	}
}

func TestBuffer(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("xy")
	b.WriteByte('z')
	if b.String() != "xyz" || b.Len() != 3 {
		t.Fatal(b.String())
	}
}

type myErr struct{ code int }

func (e *myErr) Error() string { return "code " + strconv.Itoa(e.code) }

var errBase = errors.New("base")

func TestErrors(t *testing.T) {
	e := fmt.Errorf("wrap: %w", errBase)
	if !errors.Is(e, errBase) {
		t.Fatal("is")
	}
	var me *myErr
	e2 := fmt.Errorf("w: %w", &myErr{7})
	if !errors.As(e2, &me) || me.code != 7 {
		t.Fatal("as")
	}
}

func TestTimeFormat(t *testing.T) {
	tm := time.Date(2024, 3, 5, 10, 4, 5, 0, time.UTC)
	if s := tm.Format(time.RFC3339); s != "2024-03-05T10:04:05Z" {
		t.Fatal(s)
	}
	if d := (90 * time.Second).String(); d != "1m30s" {
		t.Fatal(d)
	}
}
