package stdlibprobe

import (
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

func TestCRC32(t *testing.T) {
	if c := crc32.ChecksumIEEE([]byte("hello")); c != 0x3610a686 {
		t.Fatal(c)
	}
}

func TestBase64Binary(t *testing.T) {
	if s := base64.StdEncoding.EncodeToString([]byte("hi!")); s != "aGkh" {
		t.Fatal(s)
	}
	b := binary.BigEndian.AppendUint32(nil, 0x01020304)
	if b[0] != 1 || binary.LittleEndian.Uint16([]byte{1, 2}) != 0x201 {
		t.Fatal(b)
	}
}
