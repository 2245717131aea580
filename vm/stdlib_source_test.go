package vm_test

import (
	"sync"
	"testing"

	"github.com/gmc-go/gmc/vm/load"
)

// stdlibSourceCases are the cases of testdata/stdlibsrc with the output of
// the program built by Go, or, for a panicking case, the first line Go
// prints. These packages have no natives: the VM runs their Go source.
var stdlibSourceCases = []stdlibCase{
	{"regexp", "[a@b.com y@zz.com]\n[bob@ex.com bob ex]\nex:bob false\ntrue a\\.b\\*c\n" +
		"error parsing regexp: missing closing ): `a(b`\n", ""},
	{"regexp-must-panic", "", "panic: regexp: Compile(`x[`): error parsing regexp: missing closing ]: `[`"},
	{"filepath", "a/c y.go .gz\n/x/y a/b true\ntrue <nil> ../c/d p/q [a b]\n", ""},
	{"hashes", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n" +
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\nddaf35a193617aba\n" +
		"a9993e364706816aba3e25717850c26c9cd0d89d 900150983cd24fb0d6963f7d28e17f72\n", ""},
	{"encodings", "476f21 aGkh\nJK <nil> hi!\n[1 2 3 4] 513 2\n3610a686 9a71bb4c\n" +
		"encoding/hex: invalid byte: U+007A 'z'\n", ""},
	{"oserrors", "true false true\nfile already closed invalid argument permission denied file already exists\n", ""},
	{"cryptorand", "true true <nil> <nil>\n16 <nil> true\n", ""},
	{"unicode", "true true true true\n\u00df \u03c3 true\n", ""},
	{"xml", "<item id=\"3\"><name>a&lt;b</name><tag>x</tag><tag>y</tag></item> <nil>\n3 a<b [x y] <nil>\n" +
		"XML syntax error on line 1: unexpected EOF\ntrue true false\n", ""},
	{"slog", "INFO through package log k=1\nlevel=INFO msg=hello n=3 g.k=\"v q\" err=boom\nlevel=DEBUG msg=dbg req=7 sub.ok=true\n" +
		"{\"level\":\"WARN\",\"msg\":\"w\",\"xs\":[1,2],\"m\":{\"a\":1}}\nlevel=ERROR msg=\"via default\" d=1.5s\ntrue WARN\n", ""},
	{"iotest", "5 <nil> 01234\nabc <nil>\n2 EOF\nboom <nil>\ntrue\n", ""},
	{"maphash", "true true true\ntrue true\ntrue true\n", ""},
	{"gob", "<nil> x 1 2 2 {7 [p q]} {3 []} 2.5 0\ngob NewTypeObject can't handle type: chan int\n2 3 [a b z] true\n", ""},
}

var stdlibSourceProg = sync.OnceValues(func() (*load.Program, error) {
	return load.Load(load.Config{Dir: "testdata/stdlibsrc"})
})

// TestStdlibFromSource: regexp, path/filepath, encoding/hex,
// encoding/base64, encoding/binary, encoding/gob (maps.clone is a native), encoding/xml, unicode, os's
// error variables (those of io/fs, set by natives_os.go's os.init),
// crypto/rand.Int over the deterministic crypto/rand.Reader,
// hash/crc32 and crypto/sha256, sha512, sha1 and md5 (purego),
// testing/iotest, hash/maphash (internal/abi.EscapeNonString is the
// identity: its body panics "intrinsic"), log/slog (its default handler writing through package log's model), interpreted from their source, print what Go prints and panic as Go panics.
func TestStdlibFromSource(t *testing.T) {
	prog, err := stdlibSourceProg()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"regexp", "regexp/syntax", "path/filepath", "hash/crc32", "crypto/sha256", "encoding/gob", "encoding/xml", "log/slog", "testing/iotest", "hash/maphash"} {
		if !prog.Interpreted(pkg) {
			t.Errorf("%s is not interpreted", pkg)
		}
	}
	for _, c := range stdlibSourceCases {
		t.Run(c.name, func(t *testing.T) { checkStdlibCase(t, prog, c) })
	}
}
