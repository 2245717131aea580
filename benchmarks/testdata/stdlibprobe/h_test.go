package stdlibprobe

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha512"
	"testing"
)

func TestHashes(t *testing.T) {
	_ = sha512.Sum512([]byte("abc"))
	_ = sha1.Sum([]byte("abc"))
	_ = md5.Sum([]byte("abc"))
}
