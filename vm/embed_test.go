package vm_test

import "testing"

// TestEmbed: //go:embed variables hold what the go command embeds — a
// string, a []byte, an embed.FS over a directory (names starting with "."
// or "_" left out unless the pattern says all:) — and package embed runs
// from its source over them; the output is go run's (want.txt).
func TestEmbed(t *testing.T) { checkGoRunOutput(t, "testdata/embed") }
